/* Unit tests of host/stats/stats.c.
 *
 * Reference numbers marked "scipy" were computed independently with Python
 * 3.11, numpy and scipy 1.10.1 (Debian 12's python3-scipy):
 *   scipy.stats.ttest_ind(b, a, equal_var=False)           -> welch t, p
 *   (va+vb)^2 / (va^2/(na-1) + vb^2/(nb-1)), va = var(a, ddof=1)/na -> df
 *   d +- scipy.stats.t.ppf(0.975, df) * sqrt(va+vb), in % of mean(a) -> diff CI
 *   scipy.stats.mannwhitneyu(a, b, alternative='two-sided'[, method='exact'])
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "host/stats/stats.h"

#define N(x) (sizeof(x) / sizeof((x)[0]))

static void near(double got, double want, double tol, const char *what)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("%s: got %.10g, want %.10g (tol %g)", what, got, want, tol);
}

static void test_summary(void **state)
{
    /* Textbook: mean 5, population sd 2, sample sd sqrt(32/7) = 2.13809. */
    const double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
    struct lab_summary s;

    assert_int_equal(lab_summarize(x, N(x), &s), 0);
    assert_int_equal(s.n, 8);
    near(s.mean, 5.0, 1e-12, "mean");
    near(s.stddev, sqrt(32.0 / 7.0), 1e-12, "stddev");
    near(s.stddev, 2.138, 1e-3, "stddev");
    near(s.min, 2, 0, "min");
    near(s.max, 9, 0, "max");
    near(s.median, 4.5, 1e-12, "median");
    /* scipy: 5 -+ t.ppf(0.975, 7) * sd / sqrt(8); t.ppf(0.975, 7) = 2.364624 (tables) */
    near(s.ci_lo, 3.2125120822041073, 1e-9, "ci_lo");
    near(s.ci_hi, 6.787487917795893, 1e-9, "ci_hi");

    const double odd[] = {3, 1, 2};
    assert_int_equal(lab_summarize(odd, N(odd), &s), 0);
    near(s.median, 2, 0, "median odd");
    near(s.mean, 2, 1e-12, "mean odd");
    near(s.stddev, 1, 1e-12, "sd odd");
    /* t(0.975, 2) = 4.302653 (tables): 2 -+ 4.302653 / sqrt(3) */
    near(s.ci_hi, 2 + 4.302653 / sqrt(3), 1e-5, "ci odd");
    assert_true(odd[0] == 3); /* the input is left alone */

    const double one[] = {42};
    assert_int_equal(lab_summarize(one, 1, &s), 0);
    near(s.mean, 42, 0, "mean one");
    near(s.stddev, 0, 0, "sd one");
    near(s.ci_lo, 42, 0, "ci_lo one");
    near(s.ci_hi, 42, 0, "ci_hi one");
    near(s.median, 42, 0, "median one");

    assert_int_equal(lab_summarize(x, 0, &s), -1);

    const double same[] = {7, 7, 7, 7};
    assert_int_equal(lab_summarize(same, N(same), &s), 0);
    near(s.stddev, 0, 0, "sd const");
    near(s.ci_lo, 7, 0, "ci const");
    near(s.ci_hi, 7, 0, "ci const");
}

