/* Statistical performance bisection; see bisect.h. */
#include "host/bisect/bisect.h"
#include "host/stats/bootstats.h"

#include "host/store/store.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- metrics (host/plan/testdef.c) ---- */

const struct lab_metric *lab_metric_find(const char *name)
{
    return lab_test_metric(name);
}

const struct lab_metric *lab_metric_at(size_t i)
{
    return lab_test_metric_at(i);
}

void lab_metric_help(FILE *out)
{
    for (size_t i = 0; lab_metric_at(i); i++) {
        const struct lab_metric *m = lab_metric_at(i);
        fprintf(out, "  %-5s %-5s %s; %s is better\n", m->name, m->unit, m->formula,
                m->higher_is_better ? "higher" : "lower");
    }
}

/* ---- decisions ---- */

const char *lab_bisect_verdict_name(enum lab_bisect_verdict v)
{
    switch (v) {
    case LAB_BISECT_UNTESTED:
        return "untested";
    case LAB_BISECT_GOOD:
        return "good";
    case LAB_BISECT_BAD:
        return "bad";
    case LAB_BISECT_SKIP:
        return "skip";
    case LAB_BISECT_INCONCLUSIVE:
        return "inconclusive";
    }
    return "?";
}

static double mean_of(const double *x, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    return n ? s / (double)n : 0;
}

static int sign(double x)
{
    return x > 0 ? 1 : x < 0 ? -1 : 0;
}

/* b against a, with the boot as the unit when both sides know their boots
 * (host/stats/bootstats.h); welch_p then holds the method's p, which is what the
 * decisions below test. */
static void compare_boots(const double *a, const unsigned *ba, size_t na, const double *b,
                          const unsigned *bb, size_t nb, struct lab_comparison *out)
{
    struct lab_boot_cmp bc;
    if (ba && bb && lab_boot_compare(a, ba, na, b, bb, nb, &bc) == 0) {
        *out = bc.c;
        out->welch_p = bc.p;
        return;
    }
    lab_compare(a, na, b, nb, out);
}

int lab_bisect_check_endpoints(const double *good, size_t ng, const double *bad, size_t nb,
                               double threshold_pct, double alpha, struct lab_bisect_endpoints *out)
{
    return lab_bisect_check_endpoints_boots(good, NULL, ng, bad, NULL, nb, threshold_pct, alpha,
                                            out);
}

int lab_bisect_check_endpoints_boots(const double *good, const unsigned *gboot, size_t ng,
                                     const double *bad, const unsigned *bboot, size_t nb,
                                     double threshold_pct, double alpha,
                                     struct lab_bisect_endpoints *out)
{
    memset(out, 0, sizeof *out);
    if (ng < 2 || nb < 2) {
        snprintf(out->reason, sizeof out->reason,
                 "too few samples to compare good and bad (n=%zu and %zu, need 2 each)", ng, nb);
        return 0;
    }
    compare_boots(good, gboot, ng, bad, bboot, nb, &out->cmp);
    out->direction = sign(mean_of(bad, nb) - mean_of(good, ng));
    const struct lab_comparison *c = &out->cmp;
    int significant = c->welch_p < alpha;
    int large = fabs(c->diff_pct) >= threshold_pct;
    out->differ = significant && large && out->direction != 0;
    char what[160];
    snprintf(what, sizeof what, "%+.1f%% (95%% CI %+.1f%% .. %+.1f%%), p=%.2g, d=%.2f", c->diff_pct,
             c->diff_ci_lo, c->diff_ci_hi, c->welch_p, c->cohen_d);
    if (out->differ)
        snprintf(out->reason, sizeof out->reason, "good and bad differ: %s", what);
    else if (!significant)
        snprintf(out->reason, sizeof out->reason, "good and bad do not differ: %s; p >= %.2g", what,
                 alpha);
    else
        snprintf(out->reason, sizeof out->reason,
                 "good and bad do not differ: %s; |change| < the %.1f%% threshold", what,
                 threshold_pct);
    return out->differ;
}

