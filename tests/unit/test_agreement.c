/* A run read against its seed's thread: which lab kernel stands in for
 * which of the thread's, and whether each finding is borne out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/plan/reported.h"
#include "host/stats/agreement.h"

/* A model of rows "KERNEL ra=64" with these times (s). */
struct lab_row_spec {
    const char *kernel;
    double secs[4];
    size_t n;
};

static struct lab_model *model(const struct lab_row_spec *rows, size_t nrows)
{
    struct lab_model *m = calloc(1, sizeof *m);
    for (size_t i = 0; i < nrows; i++) {
        struct lab_model_row *r = &m->rows[m->nrows++];
        snprintf(r->kernel, sizeof r->kernel, "%s", rows[i].kernel);
        snprintf(r->label, sizeof r->label, "%s ra=64", rows[i].kernel);
        snprintf(r->status, sizeof r->status, "ok");
        r->n = rows[i].n;
        r->v[LAB_FIG_SECS] = (double *)rows[i].secs;
    }
    return m;
}

static struct lab_reported *reported(const char *text)
{
    struct lab_reported *r = calloc(1, sizeof *r);
    assert_int_equal(lab_reported_parse("t", text, r), 0);
    return r;
}

/* Seed 000 at readahead 64: 2.6.1-rc1 took 24% longer, significant in the
 * thread's own three runs each. */
static const char seed000[] = "kernels = 2.6.0, 2.6.1-rc1\n"
                              "reported = 2.6.0 ra=64: 9.107 9.227 9.152 s\n"
                              "reported = 2.6.1-rc1 ra=64: 11.361 11.655 11.369 s\n";

static struct lab_model *kept_model;

static enum lab_agreement agreement_of(const char *text, const struct lab_row_spec *rows,
                                       size_t nrows, struct lab_seed_view **out)
{
    struct lab_model *m = model(rows, nrows);
    struct lab_reported *r = reported(text);
    struct lab_seed_view *v = lab_seed_view_build(m, r);
    assert_int_equal(v->nfindings, 1);
    enum lab_agreement a = v->findings[0].agreement;
    free(r);
    if (out) { /* the view points into the model: both go in release() */
        *out = v;
        kept_model = m;
        return a;
    }
    lab_seed_view_free(v);
    free(m);
    return a;
}

static void release(struct lab_seed_view *v)
{
    lab_seed_view_free(v);
    free(kept_model);
    kept_model = NULL;
}

static void test_by_position(void **state)
{
    const struct lab_row_spec rows[] = {{"6.1.0-47", {1.00, 1.01, 0.99}, 3},
                                        {"6.12.113", {1.20, 1.21, 1.19}, 3}};
    struct lab_seed_view *v;
    assert_int_equal(agreement_of(seed000, rows, 2, &v), LAB_AGREE_YES);
    assert_int_equal(v->nmaps, 2);
    assert_string_equal(v->maps[0].thread, "2.6.0");
    assert_string_equal(v->maps[0].lab, "6.1.0-47");
    assert_int_equal(v->maps[0].how, LAB_SEED_POSITION);
    assert_string_equal(v->maps[1].lab, "6.12.113");
    const struct lab_seed_finding *d = &v->findings[0];
    assert_true(d->thread_tested && d->thread_significant);
    assert_true(d->thread_pct > 25 && d->thread_pct < 25.2);
    assert_string_equal(lab_seed_direction(d->fig->kind, d->thread_pct), "slower");
    assert_true(d->lab_c.diff_pct > 19 && d->lab_c.diff_pct < 21);
    assert_string_equal(v->rows[0].lab->label, "6.1.0-47 ra=64");
    assert_string_equal(v->rows[1].lab->label, "6.12.113 ra=64");
    release(v);
}

static void test_verdicts(void **state)
{
    const struct lab_row_spec base = {"A", {1.00, 1.01, 0.99}, 3};
    const struct {
        struct lab_row_spec other;
        enum lab_agreement want;
    } cases[] = {
        {{"B", {0.80, 0.81, 0.79}, 3}, LAB_AGREE_OPPOSITE},    /* faster here */
        {{"B", {1.00, 1.03, 0.98}, 3}, LAB_AGREE_UNCONFIRMED}, /* no significant change */
        {{"B", {1.20}, 1}, LAB_AGREE_TOO_FEW},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct lab_row_spec rows[] = {base, cases[i].other};
        assert_int_equal(agreement_of(seed000, rows, 2, NULL), cases[i].want);
    }
}

/* Seed 000 at readahead 256: 11.56 s against 11.86 s, not significant in
 * the thread's runs: the lab agrees when it finds no change either. */
static void test_thread_not_significant(void **state)
{
    static const char text[] = "reported = 2.6.0 ra=64: 11.427 11.963 11.291 s\n"
                               "reported = 2.6.1-rc1 ra=64: 11.984 11.704 11.886 s\n";
    const struct lab_row_spec same[] = {{"2.6.0", {1.00, 1.01, 0.99}, 3},
                                        {"2.6.1-rc1", {1.00, 1.02, 0.99}, 3}};
    struct lab_seed_view *v;
    assert_int_equal(agreement_of(text, same, 2, &v), LAB_AGREE_NEITHER);
    assert_int_equal(v->maps[0].how, LAB_SEED_SAME);
    assert_false(v->findings[0].thread_significant);
    release(v);
    const struct lab_row_spec differ[] = {{"2.6.0", {1.00, 1.01, 0.99}, 3},
                                          {"2.6.1-rc1", {1.30, 1.31, 1.29}, 3}};
    assert_int_equal(agreement_of(text, differ, 2, NULL), LAB_AGREE_LAB_ONLY);
}

