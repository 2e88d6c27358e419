/* Child processes: finding tools, running them, naming them. */
#ifndef LAB_COMMON_PROC_H
#define LAB_COMMON_PROC_H

#include <stddef.h>
#include <stdint.h>

/* A system tool's path, looked up in the sbin directories too (a normal
 * user's PATH on Debian has no /usr/sbin): buf, or `name` if not found. */
const char *lab_tool_path(const char *name, char *buf, size_t size);

/* Runs argv[0] (searched in PATH), waits, returns its exit status or -1.
 * stdout/stderr go to log_path when it is not NULL, else they are inherited. */
int lab_spawn_wait(char *const argv[], const char *log_path);

/* lab_spawn_wait for a long job that a Ctrl-C must stop (a kernel build):
 * the child leads a process group of its own, stdin on /dev/null, so the
 * terminal's Ctrl-C reaches the lab alone; when the lab is interrupted
 * (common/interrupt.h) the whole group (make, its sub-makes, gcc) gets
 * SIGTERM and is waited for, and -1 comes back. The child also gets
 * SIGTERM if the lab dies without a word. */
int lab_spawn_wait_group(char *const argv[], const char *log_path);

/* Starts argv[0] (searched in PATH) as a daemon of its own: in a new
 * session, stdio on /dev/null, none of this process's other descriptors
 * (a lock or a socket the lab holds must not live on in it), and not this
 * process's child. 0 once it is exec'd, or -1 said. */
int lab_spawn_daemon(char *const argv[]);

/* A process's start time (clock ticks after boot, /proc/PID/stat field 22),
 * 0 if it does not exist: with the pid, names one process even after the
 * pid is reused. */
uint64_t lab_proc_start(long pid);

/* Runs a shell command and returns its whole stdout (malloc'd, NUL-
 * terminated), or NULL if it could not run or exited non-zero. Callers
 * quote every word they splice in with lab_shell_quote. */
char *lab_capture(const char *cmd);

#endif
