/* The bisection's real ops; see bisectcells.h. */
#include "host/bisect/bisectcells.h"
#include "host/plan/testdef.h"
#include "host/plan/warmup.h"
#include "host/cell/accel.h"
#include "host/cell/cpuprobe.h"
#include "host/bisect/git.h"
#include "host/cell/smoke.h"
#include "host/store/store.h"
#include "kernels/build.h"
#include "kernels/catalog.h"

#include "common/clock.h"
#include "common/interrupt.h"
#include "common/msg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether cells of exp give metric, one figure per kernel: 0, or -1 said. */
static int check_metric(const struct lab_experiment *exp, const struct lab_metric *m)
{
    if (exp->load_list || exp->readahead_list)
        return lab_error("bisect measures one figure per kernel: experiment %s has a %s", exp->name,
                         exp->load_list ? "load_list" : "readahead_list");
    if (!lab_test_gives(lab_test_find(exp->test), m)) {
        char *tests = lab_metric_tests(m);
        lab_error("metric %s needs a %s experiment (%s runs %s)", m->name, tests, exp->name,
                  exp->test);
        free(tests);
        return -1;
    }
    return 0;
}

int lab_bisect_cells_prepare(struct lab_bisect_cells *c, const struct lab_metric *metric,
                             const char *experiment, char **sets, size_t nsets, const char *profile)
{
    c->metric = metric;
    c->sets = sets;
    c->nsets = nsets;
    if (lab_experiment_prepare(experiment, sets, nsets, &c->exp) < 0)
        return -1;
    if (check_metric(&c->exp, c->metric) < 0 || lab_profile_resolve(profile, &c->profile) < 0 ||
        (c->cpu && !(c->profile.cpu = lab_cpu_resolve(c->cpu)))) {
        lab_experiment_free(&c->exp);
        return -1;
    }
    return 0;
}

void lab_bisect_cells_free(struct lab_bisect_cells *c)
{
    lab_experiment_free(&c->exp);
}

void lab_bisect_cells_setup(struct lab_bisect_cells *c, const char (*commits)[41], size_t n,
                            const struct lab_bisect_row *row, struct lab_bisect_setup *out)
{
    *out = (struct lab_bisect_setup){
        .commits = commits, .ncommits = n, .row = *row, .ops = &lab_bisect_cell_ops, .ops_ctx = c};
    out->row.good = commits[0];
    out->row.bad = commits[n - 1];
    out->row.experiment = c->exp.name;
    out->row.profile = c->profile.name;
}

/* Builds the commit (or finds it built); its kernel name into kernel. 0, or
 * -1 when it does not build or fails the IO smoke test (a skip). */
static int cells_build(void *ctx, const char *hash, char *kernel, size_t len)
{
    struct lab_bisect_cells *c = ctx;
    struct lab_build_spec b = {
        .repo = c->repo, .ref = hash, .fragment = c->fragment, .cc = c->cc, .arch = c->arch};
    char *name = NULL;
    int64_t t0 = lab_now_ns();
    fprintf(stderr, "lab: bisect: building %.12s\n", hash);
    if (lab_kernel_build(&b, &name) != 0)
        return -1;
    fprintf(stderr, "lab: bisect: %.12s is kernel %s (%.0f s)\n", hash, name,
            (double)(lab_now_ns() - t0) / 1e9);
    snprintf(kernel, len, "%s", name);
    free(name);
    /* Never trust what only links: a build that fails the IO smoke test is
     * a skip, like one that does not build. */
    char note[1024];
    int v = lab_kernel_verify(&c->env, kernel, c->accel, 0, note, sizeof note);
    if (v != 1) {
        if (!lab_interrupted)
            lab_warn("bisect: %.12s: %s the IO smoke test: %s", hash,
                     v == 0 ? "failed" : "could not run", note);
        return -1;
    }
    return 0;
}

