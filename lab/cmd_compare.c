/* lab compare RUN_A RUN_B: two stored runs side by side. */
#include "lab/commands.h"
#include "host/runcompare.h"
#include "host/store.h"
#include "common/msg.h"

#include <stdio.h>
#include <stdlib.h>

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

int cmd_compare(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: lab compare RUN_A RUN_B\n"
                        "  each row of both runs, with run B's change against run A\n");
        return 2;
    }
    int64_t a = run_number(argv[1]), b = run_number(argv[2]);
    struct lab_store *st;
    if (a < 0 || b < 0)
        return 2;
    if (lab_store_open(lab_store_path(), &st) < 0)
        return 1;
    int rc = lab_compare_runs(stdout, st, a, b);
    lab_store_close(st);
    return rc < 0 ? 1 : rc > 0 ? 2 : 0;
}
