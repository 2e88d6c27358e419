/* lab runs, lab show: what the result store holds. */
#include "commands.h"
#include "reconcile.h"
#include "report.h"
#include "store.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int print_run(const struct lab_run_info *r, void *ctx)
{
    char when[32];
    time_t t = (time_t)(r->started_wall_ns / 1000000000);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", localtime(&t));
    printf("%5lld  %s  %-12s %-11s %s\n", (long long)r->id, when, r->experiment,
           r->status ? r->status : "running", r->command_line);
    return 0;
}

static struct lab_store *open_store(void)
{
    struct lab_store *st = NULL;
    if (lab_store_open(lab_store_path(), &st) < 0)
        return NULL;
    lab_reconcile(st); /* a killed lab's run shows as abandoned, not running */
    return st;
}

int cmd_runs(int argc, char **argv)
{
    struct lab_store *st = open_store();
    if (!st)
        return 1;
    printf("%5s  %-19s  %-12s %-11s %s\n", "RUN", "STARTED", "EXPERIMENT", "STATUS", "COMMAND");
    lab_store_foreach_run(st, print_run, NULL);
    lab_store_close(st);
    return 0;
}

int cmd_show(int argc, char **argv)
{
    struct lab_store *st = open_store();
    int64_t run;
    if (!st)
        return 1;
    if (argc > 1) {
        if (lab_parse_id(argv[1], &run) < 0) {
            lab_store_close(st);
            {
                lab_error("not a run number: '%s' (see `lab runs`)", argv[1]);
                return 2;
            }
        }
    } else {
        run = lab_store_last_run(st);
        if (run < 0) {
            lab_store_close(st);
            {
                lab_error("the store %s holds no runs yet", lab_store_path());
                return 1;
            }
        }
    }
    int rc = lab_report_run(stdout, st, run) < 0 ? 1 : 0;
    lab_store_close(st);
    return rc;
}
