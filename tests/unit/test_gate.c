/* lab run --fail-on's decision (host/stats/runmodel.h): which comparisons
 * trip which gate, at which threshold, from a table of cases; and the gate
 * names. A change below the threshold or not significant never trips. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "host/stats/runmodel.h"

static const struct gate_case {
    enum lab_verdict verdict;
    double diff_pct; /* of the figure; the verdict says which way is worse */
    double threshold;
    int slower, faster, change; /* does each gate trip */
} cases[] = {
    {LAB_VERDICT_SLOWER, -31.0, 5, 1, 0, 1},  /* MB/s down 31%: slower */
    {LAB_VERDICT_SLOWER, +12.0, 5, 1, 0, 1},  /* seconds up 12% (lower is better) */
    {LAB_VERDICT_FASTER, +8.0, 5, 0, 1, 1},   /* faster by 8% */
    {LAB_VERDICT_SLOWER, -4.9, 5, 0, 0, 0},   /* significant but under the threshold */
    {LAB_VERDICT_SLOWER, -4.9, 0, 1, 0, 1},   /* threshold 0: any significant change */
    {LAB_VERDICT_SAME, -20.0, 5, 0, 0, 0},    /* large but not significant */
    {LAB_VERDICT_TOO_FEW, -50.0, 5, 0, 0, 0}, /* not compared */
    {LAB_VERDICT_FASTER, -5.0, 5, 0, 1, 1},   /* exactly at the threshold trips */
};

static void test_gate_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct gate_case *t = &cases[i];
        struct lab_model_cmp c = {.verdict = t->verdict, .c = {.diff_pct = t->diff_pct}};
        assert_int_equal(lab_model_gate_trips(&c, LAB_GATE_SLOWER, t->threshold), t->slower);
        assert_int_equal(lab_model_gate_trips(&c, LAB_GATE_FASTER, t->threshold), t->faster);
        assert_int_equal(lab_model_gate_trips(&c, LAB_GATE_CHANGE, t->threshold), t->change);
        assert_int_equal(lab_model_gate_trips(&c, LAB_GATE_NONE, t->threshold), 0);
    }
}

static void test_gate_names(void **state)
{
    enum lab_gate g;
    (void)state;
    assert_int_equal(lab_gate_parse("slower", &g), 0);
    assert_int_equal(g, LAB_GATE_SLOWER);
    assert_int_equal(lab_gate_parse("faster", &g), 0);
    assert_int_equal(g, LAB_GATE_FASTER);
    assert_int_equal(lab_gate_parse("change", &g), 0);
    assert_int_equal(g, LAB_GATE_CHANGE);
    assert_int_equal(lab_gate_parse("Slower", &g), -1);
    assert_int_equal(lab_gate_parse("", &g), -1);
    assert_int_equal(lab_gate_parse("regression", &g), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gate_table),
        cmocka_unit_test(test_gate_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
