/* Child processes: finding tools, running them, naming them. */
#include "common/proc.h"
#include "common/interrupt.h"
#include "common/msg.h"
#include "common/str.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

const char *lab_tool_path(const char *name, char *buf, size_t size)
{
    static const char *const dirs[] = {"/usr/sbin", "/sbin", "/usr/bin", "/bin"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(buf, size, "%s/%s", dirs[i], name);
        if (access(buf, X_OK) == 0)
            return buf;
    }
    return name;
}

/* The child side of both spawns: the log, then argv[0]. A group child
 * leads its own process group, reads /dev/null and dies with the lab; a
 * plain one ignores SIGINT (the lab decides when it stops). */
static void spawn_child(char *const argv[], const char *log_path, int group, pid_t parent)
{
    if (group) {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent)
            _exit(130); /* the lab died before the line above */
        int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (null >= 0)
            dup2(null, 0);
    }
    if (log_path) {
        int fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
    }
    signal(SIGINT, group ? SIG_DFL : SIG_IGN);
    if (group)
        signal(SIGTERM, SIG_DFL);
    execvp(argv[0], argv);
    fprintf(stderr, "lab: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

static int spawn_wait(char *const argv[], const char *log_path, int group)
{
    int status;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0)
        return lab_error("fork: %s", strerror(errno));
    if (pid == 0)
        spawn_child(argv, log_path, group, parent);
    if (group)
        setpgid(pid, pid); /* either side may run first */
    int stopped = 0;
    for (;;) {
        if (group && lab_interrupted && !stopped) {
            killpg(pid, SIGTERM);
            stopped = 1;
        }
        if (waitpid(pid, &status, 0) >= 0)
            break;
        if (errno != EINTR)
            return lab_error("waitpid: %s", strerror(errno));
    }
    if (stopped) {
        killpg(pid, SIGKILL); /* what outlived its leader */
        return lab_error("%s stopped: interrupted by signal %d", argv[0], lab_interrupted);
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return lab_error("%s died of signal %d", argv[0], WTERMSIG(status));
}

int lab_spawn_wait(char *const argv[], const char *log_path)
{
    return spawn_wait(argv, log_path, 0);
}

int lab_spawn_wait_group(char *const argv[], const char *log_path)
{
    return spawn_wait(argv, log_path, 1);
}

/* The grandchild's exec failure, if any, comes back over a close-on-exec
 * pipe: EOF means it is running argv[0]. */
int lab_spawn_daemon(char *const argv[])
{
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) < 0)
        return lab_error("pipe: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0) {
        close(pipefd[0]);
        close(pipefd[1]);
        return lab_error("fork: %s", strerror(errno));
    }
    if (pid == 0) {
        setsid();
        if (fork() != 0)
            _exit(0); /* the daemon is reparented away from the lab */
        int null = open("/dev/null", O_RDWR);
        for (int fd = 0; fd < 3; fd++)
            dup2(null, fd);
        for (int fd = 3; fd < 1024; fd++)
            if (fd != pipefd[1])
                close(fd);
        signal(SIGINT, SIG_DFL);
        execvp(argv[0], argv);
        int err = errno;
        if (write(pipefd[1], &err, sizeof err) < 0) {
        }
        _exit(127);
    }
    close(pipefd[1]);
    int status, err = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    ssize_t n;
    while ((n = read(pipefd[0], &err, sizeof err)) < 0 && errno == EINTR) {
    }
    close(pipefd[0]);
    if (n == (ssize_t)sizeof err)
        return lab_error("cannot run %s: %s", argv[0], strerror(err));
    return 0;
}

uint64_t lab_proc_start(long pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* The command name (field 2) may hold spaces and ')': fields count from
     * the last ')'. starttime is the 20th field after it. */
    char *p = strrchr(buf, ')');
    unsigned long long start = 0;
    if (!p || sscanf(p + 1,
                     " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d "
                     "%*d %*d %llu",
                     &start) != 1)
        return 0;
    return start;
}

char *lab_capture(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    size_t cap = 8192, len = 0, n;
    char *buf = lab_xcalloc(cap, 1);
    while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
        len += n;
        if (len + 1 == cap) {
            char *b = realloc(buf, cap * 2);
            if (!b)
                abort();
            buf = b;
            cap *= 2;
        }
    }
    buf[len] = '\0';
    int st = pclose(p);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}
