/* The bisection driver; see bisectdriver.h. The decisions are
 * host/bisect/bisect.c's; this is the order of builds, boots and records. */
#include "host/bisect/bisectdriver.h"
#include "host/bisect/store_bisect.h"

#include "common/clock.h"
#include "common/str.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Boots per measurement: the runs of a step or an endpoint are split over
 * two interleaved boots (at least 2 runs each), so decisions take the boot
 * as their unit (host/stats/bootstats.h). */
#define BISECT_BOOTS 2

void lab_bisect_values_add(struct lab_bisect_values *x, double v)
{
    if (x->n == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 32;
        x->v = realloc(x->v, x->cap * sizeof *x->v);
        x->boot = realloc(x->boot, x->cap * sizeof *x->boot);
        if (!x->v || !x->boot)
            abort();
    }
    x->boot[x->n] = x->nboots;
    x->v[x->n++] = v;
}

void lab_bisect_values_free(struct lab_bisect_values *x)
{
    free(x->v);
    free(x->boot);
    memset(x, 0, sizeof *x);
}

/* One bisection in progress. */
struct drive {
    const struct lab_bisect_setup *set;
    struct lab_store *st;
    struct lab_bisect_result *r;
    enum lab_bisect_verdict *states; /* per commit, for the picker */
    struct lab_bisect_values vgood, vbad;
    unsigned per; /* runs per boot */
    char stop_why[600];
};

static unsigned runs_per_boot(unsigned reps)
{
    unsigned per = (reps + BISECT_BOOTS - 1) / BISECT_BOOTS;
    return per < 2 ? 2 : per;
}

/* Whether the bisection must stop now (the stop hook: Ctrl-C, a store that
 * cannot be written, a lost libvirt). The step in progress then gets no
 * verdict: what failed, failed because of the stop. */
static int stopped(struct drive *d)
{
    const struct lab_bisect_hooks *h = &d->set->hooks;
    if (d->r->stop == LAB_BISECT_RUN_ON && h->stop)
        d->r->stop = h->stop(h->ctx, d->stop_why, sizeof d->stop_why);
    return d->r->stop != LAB_BISECT_RUN_ON;
}

static void report(struct drive *d, struct lab_bisect_event ev)
{
    const struct lab_bisect_hooks *h = &d->set->hooks;
    ev.set = d->set;
    ev.id = d->r->id;
    if (h->report)
        h->report(h->ctx, &ev);
}

static void fill_stats(struct lab_bisect_step *s, const struct lab_bisect_values *v)
{
    if (v->n)
        lab_summarize(v->v, v->n, &s->sum);
    else
        memset(&s->sum, 0, sizeof s->sum);
}

static void step_init(struct drive *d, struct lab_bisect_step *s, const char *role,
                      const char *commit, int stepno)
{
    s->step = stepno;
    snprintf(s->role, sizeof s->role, "%s", role);
    snprintf(s->commit, sizeof s->commit, "%s", commit);
    d->set->ops->describe(d->set->ops_ctx, commit, s->subject, sizeof s->subject);
    s->p_good = s->p_bad = s->d_good = s->d_bad = NAN;
}

static void add_cell(struct lab_bisect_step *s, int64_t cell)
{
    if (cell > 0 && s->ncells < sizeof s->cells / sizeof s->cells[0])
        s->cells[s->ncells++] = cell;
}

static int build(struct drive *d, struct lab_bisect_step *s)
{
    return d->set->ops->build(d->set->ops_ctx, s->commit, s->kernel, sizeof s->kernel);
}

/* The next n boots of the kernel, told to ops that start boots ahead. */
static void queue(struct drive *d, const char *kernel, unsigned reps, int n)
{
    for (int i = 0; i < n && d->set->ops->queue; i++)
        d->set->ops->queue(d->set->ops_ctx, kernel, reps);
}

/* One boot of the kernel, its values added to v. */
static int measure(struct drive *d, const char *kernel, unsigned reps, struct lab_bisect_values *v,
                   int64_t *cell, char *why, size_t len)
{
    *cell = -1;
    v->nboots++;
    return d->set->ops->measure(d->set->ops_ctx, kernel, reps, v, cell, why, len);
}

/* ---- 1. the endpoints ---- */

