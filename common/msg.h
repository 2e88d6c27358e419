/* Messages to stderr, every one a single escaped line. */
#ifndef LAB_COMMON_MSG_H
#define LAB_COMMON_MSG_H

#include <stddef.h>

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

/* Copies s into out (size bytes, truncated, NUL-terminated) with printable
 * ASCII kept and every other byte written as \xNN: guest text (records,
 * console lines) can then reach a terminal or a log line without driving
 * it (escape sequences) or forging lines (newlines). lab_error, lab_warn
 * and lab_info escape their whole message this way. Returns out. */
char *lab_escape(const char *s, char *out, size_t size);

#endif
