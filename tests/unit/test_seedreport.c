/* The seed thread's figures beside a run's, in the text table and the
 * JSON document, against golden files: seed 000's sweep as the shipped
 * experiment carries it, run here on two other kernels that stand in by
 * position. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/golden.h"
#include "host/plan/experiment.h"
#include "host/report/json.h"
#include "host/report/table.h"
#include "host/store/store.h"

static char dir[] = "/tmp/lab-test-seedreport.XXXXXX";

/* Per kernel and readahead (256, 128, 64) three runs after a warm-up: the
 * second kernel the same at 256, slower at 128, faster at 64. */
static int64_t seed_run(struct lab_store *st, const char *reported_text)
{
    static const char *const kernels[] = {"6.1.0-47", "6.12.113"};
    static const double secs[2][3][3] = {
        {{0.60, 0.61, 0.62}, {0.55, 0.56, 0.55}, {0.52, 0.53, 0.52}},
        {{0.61, 0.60, 0.62}, {0.66, 0.65, 0.67}, {0.50, 0.51, 0.50}}};
    static const int ra[] = {256, 128, 64};
    int64_t run = lab_store_run_begin(st, "lab run", "readahead-sweep", "pata-2003");
    for (int k = 0; k < 2; k++) {
        int64_t cell = lab_store_cell_begin(st, run, kernels[k], "readahead-sweep",
                                            "lab.test=seqread lab.reps=4 lab.ra_list=256,128,64");
        lab_store_cell_set(st, cell, "warmup", "1");
        if (reported_text)
            lab_store_cell_set(st, cell, "reported", reported_text);
        int rep = 0;
        for (int g = 0; g < 3; g++)
            for (int i = -1; i < 3; i++) {
                char extra[64];
                double t = i < 0 ? 2.0 : secs[k][g][i];
                snprintf(extra, sizeof extra, "ra_sectors=%d bs=1048576", ra[g]);
                struct lab_sample s = {.cell = cell,
                                       .rep = rep++,
                                       .test = "seqread",
                                       .bytes = 16ULL << 20,
                                       .real_ns = (int64_t)(t * 1e9),
                                       .user_ns = 1000000 * (1 + i + k),
                                       .sys_ns = 300000000 + 10000000 * (i + 3 * k),
                                       .host_begin_ns = 1,
                                       .host_end_ns = 1 + (int64_t)(t * 1e9),
                                       .extra = extra};
                assert_int_equal(lab_store_add_sample(st, &s), 0);
            }
        lab_store_cell_end(st, cell, "ok", NULL);
    }
    lab_store_run_end(st, run, "ok");
    return run;
}

static struct lab_store *open_store(const char *name)
{
    char *path = lab_asprintf("%s/%s", dir, name);
    struct lab_store *st;
    assert_int_equal(lab_store_open(path, &st), 0);
    free(path);
    return st;
}

static char *render(struct lab_store *st, int64_t run)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(lab_report_run(f, st, run), 0);
    fclose(f);
    return text;
}

static void test_text_and_json(void **state)
{
    struct lab_experiment e;
    assert_int_equal(lab_experiment_load("readahead-sweep", &e), 0);
    struct lab_store *st = open_store("seed.db");
    int64_t run = seed_run(st, e.reported_text);
    char *text = render(st, run);
    /* the thread's figures beside the lab's, and the verdicts */
    assert_non_null(strstr(text, "6.1.0-47 stands in for the thread's 2.6.0 (by position"));
    assert_non_null(strstr(text, "11.427 11.963 11.291"));
    assert_non_null(strstr(text, "2.6.1-rc1 ra=128 vs 2.6.0 ra=128, time: the thread +16.6% "
                                 "(slower, Welch p="));
    assert_non_null(strstr(text, "DISAGREES")); /* ra=64: faster here */
    assert_golden("report-seed-sweep.txt", text);
    free(text);

    struct json_object *doc = lab_json_run(st, run), *rep, *findings, *figs;
    assert_non_null(doc);
    assert_true(json_object_object_get_ex(doc, "reported", &rep));
    assert_true(json_object_object_get_ex(rep, "findings", &findings));
    assert_true(json_object_object_get_ex(rep, "figures", &figs));
    assert_int_equal(json_object_array_length(figs), 18);
    assert_int_equal(json_object_array_length(findings), 9); /* 3 settings x real, user, sys */
    char *json = lab_asprintf("%s\n", json_object_to_json_string_ext(rep, LAB_JSON_FLAGS));
    assert_golden("json-seed-sweep.json", json);
    free(json);
    json_object_put(doc);

    /* the same run without the thread's figures has no part on them */
    int64_t bare = seed_run(st, NULL);
    text = render(st, bare);
    assert_null(strstr(text, "thread"));
    free(text);
    doc = lab_json_run(st, bare);
    assert_false(json_object_object_get_ex(doc, "reported", NULL));
    json_object_put(doc);
    lab_store_close(st);
    lab_experiment_free(&e);
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
        cmocka_unit_test(test_text_and_json),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
