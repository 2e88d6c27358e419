/* Tiny string helpers for the freestanding agent (no libc). Pure. */
#ifndef LAB_AGENT_STR_H
#define LAB_AGENT_STR_H

#include <stddef.h>

static inline size_t agent_strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

static inline int agent_streq(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

static inline int agent_memeq(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return 0;
    return 1;
}

static inline void agent_memcpy(void *d, const void *s, size_t n)
{
    unsigned char *x = d;
    const unsigned char *y = s;
    for (size_t i = 0; i < n; i++)
        x[i] = y[i];
}

/* Copies at most cap-1 bytes and terminates; returns 0, or -1 if truncated. */
static inline int agent_strlcpy(char *d, const char *s, size_t n, size_t cap)
{
    if (cap == 0)
        return -1;
    size_t i;
    for (i = 0; i < n && i + 1 < cap; i++)
        d[i] = s[i];
    d[i] = 0;
    return i == n ? 0 : -1;
}

#endif
