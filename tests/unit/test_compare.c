/* lab compare on fixture runs: rows matched by label, run B's change with
 * its CI and verdict, rows present in one run only, and a refusal for runs
 * of different tests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/fixture.h"
#include "tests/unit/golden.h"
#include "host/stats/runcompare.h"
#include "host/store/store.h"
#include "common/file.h"
#include "common/str.h"

static char dir[] = "/tmp/lab-test-compare.XXXXXX";

static char *render(struct lab_store *st, int64_t a, int64_t b, int want_rc)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(lab_compare_runs(f, st, a, b), want_rc);
    fclose(f);
    return text;
}

static void test_compare(void **state)
{
    char *path = lab_asprintf("%s/results.db", dir);
    struct lab_store *st;
    assert_int_equal(lab_store_open(path, &st), 0);
    int64_t a = fixture_seqread(st, 1.0, 0); /* two kernels alike */
    int64_t b = fixture_seqread(st, 1.2, 1); /* 6.12.113 17% slower, plus a panicked cell */
    char *text = render(st, a, b, 0);
    /* The same kernel in both runs: 6.1.0-47's samples are identical. */
    assert_non_null(strstr(text, "6.1.0-47                 3 268.51 (255.16 .. 281.85)"));
    assert_non_null(strstr(text, "SLOWER (significant)"));
    assert_non_null(strstr(text, "only in run 2"));
    assert_golden("compare-seqread.txt", text);
    free(text);
    int64_t sweep = fixture_sweep(st);
    text = render(st, a, sweep, 0); /* both seqread: nothing in common but the test */
    assert_non_null(strstr(text, "only in run 1"));
    free(text);
    /* A randread run against a seqread one: refused. */
    int64_t rr = lab_store_run_begin(st, "lab run", "randread", "fast");
    int64_t cell = lab_store_cell_begin(st, rr, "6.1.0-47", "randread", "lab.test=randread");
    lab_store_cell_end(st, cell, "ok", NULL);
    text = render(st, a, rr, 1);
    free(text);
    lab_store_close(st);
    free(path);
}

static int set_cpu(const struct lab_cell_info *ci, void *st)
{
    return lab_store_cell_cpu(st, ci->id, "pentium-66");
}

/* Run B on another CPU profile (host/plan/cpu.h): every verdict says so. */
static void test_different_cpus(void **state)
{
    char *path = lab_asprintf("%s/cpus.db", dir);
    struct lab_store *st;
    assert_int_equal(lab_store_open(path, &st), 0);
    int64_t a = fixture_seqread(st, 1.0, 0);
    int64_t b = fixture_seqread(st, 1.2, 0);
    char *text = render(st, a, b, 0);
    assert_null(strstr(text, "DIFFERENT CPUs"));
    free(text);
    assert_int_equal(lab_store_foreach_cell(st, b, set_cpu, st), 0);
    text = render(st, a, b, 0);
    assert_non_null(strstr(text, "[DIFFERENT CPUs: pentium-66 vs fast]"));
    free(text);
    lab_store_close(st);
    free(path);
}

static int set_boot_args(const struct lab_cell_info *ci, void *st)
{
    return lab_store_cell_set(st, ci->id, "boot_args", "clock=pit idle=poll");
}

/* A run of the same experiment with other settings: its own readahead and
 * boot words, each named on the verdict; another number of runs (reps) is
 * no difference in what was measured. */
static void test_different_settings(void **state)
{
    char *path = lab_asprintf("%s/settings.db", dir);
    struct lab_store *st;
    assert_int_equal(lab_store_open(path, &st), 0);
    int64_t a = fixture_seqread(st, 1.0, 0);
    int64_t b = fixture_seqread(st, 1.2, 0);
    assert_int_equal(lab_store_foreach_cell(st, b, set_boot_args, st), 0);
    char *text = render(st, a, b, 0);
    assert_non_null(strstr(text, "[settings differ: clock=pit idle=poll vs -]"));
    free(text);
    /* Run c: the same cells but 6 reps and lab.ra=64. */
    int64_t c = lab_store_run_begin(st, "lab run", "seqread", "fast");
    int64_t d = lab_store_run_begin(st, "lab run", "seqread", "fast");
    const char *params[] = {"lab.test=seqread lab.reps=6", "lab.test=seqread lab.reps=6 lab.ra=64"};
    int64_t runs[] = {c, d};
    for (int r = 0; r < 2; r++) {
        int64_t cell = lab_store_cell_begin(st, runs[r], "6.1.0-47", "seqread", params[r]);
        for (int rep = 0; rep < 3; rep++) {
            struct lab_sample s = {.cell = cell,
                                   .rep = rep,
                                   .test = "seqread",
                                   .bytes = 1 << 20,
                                   .real_ns = 1000000 + rep * 1000};
            assert_int_equal(lab_store_add_sample(st, &s), 0);
        }
        lab_store_cell_end(st, cell, "ok", NULL);
    }
    text = render(st, a, c, 0); /* reps 4 against 6: alike */
    assert_null(strstr(text, "settings differ"));
    free(text);
    text = render(st, c, d, 0);
    assert_non_null(strstr(text, "[settings differ: lab.ra=64 vs -]"));
    free(text);
    lab_store_close(st);
    free(path);
}

static void test_missing(void **state)
{
    char *path = lab_asprintf("%s/empty.db", dir);
    struct lab_store *st;
    assert_int_equal(lab_store_open(path, &st), 0);
    char *text = render(st, 1, 2, -1);
    free(text);
    lab_store_close(st);
    free(path);
}

static int setup(void **state)
{
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    return lab_rm_rf(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_missing),
        cmocka_unit_test(test_different_cpus),
        cmocka_unit_test(test_different_settings),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
