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

char *lab_escape(const char *s, char *out, size_t size)
{
    size_t w = 0;
    if (size == 0)
        return out;
    for (const unsigned char *p = (const unsigned char *)s; *p && w + 1 < size; p++) {
        if (*p >= 0x20 && *p < 0x7f) {
            out[w++] = (char)*p;
        } else if (w + 4 < size) {
            snprintf(out + w, size - w, "\\x%02x", *p);
            w += 4;
        } else {
            break;
        }
    }
    out[w] = '\0';
    return out;
}

/* Every message is one line of printable text: whatever a message quotes
 * (a guest's record, its console, a file's line) is escaped here, the one
 * place all of them pass. */
static void vmessage(const char *level, const char *fmt, va_list ap)
{
    char *text, *safe;
    if (lab_message_hook)
        lab_message_hook();
    if (vasprintf(&text, fmt, ap) < 0)
        abort();
    size_t size = 4 * strlen(text) + 1;
    safe = malloc(size);
    if (!safe)
        abort();
    fprintf(stderr, "lab: %s%s\n", level, lab_escape(text, safe, size));
    free(safe);
    free(text);
}

char *lab_keep_copy(const char *src, const char *dir, const char *name)
{
    size_t len;
    char *text = lab_read_file(src, &len), *dst = NULL;
    if (text && lab_mkdir_p(dir, 0755) == 0) {
        dst = lab_asprintf("%s/%s", dir, name);
        if (lab_write_file(dst, text, len) < 0) {
            free(dst);
            dst = NULL;
        }
    }
    free(text);
    return dst;
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

/* 1 if path is a directory (not a symlink) of ours that nobody else may
 * enter: a name in /tmp anyone could have made first. */
static int private_dir(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
           (st.st_mode & 077) == 0;
}

/* A non-root user without XDG_RUNTIME_DIR: /tmp/lab-UID, made 0700 and
 * checked to be ours; if another user made that name first, a fresh
 * private directory instead (this process's cells then cannot be swept by
 * a later lab, which is the lesser harm). */
static char *private_tmp_root(void)
{
    char *root = lab_asprintf("/tmp/lab-%ld", (long)geteuid());
    mkdir(root, 0700);
    if (private_dir(root))
        return root;
    lab_warn("%s is not a private directory of this user; using a new one", root);
    free(root);
    root = lab_asprintf("/tmp/lab-%ld-XXXXXX", (long)geteuid());
    if (!mkdtemp(root))
        abort(); /* /tmp unusable: nothing sensible left to do */
    return root;
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
    else if (xdg && *xdg)
        root = lab_asprintf("%s/lab", xdg); /* the session's own, already private */
    else
        root = private_tmp_root();
    return root;
}

char *lab_run_log_dir(int64_t run)
{
    return lab_asprintf("%s/logs/run-%lld", lab_home(), (long long)run);
}

int lab_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    if (!s || !*s)
        return -1;
    for (const char *p = s; *p; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (d > 9 || v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    if (v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int lab_parse_id(const char *s, int64_t *out)
{
    uint64_t v;
    if (lab_parse_u64(s, 1, INT64_MAX, &v) < 0)
        return -1;
    *out = (int64_t)v;
    return 0;
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

/* Reads up to max + 1 bytes of fd into a buffer grown as needed. */
static char *read_bounded(int fd, size_t max, size_t *len)
{
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            if (cap > max + 1)
                cap = max + 1;
            char *nb = realloc(buf, cap + 1);
            if (!nb)
                abort();
            buf = nb;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            free(buf);
            return NULL;
        }
        n += (size_t)got;
        if (got == 0)
            break;
        if (n > max) {
            free(buf);
            errno = EFBIG;
            return NULL;
        }
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

char *lab_read_file_max(const char *path, size_t max, size_t *len)
{
    struct stat st;
    size_t n = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
        close(fd);
        errno = EFBIG;
        return NULL;
    }
    char *buf = read_bounded(fd, max, &n);
    int e = errno;
    close(fd);
    errno = e;
    if (buf && len)
        *len = n;
    return buf;
}

char *lab_read_file(const char *path, size_t *len)
{
    return lab_read_file_max(path, LAB_READ_MAX, len);
}

char *lab_read_text(const char *path, size_t max, size_t *len)
{
    size_t n;
    char *text = lab_read_file_max(path, max, &n);
    if (!text) {
        if (errno == EFBIG)
            lab_error("%s: larger than %zu bytes: not a file the lab reads", path, max);
        else if (errno != ENOENT)
            lab_error("cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    const char *nul = memchr(text, '\0', n);
    if (nul) {
        int line = 1;
        for (const char *p = text; p < nul; p++)
            line += *p == '\n';
        lab_error("%s:%d: a NUL byte (at byte %zu): not a text file", path, line,
                  (size_t)(nul - text));
        free(text);
        errno = EINVAL;
        return NULL;
    }
    if (len)
        *len = n;
    return text;
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
    /* A peer that went away (libvirtd stopped mid-cell, a closed socket)
     * must be an EPIPE the caller reports, not a silent death with the
     * run left "running" and its guest outliving us. */
    signal(SIGPIPE, SIG_IGN);
}
