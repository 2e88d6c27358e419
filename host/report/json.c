/* A stored run as one JSON document (schema in README.md). Numbers that are
 * not finite (a zero-variance comparison's d) become null: JSON has no
 * infinity. */
#include "host/report/json.h"
#include "host/report/jsonval.h"
#include "host/plan/cpu.h"
#include "host/report/seedjson.h"
#include "kernels/catalog.h"
#include "host/stats/runmodel.h"
#include "host/plan/warmup.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/str.h"

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RA_GROUPS 32

/* "k=v k=v": integers as integers, other numbers as numbers, the rest as
 * strings, so a consumer never parses the agent's record format. */
static struct json_object *extra_object(const char *extra)
{
    struct json_object *o = json_object_new_object();
    char *copy = lab_xstrdup(extra ? extra : ""), *save;
    for (char *kv = strtok_r(copy, " ", &save); kv; kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '='), *end;
        if (!eq)
            continue;
        *eq = '\0';
        const char *v = eq + 1;
        long long i = strtoll(v, &end, 10);
        if (*v && !*end) {
            put(o, kv, json_object_new_int64(i));
            continue;
        }
        double d = strtod(v, &end);
        put(o, kv, *v && !*end ? num(d) : str(v));
    }
    free(copy);
    return o;
}

struct cell_ctx {
    struct json_object *samples;
    struct lab_warmup warmup;
};

static int add_sample(const struct lab_sample *s, void *arg)
{
    struct cell_ctx *c = arg;
    struct json_object *o = json_object_new_object();
    put(o, "rep", json_object_new_int(s->rep));
    put(o, "warmup", json_object_new_boolean(lab_warmup_is(c->warmup, (uint64_t)s->rep)));
    put(o, "test", str(s->test));
    put(o, "bytes", json_object_new_uint64(s->bytes));
    put(o, "real_ns", json_object_new_int64(s->real_ns));
    put(o, "user_ns", json_object_new_int64(s->user_ns));
    put(o, "sys_ns", json_object_new_int64(s->sys_ns));
    put(o, "guest_begin_ns", json_object_new_int64(s->guest_begin_ns));
    put(o, "guest_end_ns", json_object_new_int64(s->guest_end_ns));
    put(o, "host_begin_ns", json_object_new_int64(s->host_begin_ns));
    put(o, "host_end_ns", json_object_new_int64(s->host_end_ns));
    put(o, "extra", extra_object(s->extra));
    json_object_array_add(c->samples, o);
    return 0;
}

static int add_fact(const char *key, const char *value, void *arg)
{
    put(arg, key, str(value));
    return 0;
}

struct doc_ctx {
    struct lab_store *st;
    struct json_object *cells, *run;
    const char *run_profile;
};

/* version and arch from the catalog (the name is what the user typed); a
 * kernel no longer in the catalog keeps null. */
static void add_kernel_facts(struct json_object *o, const char *kernel)
{
    const struct lab_kernel *k = lab_kernel_find(kernel);
    put(o, "version", str(k ? k->version : NULL));
    put(o, "arch", str(k ? k->arch : NULL));
}

/* The cell's kernel failure (store schema 7) as an object. */
static int add_failure(const struct lab_cell_failure *f, void *arg)
{
    struct json_object *o = json_object_new_object();
    put(o, "headline", str(f->headline));
    put(o, "function", str(f->function));
    put(o, "offset", str(f->offset));
    put(o, "trace", str(f->trace));
    put(o, "bug_file", str(f->bug_file));
    put(o, "bug_line", f->bug_line > 0 ? json_object_new_int64(f->bug_line) : NULL);
    put(o, "panic", str(f->panic));
    put(o, "phase", str(f->phase));
    put(o, "avoid_key", str(f->avoid_key));
    *(struct json_object **)arg = o;
    return 0;
}

static int add_cell(const struct lab_cell_info *ci, void *arg)
{
    struct doc_ctx *d = arg;
    struct json_object *o = json_object_new_object(), *facts = json_object_new_object();
    struct cell_ctx c = {.samples = json_object_new_array()};
    char buf[256];
    lab_store_foreach_fact(d->st, ci->id, add_fact, facts);
    c.warmup = lab_warmup_of_cell(d->st, ci->id, ci->params);
    put(o, "id", json_object_new_int64(ci->id));
    put(o, "kernel", str(ci->kernel));
    add_kernel_facts(o, ci->kernel);
    put(o, "bus", str(lab_store_cell_get(d->st, ci->id, "bus", buf, sizeof buf)));
    const char *profile = lab_store_cell_get(d->st, ci->id, "profile", buf, sizeof buf);
    put(o, "profile", str(profile ? profile : d->run_profile));
    /* The boot, as a number (facts hold strings): what CI graphs. */
    const char *boot = lab_store_cell_get(d->st, ci->id, "boot_to_agent_ns", buf, sizeof buf);
    put(o, "boot_to_agent_ns", boot ? json_object_new_int64(strtoll(boot, NULL, 10)) : NULL);
    put(o, "experiment", str(ci->experiment));
    put(o, "params", str(ci->params));
    put(o, "status", str(ci->status));
    put(o, "reason", str(ci->reason));
    struct json_object *failure = NULL;
    lab_store_get_failure(d->st, ci->id, add_failure, &failure);
    put(o, "failure", failure);
    put(o, "facts", facts);
    lab_store_foreach_sample(d->st, ci->id, add_sample, &c);
    put(o, "samples", c.samples);
    json_object_array_add(d->cells, o);
    return 0;
}

