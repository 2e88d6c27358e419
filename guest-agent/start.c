/* Process entry without libc, and the few memory functions gcc may call. */
#include <stddef.h>

#include "sys.h"

int agent_main(int argc, char **argv, char **envp);

__asm__(LAB_START_ASM);

__attribute__((noreturn, used)) void agent_start_c(long *sp)
{
    int argc = (int)sp[0];
    char **argv = (char **)(sp + 1);
    char **envp = argv + argc + 1;
    agent_main(argc, argv, envp);
    /* agent_main does not return; PID 1 must never exit. */
    for (;;)
        sys_pause();
}

void *memcpy(void *d, const void *s, size_t n)
{
    unsigned char *x = d;
    const unsigned char *y = s;
    while (n--)
        *x++ = *y++;
    return d;
}

void *memmove(void *d, const void *s, size_t n)
{
    unsigned char *x = d;
    const unsigned char *y = s;
    if (x < y) {
        while (n--)
            *x++ = *y++;
    } else {
        while (n--)
            x[n] = y[n];
    }
    return d;
}

void *memset(void *d, int c, size_t n)
{
    unsigned char *x = d;
    while (n--)
        *x++ = (unsigned char)c;
    return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++)
        if (*x != *y)
            return *x - *y;
    return 0;
}
