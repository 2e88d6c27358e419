/* --engine slurm (issue 11): the run's cells as Slurm job arrays of
 * `lab cell` tasks, their bundles imported as they land in this lab's
 * spool ($LAB_HOME/spool/PID, which the nodes must see at the same path;
 * the store stays with the controller). Tasks are --requeue'd; each
 * attempt writes its own bundle (SPOOL/KEY/aN, N = $SLURM_RESTART_COUNT +
 * 1), and a cell is stored once (engine_spool.c). Hosts are a blocking
 * factor: every array of the run asks for the same node class (one Slurm
 * feature, --constraint), so both kernels of a comparison run on it. */
#include "host/run/engine.h"
#include "host/run/slurm.h"
#include "common/file.h"
#include "common/interrupt.h"
#include "common/msg.h"
#include "common/proc.h"
#include "common/str.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define POLL_US 500000

struct slurm {
    struct lab_spool_cells q;        /* the spool, this lab binary, the run's cells */
    char feature[128];               /* the node class of the run, "" for any */
    char jobs[64][LAB_SLURM_JOB_ID]; /* the arrays' job ids */
    size_t njobs;
    int cancelled;
};

static int slurm_open(struct lab_engine *e)
{
    if (lab_slurm_check("--engine slurm") < 0)
        return -1;
    struct slurm *s = lab_xcalloc(1, sizeof *s);
    lab_slurm_feature(e->opts.partition, s->feature, sizeof s->feature);
    if (lab_spool_cells_open(&s->q, "slurm") < 0) {
        free(s);
        return -1;
    }
    lab_info("slurm: spool %s, node class %s", s->q.spool, s->feature[0] ? s->feature : "(any)");
    e->priv = s;
    return 0;
}

static void slurm_close(struct lab_engine *e)
{
    struct slurm *s = e->priv;
    if (!s)
        return;
    lab_spool_cells_close(&s->q);
    free(s);
}

static enum lab_run_q slurm_run_cell(void *engine, const struct lab_cell_spec *spec,
                                     struct lab_cell_result *res)
{
    struct lab_engine *e = engine;
    struct slurm *s = e->priv;
    return lab_spool_cells_add(e, &s->q, spec, res);
}

/* The task script of an array: task i runs the i-th key's job into the
 * attempt's own directory. */
static char *write_script(struct slurm *s, size_t first, size_t n)
{
    char *keys = lab_asprintf("%s/array-%zu.keys", s->q.spool, s->njobs);
    char *script = lab_asprintf("%s/array-%zu.sh", s->q.spool, s->njobs);
    FILE *f = fopen(keys, "w");
    for (size_t i = 0; f && i < n; i++)
        fprintf(f, "%s\n", s->q.cells[first + i].key);
    if (f)
        fclose(f);
    char *text =
        lab_asprintf("#!/bin/sh\n"
                     "key=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" '%s')\n"
                     "attempt=$(( ${SLURM_RESTART_COUNT:-0} + 1 ))\n"
                     "exec '%s' cell --spec '%s/'\"$key\"'/%s' --out '%s/'\"$key\"/a$attempt\n",
                     keys, s->q.lab, s->q.spool, LAB_BUNDLE_JOB, s->q.spool);
    int rc = lab_write_file(script, text, strlen(text));
    free(text);
    free(keys);
    if (rc < 0) {
        free(script);
        return NULL;
    }
    return script;
}

/* The cells not submitted yet, as one array. */
static int submit(struct lab_engine *e, struct slurm *s)
{
    size_t first = s->q.submitted, n = s->q.ncells - first;
    if (!n || s->njobs == sizeof s->jobs / sizeof s->jobs[0])
        return 0;
    char *script = write_script(s, first, n);
    if (!script)
        return lab_error("cannot write the Slurm task script in %s", s->q.spool);
    char id[LAB_SLURM_JOB_ID], *name = lab_asprintf("lab-%ld", (long)getpid());
    char *output = lab_asprintf("%s/slurm-%%A_%%a.out", s->q.spool);
    struct lab_slurm_submit sb = {.script = script,
                                  .name = name,
                                  .output = output,
                                  .partition = e->opts.partition,
                                  .feature = s->feature,
                                  .array = (unsigned)n,
                                  .requeue = 1};
    int rc = lab_slurm_sbatch(&sb, id);
    if (rc == 0) {
        snprintf(s->jobs[s->njobs++], sizeof s->jobs[0], "%s", id);
        for (size_t i = 0; i < n; i++) {
            struct lab_spool_cell *c = &s->q.cells[first + i];
            snprintf(c->task, sizeof c->task, "%.40s_%zu", id, i);
            char *live = lab_asprintf("%s/a1/%s", c->dir, LAB_BUNDLE_LIVE_DB);
            lab_progress_cell_source(lab_progress_current(), c->index, live);
            free(live);
        }
        lab_info("slurm: job array %s: %zu cell(s)", id, n);
        s->q.submitted = s->q.ncells;
    }
    free(output);
    free(name);
    free(script);
    return rc;
}

/* Looks at every outstanding cell once: an ok bundle imported, or, its
 * task gone from Slurm for two polls, what is left of it. The index of a
 * cell with its result in res, or -1. */
static int poll_cells(struct lab_engine *e, struct slurm *s, struct lab_cell_result *res)
{
    char *tasks = lab_slurm_listed((const char(*)[LAB_SLURM_JOB_ID])s->jobs, s->njobs);
    int found = -1;
    for (size_t i = 0; i < s->q.submitted && found < 0; i++) {
        struct lab_spool_cell *c = &s->q.cells[i];
        if (c->done)
            continue;
        if (lab_spool_scan(e->env, c, res))
            found = (int)c->index;
        else if (!lab_slurm_is_listed(tasks, c->task) && ++c->gone > 2) {
            char why[128];
            snprintf(why, sizeof why, "its Slurm task %s ended", c->task);
            lab_spool_give_up(e->env, c, why, res);
            found = (int)c->index;
        } else if (lab_slurm_is_listed(tasks, c->task)) {
            c->gone = 0;
        }
    }
    free(tasks);
    return found;
}

static void cancel_all(struct slurm *s)
{
    for (size_t i = 0; i < s->njobs; i++)
        lab_slurm_cancel(s->jobs[i]);
    s->cancelled = 1;
}

static int slurm_collect(void *engine, int wait, struct lab_cell_result *res)
{
    struct lab_engine *e = engine;
    struct slurm *s = e->priv;
    /* The driver waits once it has handed over every cell it can: the
     * matrix (or its reruns) goes to Slurm as one array. */
    if (wait && s->q.submitted < s->q.ncells && submit(e, s) < 0)
        return lab_spool_cells_refuse(e->env, &s->q, "sbatch refused it", res);
    for (;;) {
        if (lab_interrupted && !s->cancelled)
            cancel_all(s);
        int found = s->q.submitted ? poll_cells(e, s, res) : -1;
        if (found >= 0 || !wait || !lab_spool_cells_outstanding(&s->q))
            return found;
        usleep(POLL_US);
    }
}

static const struct lab_run_ops slurm_ops = {
    .version = LAB_RUN_OPS_VERSION,
    .name = "slurm",
    .run_cell = slurm_run_cell,
    .collect = slurm_collect,
};

const struct lab_engine_kind lab_engine_slurm_kind = {
    .name = "slurm", .ops = &slurm_ops, .open = slurm_open, .close = slurm_close};
