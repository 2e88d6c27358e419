/* Strings and numbers: checked parsing and allocating formatters. */
#include "common/str.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

char *lab_shell_quote(const char *s)
{
    size_t n = 3;
    for (const char *p = s; *p; p++)
        n += *p == '\'' ? 4 : 1;
    char *out = lab_xcalloc(1, n), *w = out;
    *w++ = '\'';
    for (const char *p = s; *p; p++) {
        if (*p == '\'') {
            memcpy(w, "'\\''", 4);
            w += 4;
        } else {
            *w++ = *p;
        }
    }
    *w = '\'';
    return out;
}

const char *lab_next_word(const char **p, size_t *len)
{
    const char *w = *p + strspn(*p, " ");
    if (!*w)
        return NULL;
    *len = strcspn(w, " ");
    *p = w + *len;
    return w;
}
