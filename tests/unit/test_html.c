/* The HTML report of fixture runs: the number of figures per kind of run
 * (distributions, a sweep, a traced run, a bisection), the page
 * self-contained (no script, no link, no network), and text escaped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/bisect/bisect.h"
#include "tests/unit/fixture.h"
#include "host/report/html.h"
#include "host/store/store.h"
#include "host/bisect/store_bisect.h"
#include "common/file.h"
#include "common/str.h"

static char dir[] = "/tmp/lab-test-html.XXXXXX";

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* A trace of 4 KiB and 128 KiB reads for each cell of run, inside the
 * counted runs' window (host clock 2 s .. 5 s of the fixture). */
static void add_traces(struct lab_store *st, int64_t run)
{
    for (int64_t cell = 1; cell <= 2; cell++) {
        char *path = lab_asprintf("%s/cell-%lld.trace", dir, (long long)cell);
        FILE *f = fopen(path, "w");
        fprintf(f, "# t0_ns=2000000000\n");
        for (int i = 0; i < 10; i++)
            fprintf(f, "read\t%d\t%d\t%d\t%d\t%d\t%s\n", i * 4096, i % 3 ? 4096 : 131072,
                    i * 1000000, i * 1000000 + 10, i * 1000000 + 500000, i % 2 ? "hit" : "miss");
        fclose(f);
        lab_store_cell_set(st, cell + 3 * (run - 1), "trace", path);
        free(path);
    }
}

static void add_bisection(const char *store_path, int64_t run)
{
    struct lab_store *db;
    assert_int_equal(lab_store_open(store_path, &db), 0);
    struct lab_bisect_row row = fixture_bisect_row(run, "fast");
    int64_t id = lab_store_bisect_begin(db, &row);
    static const char *const roles[] = {"good", "bad", "step"};
    for (int i = 0; i < 3; i++) {
        struct lab_bisect_step s = {
            .step = i == 2, .p_good = NAN, .p_bad = NAN, .d_good = NAN, .d_bad = NAN};
        snprintf(s.role, sizeof s.role, "%s", roles[i]);
        snprintf(s.commit, sizeof s.commit, "%040d", i);
        snprintf(s.subject, sizeof s.subject, "commit <%d>", i);
        s.verdict = i == 1 ? LAB_BISECT_BAD : LAB_BISECT_GOOD;
        s.sum = (struct lab_summary){.n = 5, .mean = i == 1 ? 28 : 55, .ci_lo = 50, .ci_hi = 58};
        lab_store_bisect_add_step(db, id, &s);
    }
    lab_store_bisect_end(db, id, "found", "0", "commit", "");
    lab_store_close(db);
}

static void test_report(void **state)
{
    char *db = lab_asprintf("%s/results.db", dir), *out = lab_asprintf("%s/html", dir);
    struct lab_store *st;
    assert_int_equal(lab_store_open(db, &st), 0);
    int64_t seq = fixture_seqread(st, 1.2, 1); /* cells 1, 2 and the panicked 3 */
    add_traces(st, seq);
    int64_t sweep = fixture_sweep(st);
    /* A trace from another run (its clock far from this cell's window): no plot. */
    char *stale = lab_asprintf("%s/stale.trace", dir);
    const char *far = "# t0_ns=900000000000000\nread\t0\t4096\t0\t1\t2\tmiss\n";
    lab_write_file(stale, far, strlen(far));
    lab_store_cell_set(st, 4, "trace", stale);
    free(stale);
    lab_store_close(st);
    add_bisection(db, seq);

    int64_t runs[] = {seq, sweep};
    /* seqread: a distribution per column of its table (time, MB/s, user,
     * sys), the size histogram, one timeline per traced cell, the
     * bisection: 4 + 1 + 2 + 1. The sweep: its curves and 4 distributions. */
    assert_int_equal(lab_html_report(db, runs, 1, out), 8);
    assert_int_equal(lab_html_report(db, runs + 1, 1, out), 5);
    assert_int_equal(lab_html_report(db, runs, 2, out), 13);
    char *path = lab_asprintf("%s/index.html", out), *page = lab_read_file(path, NULL);
    assert_non_null(page);
    assert_int_equal(count(page, "<figure"), 13);
    assert_int_equal(count(page, "<svg"), 13);
    assert_int_equal(count(page, "<section class=\"run\""), 2);
    /* Self-contained: nothing fetched, nothing run. */
    assert_int_equal(count(page, "<script"), 0);
    assert_int_equal(count(page, "src="), 0);
    assert_int_equal(count(page, "href="), 0);
    assert_int_equal(count(page, "http"), count(page, "xmlns=\"http://www.w3.org/2000/svg\""));
    assert_non_null(strstr(page, "readahead sweep"));
    assert_non_null(strstr(page, "request sizes at the era disk"));
    assert_non_null(strstr(page, "bisection 1: seqread mbps, found"));
    assert_non_null(strstr(page, "kernel panicked")); /* the table, escaped into <pre> */
    assert_null(strstr(page, "commit <"));            /* subjects are not in the page; labels are */
    free(page);
    free(path);
    runs[0] = 99;
    assert_int_equal(lab_html_report(db, runs, 1, out), -1);
    free(db);
    free(out);
}

/* contest: two kernels, each with no load and io_load: the Ratio bars. */
static int64_t contest_run(struct lab_store *st)
{
    static const char *const kernels[] = {"6.1.0-47", "6.12.113"};
    static const char *const params[] = {"lab.test=contest", "lab.test=contest lab.load=io_load"};
    int64_t run = lab_store_run_begin(st, "lab run", "contest", "pata-2003");
    for (int k = 0; k < 2; k++)
        for (int l = 0; l < 2; l++) {
            int64_t cell = lab_store_cell_begin(st, run, kernels[k], "contest", params[l]);
            for (int rep = 0; rep < 3; rep++) {
                int64_t ns = (int64_t)((1 + 5 * l + k + 0.1 * rep) * 1e9);
                struct lab_sample s = {.cell = cell,
                                       .rep = rep,
                                       .test = "contest",
                                       .real_ns = ns,
                                       .user_ns = ns / 2,
                                       .extra = "load_units=3"};
                lab_store_add_sample(st, &s);
            }
            lab_store_cell_end(st, cell, "ok", NULL);
        }
    lab_store_run_end(st, run, "ok");
    return run;
}

static void test_contest(void **state)
{
    char *db = lab_asprintf("%s/contest.db", dir), *out = lab_asprintf("%s/contest", dir);
    struct lab_store *st;
    assert_int_equal(lab_store_open(db, &st), 0);
    int64_t run = contest_run(st);
    lab_store_close(st);
    /* The Ratio bars and one distribution per column (Time, CPU%, Loads,
     * LCPU%, Ratio). */
    assert_int_equal(lab_html_report(db, &run, 1, out), 6);
    char *path = lab_asprintf("%s/index.html", out), *page = lab_read_file(path, NULL);
    assert_non_null(strstr(page, "run 1: contest Ratio"));
    char *ratio = strstr(page, "contest Ratio"), *end = strstr(ratio, "</svg>");
    *end = '\0';
    assert_int_equal(count(ratio, "class=\"bar\""), 4); /* 2 loads x 2 kernels */
    assert_non_null(strstr(ratio, ">io_load<"));
    free(page);
    free(path);
    free(db);
    free(out);
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
        cmocka_unit_test(test_report),
        cmocka_unit_test(test_contest),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
