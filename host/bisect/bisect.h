/* Statistical performance bisection (`lab bisect`): the metrics a step is
 * judged by, the good/bad decision of a step from repeated samples, the
 * choice of the next commit (git bisect's, with skips), the evidence table.
 * All pure functions. The loop that uses them is host/bisect/bisectdriver.h; the
 * stored rows are host/bisect/store_bisect.h.
 *
 * The decision rule (alpha = LAB_STATS_ALPHA, Welch's two-sided p):
 *   endpoints: they differ iff n_good, n_bad >= 2, p(good, bad) < alpha and
 *     |mean_bad - mean_good| / mean_good >= threshold; the "bad direction"
 *     is the sign of mean_bad - mean_good (whatever the metric's better side).
 *   step (n >= 2, compared with both endpoints' samples; distances in
 *     percent of the good mean):
 *     good iff it differs from bad (p < alpha) by at least the threshold
 *              towards good, and lies within the threshold of good on
 *              either side of it (a step a few percent past good is good);
 *     bad  the same with the roles swapped;
 *     a new finding (verdict good, or bad, with finding = 1) iff it lies
 *              past that endpoint, away from the other one, by at least the
 *              threshold (p < alpha against both): decided, and reported;
 *     otherwise inconclusive (between the endpoints by more than the
 *     threshold from each, samples that overlap, or fewer than 2 samples):
 *     more repetitions, up to a cap, then skip. A step is never decided
 *     from one run. */
#ifndef LAB_BISECT_H
#define LAB_BISECT_H

#include "host/stats/stats.h"
#include "host/plan/testdef.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct lab_store;
struct lab_sample;

/* What is measured per run: a metric of host/plan/testdef.h (struct lab_metric,
 * lab_metric_value), by the names the bisection has always used. */
const struct lab_metric *lab_metric_find(const char *name); /* lab_test_metric */
const struct lab_metric *lab_metric_at(size_t i);           /* lab_test_metric_at */
/* One line per metric for --help: name, unit, formula, which side is better. */
void lab_metric_help(FILE *out);

enum lab_bisect_verdict {
    LAB_BISECT_UNTESTED,
    LAB_BISECT_GOOD,
    LAB_BISECT_BAD,
    LAB_BISECT_SKIP,         /* build, boot or cell failure, or inconclusive at the cap */
    LAB_BISECT_INCONCLUSIVE, /* a decision's answer: measure more */
};
const char *lab_bisect_verdict_name(enum lab_bisect_verdict v);

struct lab_bisect_endpoints {
    int differ;                /* 1: the bisection may start */
    struct lab_comparison cmp; /* b = bad vs a = good */
    int direction;             /* sign of mean_bad - mean_good: +1 or -1 (0 if equal) */
    char reason[256];          /* why not, or the difference, for the user */
};
/* threshold_pct: the smallest relative change that counts (5 = 5%). */
int lab_bisect_check_endpoints(const double *good, size_t ng, const double *bad, size_t nb,
                               double threshold_pct, double alpha,
                               struct lab_bisect_endpoints *out);

struct lab_bisect_decision {
    enum lab_bisect_verdict verdict; /* GOOD, BAD or INCONCLUSIVE */
    int have_cmp;                    /* 0 when the step has fewer than 2 samples */
    struct lab_comparison vs_good;   /* b = step vs a = good */
    struct lab_comparison vs_bad;    /* b = step vs a = bad */
    int finding;                     /* 1: past the endpoint of its verdict by >= threshold */
    char reason[160];
};
/* The verdict of a step from its samples and both endpoints' samples;
 * threshold_pct as for the endpoints. */
enum lab_bisect_verdict lab_bisect_decide(const double *good, size_t ng, const double *bad,
                                          size_t nb, const double *step, size_t ns,
                                          double threshold_pct, double alpha,
                                          struct lab_bisect_decision *out);

/* The same with each sample's boot (boot arrays parallel to the samples):
 * comparisons take the boot as their unit as in host/stats/bootstats.h (Welch on
 * per-boot means with 3+ boots a side, a two-level bootstrap with 2, runs
 * as units with 1), and p below is that method's. NULL boots: runs. */
int lab_bisect_check_endpoints_boots(const double *good, const unsigned *gboot, size_t ng,
                                     const double *bad, const unsigned *bboot, size_t nb,
                                     double threshold_pct, double alpha,
                                     struct lab_bisect_endpoints *out);
enum lab_bisect_verdict lab_bisect_decide_boots(const double *good, const unsigned *gboot,
                                                size_t ng, const double *bad, const unsigned *bboot,
                                                size_t nb, const double *step,
                                                const unsigned *sboot, size_t ns,
                                                double threshold_pct, double alpha,
                                                struct lab_bisect_decision *out);

/* After an inconclusive decision with n samples: how many runs to add
 * (double the total, at most max_reps in all); 0 means give up (skip). */
unsigned lab_bisect_more_reps(unsigned n, unsigned max_reps);

/* The commits good..bad in ancestry order: states[0] is the good endpoint
 * and states[n-1] the bad one (both as measured). */
enum lab_bisect_pick_status {
    LAB_BISECT_NEXT,      /* test *index next */
    LAB_BISECT_FOUND,     /* *index is the first bad commit */
    LAB_BISECT_AMBIGUOUS, /* only skipped commits are left: the first bad one is in
                             lo+1..hi (all skipped but hi) */
    LAB_BISECT_INVALID,   /* no good before a bad */
};
struct lab_bisect_pick {
    enum lab_bisect_pick_status status;
    size_t index;  /* NEXT: the commit to test; FOUND: the first bad one */
    size_t lo, hi; /* last good, first bad after it */
};
/* git bisect's choice on a linear history: between the last good commit
 * (lo) and the first bad one after it (hi), the untested, unskipped commit
 * nearest to the middle (lo + hi) / 2; on a tie, the older one. */
struct lab_bisect_pick lab_bisect_pick_next(const enum lab_bisect_verdict *states, size_t n);

/* A bisection's row in the store (host/bisect/store_bisect.h). */
struct lab_bisect_row {
    int64_t run; /* the store run holding the cells */
    const char *command_line, *repo, *good, *bad, *experiment, *metric, *profile;
    double threshold_pct;
    unsigned reps, max_reps;
};

/* One line of the evidence table. */
struct lab_bisect_step {
    int step;     /* 0 for the endpoints, then 1, 2, ... */
    char role[8]; /* "good", "bad" (endpoints) or "step" */
    char commit[41];
    char subject[128];
    char kernel[64];
    enum lab_bisect_verdict verdict;
    struct lab_summary sum; /* of the metric, n = 0 when nothing was measured */
    double p_good, p_bad;   /* NAN when not compared */
    double d_good, d_bad;   /* Cohen's d vs each endpoint, NAN when not compared */
    char reason[320];
    int64_t cells[16];
    size_t ncells;
};

/* A stored bisection, read back (`lab bisect --show`). */
struct lab_bisect_info {
    int64_t id, run;
    char command_line[1024], repo[512], good[64], bad[64], experiment[64], metric[16], profile[64],
        status[16], first_bad[41], first_bad_subject[128], message[512];
    double threshold_pct;
    unsigned reps, max_reps;
};

/* The evidence table: step, commit, subject, n, mean, 95% CI, verdict, p
 * vs good, p vs bad, Cohen's d vs good. */
void lab_bisect_print_table(FILE *out, const struct lab_bisect_step *steps, size_t n,
                            const char *unit);

#endif
