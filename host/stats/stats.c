/* Summaries and two-sample comparisons; GSL does the distributions and the
 * descriptive statistics. See stats.h. */
#include "host/stats/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "common/str.h"

#define MWU_EXACT_MAX 20

int lab_summarize(const double *x, size_t n, struct lab_summary *out)
{
    memset(out, 0, sizeof *out);
    if (n == 0 || !x)
        return -1;
    double *s = lab_xcalloc(n, sizeof *s);
    memcpy(s, x, n * sizeof *s);
    gsl_sort(s, 1, n);
    out->n = n;
    out->min = s[0];
    out->max = s[n - 1];
    out->median = gsl_stats_median_from_sorted_data(s, 1, n);
    out->mean = gsl_stats_mean(x, 1, n);
    out->ci_lo = out->ci_hi = out->mean;
    if (n >= 2) {
        out->stddev = gsl_stats_sd_m(x, 1, n, out->mean);
        double half = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * out->stddev / sqrt((double)n);
        out->ci_lo = out->mean - half;
        out->ci_hi = out->mean + half;
    }
    free(s);
    return 0;
}

/* x / mean_a * 100, without NaN when mean_a is 0. */
static double pct_of(double x, double mean_a)
{
    if (mean_a != 0)
        return x / mean_a * 100.0;
    if (x == 0)
        return 0;
    return x > 0 ? INFINITY : -INFINITY;
}

/* x / d, without NaN when d is 0. */
static double ratio(double x, double d)
{
    if (d != 0)
        return x / d;
    if (x == 0)
        return 0;
    return x > 0 ? INFINITY : -INFINITY;
}

/* P(U <= u) for Mann-Whitney U with sample sizes m, n, no ties, exactly: the
 * number of arrangements with U = k is the coefficient of q^k in the Gaussian
 * binomial [m+n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i). */
static double mwu_exact_cdf(size_t m, size_t n, double u)
{
    size_t deg = m * n, size = deg + m + n + 1;
    int64_t *c = lab_xcalloc(size, sizeof *c);
    c[0] = 1;
    for (size_t i = 1; i <= m; i++) {
        size_t top = (i - 1) * n + n + i; /* degree after multiplying */
        for (size_t k = top; k >= n + i; k--)
            c[k] -= c[k - (n + i)];
        for (size_t k = i; k <= top; k++)
            c[k] += c[k - i];
    }
    double total = 0, below = 0;
    for (size_t k = 0; k <= deg; k++) {
        total += (double)c[k];
        if ((double)k <= u)
            below += (double)c[k];
    }
    free(c);
    return below / total;
}

static void mann_whitney(const double *a, size_t na, const double *b, size_t nb,
                         struct lab_comparison *out)
{
    size_t n = na + nb;
    double *v = lab_xcalloc(n, sizeof *v);
    size_t *idx = lab_xcalloc(n, sizeof *idx);
    memcpy(v, a, na * sizeof *v);
    memcpy(v + na, b, nb * sizeof *v);
    gsl_sort_index(idx, v, 1, n);

    /* Average ranks over ties; rank sum of a; tie term sum(t^3 - t). */
    double rank_sum_a = 0, ties = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && v[idx[j + 1]] == v[idx[i]])
            j++;
        double rank = (double)(i + j + 2) / 2.0; /* ranks are 1-based */
        double t = (double)(j - i + 1);
        ties += t * t * t - t;
        for (size_t k = i; k <= j; k++)
            if (idx[k] < na)
                rank_sum_a += rank;
        i = j + 1;
    }
    free(v);
    free(idx);

    double dna = (double)na, dnb = (double)nb, dn = (double)n;
    double u1 = rank_sum_a - dna * (dna + 1) / 2.0;
    double u_small = fmin(u1, dna * dnb - u1);
    out->mwu_u = u1;

    if (na <= MWU_EXACT_MAX && nb <= MWU_EXACT_MAX && ties == 0) {
        out->mwu_p = fmin(1.0, 2.0 * mwu_exact_cdf(na, nb, u_small));
        return;
    }
    double mu = dna * dnb / 2.0;
    double var = dna * dnb / 12.0 * ((dn + 1) - ties / (dn * (dn - 1)));
    if (var <= 0) { /* every value the same */
        out->mwu_p = 1.0;
        return;
    }
    double z = (fabs(u1 - mu) - 0.5) / sqrt(var); /* continuity correction */
    out->mwu_p = z <= 0 ? 1.0 : fmin(1.0, 2.0 * gsl_cdf_ugaussian_Q(z));
}

int lab_compare(const double *a, size_t na, const double *b, size_t nb, struct lab_comparison *out)
{
    memset(out, 0, sizeof *out);
    if (!a || !b || na < 2 || nb < 2)
        return -1;

    double ma = gsl_stats_mean(a, 1, na), mb = gsl_stats_mean(b, 1, nb);
    double sa2 = gsl_stats_variance_m(a, 1, na, ma), sb2 = gsl_stats_variance_m(b, 1, nb, mb);
    double dna = (double)na, dnb = (double)nb;
    double diff = mb - ma;
    double va = sa2 / dna, vb = sb2 / dnb, se2 = va + vb;

    out->diff_pct = pct_of(diff, ma);
    if (se2 > 0) {
        double se = sqrt(se2);
        out->welch_t = diff / se;
        out->welch_df = se2 * se2 / (va * va / (dna - 1) + vb * vb / (dnb - 1));
        out->welch_p = 2.0 * gsl_cdf_tdist_Q(fabs(out->welch_t), out->welch_df);
        if (out->welch_p > 1)
            out->welch_p = 1;
        double half = gsl_cdf_tdist_Pinv(0.975, out->welch_df) * se;
        out->diff_ci_lo = pct_of(diff - half, ma);
        out->diff_ci_hi = pct_of(diff + half, ma);
    } else {
        /* Both samples constant: the difference is known exactly. */
        out->welch_t = ratio(diff, 0);
        out->welch_df = dna + dnb - 2;
        out->welch_p = diff == 0 ? 1.0 : 0.0;
        out->diff_ci_lo = out->diff_ci_hi = out->diff_pct;
    }
    if (ma != 0 && out->diff_ci_lo > out->diff_ci_hi) { /* mean_a < 0 flips the interval */
        double t = out->diff_ci_lo;
        out->diff_ci_lo = out->diff_ci_hi;
        out->diff_ci_hi = t;
    }

    double pooled = sqrt(((dna - 1) * sa2 + (dnb - 1) * sb2) / (dna + dnb - 2));
    out->cohen_d = ratio(diff, pooled);

    mann_whitney(a, na, b, nb, out);
    out->significant = out->welch_p < LAB_STATS_ALPHA;
    return 0;
}
