/* Files: making, removing, bounded reading and writing, keeping copies. */
#ifndef LAB_COMMON_FILE_H
#define LAB_COMMON_FILE_H

#include <stddef.h>

/* Copies the file src into dir (made if need be) as name; the copy's path
 * (malloc'd), or NULL when src cannot be read or the copy written. For the
 * logs a cell's run directory holds, kept before the directory goes. */
char *lab_keep_copy(const char *src, const char *dir, const char *name);
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

/* The last `lines` lines of a log to stderr, each after `prefix`: what a
 * failed build or download said, without the rest of its output. */
void lab_log_tail(const char *path, int lines, const char *prefix);

#endif
