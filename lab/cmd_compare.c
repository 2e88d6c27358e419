/* lab compare [--force] RUN_A RUN_B: two stored runs side by side, when
 * they are alike in all but their kernels (host/stats/runcontext.h). */
#include "lab/commands.h"
#include "host/stats/runcompare.h"
#include "host/stats/runcontext.h"
#include "host/store/store.h"
#include "common/exitcode.h"
#include "common/msg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out, "usage: lab compare [--force] RUN_A RUN_B\n\n"
                 "Each row of both runs, with run B's change against run A. The runs must\n"
                 "agree in experiment, profile, bus, CPU and kernel arch; --force compares\n"
                 "runs that differ, and says how at the top of the output. A row whose\n"
                 "cells measured with other settings (agent parameters, boot_args) says\n"
                 "so on its line.\n");
}

static int64_t run_number(const char *arg)
{
    char *end;
    int64_t run = strtoll(arg, &end, 10);
    if (*end || run <= 0) {
        lab_error("not a run number: '%s' (see `lab runs`)", arg);
        return -1;
    }
    return run;
}

/* LAB_EXIT_OK when the runs may be compared (printing how they differ
 * under --force), else the exit code. */
static int check_alike(struct lab_store *st, int64_t a, int64_t b, int force)
{
    char why[1024];
    int n = lab_run_context_diff(st, a, b, why, sizeof why);
    if (n < 0)
        return lab_store_failure(st) ? LAB_EXIT_FAILED : LAB_EXIT_USAGE;
    if (n == 0)
        return LAB_EXIT_OK;
    if (!force) {
        lab_error("runs %lld and %lld differ in more than their kernels: %s (--force compares "
                  "them anyway, labelled)",
                  (long long)a, (long long)b, why);
        return LAB_EXIT_USAGE;
    }
    printf("UNLIKE RUNS (--force): %s\n\n", why);
    return LAB_EXIT_OK;
}

int cmd_compare(int argc, char **argv)
{
    int force = 0, i = 1, rc;
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
        return usage(stdout), LAB_EXIT_OK;
    if (argc > 1 && strcmp(argv[1], "--force") == 0)
        force = 1, i++;
    if (argc - i != 2) {
        usage(stderr);
        return LAB_EXIT_USAGE;
    }
    int64_t a = run_number(argv[i]), b = run_number(argv[i + 1]);
    struct lab_store *st;
    if (a < 0 || b < 0)
        return LAB_EXIT_USAGE;
    if (lab_store_open(lab_store_path(), &st) < 0)
        return LAB_EXIT_FAILED;
    rc = check_alike(st, a, b, force);
    if (rc == LAB_EXIT_OK) {
        rc = lab_compare_runs(stdout, st, a, b);
        rc = rc < 0 ? LAB_EXIT_FAILED : rc > 0 ? LAB_EXIT_USAGE : LAB_EXIT_OK;
    }
    lab_store_close(st);
    return rc;
}