static int add_run(const struct lab_run_info *r, void *arg)
{
    struct doc_ctx *d = arg;
    struct json_object *o = json_object_new_object();
    put(o, "id", json_object_new_int64(r->id));
    put(o, "command_line", str(r->command_line));
    put(o, "experiment", str(r->experiment));
    put(o, "profile", str(r->profile));
    put(o, "status", str(r->status));
    put(o, "started_wall_ns", json_object_new_int64(r->started_wall_ns));
    d->run = o;
    return 0;
}

static struct json_object *summary_object(const struct lab_summary *s)
{
    struct json_object *o = json_object_new_object();
    put(o, "n", json_object_new_int64((int64_t)s->n));
    put(o, "mean", num(s->mean));
    put(o, "ci_lo", num(s->ci_lo));
    put(o, "ci_hi", num(s->ci_hi));
    put(o, "stddev", num(s->stddev));
    put(o, "min", num(s->min));
    put(o, "median", num(s->median));
    put(o, "max", num(s->max));
    return o;
}

/* The shape's columns plus the compared figure (always among them today,
 * but a consumer should not have to know). */
static struct json_object *row_summaries(const struct lab_model *m, const struct lab_model_row *r)
{
    struct json_object *o = json_object_new_object();
    struct lab_summary s;
    for (const struct lab_column *c = m->shape->cols; c->title; c++)
        if (lab_model_summary(r, c->m, &s) == 0)
            put(o, lab_fig_name(c->m), summary_object(&s));
    if (!json_object_object_get_ex(o, lab_fig_name(m->shape->compare), NULL) &&
        lab_model_summary(r, m->shape->compare, &s) == 0)
        put(o, lab_fig_name(m->shape->compare), summary_object(&s));
    return o;
}

/* A row under a CPU profile (docs/cpu.md): its name, the nominal and the
 * calibration loop's range over the row's boots. Nothing for fast. */
static void put_cpu(struct json_object *o, const struct lab_model_row *r)
{
    const struct lab_cpu *c = lab_cpu_find(r->cpu);
    if (lab_cpu_is_fast(c))
        return;
    struct json_object *cpu = json_object_new_object();
    put(cpu, "name", str(c->name));
    put(cpu, "nominal_mips", num(lab_cpu_nominal_mips(c)));
    put(cpu, "measured_mips_min", r->nmips ? num(r->mips_min) : NULL);
    put(cpu, "measured_mips_max", r->nmips ? num(r->mips_max) : NULL);
    put(o, "cpu", cpu);
}

static struct json_object *rows_array(const struct lab_model *m)
{
    struct json_object *a = json_object_new_array();
    for (size_t i = 0; i < m->nrows; i++) {
        const struct lab_model_row *r = &m->rows[i];
        struct json_object *o = json_object_new_object();
        put(o, "label", str(r->label));
        put(o, "cell", json_object_new_int64(r->cell));
        struct json_object *cells = json_object_new_array();
        for (size_t k = 0; k < r->ncells; k++)
            json_object_array_add(cells, json_object_new_int64(r->cells[k]));
        put(o, "cells", cells);
        put(o, "boots", json_object_new_int64(r->nboots));
        put(o, "flagged", json_object_new_int64(r->flagged));
        put(o, "contended", json_object_new_boolean(r->contended));
        struct lab_boot_var bv;
        if (lab_model_boot_variation(r, m->shape->compare, &bv) == 0) {
            struct json_object *b = json_object_new_object(), *means = json_object_new_array();
            for (unsigned k = 0; k < bv.nboots; k++)
                json_object_array_add(means, num(bv.mean[k]));
            put(b, "figure", str(lab_fig_name(m->shape->compare)));
            put(b, "boot_means", means);
            put(b, "mean_of_boots", num(bv.grand_mean));
            put(b, "within_boot_sd", isnan(bv.within_sd) ? NULL : num(bv.within_sd));
            put(b, "between_boot_sd", isnan(bv.between_sd) ? NULL : num(bv.between_sd));
            put(o, "boot_variation", b);
        }
        put(o, "kernel", str(r->kernel));
        put(o, "transfer_mode", str(r->xfer[0] ? r->xfer : NULL));
        put(o, "transfer_pio", json_object_new_boolean(r->xfer_pio));
        put(o, "real_time", str(r->rt[0] ? r->rt : NULL));
        put(o, "readahead", r->ra >= 0 ? json_object_new_int64(r->ra) : NULL);
        put(o, "load", str(r->load[0] ? r->load : NULL));
        put(o, "scheduler", str(r->scheduler[0] ? r->scheduler : NULL));
        put(o, "status", str(r->status));
        put_cpu(o, r);
        put(o, "n", json_object_new_int64((int64_t)r->n));
        put(o, "summaries", row_summaries(m, r));
        json_object_array_add(a, o);
    }
    return a;
}

