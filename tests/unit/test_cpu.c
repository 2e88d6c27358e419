/* Unit tests of host/plan/cpu.c: the CPU table, the counter's argument,
 * the 5% check of the measured speed and the headroom. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "host/cell/cpucheck.h"
#include "host/plan/cpu.h"

static void test_fast_has_no_counter(void **state)
{
    const struct lab_cpu *c = lab_cpu_find("fast");
    char buf[64];
    assert_non_null(c);
    assert_true(lab_cpu_is_fast(c));
    assert_int_equal(lab_cpu_icount_arg(c, buf, sizeof buf), -1);
    assert_true(lab_cpu_mips_ok(c, 12345.0));
}

static void test_pentium_counter(void **state)
{
    const struct lab_cpu *c = lab_cpu_find("pentium-66");
    char buf[64];
    assert_non_null(c);
    assert_int_equal(c->shift, 3);
    assert_true(lab_cpu_nominal_mips(c) == 125.0);
    assert_int_equal(lab_cpu_icount_arg(c, buf, sizeof buf), 0);
    assert_string_equal(buf, "shift=3,align=on,sleep=on");
}

/* Every row's emulated rate is the power of two nearest its cited figure
 * within a factor of sqrt(2) (the best a shift can do). */
static void test_rows_nearest_power(void **state)
{
    const char *names[] = {"486dx2-50",  "486dx4-100",  "pentium-66",
                           "am5x86-133", "pentium-133", "pentium2-233"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const struct lab_cpu *c = lab_cpu_find(names[i]);
        assert_non_null(c);
        double r = lab_cpu_nominal_mips(c) / c->cited_mips;
        assert_true(r > 0.7071 && r < 1.4143);
    }
}

static void test_mips_tolerance(void **state)
{
    const struct lab_cpu *c = lab_cpu_find("486dx4-100"); /* 62.5 */
    assert_true(lab_cpu_mips_ok(c, 62.5));
    assert_true(lab_cpu_mips_ok(c, 59.4));  /* -4.96% */
    assert_false(lab_cpu_mips_ok(c, 59.3)); /* -5.1% */
    assert_false(lab_cpu_mips_ok(c, 65.7)); /* +5.1% */
    /* 8 M instructions in 64 ms = 125 MIPS */
    assert_true(lab_cpu_mips(8000000, 64000000) == 125.0);
    assert_true(lab_cpu_mips(1, 0) == 0.0);
}

static void test_headroom_and_unknown(void **state)
{
    const struct lab_cpu *c = lab_cpu_find("pentium-133"); /* 250 */
    assert_true(lab_cpu_headroom(c, 1000.0) == 4.0);
    assert_null(lab_cpu_find("pentium-4"));
    assert_null(lab_cpu_resolve("cray-1"));
    assert_null(lab_cpu_find(NULL));
}

/* The agent's calibration record, parsed strictly. */
static void test_calibration_record(void **state)
{
    struct lab_record rec;
    char err[128];
    double mips = 0;
    const char *line = "LAB1 2 log msg=calibration calib_instructions=8000000 calib_ns=64339382";
    assert_int_equal(lab_record_parse(line, strlen(line), &rec, err, sizeof err), 0);
    assert_int_equal(lab_cpucheck_calibration(&rec, &mips), 1);
    assert_true(mips > 124.3 && mips < 124.4); /* measured here under shift=3 */
    line = "LAB1 3 log msg=setup dev=sda";
    assert_int_equal(lab_record_parse(line, strlen(line), &rec, err, sizeof err), 0);
    assert_int_equal(lab_cpucheck_calibration(&rec, &mips), 0);
    line = "LAB1 3 log msg=calibration calib_instructions=8000000 calib_ns=0";
    assert_int_equal(lab_record_parse(line, strlen(line), &rec, err, sizeof err), 0);
    assert_int_equal(lab_cpucheck_calibration(&rec, &mips), 0);
}

/* The clock bound: beyond 2% and 10 ms flags; the keys are appended. */
static void test_clock_bound(void **state)
{
    char buf[256] = "bs=4096";
    assert_int_equal(lab_cpucheck_clock_extra(1000000000, 1010000000, buf, sizeof buf), 0);
    assert_string_equal(buf, "bs=4096 host_clock_guest_ns=1000000000 host_clock_drift_pct=-0.990");
    buf[0] = 0;
    assert_int_equal(lab_cpucheck_clock_extra(1000000000, 1030000000, buf, sizeof buf), 1);
    buf[0] = 0; /* 5% of a 100 ms run is under the 10 ms floor */
    assert_int_equal(lab_cpucheck_clock_extra(100000000, 105000000, buf, sizeof buf), 0);
    buf[0] = 0; /* ahead counts as much as behind */
    assert_int_equal(lab_cpucheck_clock_extra(1100000000, 1000000000, buf, sizeof buf), 1);
    buf[0] = 0;
    assert_int_equal(lab_cpucheck_clock_extra(5, 0, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_has_no_counter),  cmocka_unit_test(test_pentium_counter),
        cmocka_unit_test(test_rows_nearest_power),   cmocka_unit_test(test_mips_tolerance),
        cmocka_unit_test(test_headroom_and_unknown), cmocka_unit_test(test_calibration_record),
        cmocka_unit_test(test_clock_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
