/* The one "key = value" walker (see kv.h). */
#include "common/kv.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

char *lab_kv_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

int lab_kv_split(char *s, char **key, char **value)
{
    char *eq = strchr(s, '=');
    if (!eq)
        return -1;
    *eq = '\0';
    *key = lab_kv_trim(s);
    *value = lab_kv_trim(eq + 1);
    return 0;
}

/* One line (n bytes at s) handed to fn, or skipped when blank. *above
 * says whether the line above was a comment-only line. */
static int one_line(const char *s, size_t n, size_t max_line, struct lab_kv_line *l, int *above,
                    int (*fn)(const struct lab_kv_line *, void *), void *ctx)
{
    if (max_line && n > max_line) {
        struct lab_kv_line too = {.lineno = l->lineno, .value = "", .too_long = 1};
        return fn(&too, ctx);
    }
    char *line = malloc(n + 1);
    if (!line)
        abort();
    memcpy(line, s, n);
    line[n] = '\0';
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    char *t = lab_kv_trim(line), *key, *value;
    int rc = 0;
    if (!*t) {
        *above = hash != NULL; /* a comment-only line, or a blank one that breaks the link */
    } else {
        l->commented = hash != NULL || *above;
        l->key = NULL;
        l->value = t;
        if (lab_kv_split(t, &key, &value) == 0) {
            l->key = key;
            l->value = value;
        }
        *above = 0;
        rc = fn(l, ctx);
    }
    free(line);
    return rc;
}

int lab_kv_walk(const char *text, size_t max_line, int (*fn)(const struct lab_kv_line *, void *),
                void *ctx)
{
    struct lab_kv_line l = {0};
    int above = 0, rc = 0;
    for (const char *s = text; *s && rc == 0;) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        l.lineno++;
        rc = one_line(s, n, max_line, &l, &above, fn, ctx);
        s += n + (nl ? 1 : 0);
    }
    return rc;
}
