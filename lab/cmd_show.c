/* lab runs, lab show: what the result store holds. */
#include "lab/commands.h"
#include "host/json.h"
#include "host/reconcile.h"
#include "host/report.h"
#include "host/store.h"
#include "common/msg.h"
#include "common/str.h"
#include "host/timing.h"

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
            lab_error("usage: lab show [RUN] [--format text|json] [--timing]");
            return 2;
        }
    }
    if (strcmp(format, "text") != 0 && strcmp(format, "json") != 0) {
        lab_error("unknown format '%s' (text or json)", format);
        return 2;
    }
    struct lab_store *st = open_store();
    if (!st)
        return 1;
    int64_t run = pick_run(st, arg);
    int rc;
    if (run < 0)
        rc = arg ? 2 : 1; /* a bad number, or an empty store */
    else if (timing)      /* where each cell's time went (host/timing.h) */
        rc = lab_timing_report(stdout, st, run) < 0 ? 1 : 0;
    else if (strcmp(format, "json") == 0)
        rc = lab_json_write(st, run, "-") < 0 ? 1 : 0;
    else
        rc = lab_report_run(stdout, st, run) < 0 ? 1 : 0;
    lab_store_close(st);
    return rc;
}
