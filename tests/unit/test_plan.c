/* Unit tests of host/plan/order.c: the interleaved order of a run's cells. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "host/plan/order.h"

/* Two kernels, two boots: A1 B1 A2 B2, never A1 A2 B1 B2. */
static void test_two_kernels(void **state)
{
    struct lab_plan_slot s[16];
    char order[64] = "";
    size_t n = lab_plan_order(2, 0, 2, s, 16);
    assert_int_equal(n, 4);
    for (size_t i = 0; i < n; i++)
        snprintf(order + strlen(order), sizeof order - strlen(order), "%c%u ",
                 (char)('A' + s[i].kernel), s[i].boot);
    assert_string_equal(order, "A1 B1 A2 B2 ");
}

/* Variants (loads): each variant's kernels side by side, per boot. */
static void test_variants(void **state)
{
    struct lab_plan_slot s[32];
    char order[128] = "";
    size_t n = lab_plan_order(2, 2, 2, s, 32);
    assert_int_equal(n, 8);
    for (size_t i = 0; i < n; i++)
        snprintf(order + strlen(order), sizeof order - strlen(order), "%c%zu.%u ",
                 (char)('A' + s[i].kernel), s[i].variant, s[i].boot);
    assert_string_equal(order, "A0.1 B0.1 A1.1 B1.1 A0.2 B0.2 A1.2 B1.2 ");
}

/* Every (kernel, variant, boot) exactly once, for three kernels and five boots. */
static void test_each_once(void **state)
{
    struct lab_plan_slot s[64];
    int seen[3][1][6] = {{{0}}};
    size_t n = lab_plan_order(3, 1, 5, s, 64);
    assert_int_equal(n, 15);
    for (size_t i = 0; i < n; i++)
        seen[s[i].kernel][s[i].variant][s[i].boot]++;
    for (int k = 0; k < 3; k++)
        for (int b = 1; b <= 5; b++)
            assert_int_equal(seen[k][0][b], 1);
    /* Between two cells of one kernel every other kernel runs once. */
    for (size_t i = 3; i < n; i++)
        assert_int_equal(s[i].kernel, s[i - 3].kernel);
}

static void test_limits(void **state)
{
    struct lab_plan_slot s[4];
    assert_int_equal(lab_plan_order(2, 1, 3, s, 4), 0); /* 6 > 4 */
    assert_int_equal(lab_plan_order(0, 1, 2, s, 4), 0);
    assert_int_equal(lab_plan_order(1, 1, 0, s, 4), 0);
    assert_int_equal(lab_plan_order(1, 1, LAB_PLAN_MAX_BOOTS + 1, s, 4), 0);
    assert_int_equal(lab_plan_order(1, 0, 1, s, 4), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_kernels),
        cmocka_unit_test(test_variants),
        cmocka_unit_test(test_each_once),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
