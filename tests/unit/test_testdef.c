/* Unit tests of host/plan/testdef.c: the one table of tests, their figures and
 * metrics, and the one reader of a sample's extra keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <math.h>

#include "host/plan/experiment.h"
#include "host/store/store.h"
#include "host/plan/testdef.h"

/* Every test the table knows can be an experiment's, gets its default
 * disk, takes each disk it lists, and has a shape with columns. */
static void test_every_test_is_usable(void **state)
{
    size_t n = 0;
    for (const struct lab_testdef *t; (t = lab_test_at(n)); n++) {
        struct lab_experiment e;
        char text[64];
        snprintf(text, sizeof text, "test = %s\n", t->name);
        assert_int_equal(lab_experiment_parse("t.exp", text, &e), 0);
        assert_string_equal(e.disk, t->default_disk);
        assert_true(lab_test_takes_disk(t, t->default_disk));
        assert_ptr_equal(lab_test_find(t->name), t);
        assert_non_null(t->shape.cols[0].title);
        assert_non_null(lab_fig(t->shape.compare));
        lab_experiment_free(&e);
    }
    assert_null(lab_test_find("latency"));
    assert_null(lab_test_find(NULL));
    /* The first six in the table's order; a test added later (one row,
     * guest-agent/README.md) comes after them and is named too. */
    char *names = lab_test_names(", ");
    const char *first = "seqread, devread, randread, treeread, overwrite, contest";
    assert_int_equal(strncmp(names, first, strlen(first)), 0);
    size_t words = 1;
    for (const char *p = names; *p; p++)
        words += *p == ',';
    assert_int_equal(words, n);
    assert_true(n >= 6);
    free(names);
}

/* The agent parameters a test reads are ones the host writes. */
static void test_params_are_written(void **state)
{
    struct lab_experiment e;
    assert_int_equal(lab_experiment_parse("t.exp",
                                          "test = treeread\nreadahead_list = 64,128\n"
                                          "load = io_load\nsysfs = read_ahead_kb:64\n"
                                          "elvtune = 1,2\n",
                                          &e),
                     0);
    char *cmd = lab_experiment_cmdline(&e);
    lab_experiment_free(&e);
    for (size_t i = 0; lab_test_at(i); i++) {
        char *all = NULL;
        const struct lab_testdef *t = lab_test_at(i);
        size_t len = strlen(LAB_TEST_COMMON_PARAMS) + strlen(t->params) + 2;
        all = malloc(len);
        snprintf(all, len, "%s %s", LAB_TEST_COMMON_PARAMS, t->params);
        for (char *save, *w = strtok_r(all, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
            char want[64];
            snprintf(want, sizeof want, "%s=", w);
            if (!strstr(cmd, want))
                fail_msg("test %s reads %s, which the host does not write: %s", t->name, w, cmd);
        }
        free(all);
    }
    free(cmd);
}

/* A test whose work is the file reads file_size bytes of it: the host
 * sends lab.size from the row's work, never from the test's name. */
static void test_file_tests_get_the_file_size(void **state)
{
    size_t files = 0;
    for (size_t i = 0; lab_test_at(i); i++) {
        const struct lab_testdef *t = lab_test_at(i);
        struct lab_experiment e;
        char text[128];
        snprintf(text, sizeof text, "test = %s\nfile_size = 96M\nread_size = 32M\n", t->name);
        assert_int_equal(lab_experiment_parse("t.exp", text, &e), 0);
        char *cmd = lab_experiment_cmdline(&e);
        const char *want = t->work == LAB_WORK_FILE ? "lab.size=100663296" : "lab.size=33554432";
        if (!strstr(cmd, want))
            fail_msg("test %s: expected %s in %s", t->name, want, cmd);
        files += t->work == LAB_WORK_FILE;
        free(cmd);
        lab_experiment_free(&e);
    }
    assert_true(files >= 1); /* seqread at least */
}

/* One direction per figure: the shapes' and the metrics' agree. */
static void test_directions(void **state)
{
    const struct lab_metric *mbps = lab_test_metric("mbps"), *secs = lab_test_metric("secs");
    assert_non_null(mbps);
    assert_true(mbps->higher_is_better);
    assert_false(secs->higher_is_better);
    assert_true(lab_test_metric("iops")->higher_is_better);
    assert_null(lab_test_metric("ops_per_sec")); /* a figure, not a bisection metric */
    assert_null(lab_test_metric("latency"));
    assert_ptr_equal(lab_test_metric_at(0), mbps);
    assert_null(lab_test_metric_at(3));
    assert_false(lab_shape_lower_is_better(&lab_test_find("seqread")->shape));
    assert_false(lab_shape_lower_is_better(&lab_test_find("overwrite")->shape));
    assert_true(lab_shape_lower_is_better(&lab_test_find("treeread")->shape));
    assert_true(lab_shape_lower_is_better(&lab_test_find("contest")->shape));
    for (size_t i = 0; lab_test_at(i); i++) {
        const struct lab_testdef *t = lab_test_at(i);
        /* A test that gives the metric of its compared figure agrees on its direction. */
        const struct lab_metric *m = lab_fig(t->shape.compare);
        if (lab_test_gives(t, m))
            assert_int_equal(!m->higher_is_better, lab_shape_lower_is_better(&t->shape));
        assert_true(lab_test_gives(t, secs));
    }
}

/* Which tests give a metric: what `lab bisect` refuses with. */
static void test_metric_tests(void **state)
{
    char *s = lab_metric_tests(lab_test_metric("mbps"));
    assert_int_equal(strncmp(s, "seqread or devread", 18), 0);
    free(s);
    s = lab_metric_tests(lab_test_metric("iops"));
    assert_string_equal(s, "randread");
    free(s);
    /* Every metric's list is the tests that give it, in the table's order. */
    for (size_t m = 0; lab_test_metric_at(m); m++) {
        char want[512] = "";
        for (size_t i = 0; lab_test_at(i); i++)
            if (lab_test_gives(lab_test_at(i), lab_test_metric_at(m)))
                snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s",
                         *want ? " or " : "", lab_test_at(i)->name);
        s = lab_metric_tests(lab_test_metric_at(m));
        assert_string_equal(s, want);
        free(s);
    }
    assert_false(lab_test_gives(lab_test_find("treeread"), lab_test_metric("mbps")));
    assert_true(lab_test_gives(lab_test_find("randread"), lab_test_metric("iops")));
    assert_false(lab_test_gives(NULL, lab_test_metric("iops")));
}

