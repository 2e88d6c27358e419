/* A run against its seed's thread: kernels mapped, rows matched, findings
 * compared (agreement.h). */
#include "host/stats/agreement.h"
#include "common/str.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const how_names[] = {
    [LAB_SEED_UNMAPPED] = "not run",
    [LAB_SEED_SAME] = "same",
    [LAB_SEED_STAND_IN] = "stand_in",
    [LAB_SEED_POSITION] = "position",
};

static const struct {
    const char *name, *text;
} agreements[] = {
    [LAB_AGREE_NOT_RUN] = {"not-run", "not run here"},
    [LAB_AGREE_TOO_FEW] = {"too-few", "too few runs here to compare"},
    [LAB_AGREE_YES] = {"agrees", "agrees (significant here, the same way)"},
    [LAB_AGREE_OPPOSITE] = {"opposite", "DISAGREES (significant here, the other way)"},
    [LAB_AGREE_UNCONFIRMED] = {"unconfirmed", "not confirmed (no significant change here)"},
    [LAB_AGREE_NEITHER] = {"agrees-none", "agrees (neither change is significant)"},
    [LAB_AGREE_LAB_ONLY] = {"lab-only", "differs (significant here, not in the thread's own runs)"},
};

const char *lab_seed_how_name(enum lab_seed_how h)
{
    return how_names[h];
}

const char *lab_agreement_name(enum lab_agreement a)
{
    return agreements[a].name;
}

const char *lab_agreement_text(enum lab_agreement a)
{
    return agreements[a].text;
}

const char *lab_seed_direction(const struct lab_reported_kind *k, double pct)
{
    if (pct == 0 || isnan(pct))
        return "no change";
    if (k->better == 0)
        return pct > 0 ? "higher" : "lower";
    return (pct > 0) == (k->better > 0) ? "faster" : "slower";
}

const struct lab_seed_map *lab_seed_map_of(const struct lab_seed_view *v, const char *thread)
{
    for (size_t i = 0; i < v->nmaps; i++)
        if (strcmp(v->maps[i].thread, thread) == 0)
            return v->maps[i].how == LAB_SEED_UNMAPPED ? NULL : &v->maps[i];
    return NULL;
}

/* The thread's kernels: the kernels key in its order, then any other
 * kernel a figure names, in the order of the figures. */
static void thread_kernels(struct lab_seed_view *v)
{
    const struct lab_reported *r = &v->rep;
    for (size_t i = 0; i < r->nkernels + r->nfigs; i++) {
        const char *k = i < r->nkernels ? r->kernels[i] : r->figs[i - r->nkernels].kernel;
        int seen = 0;
        for (size_t j = 0; j < v->nmaps; j++)
            seen |= strcmp(v->maps[j].thread, k) == 0;
        if (!seen && v->nmaps < sizeof v->maps / sizeof v->maps[0])
            snprintf(v->maps[v->nmaps++].thread, LAB_REPORTED_NAME, "%s", k);
    }
}

static int lab_has_kernel(const struct lab_model *m, const char *k)
{
    for (size_t i = 0; i < m->nrows; i++)
        if (strcmp(m->rows[i].kernel, k) == 0)
            return 1;
    return 0;
}

static int lab_kernel_taken(const struct lab_seed_view *v, const char *k)
{
    for (size_t i = 0; i < v->nmaps; i++)
        if (v->maps[i].how != LAB_SEED_UNMAPPED && strcmp(v->maps[i].lab, k) == 0)
            return 1;
    return 0;
}

/* The run's kernels no thread kernel took, in run order (at most max). */
static size_t free_lab_kernels(const struct lab_model *m, const struct lab_seed_view *v,
                               const char **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < m->nrows; i++) {
        const char *k = m->rows[i].kernel;
        int dup = 0;
        for (size_t j = 0; j < n; j++)
            dup |= strcmp(out[j], k) == 0;
        if (!dup && !lab_kernel_taken(v, k) && n < max)
            out[n++] = k;
    }
    return n;
}

