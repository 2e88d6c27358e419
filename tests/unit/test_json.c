/* The JSON document of stored fixture runs: golden files, every stored
 * sample present, warm-ups marked, comparisons as the table has them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/fixture.h"
#include "tests/unit/golden.h"
#include "host/report/json.h"
#include "host/store/store.h"
#include "common/file.h"
#include "common/str.h"

static char dir[] = "/tmp/lab-test-json.XXXXXX";

static struct lab_store *open_store(const char *name)
{
    char *path = lab_asprintf("%s/%s", dir, name);
    struct lab_store *st;
    assert_int_equal(lab_store_open(path, &st), 0);
    free(path);
    return st;
}

/* The wall clock of the run's start is the one value a fixture cannot fix. */
static char *stable_text(struct json_object *doc)
{
    struct json_object *run;
    assert_true(json_object_object_get_ex(doc, "run", &run));
    json_object_object_add(run, "started_wall_ns", json_object_new_int64(0));
    return lab_asprintf("%s\n", json_object_to_json_string_ext(doc, LAB_JSON_FLAGS));
}

static struct json_object *get(struct json_object *o, const char *key)
{
    struct json_object *v = NULL;
    if (!json_object_object_get_ex(o, key, &v))
        fail_msg("no key '%s'", key);
    return v;
}

static size_t count_samples(struct json_object *doc, int *warmups)
{
    struct json_object *cells = get(doc, "cells");
    size_t n = 0;
    *warmups = 0;
    for (size_t i = 0; i < json_object_array_length(cells); i++) {
        struct json_object *s = get(json_object_array_get_idx(cells, i), "samples");
        for (size_t j = 0; j < json_object_array_length(s); j++)
            *warmups += json_object_get_boolean(get(json_object_array_get_idx(s, j), "warmup"));
        n += json_object_array_length(s);
    }
    return n;
}

static void test_seqread_golden(void **state)
{
    struct lab_store *st = open_store("seq.db");
    int64_t run = fixture_seqread(st, 1.2, 1);
    struct json_object *doc = lab_json_run(st, run);
    assert_non_null(doc);
    assert_int_equal(json_object_get_int(get(doc, "version")), LAB_JSON_VERSION);
    int warmups;
    assert_int_equal(count_samples(doc, &warmups), 8); /* 2 cells x (1 + 3); none from the panic */
    assert_int_equal(warmups, 2);
    struct json_object *cells = get(doc, "cells");
    assert_int_equal(json_object_array_length(cells), 3);
    struct json_object *c0 = json_object_array_get_idx(cells, 0);
    assert_string_equal(json_object_get_string(get(c0, "bus")), "ide");
    assert_string_equal(json_object_get_string(get(get(c0, "facts"), "boot_to_agent_ns")),
                        "6400000000");
    struct json_object *s0 = json_object_array_get_idx(get(c0, "samples"), 0);
    assert_int_equal(json_object_get_int(get(get(s0, "extra"), "ra_sectors")), 256);
    assert_string_equal(json_object_get_string(get(get(s0, "extra"), "note")), "x0");
    struct json_object *cmp = json_object_array_get_idx(get(doc, "comparisons"), 0);
    assert_string_equal(json_object_get_string(get(cmp, "verdict")), "slower");
    assert_true(json_object_get_double(get(cmp, "change_pct")) < -10);
    char *text = stable_text(doc);
    assert_golden("json-seqread.json", text);
    free(text);
    json_object_put(doc);
    lab_store_close(st);
}

/* The text the command writes parses back, with the same samples. */
static void test_text_parses(void **state)
{
    struct lab_store *st = open_store("sweep.db");
    int64_t run = fixture_sweep(st);
    char *text = lab_json_run_text(st, run);
    assert_non_null(text);
    struct json_object *doc = json_tokener_parse(text);
    assert_non_null(doc);
    int warmups;
    assert_int_equal(count_samples(doc, &warmups), 24);
    assert_int_equal(warmups, 6); /* one per readahead group per cell */
    assert_int_equal(json_object_array_length(get(doc, "rows")), 6);
    assert_int_equal(json_object_array_length(get(doc, "comparisons")), 3);
    struct json_object *r = json_object_array_get_idx(get(doc, "rows"), 1);
    assert_int_equal(json_object_get_int(get(r, "readahead")), 128);
    struct json_object *mbps = get(get(r, "summaries"), "mbps");
    assert_int_equal(json_object_get_int(get(mbps, "n")), 3);
    char *golden = stable_text(doc);
    assert_golden("json-readahead-sweep.json", golden);
    free(golden);
    json_object_put(doc);
    free(text);
    lab_store_close(st);
}

/* JSON has no infinity: identical constant samples give d = +-inf or NaN,
 * which must come out as null, never as a bare Infinity. */
static void test_no_infinity(void **state)
{
    struct lab_store *st = open_store("const.db");
    int64_t run = lab_store_run_begin(st, "lab run", "seqread", "fast");
    for (int k = 0; k < 2; k++) {
        int64_t cell = lab_store_cell_begin(st, run, k ? "b" : "a", "seqread", "lab.test=seqread");
        for (int rep = 0; rep < 3; rep++) {
            struct lab_sample s = {.cell = cell,
                                   .rep = rep,
                                   .test = "seqread",
                                   .bytes = 1 << 20,
                                   .real_ns = k ? 2000000000 : 1000000000};
            lab_store_add_sample(st, &s);
        }
        lab_store_cell_end(st, cell, "ok", NULL);
    }
    char *text = lab_json_run_text(st, run);
    assert_non_null(text);
    assert_null(strstr(text, "Infinity"));
    assert_null(strstr(text, "NaN"));
    struct json_object *doc = json_tokener_parse(text);
    assert_non_null(doc);
    json_object_put(doc);
    free(text);
    lab_store_close(st);
}

static void test_missing_run(void **state)
{
    struct lab_store *st = open_store("empty.db");
    assert_null(lab_json_run(st, 42));
    lab_store_close(st);
}

static int setup(void **state)
{
    if (!mkdtemp(dir))
        return -1;
    setenv("LAB_HOME", dir, 1); /* no user kernels: the catalog is Debian's only */
    return 0;
}

static int teardown(void **state)
{
    return lab_rm_rf(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seqread_golden),
        cmocka_unit_test(test_text_parses),
        cmocka_unit_test(test_no_infinity),
        cmocka_unit_test(test_missing_run),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