/* One rule for a missing key: NAN; present keys anywhere in the list. */
static void test_extra_keys(void **state)
{
    assert_true(lab_extra_num("count=2000 ra_sectors=64", "count") == 2000);
    assert_true(lab_extra_num("count=2000 ra_sectors=64", "ra_sectors") == 64);
    assert_true(lab_extra_num("  a=1   count=7", "count") == 7);
    assert_true(isnan(lab_extra_num("counts=3", "count")));
    assert_true(isnan(lab_extra_num("xcount=3", "count")));
    assert_true(isnan(lab_extra_num("", "count")));
    assert_true(isnan(lab_extra_num(NULL, "count")));
}

static void test_metric_values(void **state)
{
    struct lab_sample s = {.bytes = 100000000, .real_ns = 2000000000, .extra = "count=500"};
    assert_true(fabs(lab_metric_value(lab_test_metric("mbps"), &s) - 50) < 1e-9);
    assert_true(fabs(lab_metric_value(lab_test_metric("iops"), &s) - 250) < 1e-9);
    assert_true(fabs(lab_metric_value(lab_test_metric("secs"), &s) - 2) < 1e-9);
    s.extra = "ra_sectors=8";
    assert_true(isnan(lab_metric_value(lab_test_metric("iops"), &s)));
    s.real_ns = 0;
    assert_true(isnan(lab_metric_value(lab_test_metric("secs"), &s)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_test_is_usable),
        cmocka_unit_test(test_params_are_written),
        cmocka_unit_test(test_file_tests_get_the_file_size),
        cmocka_unit_test(test_directions),
        cmocka_unit_test(test_metric_tests),
        cmocka_unit_test(test_extra_keys),
        cmocka_unit_test(test_metric_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