static void test_welch(void **state)
{
    /* Welch's own kind of example: unequal sizes and variances, with ties
     * (so Mann-Whitney uses the normal approximation). */
    const double a[] = {19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0};
    const double b[] = {28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7,
                        23.2, 17.5, 20.6, 18.0, 23.9, 21.6, 24.3, 20.4, 23.9, 13.3};
    struct lab_comparison c;

    assert_int_equal(lab_compare(a, N(a), b, N(b), &c), 0);
    near(c.welch_t, 2.225512039969852, 1e-3, "t");            /* scipy */
    near(c.welch_df, 24.524634944257343, 1e-3, "df");         /* scipy */
    near(c.welch_p, 0.035484530830010325, 1e-3, "p");         /* scipy */
    near(c.diff_pct, 11.461022199277227, 1e-6, "diff_pct");   /* scipy */
    near(c.diff_ci_lo, 0.8443022709315805, 1e-3, "ci lo");    /* scipy */
    near(c.diff_ci_hi, 22.07774212762288, 1e-3, "ci hi");     /* scipy */
    near(c.cohen_d, 0.6407644074250287, 1e-6, "d");           /* numpy, pooled sd */
    near(c.mwu_u, 55.5, 1e-9, "U");                           /* scipy */
    near(c.mwu_p, 0.05279379552204588, 1e-4, "mwu p (ties)"); /* scipy */
    assert_true(c.significant);

    /* Swapping the samples flips the sign of t and d, keeps p. */
    struct lab_comparison r;
    assert_int_equal(lab_compare(b, N(b), a, N(a), &r), 0);
    near(r.welch_t, -c.welch_t, 1e-12, "t swapped");
    near(r.welch_p, c.welch_p, 1e-12, "p swapped");
    near(r.mwu_p, c.mwu_p, 1e-12, "mwu p swapped");
    near(r.mwu_u, (double)(N(a) * N(b)) - c.mwu_u, 1e-9, "U swapped");

    /* Small samples: scipy t = 4.041451884327381, p = 0.010076943347988872,
     * df = 4.959183673469389 (also by hand: va = 1.6133/4, vb = 1.21/3). */
    const double a2[] = {1.1, 2.2, 3.3, 4.4};
    const double b2[] = {5.5, 6.6, 7.7};
    assert_int_equal(lab_compare(a2, N(a2), b2, N(b2), &c), 0);
    near(c.welch_t, 4.041451884327381, 1e-3, "t2");
    near(c.welch_df, 4.959183673469389, 1e-3, "df2");
    near(c.welch_p, 0.010076943347988872, 1e-3, "p2");
    near(c.diff_pct, (6.6 - 2.75) / 2.75 * 100, 1e-9, "diff2");
    assert_true(c.diff_ci_lo < c.diff_pct && c.diff_pct < c.diff_ci_hi);
    assert_true(c.significant);

    /* Too few. */
    assert_int_equal(lab_compare(a2, 1, b2, N(b2), &c), -1);
    assert_int_equal(lab_compare(a2, N(a2), b2, 1, &c), -1);
}

static void test_mwu_exact(void **state)
{
    struct lab_comparison c;

    /* By hand: all of a below all of b, U = 0; of the C(7,3) = 35 equally
     * likely arrangements one has U = 0 (and one U = 12), so p = 2/35.
     * scipy method='exact': 0.05714285714285714. */
    const double a1[] = {1.1, 2.2, 3.3, 4.4};
    const double b1[] = {5.5, 6.6, 7.7};
    assert_int_equal(lab_compare(a1, N(a1), b1, N(b1), &c), 0);
    near(c.mwu_u, 0, 0, "U1");
    near(c.mwu_p, 2.0 / 35.0, 1e-12, "p1");

    /* scipy exact: U = 3, p = 0.4. By hand: U <= 3 for 7 of the 35
     * arrangements of 3 and 4 values (counts 1,1,2,3 for U = 0..3). */
    const double a2[] = {1, 3, 5};
    const double b2[] = {2, 4, 6, 8};
    assert_int_equal(lab_compare(a2, N(a2), b2, N(b2), &c), 0);
    near(c.mwu_u, 3, 0, "U2");
    near(c.mwu_p, 0.4, 1e-12, "p2");

    /* scipy exact: U = 2, p = 0.031746031746031744 (= 8/252). */
    const double a3[] = {10, 11, 12, 13, 14};
    const double b3[] = {12.5, 15, 16, 17, 18};
    assert_int_equal(lab_compare(a3, N(a3), b3, N(b3), &c), 0);
    near(c.mwu_u, 2, 0, "U3");
    near(c.mwu_p, 0.031746031746031744, 1e-12, "p3");

    /* Identical distributions: p = 1 (clamped). */
    const double a4[] = {1, 4, 5, 8};
    const double b4[] = {2, 3, 6, 7};
    assert_int_equal(lab_compare(a4, N(a4), b4, N(b4), &c), 0);
    near(c.mwu_u, 8, 0, "U4");
    near(c.mwu_p, 1.0, 1e-12, "p4");

    /* 20 x 20, exact, fully separated: p = 2 / C(40,20) = 2 / 137846528820. */
    double a5[20], b5[20];
    for (int i = 0; i < 20; i++) {
        a5[i] = i;
        b5[i] = 100 + i;
    }
    assert_int_equal(lab_compare(a5, 20, b5, 20, &c), 0);
    near(c.mwu_p, 2.0 / 137846528820.0, 1e-20, "p5");
}

