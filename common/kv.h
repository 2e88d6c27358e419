/* The "key = value" text of experiment files and disk profiles: one
 * walker for both, so both read comments, blank lines and spaces alike.
 * Pure (libc only), so the nbdkit filter links it too. */
#ifndef LAB_COMMON_KV_H
#define LAB_COMMON_KV_H

#include <stddef.h>

/* One line that is not blank once its '#' comment is cut. */
struct lab_kv_line {
    int lineno;        /* from 1 */
    const char *key;   /* trimmed; NULL: the line is not "key = value" */
    const char *value; /* trimmed (may be ""); the whole trimmed line when key is NULL */
    int too_long;      /* the line is longer than the walker's max_line (key NULL) */
    /* A '#' comment on this line, or on the comment-only line right above
     * it (a blank line between breaks the link): a profile's source note. */
    int commented;
};

/* Walks text line by line: cuts '#' comments, trims spaces, skips blank
 * lines, splits each other line at its first '='. Calls fn for each such
 * line, in order, until fn returns non-zero. max_line (0: none) bounds a
 * line's length in bytes; a longer one goes to fn with too_long set.
 * fn's non-zero value, or 0 at the end of the text. */
int lab_kv_walk(const char *text, size_t max_line, int (*fn)(const struct lab_kv_line *, void *),
                void *ctx);

/* s without its leading and trailing spaces (s is cut in place). */
char *lab_kv_trim(char *s);
/* One "key = value" cut in place at its first '=', both sides trimmed:
 * 0, or -1 when s holds no '='. */
int lab_kv_split(char *s, char **key, char **value);

#endif