/* The cell's spec, checked, with the accelerator chosen at the first. */
static int cell_spec(struct lab_bisect_cells *c, const struct lab_kernel *k,
                     struct lab_cell_spec *spec, char *reason, size_t rlen)
{
    *spec = (struct lab_cell_spec){.kernel = k,
                                   .exp = &c->exp,
                                   .profile = &c->profile,
                                   .cpu = c->profile.cpu,
                                   .timeout_s = c->timeout_s,
                                   .rt_priority = c->rt_priority,
                                   .rt_note = c->rt_note};
    if (lab_cell_check(spec, reason, rlen) < 0)
        return -1;
    if (access(lab_agent_path(k->arch), R_OK) != 0) {
        snprintf(reason, rlen, "the guest agent %s is missing; run `make` first",
                 lab_agent_path(k->arch));
        return -1;
    }
    if (!c->virt_type) {
        c->virt_type = lab_accel_choose(c->accel, &c->env, spec);
        if (!c->virt_type) {
            snprintf(reason, rlen, "no accelerator");
            return -1;
        }
        /* A CPU profile this host cannot sustain: no step is measured. */
        if (lab_cpu_check_headroom(spec->cpu, &c->env, spec) < 0) {
            c->virt_type = NULL;
            snprintf(reason, rlen, "CPU profile %s: not enough headroom on this host",
                     spec->cpu->name);
            return -1;
        }
    }
    spec->virt_type = c->virt_type;
    return 0;
}

static int last_cell_cb(const struct lab_cell_info *ci, void *p)
{
    *(int64_t *)p = ci->id;
    return 0;
}

struct sample_ctx {
    const struct lab_metric *m;
    struct lab_warmup warmup;
    unsigned bad;
    struct lab_bisect_values *out;
};

static int sample_cb(const struct lab_sample *s, void *p)
{
    struct sample_ctx *sc = p;
    if (lab_warmup_is(sc->warmup, (uint64_t)s->rep))
        return 0;
    double v = lab_metric_value(sc->m, s);
    if (isnan(v))
        sc->bad++;
    else
        lab_bisect_values_add(sc->out, v);
    return 0;
}

/* One cell of reps runs of the kernel; its counted values are added. */
static int cells_measure(void *ctx, const char *kernel, unsigned reps,
                         struct lab_bisect_values *out, int64_t *cell, char *reason, size_t rlen)
{
    struct lab_bisect_cells *c = ctx;
    const struct lab_kernel *k = lab_kernel_find(kernel); /* builds reload the catalog */
    *cell = -1;
    if (!k) {
        snprintf(reason, rlen, "kernel %s is not registered", kernel);
        return -1;
    }
    c->exp.reps = reps;
    struct lab_cell_spec spec;
    if (cell_spec(c, k, &spec, reason, rlen) < 0)
        return -1;
    struct lab_cell_result res;
    int rc = lab_cell_run(&c->env, &spec, &res);
    lab_store_foreach_cell(c->env.store, c->env.run_id, last_cell_cb, cell);
    if (rc < 0) {
        snprintf(reason, rlen, "cell %s: %.200s", lab_cell_status_name(res.status), res.reason);
        return -1;
    }
    return lab_bisect_cells_values(c, *cell, reps, out, reason, rlen);
}

int lab_bisect_cells_values(const struct lab_bisect_cells *c, int64_t cell, unsigned reps,
                            struct lab_bisect_values *out, char *reason, size_t rlen)
{
    struct lab_experiment planned = c->exp; /* as the cell was planned: reps counted runs */
    planned.reps = reps;
    struct sample_ctx sc = {
        .m = c->metric, .warmup = lab_warmup_of_experiment(&planned), .out = out};
    size_t before = out->n;
    lab_store_foreach_sample(c->env.store, cell, sample_cb, &sc);
    if (sc.bad || out->n - before < reps) {
        snprintf(reason, rlen, "%u of %u run(s) gave no %s",
                 sc.bad + reps - (unsigned)(out->n - before), reps, c->metric->name);
        return -1;
    }
    return 0;
}

static void cells_describe(void *ctx, const char *commit, char *subject, size_t len)
{
    const struct lab_bisect_cells *c = ctx;
    lab_git_subject(c->repo, commit, subject, len);
}

const struct lab_bisect_ops lab_bisect_cell_ops = {
    .build = cells_build,
    .measure = cells_measure,
    .describe = cells_describe,
};