/* Means only (contest's): the direction counts, untested. */
static void test_summaries(void **state)
{
    static const char text[] = "reported = base ra=64: time mean 164.9 s, 5 runs\n"
                               "reported = rl2 ra=64: time mean 93.5 s, 5 runs\n";
    const struct lab_row_spec rows[] = {{"X", {2.00, 2.02, 1.98}, 3}, {"Y", {1.20, 1.21, 1.19}, 3}};
    struct lab_seed_view *v;
    assert_int_equal(agreement_of(text, rows, 2, &v), LAB_AGREE_YES);
    assert_false(v->findings[0].thread_tested);
    assert_string_equal(lab_seed_direction(v->findings[0].fig->kind, v->findings[0].thread_pct),
                        "faster");
    release(v);
}

/* A stand_in wins over position; a thread kernel with no lab kernel left
 * is not run, and its findings say so. */
static void test_stand_in_and_unmapped(void **state)
{
    static const char text[] = "kernels = 2.6.0, 2.6.1-rc1, 2.6.2\n"
                               "stand_in = 2.6.1-rc1: K2\n"
                               "reported = 2.6.0 ra=64: 9.1 9.2 s\n"
                               "reported = 2.6.1-rc1 ra=64: 11.3 11.6 s\n"
                               "reported = 2.6.2 ra=64: 9.0 9.1 s\n";
    const struct lab_row_spec rows[] = {{"K1", {1.0, 1.01}, 2}, {"K2", {1.2, 1.21}, 2}};
    struct lab_model *m = model(rows, 2);
    struct lab_reported *r = reported(text);
    struct lab_seed_view *v = lab_seed_view_build(m, r);
    assert_int_equal(v->maps[1].how, LAB_SEED_STAND_IN);
    assert_string_equal(v->maps[1].lab, "K2");
    /* two thread kernels left (2.6.0, 2.6.2), one lab kernel: no pairing */
    assert_int_equal(v->maps[0].how, LAB_SEED_UNMAPPED);
    assert_int_equal(v->maps[2].how, LAB_SEED_UNMAPPED);
    assert_null(lab_seed_map_of(v, "2.6.0"));
    assert_int_equal(v->nfindings, 2);
    assert_int_equal(v->findings[0].agreement, LAB_AGREE_NOT_RUN);
    assert_null(v->rows[0].lab);
    assert_non_null(v->rows[1].lab);
    lab_seed_view_free(v);
    free(r);
    free(m);
}

/* Contest: one lab kernel stands in for the kernels line's 2.4.20; the
 * thread's patched kernels stay not run. */
static void test_kernels_line_first(void **state)
{
    static const char text[] = "kernels = 2.4.20\n"
                               "reported = 2.4.20 ra=64: time mean 164.9 s, 5 runs\n"
                               "reported = 2420rl2b1 ra=64: time mean 93.5 s, 5 runs\n"
                               "reported = 2420rl2b2 ra=64: time mean 88.2 s, 5 runs\n";
    const struct lab_row_spec rows[] = {{"6.1.0-47", {2.0, 2.1}, 2}};
    struct lab_model *m = model(rows, 1);
    struct lab_reported *r = reported(text);
    struct lab_seed_view *v = lab_seed_view_build(m, r);
    assert_int_equal(v->nmaps, 3);
    assert_int_equal(v->maps[0].how, LAB_SEED_POSITION);
    assert_string_equal(v->maps[0].lab, "6.1.0-47");
    assert_int_equal(v->maps[1].how, LAB_SEED_UNMAPPED);
    assert_int_equal(v->maps[2].how, LAB_SEED_UNMAPPED);
    assert_non_null(v->rows[0].lab);
    assert_null(v->rows[1].lab);
    assert_int_equal(v->nfindings, 2);
    assert_int_equal(v->findings[0].agreement, LAB_AGREE_NOT_RUN);
    lab_seed_view_free(v);
    free(r);
    free(m);
}

static void test_words(void **state)
{
    assert_string_equal(lab_seed_direction(lab_reported_kind("time"), 5), "slower");
    assert_string_equal(lab_seed_direction(lab_reported_kind("throughput"), 5), "faster");
    assert_string_equal(lab_seed_direction(lab_reported_kind("throughput"), -5), "slower");
    assert_string_equal(lab_seed_direction(lab_reported_kind("sys"), 5), "higher");
    assert_string_equal(lab_seed_direction(lab_reported_kind("ratio"), -1), "faster");
    assert_string_equal(lab_seed_direction(lab_reported_kind("time"), 0), "no change");
    assert_string_equal(lab_agreement_name(LAB_AGREE_OPPOSITE), "opposite");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_by_position),
        cmocka_unit_test(test_verdicts),
        cmocka_unit_test(test_thread_not_significant),
        cmocka_unit_test(test_summaries),
        cmocka_unit_test(test_stand_in_and_unmapped),
        cmocka_unit_test(test_kernels_line_first),
        cmocka_unit_test(test_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
