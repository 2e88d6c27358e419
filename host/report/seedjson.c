/* The seed thread's figures and findings as JSON (seedjson.h). */
#include "host/report/seedjson.h"
#include "host/report/jsonval.h"
#include "host/stats/agreement.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>

static struct json_object *maps(const struct lab_seed_view *v)
{
    struct json_object *a = json_object_new_array();
    for (size_t i = 0; i < v->nmaps; i++) {
        struct json_object *o = json_object_new_object();
        const struct lab_seed_map *s = &v->maps[i];
        put(o, "thread", str(s->thread));
        put(o, "lab", s->how == LAB_SEED_UNMAPPED ? NULL : str(s->lab));
        put(o, "how", str(lab_seed_how_name(s->how)));
        json_object_array_add(a, o);
    }
    return a;
}

static struct json_object *thread_figure(const struct lab_reported_fig *f)
{
    struct json_object *o = json_object_new_object(), *vals = NULL;
    put(o, "kernel", str(f->kernel));
    put(o, "row", str(f->qualifier));
    put(o, "figure", str(f->kind->word));
    put(o, "unit", str(f->kind->unit));
    put(o, "lab_figure", str(lab_fig_name(f->kind->fig)));
    if (!f->summary) {
        vals = json_object_new_array();
        for (size_t i = 0; i < f->nvalues; i++)
            json_object_array_add(vals, num(f->values[i]));
    }
    put(o, "values", vals);
    put(o, "runs", json_object_new_int64(f->runs));
    put(o, "mean", num(lab_reported_mean(f)));
    put(o, "min", f->summary ? num(f->min) : NULL);
    put(o, "max", f->summary ? num(f->max) : NULL);
    put(o, "sd", f->summary ? num(f->sd) : NULL);
    return o;
}

static struct json_object *rows(const struct lab_seed_view *v)
{
    struct json_object *a = json_object_new_array();
    for (size_t i = 0; i < v->nrows; i++) {
        const struct lab_seed_row *r = &v->rows[i];
        struct json_object *o = thread_figure(r->fig), *lab = NULL;
        struct lab_summary s;
        if (r->lab && lab_model_summary(r->lab, r->fig->kind->fig, &s) == 0) {
            lab = json_object_new_object();
            put(lab, "n", json_object_new_int64((int64_t)s.n));
            put(lab, "mean", num(s.mean));
            put(lab, "ci_lo", num(s.ci_lo));
            put(lab, "ci_hi", num(s.ci_hi));
        }
        put(o, "lab_row", r->lab ? str(r->lab->label) : NULL);
        put(o, "lab", lab);
        json_object_array_add(a, o);
    }
    return a;
}

static struct json_object *finding(const struct lab_seed_finding *d)
{
    struct json_object *o = json_object_new_object();
    int ok = d->lab_compared;
    put(o, "kernel", str(d->fig->kernel));
    put(o, "base", str(d->base->kernel));
    put(o, "row", str(d->fig->qualifier));
    put(o, "figure", str(d->fig->kind->word));
    put(o, "thread_change_pct", num(d->thread_pct));
    put(o, "thread_direction", str(lab_seed_direction(d->fig->kind, d->thread_pct)));
    put(o, "thread_p", d->thread_tested ? num(d->thread_p) : NULL);
    put(o, "thread_significant",
        d->thread_tested ? json_object_new_boolean(d->thread_significant) : NULL);
    put(o, "lab_row", d->lab ? str(d->lab->label) : NULL);
    put(o, "lab_base", d->lab_base ? str(d->lab_base->label) : NULL);
    put(o, "lab_change_pct", ok ? num(d->lab_c.diff_pct) : NULL);
    put(o, "lab_change_ci_lo_pct", ok ? num(d->lab_c.diff_ci_lo) : NULL);
    put(o, "lab_change_ci_hi_pct", ok ? num(d->lab_c.diff_ci_hi) : NULL);
    put(o, "lab_p", ok ? num(d->lab_c.welch_p) : NULL);
    put(o, "lab_significant", ok ? json_object_new_boolean(d->lab_c.significant) : NULL);
    put(o, "lab_direction", ok ? str(lab_seed_direction(d->fig->kind, d->lab_c.diff_pct)) : NULL);
    put(o, "agreement", str(lab_agreement_name(d->agreement)));
    return o;
}

struct json_object *lab_seed_json(const struct lab_model *m)
{
    struct lab_seed_view *v = lab_seed_view_load(m);
    if (!v)
        return NULL;
    struct json_object *o = json_object_new_object(), *f = json_object_new_array();
    put(o, "kernels", maps(v));
    put(o, "figures", rows(v));
    for (size_t i = 0; i < v->nfindings; i++)
        json_object_array_add(f, finding(&v->findings[i]));
    put(o, "findings", f);
    lab_seed_view_free(v);
    return o;
}
