/* The run driver: the matrix, the loop over its cells with reruns, the
 * run's record in the store. See run.h. */
#include "host/run/run.h"
#include "host/plan/order.h"
#include "host/run/progress.h"
#include "kernels/catalog.h"
#include "common/interrupt.h"
#include "common/msg.h"
#include "common/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VARIANTS (LAB_RUN_MAX_LOADS * LAB_RUN_MAX_SCHEDS)

struct lab_run {
    struct lab_run_request req;
    struct lab_run_cell cells[LAB_RUN_MAX_CELLS];
    size_t ncells, planned, runnable;
    /* The variants (copies of the experiment, each with its load and
     * scheduler), the names they point into, and the reruns' copies. */
    struct lab_experiment variants[MAX_VARIANTS];
    size_t nvariants;
    char loads[LAB_RUN_MAX_LOADS][16], scheds[LAB_RUN_MAX_SCHEDS][16];
    struct lab_experiment rerun_exp[LAB_RUN_MAX_CELLS];
    unsigned next_boot[LAB_RUN_MAX_CELLS]; /* reruns so far, by the first cell of a
                                              kernel and variant */
    /* while executing */
    const struct lab_run_env *env;
    struct lab_progress *progress;
    struct lab_run_outcome *out;
};

/* "none,io_load" -> {"none", "io_load"}; at most max names. */
static size_t split_list(const char *list, char (*out)[16], size_t max)
{
    size_t n = 0;
    for (const char *p = list; p && *p && n < max; n++) {
        size_t len = strcspn(p, ",");
        snprintf(out[n], sizeof out[n], "%.*s", (int)len, p);
        p += len + (p[len] == ',');
    }
    return n;
}

/* The variants of the experiment: every load of a load_list crossed with
 * every scheduler of a scheduler_list ("default": the kernel's own); 0
 * without either list. */
static size_t plan_variants(struct lab_run *r)
{
    const struct lab_experiment *exp = r->req.exp;
    size_t nl = split_list(exp->load_list, r->loads, LAB_RUN_MAX_LOADS);
    size_t ns = split_list(exp->scheduler_list, r->scheds, LAB_RUN_MAX_SCHEDS);
    if (!nl && !ns)
        return 0;
    size_t n = 0;
    for (size_t l = 0; l < (nl ? nl : 1); l++)
        for (size_t s = 0; s < (ns ? ns : 1); s++, n++) {
            r->variants[n] = *exp;
            if (nl)
                r->variants[n].load = r->loads[l];
            if (ns)
                r->variants[n].scheduler =
                    strcmp(r->scheds[s], "default") == 0 ? NULL : r->scheds[s];
        }
    return n;
}

struct lab_run *lab_run_plan(const struct lab_run_request *req)
{
    struct lab_run *r = lab_xcalloc(1, sizeof *r);
    struct lab_plan_slot order[LAB_RUN_MAX_CELLS];
    r->req = *req;
    r->nvariants = plan_variants(r);
    size_t n = lab_plan_order(req->nkernels, r->nvariants, req->boots, order, LAB_RUN_MAX_CELLS);
    if (n == 0) {
        lab_error("too many cells: %zu kernel(s) x %zu variant(s) x %u boot(s) is more than %d",
                  req->nkernels, r->nvariants ? r->nvariants : 1, req->boots, LAB_RUN_MAX_CELLS);
        free(r);
        return NULL;
    }
    for (size_t c = 0; c < n; c++) {
        struct lab_run_cell *cell = &r->cells[c];
        cell->spec = (struct lab_cell_spec){
            .index = (int)c,
            .kernel = req->kernels[order[c].kernel],
            .exp = r->nvariants ? &r->variants[order[c].variant] : req->exp,
            .profile = req->profile,
            .cpu = req->cpu,
            .bus = req->bus,
            .channel = req->channel,
            .timeout_s = req->timeout_s,
            .boot = order[c].boot,
        };
        if (lab_cell_check(&cell->spec, cell->skip, sizeof cell->skip) == 0) {
            cell->skip[0] = '\0';
            r->runnable++;
        }
    }
    r->ncells = r->planned = n;
    return r;
}

void lab_run_free(struct lab_run *r)
{
    free(r);
}

size_t lab_run_ncells(const struct lab_run *r)
{
    return r->ncells;
}

size_t lab_run_planned(const struct lab_run *r)
{
    return r->planned;
}

size_t lab_run_runnable(const struct lab_run *r)
{
    return r->runnable;
}

const struct lab_run_cell *lab_run_cell_at(const struct lab_run *r, size_t i)
{
    return i < r->ncells ? &r->cells[i] : NULL;
}

const struct lab_cell_spec *lab_run_first_runnable(const struct lab_run *r)
{
    for (size_t i = 0; i < r->ncells; i++)
        if (!r->cells[i].skip[0])
            return &r->cells[i].spec;
    return NULL;
}

/* Readahead settings a cell sweeps (1 without a readahead_list): each
 * has its own warm-up. */
static unsigned groups_of(const struct lab_experiment *e)
{
    unsigned groups = 1;
    for (const char *p = e->readahead_list; p && *p; p++)
        groups += *p == ',';
    return groups;
}

