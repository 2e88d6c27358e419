/* Statistics of repeated measurements (GSL underneath): summaries with the
 * 95% confidence interval of the mean, and the comparison of two samples by
 * Welch's t-test (mmtests' method) and Mann-Whitney U. */
#ifndef LAB_STATS_H
#define LAB_STATS_H

#include <stddef.h>

#define LAB_STATS_ALPHA 0.05

struct lab_summary {
    size_t n;
    double min, max, mean, stddev, median; /* stddev: sample (n-1); 0 when n < 2 */
    double ci_lo, ci_hi; /* 95% CI of the mean (t distribution); = mean when n < 2 */
};
int lab_summarize(const double *x, size_t n, struct lab_summary *out); /* -1 when n == 0 */

struct lab_comparison {
    double diff_pct;               /* (mean_b - mean_a) / mean_a * 100 */
    double diff_ci_lo, diff_ci_hi; /* 95% CI of diff_pct: Welch's t interval of
                                      mean_b - mean_a, in % of mean_a */
    double welch_t;                /* (mean_b - mean_a) / se: positive when b is larger */
    double welch_df, welch_p;      /* Welch-Satterthwaite df, two-sided p */
    double mwu_u;                  /* U of sample a: pairs with a > b, ties counting 1/2 */
    double mwu_p;                  /* two-sided; exact when na, nb <= 20 and no ties,
                                      else normal approximation with tie and
                                      continuity correction */
    double cohen_d;                /* (mean_b - mean_a) / pooled stddev */
    int significant;               /* welch_p < LAB_STATS_ALPHA */
};
/* -1 if na < 2 or nb < 2. Constant samples give no NaN: with both variances
 * zero, p = 1 if the means are equal, else p = 0 (welch_t and cohen_d are then
 * 0 or +-INFINITY). When mean_a is 0, diff_pct and its CI are 0 if mean_b
 * is also 0, else +-INFINITY. */
int lab_compare(const double *a, size_t na, const double *b, size_t nb, struct lab_comparison *out);

#endif