static struct json_object *cmp_object(const struct lab_model *m, const struct lab_model_cmp *mc)
{
    struct json_object *o = json_object_new_object();
    const struct lab_comparison *c = &mc->c;
    int ok = mc->verdict != LAB_VERDICT_TOO_FEW;
    put(o, "row", str(m->rows[mc->row].label));
    put(o, "base", str(m->rows[mc->base].label));
    put(o, "figure", str(lab_fig_name(m->shape->compare)));
    put(o, "verdict", str(lab_verdict_name(mc->verdict)));
    put(o, "significant", json_object_new_boolean(ok && c->significant));
    put(o, "method", ok ? str(lab_boot_method_name(mc->method)) : NULL);
    put(o, "boots", ok ? json_object_new_int64(mc->boots_b) : NULL);
    put(o, "base_boots", ok ? json_object_new_int64(mc->boots_a) : NULL);
    put(o, "p", ok ? num(mc->p) : NULL);
    put(o, "change_pct", ok ? num(c->diff_pct) : NULL);
    put(o, "change_ci_lo_pct", ok ? num(c->diff_ci_lo) : NULL);
    put(o, "change_ci_hi_pct", ok ? num(c->diff_ci_hi) : NULL);
    put(o, "welch_t", ok ? num(c->welch_t) : NULL);
    put(o, "welch_df", ok ? num(c->welch_df) : NULL);
    put(o, "welch_p", ok ? num(c->welch_p) : NULL);
    put(o, "mann_whitney_u", ok ? num(c->mwu_u) : NULL);
    put(o, "mann_whitney_p", ok ? num(c->mwu_p) : NULL);
    put(o, "cohen_d", ok ? num(c->cohen_d) : NULL);
    return o;
}

static struct json_object *compared_on(const struct lab_model *m)
{
    struct json_object *o = json_object_new_object();
    put(o, "figure", str(lab_fig_name(m->shape->compare)));
    put(o, "unit", str(lab_fig_unit(m->shape->compare)));
    put(o, "lower_is_better", json_object_new_boolean(lab_shape_lower_is_better(m->shape)));
    put(o, "alpha", num(LAB_STATS_ALPHA));
    return o;
}

struct json_object *lab_json_run(struct lab_store *st, int64_t run)
{
    struct doc_ctx d = {.st = st};
    if (lab_store_get_run(st, run, add_run, &d) != 0 || !d.run) {
        lab_error("no run %lld in the store (see `lab runs`)", (long long)run);
        return NULL;
    }
    struct lab_model *m = lab_model_load(st, run);
    if (!m) {
        json_object_put(d.run);
        return NULL;
    }
    struct json_object *doc = json_object_new_object();
    json_object *profile = NULL;
    json_object_object_get_ex(d.run, "profile", &profile);
    d.run_profile = profile ? json_object_get_string(profile) : NULL;
    d.cells = json_object_new_array();
    lab_store_foreach_cell(st, run, add_cell, &d);
    put(doc, "version", json_object_new_int(LAB_JSON_VERSION));
    put(doc, "run", d.run);
    put(doc, "test", str(m->test[0] ? m->test : NULL));
    put(doc, "compared_on", compared_on(m));
    put(doc, "cells", d.cells);
    put(doc, "rows", rows_array(m));
    struct json_object *cmps = json_object_new_array();
    for (size_t i = 0; i < m->ncmps; i++)
        json_object_array_add(cmps, cmp_object(m, &m->cmps[i]));
    put(doc, "comparisons", cmps);
    struct json_object *seed = lab_seed_json(m); /* only for an experiment with a thread */
    if (seed)
        put(doc, "reported", seed);
    lab_model_free(m);
    return doc;
}

char *lab_json_run_text(struct lab_store *st, int64_t run)
{
    struct json_object *doc = lab_json_run(st, run);
    if (!doc)
        return NULL;
    char *text = lab_asprintf("%s\n", json_object_to_json_string_ext(doc, LAB_JSON_FLAGS));
    json_object_put(doc);
    return text;
}

int lab_json_write(struct lab_store *st, int64_t run, const char *path)
{
    char *text = lab_json_run_text(st, run);
    int rc;
    if (!text)
        return -1;
    if (strcmp(path, "-") == 0)
        rc = fputs(text, stdout) < 0 || fflush(stdout) != 0
                 ? lab_error("cannot write the JSON to stdout")
                 : 0;
    else
        rc = lab_write_file(path, text, strlen(text));
    free(text);
    return rc;
}