unsigned lab_run_samples_per_cell(const struct lab_experiment *e)
{
    return (e->reps + e->warmup) * groups_of(e);
}

int lab_run_ops_check(const struct lab_run_ops *ops)
{
    if (!ops || ops->version != LAB_RUN_OPS_VERSION)
        return lab_error("run engine %s: interface version %u, this lab knows %d",
                         ops && ops->name ? ops->name : "?", ops ? ops->version : 0,
                         LAB_RUN_OPS_VERSION);
    if (!ops->run_cell)
        return lab_error("run engine %s has no run_cell", ops->name ? ops->name : "?");
    return 0;
}

static enum lab_run_q local_run_cell(void *engine, const struct lab_cell_spec *spec,
                                     struct lab_cell_result *res)
{
    lab_cell_run(engine, spec, res);
    return LAB_RUN_Q_COMPLETED;
}

const struct lab_run_ops lab_run_local = {
    .version = LAB_RUN_OPS_VERSION,
    .name = "local",
    .run_cell = local_run_cell,
    .collect = NULL,
};

/* ---- the loop ---- */

/* What cell i runs, for its lines: "seqread load=io_load boot 2/2 (rerun
 * ...)"; *base_len is the length without the boot and rerun. */
static void describe(const struct lab_run *r, size_t i, char *what, size_t len, size_t *base_len)
{
    const struct lab_experiment *exp = r->req.exp, *e = r->cells[i].spec.exp;
    snprintf(what, len, "%s%s%s%s%s", exp->name, exp->load_list ? " load=" : "",
             exp->load_list ? e->load : "", exp->scheduler_list ? " scheduler=" : "",
             exp->scheduler_list ? (e->scheduler ? e->scheduler : "default") : "");
    *base_len = strlen(what);
    if (r->req.boots > 1 || i >= r->planned)
        snprintf(what + *base_len, len - *base_len, " boot %u/%u", r->cells[i].spec.boot,
                 r->req.boots);
    if (r->cells[i].rerun)
        snprintf(what + strlen(what), len - strlen(what), " (rerun of %u flagged run(s))", e->reps);
}

/* The status line, with each runnable cell's expected time from history. */
static void start_progress(struct lab_run *r)
{
    const struct lab_run_env *env = r->env;
    const char *profile = r->req.profile ? r->req.profile->name : "fast";
    r->progress = lab_progress_start(stderr, env->store, env->run_id, r->ncells);
    for (size_t i = 0; i < r->ncells; i++) {
        const struct lab_cell_spec *s = &r->cells[i].spec;
        char *params = lab_experiment_cmdline(s->exp);
        if (r->cells[i].skip[0])
            lab_progress_plan(r->progress, i, NULL, NULL, NULL); /* takes no time */
        else
            lab_progress_plan(r->progress, i, s->kernel->name, params, profile);
        free(params);
    }
}

/* A cell whose counted runs were over a contention threshold gets one more
 * boot for as many runs, once: the next boot number of its kernel and
 * variant. */
static void add_rerun(struct lab_run *r, size_t i)
{
    const struct lab_run_cell *from = &r->cells[i];
    size_t n = r->ncells;
    lab_progress_printf(r->progress,
                        "lab: [%zu/%zu] %s: %u run(s) over the contention threshold: "
                        "rerun in another boot\n",
                        i + 1, r->ncells, from->spec.kernel->name, from->res.flagged);
    r->rerun_exp[n] = *from->spec.exp;
    r->rerun_exp[n].reps = from->res.flagged;
    r->cells[n] = (struct lab_run_cell){.spec = from->spec, .rerun = 1};
    r->cells[n].spec.index = (int)n;
    r->cells[n].spec.exp = &r->rerun_exp[n];
    size_t key = 0;
    while (key < i && !(r->cells[key].spec.kernel == from->spec.kernel &&
                        r->cells[key].spec.exp == from->spec.exp))
        key++;
    r->cells[n].spec.boot = r->req.boots + 1 + r->next_boot[key]++;
    r->ncells++;
    r->out->reruns++;
}

/* Cell i's result is in: its line, and its rerun when it has flagged runs. */
static void finish_cell(struct lab_run *r, size_t i)
{
    struct lab_run_cell *cell = &r->cells[i];
    const struct lab_experiment *exp = r->req.exp;
    const struct lab_cell_result *res = &cell->res;
    const char *kname = cell->spec.kernel->name;
    unsigned warm = exp->warmup * groups_of(exp);
    char what[160];
    size_t base_len;
    cell->done = 1;
    if (!cell->rerun)
        lab_progress_cell_end(r->progress, i);
    describe(r, i, what, sizeof what, &base_len);
    if (res->status != LAB_CELL_OK) {
        r->out->failed++;
        lab_error("cell %s/%.*s %s: %s (boot %u of %u)", kname, (int)base_len, what,
                  lab_cell_status_name(res->status), res->reason, cell->spec.boot, r->req.boots);
    } else {
        lab_progress_printf(
            r->progress,
            "lab: [%zu/%zu] %s: %u run(s) + %u warm-up, agent up after %.1f s, cell %.1f s\n",
            i + 1, r->ncells, kname, res->samples - warm, warm, (double)res->hello_ns / 1e9,
            (double)res->total_ns / 1e9);
    }
    r->out->flagged_runs += res->flagged;
    if (res->status == LAB_CELL_OK && res->flagged && !cell->rerun && r->ncells < LAB_RUN_MAX_CELLS)
        add_rerun(r, i);
}