enum lab_bisect_verdict lab_bisect_decide(const double *good, size_t ng, const double *bad,
                                          size_t nb, const double *step, size_t ns,
                                          double threshold_pct, double alpha,
                                          struct lab_bisect_decision *out)
{
    return lab_bisect_decide_boots(good, NULL, ng, bad, NULL, nb, step, NULL, ns, threshold_pct,
                                   alpha, out);
}

enum lab_bisect_verdict lab_bisect_decide_boots(const double *good, const unsigned *gboot,
                                                size_t ng, const double *bad, const unsigned *bboot,
                                                size_t nb, const double *step,
                                                const unsigned *sboot, size_t ns,
                                                double threshold_pct, double alpha,
                                                struct lab_bisect_decision *out)
{
    memset(out, 0, sizeof *out);
    out->verdict = LAB_BISECT_INCONCLUSIVE;
    if (ns < 2 || ng < 2 || nb < 2) {
        snprintf(out->reason, sizeof out->reason, "%zu sample(s): never decided from fewer than 2",
                 ns);
        return out->verdict;
    }
    out->have_cmp = 1;
    compare_boots(good, gboot, ng, step, sboot, ns, &out->vs_good);
    compare_boots(bad, bboot, nb, step, sboot, ns, &out->vs_bad);
    double mg = mean_of(good, ng), mb = mean_of(bad, nb), ms = mean_of(step, ns);
    int dir = sign(mb - mg); /* the bad direction */
    /* Distances in percent of the good mean (the threshold's scale). */
    double scale = fabs(mg) > 0 ? fabs(mg) : 1;
    double to_good = (ms - mg) / scale * 100, to_bad = (ms - mb) / scale * 100;
    int sig_good = out->vs_good.welch_p < alpha, sig_bad = out->vs_bad.welch_p < alpha;
    /* Far from the other endpoint, on this endpoint's side of it. */
    int far_from_bad = dir != 0 && sig_bad && sign(to_bad) == -dir && fabs(to_bad) >= threshold_pct;
    int far_from_good =
        dir != 0 && sig_good && sign(to_good) == dir && fabs(to_good) >= threshold_pct;
    int near_good = fabs(to_good) < threshold_pct, near_bad = fabs(to_bad) < threshold_pct;
    /* Past an endpoint, away from the other one. */
    int beyond_good = dir != 0 && sign(to_good) == -dir;
    int beyond_bad = dir != 0 && sign(to_bad) == dir;
    if (far_from_bad && near_good) {
        out->verdict = LAB_BISECT_GOOD;
        snprintf(out->reason, sizeof out->reason,
                 "differs from bad (%+.1f%%, p=%.2g), like good (%+.1f%%, p=%.2g)", to_bad,
                 out->vs_bad.welch_p, to_good, out->vs_good.welch_p);
    } else if (far_from_good && near_bad) {
        out->verdict = LAB_BISECT_BAD;
        snprintf(out->reason, sizeof out->reason,
                 "differs from good (%+.1f%%, p=%.2g), like bad (%+.1f%%, p=%.2g)", to_good,
                 out->vs_good.welch_p, to_bad, out->vs_bad.welch_p);
    } else if (far_from_bad && beyond_good && sig_good) {
        /* Past good by at least the threshold: on good's side of the
         * regression, and a change of its own worth reporting. */
        out->verdict = LAB_BISECT_GOOD;
        out->finding = 1;
        snprintf(out->reason, sizeof out->reason,
                 "new finding: %+.1f%% beyond good (p=%.2g), so on good's side of bad (p=%.2g)",
                 to_good, out->vs_good.welch_p, out->vs_bad.welch_p);
    } else if (far_from_good && beyond_bad && sig_bad) {
        out->verdict = LAB_BISECT_BAD;
        out->finding = 1;
        snprintf(out->reason, sizeof out->reason,
                 "new finding: %+.1f%% beyond bad (p=%.2g), so on bad's side of good (p=%.2g)",
                 to_bad, out->vs_bad.welch_p, out->vs_good.welch_p);
    } else if (far_from_bad && far_from_good) {
        snprintf(out->reason, sizeof out->reason,
                 "between good (%+.1f%%, p=%.2g) and bad (%+.1f%%, p=%.2g): a partial change",
                 to_good, out->vs_good.welch_p, to_bad, out->vs_bad.welch_p);
    } else {
        snprintf(out->reason, sizeof out->reason,
                 "near neither endpoint yet (good %+.1f%% p=%.2g, bad %+.1f%% p=%.2g): samples "
                 "overlap or differences are below the threshold",
                 to_good, out->vs_good.welch_p, to_bad, out->vs_bad.welch_p);
    }
    return out->verdict;
}

