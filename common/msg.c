/* Messages to stderr, every one a single escaped line. */
#include "common/msg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lab_verbose;

void (*lab_message_hook)(void);

char *lab_escape(const char *s, char *out, size_t size)
{
    size_t w = 0;
    if (size == 0)
        return out;
    for (const unsigned char *p = (const unsigned char *)s; *p && w + 1 < size; p++) {
        if (*p >= 0x20 && *p < 0x7f) {
            out[w++] = (char)*p;
        } else if (w + 4 < size) {
            snprintf(out + w, size - w, "\\x%02x", *p);
            w += 4;
        } else {
            break;
        }
    }
    out[w] = '\0';
    return out;
}

/* Every message is one line of printable text: whatever a message quotes
 * (a guest's record, its console, a file's line) is escaped here, the one
 * place all of them pass. */
static void vmessage(const char *level, const char *fmt, va_list ap)
{
    char *text, *safe;
    if (lab_message_hook)
        lab_message_hook();
    if (vasprintf(&text, fmt, ap) < 0)
        abort();
    size_t size = 4 * strlen(text) + 1;
    safe = malloc(size);
    if (!safe)
        abort();
    fprintf(stderr, "lab: %s%s\n", level, lab_escape(text, safe, size));
    free(safe);
    free(text);
}

int lab_fail_into(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int lab_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage("error: ", fmt, ap);
    va_end(ap);
    return -1;
}

void lab_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage("warning: ", fmt, ap);
    va_end(ap);
}

void lab_info(const char *fmt, ...)
{
    va_list ap;
    if (!lab_verbose)
        return;
    va_start(ap, fmt);
    vmessage("", fmt, ap);
    va_end(ap);
}