/* Pairs, in order, the thread's kernels left unmapped among its first n
 * with the run's kernels no one took, when they are as many. */
static void map_by_position(struct lab_seed_view *v, const struct lab_model *m, size_t n)
{
    const char *left[LAB_MODEL_MAX_ROWS];
    size_t nleft = free_lab_kernels(m, v, left, LAB_MODEL_MAX_ROWS), unmapped = 0;
    for (size_t i = 0; i < n; i++)
        unmapped += v->maps[i].how == LAB_SEED_UNMAPPED;
    if (nleft == 0 || nleft != unmapped)
        return;
    for (size_t i = 0, k = 0; i < n; i++)
        if (v->maps[i].how == LAB_SEED_UNMAPPED) {
            snprintf(v->maps[i].lab, sizeof v->maps[i].lab, "%s", left[k++]);
            v->maps[i].how = LAB_SEED_POSITION;
        }
}

/* Stand-ins first, then kernels the lab ran by the thread's name; the
 * rest pair up in order (the user ran other kernels for the thread's:
 * --kernels A,B): the kernels line's when as many of the run's are left
 * (contest's 2.4.20, not its patched variants), else all the thread's. */
static void map_kernels(struct lab_seed_view *v, const struct lab_model *m)
{
    for (size_t i = 0; i < v->nmaps; i++) {
        struct lab_seed_map *s = &v->maps[i];
        for (size_t j = 0; j < v->rep.nstand_ins; j++)
            if (strcmp(v->rep.stand_ins[j].thread, s->thread) == 0 &&
                lab_has_kernel(m, v->rep.stand_ins[j].lab)) {
                snprintf(s->lab, sizeof s->lab, "%s", v->rep.stand_ins[j].lab);
                s->how = LAB_SEED_STAND_IN;
            }
    }
    for (size_t i = 0; i < v->nmaps; i++) {
        struct lab_seed_map *s = &v->maps[i];
        if (s->how == LAB_SEED_UNMAPPED && lab_has_kernel(m, s->thread) &&
            !lab_kernel_taken(v, s->thread)) {
            snprintf(s->lab, sizeof s->lab, "%s", s->thread);
            s->how = LAB_SEED_SAME;
        }
    }
    map_by_position(v, m, v->rep.nkernels);
    map_by_position(v, m, v->nmaps);
}

/* The lab's row for a thread's kernel and row, with samples of the figure. */
static const struct lab_model_row *lab_row(const struct lab_seed_view *v, const struct lab_model *m,
                                           const char *kernel, const char *qualifier)
{
    const struct lab_seed_map *s = lab_seed_map_of(v, kernel);
    if (!s)
        return NULL;
    char label[sizeof m->rows[0].label];
    snprintf(label, sizeof label, "%s%s%s", s->lab, qualifier[0] ? " " : "", qualifier);
    for (size_t i = 0; i < m->nrows; i++)
        if (strcmp(m->rows[i].label, label) == 0)
            return &m->rows[i];
    return NULL;
}

/* The thread's first kernel with a figure of this kind at this row. */
static const struct lab_reported_fig *base_of(const struct lab_seed_view *v,
                                              const struct lab_reported_fig *f)
{
    for (size_t i = 0; i < v->nmaps; i++)
        for (size_t j = 0; j < v->rep.nfigs; j++) {
            const struct lab_reported_fig *b = &v->rep.figs[j];
            if (strcmp(b->kernel, v->maps[i].thread) == 0 && b->kind == f->kind &&
                strcmp(b->qualifier, f->qualifier) == 0)
                return b == f ? NULL : b;
        }
    return NULL;
}

