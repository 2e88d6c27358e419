/* Unit tests of boots in host/stats/runmodel.c: the cells of one kernel and
 * variant from several boots, interleaved in the store (A1 B1 A2 B2 A3
 * B3), merge into one row with every boot's counted samples, each boot's
 * own warm-up left out, and each sample's boot known. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "host/stats/runmodel.h"
#include "host/store/store.h"

/* MB/s per boot: kernel A boots at ~50, 52, 48; B at ~49, 51, 47. The
 * first sample of each boot is the warm-up (9 MB/s), never counted. */
static const double mbps[2][3][3] = {{{50.0, 50.2, 49.8}, {52.0, 52.1, 51.9}, {48.0, 48.3, 47.7}},
                                     {{49.0, 49.1, 48.9}, {51.0, 51.2, 50.8}, {47.0, 47.1, 46.9}}};

static void add_cell_flags(struct lab_store *st, int64_t run, int k, int b, int flag_rep,
                           int flag_all);

static void add_cell(struct lab_store *st, int64_t run, int k, int b)
{
    add_cell_flags(st, run, k, b, -1, 0);
}

static void add_cell_flags(struct lab_store *st, int64_t run, int k, int b, int flag_rep,
                           int flag_all)
{
    static const char *const kernels[] = {"A", "B"};
    int64_t cell =
        lab_store_cell_begin(st, run, kernels[k], "seqread", "lab.test=seqread lab.reps=4");
    char boot[8];
    snprintf(boot, sizeof boot, "%d", b + 1);
    lab_store_cell_set(st, cell, "warmup", "1");
    lab_store_cell_set(st, cell, "boot", boot);
    for (int rep = 0; rep < 4; rep++) {
        double rate = rep == 0 ? 9.0 : mbps[k][b][rep - 1];
        int64_t ns = (int64_t)(100e6 / (rate * 1e6) * 1e9);
        int flagged = flag_all || rep == flag_rep;
        struct lab_sample s = {.cell = cell,
                               .rep = rep,
                               .test = "seqread",
                               .bytes = 100000000,
                               .real_ns = ns,
                               .extra =
                                   flagged ? "ra_sectors=256 host_vcpu_wait_ns=90000000 host_flag=1"
                                           : "ra_sectors=256 host_vcpu_wait_ns=1000"};
        lab_store_add_sample(st, &s);
    }
    lab_store_cell_end(st, cell, "ok", NULL);
}

static int64_t fixture_boots(struct lab_store *st)
{
    int64_t run =
        lab_store_run_begin(st, "lab run --kernels A,B --boots 3", "seqread", "pata-2003");
    for (int b = 0; b < 3; b++)
        for (int k = 0; k < 2; k++)
            add_cell(st, run, k, b);
    lab_store_run_end(st, run, "ok");
    return run;
}

static void test_rows_merge_boots(void **state)
{
    char dir[] = "/tmp/lab-test-boots.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/s.db", dir);
    struct lab_store *st;
    assert_int_equal(lab_store_open(path, &st), 0);
    int64_t run = fixture_boots(st);
    struct lab_model *m = lab_model_load(st, run);
    assert_non_null(m);
    assert_int_equal(m->nrows, 2);
    for (int k = 0; k < 2; k++) {
        const struct lab_model_row *r = &m->rows[k];
        assert_string_equal(r->kernel, k ? "B" : "A");
        assert_int_equal(r->n, 9);
        assert_int_equal(r->nboots, 3);
        assert_int_equal(r->ncells, 3);
        /* Cells 1..6 in the store, A1 B1 A2 B2 A3 B3. */
        for (int b = 0; b < 3; b++)
            assert_int_equal(r->cells[b], 1 + 2 * b + k);
        for (size_t i = 0; i < r->n; i++) {
            assert_int_equal(r->boot[i], 1 + i / 3);
            assert_true(r->v[LAB_FIG_MBPS][i] > 40); /* no warm-up */
            assert_float_equal(r->v[LAB_FIG_MBPS][i], mbps[k][i / 3][i % 3], 1e-6);
        }
    }
    assert_int_equal(m->ncmps, 1);
    lab_model_free(m);
    lab_store_close(st);
    unlink(path);
    rmdir(dir);
}

/* A run flagged for contention is left out while others remain; a row
 * flagged throughout keeps its runs and says so. */
static void test_flagged(void **state)
{
    char dir[] = "/tmp/lab-test-boots.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/s.db", dir);
    struct lab_store *st;
    assert_int_equal(lab_store_open(path, &st), 0);
    int64_t run = lab_store_run_begin(st, "lab run", "seqread", "pata-2003");
    add_cell_flags(st, run, 0, 0, 2, 0);  /* A: its second counted run flagged */
    add_cell_flags(st, run, 1, 0, -1, 1); /* B: every run flagged */
    lab_store_run_end(st, run, "ok");
    struct lab_model *m = lab_model_load(st, run);
    assert_non_null(m);
    assert_int_equal(m->rows[0].n, 2);
    assert_int_equal(m->rows[0].flagged, 1);
    assert_false(m->rows[0].contended);
    assert_float_equal(m->rows[0].v[LAB_FIG_MBPS][0], 50.0, 1e-6);
    assert_float_equal(m->rows[0].v[LAB_FIG_MBPS][1], 49.8, 1e-6);
    assert_int_equal(m->rows[1].n, 3);
    assert_int_equal(m->rows[1].flagged, 3);
    assert_true(m->rows[1].contended);
    lab_model_free(m);
    lab_store_close(st);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_merge_boots),
        cmocka_unit_test(test_flagged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
