/* libFuzzer harness: the era compat layer's __FUNCTION__ rewrite
 * (kernels/compat_paste.c), which reads every .c and .h of a kernel tree
 * someone else packed: any bytes, as a NUL-terminated text. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/compat_paste.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *out = NULL;
    int n = lab_compat_paste_function_names(text, &out);
    /* nothing changed: the text comes back as it was */
    if (!out || n < 0 || (n == 0 && strcmp(out, text) != 0))
        abort();
    free(out);
    free(text);
    return 0;
}
