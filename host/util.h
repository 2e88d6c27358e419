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
/* Copies the file src into dir (made if need be) as name; the copy's path
 * (malloc'd), or NULL when src cannot be read or the copy written. For the
 * logs a cell's run directory holds, kept before the directory goes. */
char *lab_keep_copy(const char *src, const char *dir, const char *name);
int lab_fail_into(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int lab_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void lab_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void lab_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern int lab_verbose;
/* Called before each message is written (the live status line clears
 * itself); NULL when nothing needs it. */
extern void (*lab_message_hook)(void);

/* Copies s into out (size bytes, truncated, NUL-terminated) with printable
 * ASCII kept and every other byte written as \xNN: guest text (records,
 * console lines) can then reach a terminal or a log line without driving
 * it (escape sequences) or forging lines (newlines). lab_error, lab_warn
 * and lab_info escape their whole message this way. Returns out. */
char *lab_escape(const char *s, char *out, size_t size);

/* The lab's cache ($LAB_HOME, default /var/cache/lab for root, else
 * ~/.cache/lab) and its run directory for sockets and logs ($LAB_RUN_DIR,
 * else /run/lab for root, $XDG_RUNTIME_DIR/lab, or a private /tmp/lab-UID
 * (0700, checked to be the user's own) without XDG_RUNTIME_DIR). Both are
 * reachable by the libvirt-qemu user when running as root. */
const char *lab_home(void);
const char *lab_run_root(void);
/* Where a run's logs are kept: $LAB_HOME/logs/run-N (malloc'd). */
char *lab_run_log_dir(int64_t run);

/* Numbers from the command line and files: decimal digits only (no sign,
 * space or suffix), no overflow, and min <= value <= max. 0 and *out set,
 * else -1 and *out untouched; callers say what the number is for. */
int lab_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* The same for a run or bisection id: 1 .. INT64_MAX. */
int lab_parse_id(const char *s, int64_t *out);

/* printf into a fresh heap string; aborts on out of memory. */
char *lab_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *lab_xcalloc(size_t n, size_t size);
char *lab_xstrdup(const char *s);

int lab_mkdir_p(const char *path, unsigned mode);
int lab_rm_rf(const char *path);
int lab_file_exists(const char *path);
/* Every file the lab reads has a size bound. lab_read_file_max reads a whole
 * file of at most max bytes; *len gets its size; the buffer is
 * NUL-terminated. NULL with errno set on error, EFBIG when the file is
 * longer (a regular file is refused by its size before any read; anything
 * else, like /dev/zero, after max + 1 bytes). lab_read_file bounds at
 * LAB_READ_MAX. */
#define LAB_READ_MAX (256u << 20)
char *lab_read_file_max(const char *path, size_t max, size_t *len);
char *lab_read_file(const char *path, size_t *len);
/* A text file the lab parses (experiment, profile, .config): at most max
 * bytes and no NUL byte (which would hide the rest from the parser). NULL
 * with the reason said, naming the file, except for a file that does not
 * exist (errno ENOENT; the caller knows what was meant). */
char *lab_read_text(const char *path, size_t max, size_t *len);
int lab_write_file(const char *path, const void *data, size_t len);

/* A system tool's path, looked up in the sbin directories too (a normal
 * user's PATH on Debian has no /usr/sbin): buf, or `name` if not found. */
const char *lab_tool_path(const char *name, char *buf, size_t size);

/* Runs argv[0] (searched in PATH), waits, returns its exit status or -1.
 * stdout/stderr go to log_path when it is not NULL, else they are inherited. */
int lab_spawn_wait(char *const argv[], const char *log_path);

/* A process's start time (clock ticks after boot, /proc/PID/stat field 22),
 * 0 if it does not exist: with the pid, names one process even after the
 * pid is reused. */
uint64_t lab_proc_start(long pid);

/* Monotonic and wall clocks in nanoseconds. */
int64_t lab_now_ns(void);
int64_t lab_wall_ns(void);

/* Set by SIGINT/SIGTERM/SIGHUP once lab_install_signal_handlers ran, which
 * also ignores SIGPIPE (a lost peer is an error return, EPIPE). */
extern volatile int lab_interrupted;
void lab_install_signal_handlers(void);

#endif