static enum lab_agreement agree(const struct lab_seed_finding *f)
{
    if (!f->lab || !f->lab_base)
        return LAB_AGREE_NOT_RUN;
    if (!f->lab_compared)
        return LAB_AGREE_TOO_FEW;
    int lab_sig = f->lab_c.significant;
    if (f->thread_tested && !f->thread_significant)
        return lab_sig ? LAB_AGREE_LAB_ONLY : LAB_AGREE_NEITHER;
    if (f->thread_pct == 0)
        return lab_sig ? LAB_AGREE_LAB_ONLY : LAB_AGREE_NEITHER;
    if (!lab_sig)
        return LAB_AGREE_UNCONFIRMED;
    return (f->lab_c.diff_pct > 0) == (f->thread_pct > 0) ? LAB_AGREE_YES : LAB_AGREE_OPPOSITE;
}

static void add_finding(struct lab_seed_view *v, const struct lab_model *m,
                        const struct lab_reported_fig *f, const struct lab_reported_fig *b)
{
    struct lab_seed_finding *d = &v->findings[v->nfindings++];
    memset(d, 0, sizeof *d);
    d->fig = f;
    d->base = b;
    double mf = lab_reported_mean(f), mb = lab_reported_mean(b);
    d->thread_pct = mb > 0 ? (mf - mb) / mb * 100 : 0;
    struct lab_comparison tc;
    if (!f->summary && !b->summary &&
        lab_compare(b->values, b->nvalues, f->values, f->nvalues, &tc) == 0) {
        d->thread_tested = 1;
        d->thread_p = tc.welch_p;
        d->thread_significant = tc.significant;
    }
    d->lab = lab_row(v, m, f->kernel, f->qualifier);
    d->lab_base = lab_row(v, m, b->kernel, b->qualifier);
    enum lab_fig g = f->kind->fig;
    d->lab_compared =
        d->lab && d->lab_base && strcmp(d->lab->status, "ok") == 0 &&
        strcmp(d->lab_base->status, "ok") == 0 &&
        lab_compare(d->lab_base->v[g], d->lab_base->n, d->lab->v[g], d->lab->n, &d->lab_c) == 0;
    d->agreement = agree(d);
}

struct lab_seed_view *lab_seed_view_build(const struct lab_model *m, const struct lab_reported *r)
{
    struct lab_seed_view *v = lab_xcalloc(1, sizeof *v);
    v->rep = *r;
    thread_kernels(v);
    map_kernels(v, m);
    for (size_t i = 0; i < v->rep.nfigs; i++) {
        const struct lab_reported_fig *f = &v->rep.figs[i];
        v->rows[v->nrows++] = (struct lab_seed_row){f, lab_row(v, m, f->kernel, f->qualifier)};
    }
    for (size_t i = 0; i < v->rep.nfigs; i++) {
        const struct lab_reported_fig *b = base_of(v, &v->rep.figs[i]);
        if (b)
            add_finding(v, m, &v->rep.figs[i], b);
    }
    return v;
}

/* The text one of the run's cells stored (each stores the same); 0 when
 * none did. */
static int stored_text(const struct lab_model *m, char *buf, size_t len, int64_t *cell)
{
    for (size_t i = 0; i < m->nrows; i++)
        for (size_t c = 0; c < m->rows[i].ncells; c++)
            if (lab_store_cell_get(m->st, m->rows[i].cells[c], "reported", buf, len)) {
                *cell = m->rows[i].cells[c];
                return 1;
            }
    return 0;
}

struct lab_seed_view *lab_seed_view_load(const struct lab_model *m)
{
    char *text = lab_xcalloc(1, LAB_REPORTED_TEXT_MAX + 1);
    struct lab_reported *r = lab_xcalloc(1, sizeof *r);
    struct lab_seed_view *v = NULL;
    int64_t cell;
    if (m->st && stored_text(m, text, LAB_REPORTED_TEXT_MAX + 1, &cell)) {
        char *where = lab_asprintf("run %lld, cell %lld: the stored reported figures",
                                   (long long)m->run, (long long)cell);
        if (lab_reported_parse(where, text, r) == 0)
            v = lab_seed_view_build(m, r);
        free(where);
    }
    free(r);
    free(text);
    return v;
}

void lab_seed_view_free(struct lab_seed_view *v)
{
    free(v);
}
