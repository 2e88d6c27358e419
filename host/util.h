/* Small shared helpers: messages, paths, files and child processes. */
#ifndef LAB_UTIL_H
#define LAB_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Messages go to stderr as "lab: error: ...". lab_error returns -1 so a
 * failing function can end with `return lab_error(...)`. */
/* For pure parsers that report into a caller's buffer: formats into
 * err[errlen] (when err is not NULL) and returns -1. */
int lab_fail_into(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int lab_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void lab_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void lab_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern int lab_verbose;
/* Called before each message is written (the live status line clears
 * itself); NULL when nothing needs it. */
extern void (*lab_message_hook)(void);

/* The lab's cache ($LAB_HOME, default /var/cache/lab for root, else
 * ~/.cache/lab) and its run directory for sockets and logs (/run/lab for
 * root, else $XDG_RUNTIME_DIR/lab). Both are reachable by the libvirt-qemu
 * user when running as root. */
const char *lab_home(void);
const char *lab_run_root(void);

/* printf into a fresh heap string; aborts on out of memory. */
char *lab_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *lab_xcalloc(size_t n, size_t size);
char *lab_xstrdup(const char *s);

int lab_mkdir_p(const char *path, unsigned mode);
int lab_rm_rf(const char *path);
int lab_file_exists(const char *path);
/* Reads a whole file; *len gets its size; the buffer is NUL-terminated. */
char *lab_read_file(const char *path, size_t *len);
int lab_write_file(const char *path, const void *data, size_t len);

/* A system tool's path, looked up in the sbin directories too (a normal
 * user's PATH on Debian has no /usr/sbin): buf, or `name` if not found. */
const char *lab_tool_path(const char *name, char *buf, size_t size);

/* Runs argv[0] (searched in PATH), waits, returns its exit status or -1.
 * stdout/stderr go to log_path when it is not NULL, else they are inherited. */
int lab_spawn_wait(char *const argv[], const char *log_path);

/* Monotonic and wall clocks in nanoseconds. */
int64_t lab_now_ns(void);
int64_t lab_wall_ns(void);

/* Sets by SIGINT/SIGTERM once lab_install_signal_handlers ran. */
extern volatile int lab_interrupted;
void lab_install_signal_handlers(void);

#endif
