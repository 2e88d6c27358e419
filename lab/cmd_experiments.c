/* lab experiments: the shipped experiment files and what each runs. */
#include "lab/commands.h"
#include "host/plan/experiment.h"
#include "common/msg.h"
#include "common/str.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_exp(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return n > 4 && strcmp(d->d_name + n - 4, ".exp") == 0;
}

int cmd_experiments(int argc, char **argv)
{
    struct dirent **list;
    int n = scandir(lab_experiments_dir(), &list, is_exp, by_name), rc = 0;
    if (n < 0) {
        lab_error("cannot list %s", lab_experiments_dir());
        return 1;
    }
    for (int i = 0; i < n; i++) {
        struct lab_experiment exp;
        char *path = lab_asprintf("%s/%s", lab_experiments_dir(), list[i]->d_name);
        if (lab_experiment_load(path, &exp) == 0) {
            char *kernels = lab_experiment_kernels(&exp); /* the seed thread's */
            printf("%-18s %s (test %s, %u runs%s%s)\n", exp.name, exp.summary ? exp.summary : "",
                   exp.test, exp.reps, kernels ? "; its kernels " : "", kernels ? kernels : "");
            free(kernels);
            lab_experiment_free(&exp);
        } else {
            rc = 1;
        }
        free(path);
        free(list[i]);
    }
    free(list);
    return rc;
}
