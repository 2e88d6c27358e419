/* nbdkit processes for the data disks. */
#include "host/cell/nbd.h"
#include "host/cell/rt.h"
#include "common/datadir.h"
#include "common/file.h"
#include "common/interrupt.h"
#include "common/msg.h"
#include "common/str.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

const char *lab_hdd_filter_path(void)
{
    static char *path;
    const char *env = getenv("LAB_HDD_FILTER");
    if (!path)
        path = env && *env ? lab_xstrdup(env)
                           : lab_asprintf("%s/nbdkit-hdd-filter.so", lab_data_dir(LAB_DATA_BUILT));
    return path;
}

static int can_connect(const char *socket_path)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), ok;
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", socket_path);
    ok = fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
    if (fd >= 0)
        close(fd);
    return ok;
}

static void exec_nbdkit(const struct lab_nbd_spec *s)
{
    char *argv[16];
    int n = 0;
    char *filter = s->filter ? lab_asprintf("--filter=%s", s->filter) : NULL;
    char *profile = s->profile ? lab_asprintf("profile=%s", s->profile) : NULL;
    char *trace = s->trace ? lab_asprintf("trace=%s", s->trace) : NULL;
    char *stats = s->stats && s->filter ? lab_asprintf("stats=%s", s->stats) : NULL;

    argv[n++] = "nbdkit";
    argv[n++] = "--exit-with-parent"; /* a killed lab leaves no nbdkit behind */
    argv[n++] = "--foreground";
    argv[n++] = "--unix";
    argv[n++] = (char *)s->socket;
    if (filter)
        argv[n++] = filter;
    argv[n++] = "--filter=cow";
    argv[n++] = "file";
    argv[n++] = (char *)s->image;
    if (profile)
        argv[n++] = profile;
    if (trace)
        argv[n++] = trace;
    if (stats)
        argv[n++] = stats;
    argv[n] = NULL;

    int fd = open(s->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
    }
    signal(SIGINT, SIG_IGN); /* the lab stops it during teardown */
    /* Set before exec, so every thread nbdkit starts inherits it. */
    if (s->pin_cpu) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(s->pin_cpu - 1, &set);
        sched_setaffinity(0, sizeof set, &set);
    }
    if (s->rt_priority && lab_rt_self(s->rt_priority) < 0)
        fprintf(stderr, "lab: nbdkit runs without SCHED_FIFO %d: %s\n", s->rt_priority,
                strerror(errno));
    execvp(argv[0], argv);
    fprintf(stderr, "cannot run nbdkit: %s\n", strerror(errno));
    _exit(127);
}

static char *log_tail(const char *path)
{
    size_t len;
    char *text = lab_read_file(path, &len);
    if (!text)
        return lab_xstrdup("(no log)");
    char *start = len > 400 ? text + len - 400 : text;
    char *out = lab_xstrdup(start);
    for (char *p = out; *p; p++)
        if (*p == '\n')
            *p = ' ';
    free(text);
    return out;
}

int lab_nbd_start(const struct lab_nbd_spec *spec, struct lab_nbd *out)
{
    memset(out, 0, sizeof *out);
    unlink(spec->socket);
    pid_t pid = fork();
    if (pid < 0)
        return lab_error("fork: %s", strerror(errno));
    if (pid == 0)
        exec_nbdkit(spec);
    out->pid = pid;
    out->socket = lab_xstrdup(spec->socket);
    out->log = lab_xstrdup(spec->log);
    for (int i = 0; i < 500; i++) {
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            out->pid = 0;
            char *tail = log_tail(spec->log);
            lab_error("nbdkit exited before serving %s: %s", spec->image, tail);
            free(tail);
            lab_nbd_stop(out);
            return -1;
        }
        if (can_connect(spec->socket)) {
            /* nbdkit makes the socket 0755 whatever the umask; QEMU runs as
             * another user and needs write permission to connect. */
            if (chmod(spec->socket, 0666) < 0) {
                lab_nbd_stop(out);
                return lab_error("chmod %s: %s", spec->socket, strerror(errno));
            }
            return 0;
        }
        if (lab_interrupted) {
            lab_nbd_stop(out);
            return -1; /* not nbdkit's fault: the caller reports the interruption */
        }
        usleep(20 * 1000);
    }
    lab_nbd_stop(out);
    return lab_error("nbdkit did not open %s within 10 s", spec->socket);
}

int lab_nbd_exited(struct lab_nbd *nbd, char *how, size_t len)
{
    int status;
    if (nbd->pid <= 0 || waitpid(nbd->pid, &status, WNOHANG) != nbd->pid)
        return 0;
    nbd->pid = 0; /* reaped: lab_nbd_stop only removes the socket */
    if (WIFSIGNALED(status))
        snprintf(how, len, "was killed by signal %d", WTERMSIG(status));
    else
        snprintf(how, len, "exited with status %d", WEXITSTATUS(status));
    return 1;
}

void lab_nbd_stop(struct lab_nbd *nbd)
{
    if (nbd->pid > 0) {
        int status;
        kill(nbd->pid, SIGTERM);
        /* nbdkit ends within a few ms of SIGTERM: polled every 5 ms (a
         * 100 ms poll was a tenth of a second of every cell), 5 s at most. */
        for (int i = 0; i < 1000; i++) {
            if (waitpid(nbd->pid, &status, WNOHANG) == nbd->pid) {
                nbd->pid = 0;
                break;
            }
            usleep(5 * 1000);
        }
        if (nbd->pid > 0) {
            kill(nbd->pid, SIGKILL);
            waitpid(nbd->pid, &status, 0);
        }
        nbd->pid = 0;
    }
    if (nbd->socket)
        unlink(nbd->socket);
    free(nbd->socket);
    free(nbd->log);
    nbd->socket = nbd->log = NULL;
}