static void test_mwu_normal(void **state)
{
    struct lab_comparison c;

    /* Ties: scipy U = 3.5, p = 0.012999854364387305. */
    const double a1[] = {1, 2, 2, 3, 3, 3, 4};
    const double b1[] = {3, 4, 4, 5, 5, 6};
    assert_int_equal(lab_compare(a1, N(a1), b1, N(b1), &c), 0);
    near(c.mwu_u, 3.5, 1e-12, "U ties");
    near(c.mwu_p, 0.012999854364387305, 1e-6, "p ties");

    /* 25 x 25 without ties: scipy U = 190, p = 0.017925777357406476. */
    double a2[25], b2[25];
    for (int i = 0; i < 25; i++) {
        a2[i] = i;
        b2[i] = i + 5.5;
    }
    assert_int_equal(lab_compare(a2, 25, b2, 25, &c), 0);
    near(c.mwu_u, 190, 1e-12, "U large");
    near(c.mwu_p, 0.017925777357406476, 1e-6, "p large");
}

static void test_zero_variance(void **state)
{
    struct lab_comparison c;
    const double k5[] = {5, 5, 5};
    const double k5b[] = {5, 5, 5, 5};
    const double k6[] = {6, 6, 6, 6};

    /* Equal constants: nothing differs. */
    assert_int_equal(lab_compare(k5, N(k5), k5b, N(k5b), &c), 0);
    near(c.welch_p, 1, 0, "p equal");
    near(c.welch_t, 0, 0, "t equal");
    near(c.diff_pct, 0, 0, "diff equal");
    near(c.diff_ci_lo, 0, 0, "ci equal");
    near(c.diff_ci_hi, 0, 0, "ci equal");
    near(c.cohen_d, 0, 0, "d equal");
    near(c.mwu_p, 1, 0, "mwu equal");
    assert_false(c.significant);
    assert_false(isnan(c.welch_df));

    /* Different constants: certainly different. */
    assert_int_equal(lab_compare(k5, N(k5), k6, N(k6), &c), 0);
    near(c.welch_p, 0, 0, "p differ");
    assert_true(isinf(c.welch_t) && c.welch_t > 0);
    near(c.diff_pct, 20, 1e-12, "diff differ");
    near(c.diff_ci_lo, 20, 1e-12, "ci differ");
    near(c.diff_ci_hi, 20, 1e-12, "ci differ");
    assert_true(isinf(c.cohen_d));
    assert_false(isnan(c.mwu_p));
    assert_true(c.significant);

    /* One constant sample: Welch still works (df = nb - 1). */
    const double v[] = {4, 6, 5, 7};
    assert_int_equal(lab_compare(k5b, N(k5b), v, N(v), &c), 0);
    near(c.welch_df, 3, 1e-12, "df one constant");
    assert_false(isnan(c.welch_p));

    /* mean_a = 0. */
    const double z[] = {0, 0};
    assert_int_equal(lab_compare(z, 2, z, 2, &c), 0);
    near(c.diff_pct, 0, 0, "diff zero");
    assert_int_equal(lab_compare(z, 2, k5, N(k5), &c), 0);
    assert_true(isinf(c.diff_pct));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary),       cmocka_unit_test(test_welch),
        cmocka_unit_test(test_mwu_exact),     cmocka_unit_test(test_mwu_normal),
        cmocka_unit_test(test_zero_variance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