unsigned lab_bisect_more_reps(unsigned n, unsigned max_reps)
{
    if (n >= max_reps)
        return 0;
    unsigned add = n ? n : 2;
    return add > max_reps - n ? max_reps - n : add;
}

struct lab_bisect_pick lab_bisect_pick_next(const enum lab_bisect_verdict *states, size_t n)
{
    struct lab_bisect_pick p = {.status = LAB_BISECT_INVALID};
    size_t lo = n, hi = n;
    for (size_t i = 0; i < n; i++)
        if (states[i] == LAB_BISECT_GOOD)
            lo = i;
    if (lo == n)
        return p;
    for (size_t i = lo + 1; i < n && hi == n; i++)
        if (states[i] == LAB_BISECT_BAD)
            hi = i;
    if (hi == n)
        return p;
    p.lo = lo;
    p.hi = hi;
    double mid = ((double)lo + (double)hi) / 2;
    size_t best = n;
    double best_dist = 0;
    for (size_t i = lo + 1; i < hi; i++) {
        if (states[i] != LAB_BISECT_UNTESTED)
            continue; /* skipped, or inconclusive (treated as skipped) */
        double dist = fabs((double)i - mid);
        if (best == n || dist < best_dist) {
            best = i;
            best_dist = dist;
        }
    }
    if (best != n) {
        p.status = LAB_BISECT_NEXT;
        p.index = best;
    } else if (hi == lo + 1) {
        p.status = LAB_BISECT_FOUND;
        p.index = hi;
    } else {
        p.status = LAB_BISECT_AMBIGUOUS;
        p.index = hi;
    }
    return p;
}

/* ---- the evidence table ---- */

static void fmt_p(char *buf, size_t len, double p)
{
    if (isnan(p))
        snprintf(buf, len, "-");
    else if (p < 0.001)
        snprintf(buf, len, "<0.001");
    else
        snprintf(buf, len, "%.3f", p);
}

void lab_bisect_print_table(FILE *out, const struct lab_bisect_step *steps, size_t n,
                            const char *unit)
{
    fprintf(out, "%-5s %-12s %-34s %3s %9s %21s %-12s %7s %7s %6s\n", "step", "commit", "subject",
            "n", unit, "95% CI of the mean", "verdict", "p good", "p bad", "d good");
    for (size_t i = 0; i < n; i++) {
        const struct lab_bisect_step *s = &steps[i];
        char step[8], ci[48], pg[16], pb[16], dg[16], mean[16];
        if (strcmp(s->role, "step") == 0)
            snprintf(step, sizeof step, "%d", s->step);
        else
            snprintf(step, sizeof step, "%s", s->role);
        if (s->sum.n) {
            snprintf(mean, sizeof mean, "%.2f", s->sum.mean);
            snprintf(ci, sizeof ci, "%.2f .. %.2f", s->sum.ci_lo, s->sum.ci_hi);
        } else {
            snprintf(mean, sizeof mean, "-");
            snprintf(ci, sizeof ci, "-");
        }
        fmt_p(pg, sizeof pg, s->p_good);
        fmt_p(pb, sizeof pb, s->p_bad);
        if (isnan(s->d_good))
            snprintf(dg, sizeof dg, "-");
        else
            snprintf(dg, sizeof dg, "%.2f", s->d_good);
        fprintf(out, "%-5s %-12.12s %-34.34s %3zu %9s %21s %-12s %7s %7s %6s\n", step, s->commit,
                s->subject, s->sum.n, mean, ci, lab_bisect_verdict_name(s->verdict), pg, pb, dg);
    }
}
