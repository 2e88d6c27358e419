/* libFuzzer harness: hardware profile files (host/hdd/profile.c) and the
 * summary line of every one that parses. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host/hdd/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), err[256], line[512];
    struct hdd_params p;
    memcpy(text, data, size);
    text[size] = '\0';
    if (hdd_profile_parse("fuzz.profile", text, &p, err, sizeof err) == 0)
        hdd_profile_summary(&p, line, sizeof line);
    free(text);
    return 0;
}
