/* lab bisect: find the commit that changed a measured IO figure, by
 * building, booting and measuring commits of a kernel git repo. Options and
 * printing only: the loop is host/bisect/bisectdriver.h, its real ops (builds,
 * cells) host/bisect/bisectcells.h, its words host/report/bisectreport.h, the git
 * plumbing host/bisect/git.h, the stored rows host/bisect/store_bisect.h;
 * the command line is lab/bisect_opts.h. */
#include "host/bisect/bisectcells.h"
#include "host/report/bisectreport.h"
#include "host/bisect/bisectslurm.h"
#include "host/bisect/git.h"
#include "host/cell/rt.h"
#include "host/store/store.h"
#include "host/bisect/store_bisect.h"
#include "lab/bisect_opts.h"
#include "lab/commands.h"
#include "lab/session.h"

#include "common/msg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int do_show(const struct lab_bisect_opts *o)
{
    struct lab_store *st;
    if (lab_store_open(lab_store_path(), &st) < 0)
        return 1;
    int rc = o->list ? lab_store_bisect_list(st, stdout)
                     : lab_bisect_show(stdout, st, o->show_id, o->junit);
    lab_store_close(st);
    return rc != 0;
}

/* The session's stop checks, as the driver's stop hook. */
static enum lab_bisect_stop session_stop(void *ctx, char *why, size_t len)
{
    enum lab_session_stop s = lab_session_check(ctx, why, len);
    return s == LAB_GO                 ? LAB_BISECT_RUN_ON
           : s == LAB_STOP_INTERRUPTED ? LAB_BISECT_STOP_SIGNAL
                                       : LAB_BISECT_STOP_FAILURE;
}

/* The bisection proper, in a session of its own: the exit code. */
static int bisect(int argc, char **argv, struct lab_bisect_opts *o, struct lab_bisect_setup *set)
{
    struct lab_session session;
    if (lab_session_open(&session, argc, argv, set->row.experiment, set->row.profile) < 0)
        return 1;
    o->cells.env = session.env;
    o->cells.rt_priority = lab_rt_plan(o->no_rt, o->cells.rt_note, sizeof o->cells.rt_note);
    set->row.run = session.env.run_id;
    set->row.command_line = session.command_line;
    set->hooks = (struct lab_bisect_hooks){
        .stop = session_stop, .report = lab_bisect_report_line, .ctx = &session};
    /* The same driver either way: only the ops differ. */
    struct lab_bisect_slurm *slurm = NULL;
    if (lab_bisect_opts_slurm(o)) {
        if (!(slurm = lab_bisect_slurm_open(&o->cells, o->partition))) {
            lab_store_run_end(session.env.store, session.env.run_id, "failed");
            lab_session_close(&session);
            return 1;
        }
        set->ops = &lab_bisect_slurm_ops;
        set->ops_ctx = slurm;
    }
    struct lab_bisect_result r;
    int rc = lab_bisect_drive(set, session.env.store, &r);
    lab_bisect_slurm_close(slurm);
    lab_bisect_print_result(stdout, set, &r);
    if (o->junit && lab_bisect_junit_stored(session.env.store, r.id, o->junit) < 0 && rc == 0)
        rc = 1;
    lab_store_run_end(session.env.store, session.env.run_id, r.run_status);
    lab_bisect_result_free(&r);
    lab_session_close(&session);
    return rc;
}

int cmd_bisect(int argc, char **argv)
{
    struct lab_bisect_opts o;
    char(*commits)[41] = NULL;
    const struct lab_metric *metric;
    if (lab_bisect_opts_parse(argc, argv, &o) < 0)
        return 2;
    if (o.show || o.list)
        return do_show(&o);
    if (!(metric = lab_metric_find(o.row.metric)))
        return lab_error("unknown metric '%s' (mbps, iops or secs)", o.row.metric), 2;
    size_t n = lab_git_range(o.row.repo, o.row.good, o.row.bad, &commits);
    struct lab_bisect_cells *c = &o.cells;
    if (!n ||
        lab_bisect_cells_prepare(c, metric, o.row.experiment, o.sets, o.nsets, o.row.profile) < 0) {
        free(commits);
        return 2;
    }
    struct lab_bisect_setup set;
    lab_bisect_cells_setup(c, (const char(*)[41])commits, n, &o.row, &set);
    int rc = bisect(argc, argv, &o, &set);
    lab_bisect_cells_free(c);
    free(commits);
    return rc;
}