/* Boot `round` of endpoint e (0 good, 1 bad), built first in round 0. 0,
 * or -1 to end the round: stopped, or r->message says why not. */
static int endpoint_boot(struct drive *d, int e, int round)
{
    struct lab_bisect_result *r = d->r;
    struct lab_bisect_step *s = &r->steps[e];
    struct lab_bisect_values *v = e ? &d->vbad : &d->vgood;
    if (round == 0) {
        r->nsteps++;
        step_init(d, s, e ? "bad" : "good", d->set->commits[e ? d->set->ncommits - 1 : 0], 0);
        s->verdict = e ? LAB_BISECT_BAD : LAB_BISECT_GOOD;
        int built = build(d, s) == 0;
        if (stopped(d)) { /* a build cut short, or one that finished after Ctrl-C */
            r->nsteps--;
            return -1;
        }
        if (!built) {
            snprintf(r->message, sizeof r->message, "the %s endpoint %.12s does not build", s->role,
                     s->commit);
            s->verdict = LAB_BISECT_SKIP;
            snprintf(s->reason, sizeof s->reason, "build failed");
            return -1;
        }
        queue(d, s->kernel, d->per, BISECT_BOOTS);
    }
    int64_t cell;
    if (measure(d, s->kernel, d->per, v, &cell, s->reason, sizeof s->reason) < 0) {
        if (stopped(d)) {
            if (round == 0)
                r->nsteps--;
            return -1;
        }
        add_cell(s, cell);
        snprintf(r->message, sizeof r->message, "the %s endpoint %.12s: %s", s->role, s->commit,
                 s->reason);
        s->verdict = LAB_BISECT_SKIP;
        return -1;
    }
    add_cell(s, cell);
    fill_stats(s, v);
    if (round == BISECT_BOOTS - 1)
        report(d, (struct lab_bisect_event){.kind = LAB_BISECT_EV_DECIDED, .step = s});
    return 0;
}

/* Both endpoints measured, stored and compared: 0 when they differ. */
static int endpoints(struct drive *d)
{
    struct lab_bisect_result *r = d->r;
    for (int round = 0; round < BISECT_BOOTS && !r->message[0] && !stopped(d); round++)
        for (int e = 0; e < 2 && !stopped(d); e++)
            if (endpoint_boot(d, e, round) < 0)
                break;
    if (stopped(d) || r->message[0]) {
        for (size_t i = 0; i < r->nsteps; i++) {
            fill_stats(&r->steps[i], i ? &d->vbad : &d->vgood);
            lab_store_bisect_add_step(d->st, r->id, &r->steps[i]);
        }
        if (!r->message[0])
            snprintf(r->message, sizeof r->message, "%.400s", d->stop_why);
        r->status = r->stop == LAB_BISECT_STOP_SIGNAL ? "interrupted" : "failed";
        r->rc = r->stop == LAB_BISECT_STOP_SIGNAL ? 130 : 1;
        return -1;
    }
    struct lab_bisect_step *bad = &r->steps[1];
    lab_bisect_check_endpoints_boots(d->vgood.v, d->vgood.boot, d->vgood.n, d->vbad.v, d->vbad.boot,
                                     d->vbad.n, d->set->row.threshold_pct, LAB_STATS_ALPHA,
                                     &r->ends);
    bad->p_good = r->ends.cmp.welch_p;
    bad->d_good = r->ends.cmp.cohen_d;
    snprintf(bad->reason, sizeof bad->reason, "%s", r->ends.reason);
    for (size_t i = 0; i < r->nsteps; i++)
        lab_store_bisect_add_step(d->st, r->id, &r->steps[i]);
    if (!r->ends.differ) {
        snprintf(r->message, sizeof r->message, "%s", r->ends.reason);
        r->status = "refused";
        r->rc = 2;
        return -1;
    }
    report(d, (struct lab_bisect_event){.kind = LAB_BISECT_EV_ENDPOINTS, .ends = &r->ends});
    d->states[0] = LAB_BISECT_GOOD;
    d->states[d->set->ncommits - 1] = LAB_BISECT_BAD;
    return 0;
}

/* ---- 2. the steps ---- */