/* One result from the engine (wait 1: blocking until one is in); 0 when
 * it has none. */
static int collect_one(struct lab_run *r, const struct lab_run_ops *ops, void *engine, int wait)
{
    struct lab_cell_result res;
    int i;
    if (!ops->collect)
        return 0;
    while ((i = ops->collect(engine, wait, &res)) >= 0) {
        if ((size_t)i >= r->ncells || r->cells[i].done)
            continue; /* not a cell of ours, or told twice */
        r->cells[i].res = res;
        finish_cell(r, (size_t)i);
        return 1;
    }
    return 0;
}

/* Cell i: stored as skipped, or started through the engine. */
static void start_cell(struct lab_run *r, size_t i, const struct lab_run_ops *ops, void *engine)
{
    struct lab_run_cell *cell = &r->cells[i];
    const struct lab_run_env *env = r->env;
    char what[160];
    size_t base_len;
    if (cell->skip[0]) {
        int64_t id = lab_store_cell_begin(env->store, env->run_id, cell->spec.kernel->name,
                                          r->req.exp->name, NULL);
        lab_store_cell_end(env->store, id, "skipped", cell->skip);
        cell->done = 1;
        return;
    }
    cell->spec.virt_type = env->virt_type;
    describe(r, i, what, sizeof what, &base_len);
    lab_progress_printf(r->progress, "lab: [%zu/%zu] %s: %s\n", i + 1, r->ncells,
                        cell->spec.kernel->name, what);
    if (!cell->rerun)
        lab_progress_cell(r->progress, i, cell->spec.kernel, what,
                          lab_run_samples_per_cell(cell->spec.exp));
    memset(&cell->res, 0, sizeof cell->res);
    if (ops->run_cell(engine, &cell->spec, &cell->res) == LAB_RUN_Q_COMPLETED)
        finish_cell(r, i);
}

static enum lab_run_stop check(const struct lab_run_env *env, char *why, size_t len)
{
    return env->check ? env->check(env->check_arg, why, len) : LAB_RUN_GO;
}

/* The loop's end: what was flagged, why it stopped, the run's status. */
static void end_run(struct lab_run *r)
{
    struct lab_run_outcome *out = r->out;
    if (out->flagged_runs)
        fprintf(stderr,
                "lab: %u run(s) were over a contention threshold (left out where at least 2 "
                "others remain); %u cell(s) rerun\n",
                out->flagged_runs, out->reruns);
    if (out->stop == LAB_RUN_GO)
        out->stop = check(r->env, out->why, sizeof out->why);
    out->ncells = r->ncells;
    if (out->stop == LAB_RUN_STOP_STORE || out->stop == LAB_RUN_STOP_LIBVIRT)
        lab_error("stopped after %zu of %zu cell(s): %s", out->done, r->ncells, out->why);
    out->status = lab_interrupted || out->stop == LAB_RUN_STOP_INTERRUPTED ? "interrupted"
                  : out->failed || out->stop                               ? "failed"
                                                                           : "ok";
    lab_store_run_end(r->env->store, r->env->run_id, out->status);
}

void lab_run_end_unstarted(struct lab_store *st, int64_t run)
{
    lab_store_run_end(st, run, lab_interrupted ? "interrupted" : "failed");
}

int lab_run_execute(struct lab_run *r, const struct lab_run_env *env, const struct lab_run_ops *ops,
                    void *engine, struct lab_run_outcome *out)
{
    memset(out, 0, sizeof *out);
    r->env = env;
    r->out = out;
    if (lab_run_ops_check(ops) < 0) {
        out->status = "failed";
        lab_store_run_end(env->store, env->run_id, out->status);
        return -1;
    }
    /* Real-time or not is decided once per run and stored on every cell. */
    for (size_t i = 0; i < r->ncells; i++) {
        r->cells[i].spec.rt_priority = env->rt_priority;
        r->cells[i].spec.rt_note = env->rt_note;
    }
    start_progress(r);
    /* Cells in order (reruns join the end as results come in); then what
     * the engine still holds, whose reruns run too unless the run stops. */
    for (size_t i = 0;;) {
        if (i < r->ncells && out->stop == LAB_RUN_GO) {
            if ((out->stop = check(env, out->why, sizeof out->why)) != LAB_RUN_GO)
                continue;
            start_cell(r, i++, ops, engine);
            out->done++;
            while (collect_one(r, ops, engine, 0))
                ;
        } else if (!collect_one(r, ops, engine, 1)) {
            break;
        }
    }
    lab_progress_stop(r->progress);
    r->progress = NULL;
    end_run(r);
    r->env = NULL;
    r->out = NULL;
    return 0;
}
