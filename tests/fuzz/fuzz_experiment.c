/* libFuzzer harness: experiment files (host/plan/experiment.c), a --set
 * override, and the agent's kernel command line made from every one that
 * parses. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "host/plan/experiment.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    struct lab_experiment exp;
    memcpy(text, data, size);
    text[size] = '\0';
    if (lab_experiment_parse("fuzz.exp", text, &exp) == 0) {
        /* Its last line once more as a --set override, then the checks
         * and the agent's command line that follow one. */
        char *last = strrchr(text, '\n');
        if (last && last[1] && lab_experiment_set(&exp, "--set", last + 1) == 0)
            lab_experiment_check("--set", &exp);
        free(lab_experiment_cmdline(&exp));
        lab_experiment_free(&exp);
    }
    free(text);
    return 0;
}