/* The endpoint nearer to the step's mean gets another boot beside it. */
static void remeasure_nearer(struct drive *d, const struct lab_bisect_step *s,
                             const struct lab_bisect_values *v, unsigned want)
{
    struct lab_summary sg, sb, ss;
    lab_summarize(d->vgood.v, d->vgood.n, &sg);
    lab_summarize(d->vbad.v, d->vbad.n, &sb);
    lab_summarize(v->v, v->n, &ss);
    int near_bad = fabs(ss.mean - sb.mean) < fabs(ss.mean - sg.mean);
    struct lab_bisect_step *ep = &d->r->steps[near_bad ? 1 : 0];
    report(d,
           (struct lab_bisect_event){.kind = LAB_BISECT_EV_REMEASURE, .step = s, .endpoint = ep});
    queue(d, ep->kernel, d->per, 1);
    queue(d, s->kernel, want, 1); /* the step's next boot, beside the endpoint's */
    int64_t cell;
    char why[256];
    if (measure(d, ep->kernel, d->per, near_bad ? &d->vbad : &d->vgood, &cell, why, sizeof why) ==
        0)
        add_cell(ep, cell);
}

/* Boots of the built step until it is decided, a skip, or stopped. */
static void decide_step(struct drive *d, struct lab_bisect_step *s, struct lab_bisect_values *v)
{
    const struct lab_bisect_row *row = &d->set->row;
    unsigned want = d->per;
    int boots_left = BISECT_BOOTS; /* the first decision sees two boots */
    for (;;) {
        int64_t cell;
        char why[256];
        int m = measure(d, s->kernel, want, v, &cell, why, sizeof why);
        add_cell(s, cell);
        if (stopped(d))
            return; /* no verdict from a cell cut short */
        if (m < 0) {
            s->verdict = LAB_BISECT_SKIP;
            snprintf(s->reason, sizeof s->reason, "%.200s (skip)", why);
            return;
        }
        if (--boots_left > 0)
            continue;
        struct lab_bisect_decision dec;
        lab_bisect_decide_boots(d->vgood.v, d->vgood.boot, d->vgood.n, d->vbad.v, d->vbad.boot,
                                d->vbad.n, v->v, v->boot, v->n, row->threshold_pct, LAB_STATS_ALPHA,
                                &dec);
        s->verdict = dec.verdict;
        snprintf(s->reason, sizeof s->reason, "%s", dec.reason);
        if (dec.have_cmp) {
            s->p_good = dec.vs_good.welch_p;
            s->p_bad = dec.vs_bad.welch_p;
            s->d_good = dec.vs_good.cohen_d;
            s->d_bad = dec.vs_bad.cohen_d;
        }
        if (dec.verdict != LAB_BISECT_INCONCLUSIVE)
            return;
        want = lab_bisect_more_reps((unsigned)v->n, row->max_reps);
        if (want == 0) { /* stays inconclusive: a skip for the picker */
            snprintf(s->reason, sizeof s->reason, "%s; still at n=%zu (skip)", dec.reason, v->n);
            return;
        }
        remeasure_nearer(d, s, v, want);
        report(d, (struct lab_bisect_event){.kind = LAB_BISECT_EV_MORE,
                                            .step = s,
                                            .n = v->n,
                                            .more = want,
                                            .reason = dec.reason});
    }
}

/* The step the picker chose: built, measured, decided, stored. 0, or -1
 * when stopped (the step is then dropped). */
static int one_step(struct drive *d, int stepno, const struct lab_bisect_pick *pick)
{
    struct lab_bisect_result *r = d->r;
    struct lab_bisect_step *s = &r->steps[r->nsteps++];
    struct lab_bisect_values v = {0};
    step_init(d, s, "step", d->set->commits[pick->index], stepno);
    report(d, (struct lab_bisect_event){
                  .kind = LAB_BISECT_EV_STEP, .step = s, .left = pick->hi - pick->lo - 1});
    int built = build(d, s) == 0;
    if (stopped(d)) {
        r->nsteps--;
        return -1;
    }
    if (!built) {
        s->verdict = LAB_BISECT_SKIP;
        snprintf(s->reason, sizeof s->reason, "build failed (skip, like git bisect's 125)");
    } else {
        queue(d, s->kernel, d->per, BISECT_BOOTS);
        decide_step(d, s, &v);
    }
    if (r->stop != LAB_BISECT_RUN_ON) {
        lab_bisect_values_free(&v);
        r->nsteps--; /* the interrupted step is not recorded: no verdict */
        return -1;
    }
    fill_stats(s, &v);
    lab_bisect_values_free(&v);
    d->states[pick->index] = s->verdict == LAB_BISECT_GOOD  ? LAB_BISECT_GOOD
                             : s->verdict == LAB_BISECT_BAD ? LAB_BISECT_BAD
                                                            : LAB_BISECT_SKIP;
    report(d, (struct lab_bisect_event){.kind = LAB_BISECT_EV_DECIDED, .step = s});
    lab_store_bisect_add_step(d->st, r->id, s);
    return 0;
}

