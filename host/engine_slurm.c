/* --engine slurm (issue 11): the run's cells as Slurm job arrays of
 * `lab cell` tasks, their bundles imported as they land in this lab's
 * spool ($LAB_HOME/spool/PID, which the nodes must see at the same path;
 * the store stays with the controller). Tasks are --requeue'd; each
 * attempt writes its own bundle (SPOOL/KEY/aN, N = $SLURM_RESTART_COUNT +
 * 1), and a cell is stored once (engine_spool.c). Hosts are a blocking
 * factor: every array of the run asks for the same node class (one Slurm
 * feature, --constraint), so both kernels of a comparison run on it. */
#include "host/engine.h"
#include "common/file.h"
#include "common/interrupt.h"
#include "common/msg.h"
#include "common/proc.h"
#include "common/str.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define POLL_US 500000

struct slurm {
    char *spool;
    char lab[PATH_MAX]; /* this lab binary, as the nodes run it */
    char feature[128];  /* the node class of the run, "" for any */
    struct lab_spool_cell cells[LAB_RUN_MAX_CELLS];
    size_t ncells, submitted; /* cells[submitted..] wait for the next array */
    char jobs[64][32];        /* the arrays' job ids */
    size_t njobs;
    int cancelled;
};

/* The node class: $LAB_SLURM_FEATURE, else the first feature of the
 * partition's nodes, else none. */
static void pick_feature(struct slurm *s, const char *partition)
{
    const char *env = getenv("LAB_SLURM_FEATURE");
    if (env) {
        snprintf(s->feature, sizeof s->feature, "%s", env);
        return;
    }
    char *q = partition ? lab_shell_quote(partition) : lab_xstrdup("");
    char *cmd = lab_asprintf("sinfo -h -o '%%f' %s%s 2>/dev/null", partition ? "-p " : "", q);
    char *out = lab_capture(cmd);
    if (out) {
        out[strcspn(out, ",\n ")] = '\0';
        if (strcmp(out, "(null)") != 0)
            snprintf(s->feature, sizeof s->feature, "%s", out);
    }
    free(out);
    free(cmd);
    free(q);
}

static int slurm_open(struct lab_engine *e)
{
    char buf[PATH_MAX];
    if (access(lab_tool_path("sbatch", buf, sizeof buf), X_OK) != 0)
        return lab_error("--engine slurm needs Slurm's sbatch and squeue here "
                         "(Debian: apt-get install slurm-client; see README, scale-out)");
    struct slurm *s = lab_xcalloc(1, sizeof *s);
    ssize_t n = readlink("/proc/self/exe", s->lab, sizeof s->lab - 1);
    s->lab[n > 0 ? n : 0] = '\0';
    s->spool = lab_engine_spool();
    pick_feature(s, e->opts.partition);
    if (lab_mkdir_p(s->spool, 0755) < 0) {
        lab_error("cannot make the spool %s", s->spool);
        free(s->spool);
        free(s);
        return -1;
    }
    lab_info("slurm: spool %s, node class %s", s->spool, s->feature[0] ? s->feature : "(any)");
    e->priv = s;
    return 0;
}

static void slurm_close(struct lab_engine *e)
{
    struct slurm *s = e->priv;
    if (!s)
        return;
    int all_done = 1;
    for (size_t i = 0; i < s->ncells; i++)
        all_done &= s->cells[i].done;
    if (all_done)
        lab_rm_rf(s->spool); /* every bundle imported or given up on */
    free(s->spool);
    free(s);
}

static enum lab_run_q slurm_run_cell(void *engine, const struct lab_cell_spec *spec,
                                     struct lab_cell_result *res)
{
    struct lab_engine *e = engine;
    struct slurm *s = e->priv;
    struct lab_spool_cell *c = &s->cells[s->ncells];
    if (lab_spool_queue(e, s->spool, spec, c, res) < 0)
        return LAB_RUN_Q_COMPLETED;
    s->ncells++;
    return LAB_RUN_Q_QUEUED;
}

/* The task script of an array: task i runs the i-th key's job into the
 * attempt's own directory. */
