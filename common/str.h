/* Strings and numbers: checked parsing and allocating formatters. */
#ifndef LAB_COMMON_STR_H
#define LAB_COMMON_STR_H

#include <stddef.h>
#include <stdint.h>

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

/* One word quoted for sh: 'it'\''s' (malloc'd). */
char *lab_shell_quote(const char *s);

/* The next space-separated word of *p (a kernel command line, a cell's
 * params): its start, its length in *len, *p moved past it; NULL when
 * only spaces are left. */
const char *lab_next_word(const char **p, size_t *len);

#endif