/* ---- 3. the verdict ---- */

static void conclude(struct drive *d, const struct lab_bisect_pick *pick)
{
    struct lab_bisect_result *r = d->r;
    const char(*c)[41] = d->set->commits;
    if (r->stop != LAB_BISECT_RUN_ON) {
        r->status = r->stop == LAB_BISECT_STOP_SIGNAL ? "interrupted" : "failed";
        snprintf(r->message, sizeof r->message, "%.400s", d->stop_why);
        r->rc = r->stop == LAB_BISECT_STOP_SIGNAL ? 130 : 1;
    } else if (pick->status == LAB_BISECT_FOUND) {
        r->status = "found";
        snprintf(r->first_bad, sizeof r->first_bad, "%s", c[pick->index]);
        d->set->ops->describe(d->set->ops_ctx, r->first_bad, r->first_bad_subject,
                              sizeof r->first_bad_subject);
        snprintf(r->message, sizeof r->message, "%s", r->ends.reason);
        r->rc = 0;
    } else if (pick->status == LAB_BISECT_AMBIGUOUS) {
        r->status = "ambiguous";
        snprintf(r->message, sizeof r->message,
                 "the first bad commit is one of %zu: %.12s..%.12s (the others were skipped)",
                 pick->hi - pick->lo, c[pick->lo + 1], c[pick->hi]);
        r->rc = 1;
    } else {
        snprintf(r->message, sizeof r->message, "the steps contradict the endpoints");
        r->rc = 1;
    }
    /* The endpoints as last re-measured. */
    fill_stats(&r->steps[0], &d->vgood);
    fill_stats(&r->steps[1], &d->vbad);
}

int lab_bisect_drive(const struct lab_bisect_setup *set, struct lab_store *st,
                     struct lab_bisect_result *r)
{
    memset(r, 0, sizeof *r);
    r->status = "failed";
    r->rc = 1;
    r->steps = lab_xcalloc(set->ncommits + 2, sizeof *r->steps);
    struct drive d = {.set = set, .st = st, .r = r, .per = runs_per_boot(set->row.reps)};
    d.states = lab_xcalloc(set->ncommits, sizeof *d.states);
    r->id = lab_store_bisect_begin(st, &set->row);
    report(&d, (struct lab_bisect_event){.kind = LAB_BISECT_EV_BEGIN});
    int64_t t0 = lab_now_ns();
    if (endpoints(&d) == 0) {
        r->bisected = 1;
        struct lab_bisect_pick pick;
        for (int stepno = 1;; stepno++) {
            pick = lab_bisect_pick_next(d.states, set->ncommits);
            if (pick.status != LAB_BISECT_NEXT || stopped(&d) || one_step(&d, stepno, &pick) < 0)
                break;
        }
        conclude(&d, &pick);
    }
    r->elapsed_ns = lab_now_ns() - t0;
    r->run_status = r->stop == LAB_BISECT_STOP_SIGNAL  ? "interrupted"
                    : strcmp(r->status, "failed") == 0 ? "failed"
                                                       : "ok";
    lab_store_bisect_end(st, r->id, r->status, r->first_bad[0] ? r->first_bad : NULL,
                         r->first_bad[0] ? r->first_bad_subject : NULL, r->message);
    lab_bisect_values_free(&d.vgood);
    lab_bisect_values_free(&d.vbad);
    free(d.states);
    return r->rc;
}

void lab_bisect_result_free(struct lab_bisect_result *r)
{
    free(r->steps);
    r->steps = NULL;
    r->nsteps = 0;
}