static char *write_script(struct slurm *s, size_t first, size_t n)
{
    char *keys = lab_asprintf("%s/array-%zu.keys", s->spool, s->njobs);
    char *script = lab_asprintf("%s/array-%zu.sh", s->spool, s->njobs);
    FILE *f = fopen(keys, "w");
    for (size_t i = 0; f && i < n; i++)
        fprintf(f, "%s\n", s->cells[first + i].key);
    if (f)
        fclose(f);
    char *text = lab_asprintf(
        "#!/bin/sh\n"
        "key=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" '%s')\n"
        "attempt=$(( ${SLURM_RESTART_COUNT:-0} + 1 ))\n"
        "exec '%s' cell --spec '%s/'\"$key\"'/%s' --out '%s/'\"$key\"/a$attempt\n",
        keys, s->lab, s->spool, LAB_BUNDLE_JOB, s->spool);
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
    size_t first = s->submitted, n = s->ncells - first;
    if (!n || s->njobs == sizeof s->jobs / sizeof s->jobs[0])
        return 0;
    char *script = write_script(s, first, n);
    if (!script)
        return lab_error("cannot write the Slurm task script in %s", s->spool);
    char *part = e->opts.partition ? lab_shell_quote(e->opts.partition) : NULL;
    char *feat = s->feature[0] ? lab_shell_quote(s->feature) : NULL;
    char *cmd = lab_asprintf(
        "sbatch --parsable --requeue --array=0-%zu --cpus-per-task=1 --job-name=lab-%ld "
        "--output='%s/slurm-%%A_%%a.out' %s%s %s%s '%s' 2>&1",
        n - 1, (long)getpid(), s->spool, part ? "--partition=" : "", part ? part : "",
        feat ? "--constraint=" : "", feat ? feat : "", script);
    char *out = lab_capture(cmd);
    int rc = -1;
    if (out && out[0] >= '0' && out[0] <= '9') {
        out[strcspn(out, ";\n")] = '\0';
        snprintf(s->jobs[s->njobs++], sizeof s->jobs[0], "%s", out);
        for (size_t i = 0; i < n; i++) {
            struct lab_spool_cell *c = &s->cells[first + i];
            snprintf(c->task, sizeof c->task, "%s_%zu", out, i);
            char *live = lab_asprintf("%s/a1/%s", c->dir, LAB_BUNDLE_LIVE_DB);
            lab_progress_cell_source(lab_progress_current(), c->index, live);
            free(live);
        }
        lab_info("slurm: job array %s: %zu cell(s)", out, n);
        s->submitted = s->ncells;
        rc = 0;
    } else {
        lab_error("sbatch refused the cells: %s", out ? out : "(no output)");
    }
    free(out);
    free(cmd);
    free(part);
    free(feat);
    free(script);
    return rc;
}

/* Slurm's tasks still queued or running ("12_3" per line), or NULL. */
static char *listed_tasks(struct slurm *s)
{
    char ids[64 * 33] = "";
    for (size_t i = 0; i < s->njobs; i++)
        snprintf(ids + strlen(ids), sizeof ids - strlen(ids), "%s%s", i ? "," : "", s->jobs[i]);
    char *cmd = lab_asprintf("squeue -h -r -o '%%i' -j %s 2>/dev/null", ids);
    char *out = lab_capture(cmd);
    free(cmd);
    return out ? out : lab_xstrdup("");
}

/* Whether a task ("12_3") is among squeue's lines. */
static int listed(const char *tasks, const char *task)
{
    size_t len = strlen(task);
    for (const char *p = tasks; (p = strstr(p, task)); p += len)
        if ((p == tasks || p[-1] == '\n') && (p[len] == '\n' || p[len] == '\0'))
            return 1;
    return 0;
}

/* Looks at every outstanding cell once: an ok bundle imported, or, its
 * task gone from Slurm for two polls, what is left of it. The index of a
 * cell with its result in res, or -1. */
static int poll_cells(struct lab_engine *e, struct slurm *s, struct lab_cell_result *res)
{
    char *tasks = listed_tasks(s);
    int found = -1;
    for (size_t i = 0; i < s->submitted && found < 0; i++) {
        struct lab_spool_cell *c = &s->cells[i];
        if (c->done)
            continue;
        if (lab_spool_scan(e->env, c, res))
            found = (int)c->index;
        else if (!listed(tasks, c->task) && ++c->gone > 2) {
            char why[128];
            snprintf(why, sizeof why, "its Slurm task %s ended", c->task);
            lab_spool_give_up(e->env, c, why, res);
            found = (int)c->index;
        } else if (listed(tasks, c->task)) {
            c->gone = 0;
        }
    }
    free(tasks);
    return found;
}

static void cancel_all(struct slurm *s)
{
    for (size_t i = 0; i < s->njobs; i++) {
        char *cmd = lab_asprintf("scancel --signal=INT --full %s >/dev/null 2>&1", s->jobs[i]);
        free(lab_capture(cmd));
        free(cmd);
    }
    s->cancelled = 1;
}

static int outstanding(const struct slurm *s)
{
    for (size_t i = 0; i < s->ncells; i++)
        if (!s->cells[i].done)
            return 1;
    return 0;
}

static int slurm_collect(void *engine, int wait, struct lab_cell_result *res)
{
    struct lab_engine *e = engine;
    struct slurm *s = e->priv;
    /* The driver waits once it has handed over every cell it can: the
     * matrix (or its reruns) goes to Slurm as one array. */
    if (wait && s->submitted < s->ncells && submit(e, s) < 0)
        for (size_t i = s->submitted; i < s->ncells; i++) {
            s->submitted = s->ncells;
            lab_spool_give_up(e->env, &s->cells[i], "sbatch refused it", res);
            return (int)s->cells[i].index;
        }
    for (;;) {
        if (lab_interrupted && !s->cancelled)
            cancel_all(s);
        int found = s->submitted ? poll_cells(e, s, res) : -1;
        if (found >= 0 || !wait || !outstanding(s))
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
