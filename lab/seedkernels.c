/* The kernels of an experiment's own thread, for `lab run` without
 * --kernels. */
#include "lab/seedkernels.h"
#include "host/plan/experiment.h"
#include "common/msg.h"

#include <stdio.h>
#include <stdlib.h>

char *lab_seed_kernels(const char *experiment, char *const *sets, size_t nsets)
{
    static char *list; /* one per process: lab run asks once */
    struct lab_experiment exp;
    if (lab_experiment_prepare(experiment, sets, nsets, &exp) < 0)
        return NULL;
    free(list);
    list = lab_experiment_kernels(&exp);
    if (!list)
        lab_error("--kernels is required: experiment %s names no kernels of its own (see `lab "
                  "kernels list`)",
                  exp.name);
    else
        fprintf(stderr,
                "lab: kernels from experiment %s, its thread's own: %s (--kernels to run "
                "others)\n",
                exp.name, list);
    lab_experiment_free(&exp);
    return list;
}
