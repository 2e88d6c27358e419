/* lab runs, lab show: what the result store holds. */
#include "lab/commands.h"
#include "host/report/formats.h"
#include "host/run/reconcile.h"
#include "host/stats/runcontext.h"
#include "host/store/store.h"
#include "common/msg.h"
#include "common/str.h"
#include "host/cell/timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* The run named by arg, or the newest; -1 with an error. */
static int64_t pick_run(struct lab_store *st, const char *arg)
{
    if (!arg) {
        int64_t run = lab_store_last_run(st);
        if (run < 0)
            lab_error("the store %s holds no runs yet", lab_store_path());
        return run;
    }
    int64_t run;
    if (lab_parse_id(arg, &run) < 0) {
        lab_error("not a run number: '%s' (see `lab runs`)", arg);
        return -1;
    }
    if (lab_run_exists(st, run) == 0) {
        lab_error("no run %lld (see `lab runs`)", (long long)run);
        return -1;
    }
    return run;
}

int cmd_show(int argc, char **argv)
{
    const char *arg = NULL, *format = "text";
    int timing = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--timing") == 0)
            timing = 1;
        else if (strcmp(argv[i], "--format") == 0 && i + 1 < argc)
            format = argv[++i];
        else if (strncmp(argv[i], "--format=", 9) == 0)
            format = argv[i] + 9;
        else if (argv[i][0] != '-' && !arg)
            arg = argv[i];
        else {
            char *names = lab_format_names("|", "|");
            lab_error("usage: lab show [RUN] [--format %s] [--timing]", names);
            free(names);
            return 2;
        }
    }
    const struct lab_format *fmt = lab_format_find(format); /* host/report/formats.h */
    if (!fmt) {
        char *names = lab_format_names(", ", " or ");
        lab_error("unknown format '%s' (%s)", format, names);
        free(names);
        return 2;
    }
    struct lab_store *st = open_store();
    if (!st)
        return 1;
    int64_t run = pick_run(st, arg);
    int rc;
    if (run < 0)
        rc = arg ? 2 : 1; /* a bad number, or an empty store */
    else if (timing)      /* where each cell's time went (host/cell/timing.h) */
        rc = lab_timing_report(stdout, st, run) < 0 ? 1 : 0;
    else
        rc = fmt->write(st, run, "-") < 0 ? 1 : 0;
    lab_store_close(st);
    return rc;
}
