/* libFuzzer harness: experiment files (host/experiment.c), and the
 * agent's kernel command line made from every one that parses. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "experiment.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    struct lab_experiment exp;
    memcpy(text, data, size);
    text[size] = '\0';
    if (lab_experiment_parse("fuzz.exp", text, &exp) == 0) {
        free(lab_experiment_cmdline(&exp));
        lab_experiment_free(&exp);
    }
    free(text);
    return 0;
}
