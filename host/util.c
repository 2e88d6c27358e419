/* Small shared helpers: messages, paths, files and child processes. */
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int lab_verbose;
volatile int lab_interrupted;
void (*lab_message_hook)(void);

static void vmessage(const char *level, const char *fmt, va_list ap)
{
    if (lab_message_hook)
        lab_message_hook();
    fprintf(stderr, "lab: %s", level);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int lab_fail_into(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int lab_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage("error: ", fmt, ap);
    va_end(ap);
    return -1;
}

void lab_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage("warning: ", fmt, ap);
    va_end(ap);
}

void lab_info(const char *fmt, ...)
{
    va_list ap;
    if (!lab_verbose)
        return;
    va_start(ap, fmt);
    vmessage("", fmt, ap);
    va_end(ap);
}

const char *lab_home(void)
{
    static char *home;
    const char *env = getenv("LAB_HOME");
    if (home)
        return home;
    if (env && *env)
        home = lab_xstrdup(env);
    else if (geteuid() == 0)
        home = lab_xstrdup("/var/cache/lab");
    else
        home = lab_asprintf("%s/.cache/lab", getenv("HOME") ? getenv("HOME") : "/tmp");
    return home;
}

const char *lab_run_root(void)
{
    static char *root;
    const char *env = getenv("LAB_RUN_DIR");
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    if (root)
        return root;
    if (env && *env)
        root = lab_xstrdup(env);
    else if (geteuid() == 0)
        root = lab_xstrdup("/run/lab");
    else
        root = lab_asprintf("%s/lab", xdg && *xdg ? xdg : "/tmp");
    return root;
}

char *lab_asprintf(const char *fmt, ...)
{
    va_list ap;
    char *s;
    va_start(ap, fmt);
    if (vasprintf(&s, fmt, ap) < 0)
        abort();
    va_end(ap);
    return s;
}

void *lab_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        abort();
    return p;
}

char *lab_xstrdup(const char *s)
{
    char *p = strdup(s);
    if (!p)
        abort();
    return p;
}

int lab_mkdir_p(const char *path, unsigned mode)
{
    char *p = lab_xstrdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, mode) < 0 && errno != EEXIST) {
            int e = errno;
            free(p);
            return lab_error("cannot create %s: %s", path, strerror(e));
        }
        *s = '/';
    }
    if (mkdir(p, mode) < 0 && errno != EEXIST) {
        free(p);
        return lab_error("cannot create %s: %s", path, strerror(errno));
    }
    free(p);
    return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove(path);
}

int lab_rm_rf(const char *path)
{
    if (access(path, F_OK) < 0)
        return 0;
    return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int lab_file_exists(const char *path)
{
    return access(path, F_OK) == 0;
}

char *lab_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;
    if (!f)
        return NULL;
    for (;;) {
        if (n + 65536 + 1 > cap) {
            cap = (cap ? cap * 2 : 65536) + 65537;
            char *nb = realloc(buf, cap);
            if (!nb)
                abort();
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

int lab_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return lab_error("cannot write %s: %s", path, strerror(errno));
    if (fwrite(data, 1, len, f) != len || fclose(f) != 0)
        return lab_error("cannot write %s: %s", path, strerror(errno));
    return 0;
}

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

int lab_spawn_wait(char *const argv[], const char *log_path)
{
    int status;
    pid_t pid = fork();
    if (pid < 0)
        return lab_error("fork: %s", strerror(errno));
    if (pid == 0) {
        if (log_path) {
            int fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
            if (fd >= 0) {
                dup2(fd, 1);
                dup2(fd, 2);
            }
        }
        signal(SIGINT, SIG_IGN); /* the lab decides when children stop */
        execvp(argv[0], argv);
        fprintf(stderr, "lab: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return lab_error("waitpid: %s", strerror(errno));
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return lab_error("%s died of signal %d", argv[0], WTERMSIG(status));
}

int64_t lab_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t lab_wall_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void on_signal(int sig)
{
    lab_interrupted = sig;
}

void lab_install_signal_handlers(void)
{
    struct sigaction sa = {0};
    sa.sa_handler = on_signal; /* no SA_RESTART: blocking calls return EINTR */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}
