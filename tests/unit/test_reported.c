/* An experiment's seed thread: the kernels, reported and stand_in keys,
 * read well and refused with file, line and reason; the shipped seeds'. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/plan/experiment.h"
#include "host/plan/reported.h"

static char captured[4096];

static int parse_capturing(const char *text, struct lab_experiment *exp)
{
    fflush(stderr);
    FILE *tmp = tmpfile();
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    int rc = lab_experiment_parse("t.exp", text, exp);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(captured, 1, sizeof captured - 1, tmp);
    captured[n] = '\0';
    fclose(tmp);
    return rc;
}

static const char good[] = "test = seqread\n"
                           "readahead_list = 256,128,64\n"
                           "kernels = 2.6.0 , 2.6.1-rc1\n"
                           "reported = 2.6.0 ra=256: 11.427 11.963 11.291 s\n"
                           "reported = 2.6.0  ra=256 : sys 1.722 1.760 1.713 s\n"
                           "reported = 2.4.20 io_load: time mean 164.9 s, 5 runs\n"
                           "reported = base copy: time min 201.6 mean 215.1 max 275.5 sd 22.8 "
                           "s, 10 runs\n"
                           "reported = 2.4.20 io_load: ratio mean 4.55 x, 1 run\n"
                           "reported = 2.6.12: 25.082 s\n"
                           "reported = 2.6.1-rc1 ra=64: 22.9 23.1 MB/s\n"
                           "stand_in = 2.6.0: 2.6.11\n";

static void check_good(const struct lab_reported *r)
{
    assert_int_equal(r->nkernels, 2);
    assert_string_equal(r->kernels[0], "2.6.0");
    assert_string_equal(r->kernels[1], "2.6.1-rc1");
    assert_int_equal(r->nfigs, 7);
    const struct lab_reported_fig *f = &r->figs[0];
    assert_string_equal(f->kernel, "2.6.0");
    assert_string_equal(f->qualifier, "ra=256");
    assert_string_equal(f->kind->word, "time");
    assert_int_equal(f->nvalues, 3);
    assert_int_equal(f->runs, 3);
    assert_true(fabs(f->values[1] - 11.963) < 1e-9);
    assert_true(fabs(lab_reported_mean(f) - 11.560333) < 1e-5);
    assert_string_equal(r->figs[1].kind->word, "sys"); /* spaces around the row collapse */
    assert_string_equal(r->figs[1].qualifier, "ra=256");
    f = &r->figs[2];
    assert_true(f->summary);
    assert_int_equal(f->runs, 5);
    assert_true(fabs(f->mean - 164.9) < 1e-9);
    assert_true(isnan(f->sd));
    f = &r->figs[3];
    assert_string_equal(f->qualifier, "copy");
    assert_true(fabs(f->sd - 22.8) < 1e-9 && fabs(f->min - 201.6) < 1e-9);
    assert_int_equal(f->runs, 10);
    assert_string_equal(r->figs[4].kind->word, "ratio");
    assert_string_equal(r->figs[5].qualifier, "");
    assert_string_equal(r->figs[6].kind->word, "throughput"); /* MB/s alone names it */
    assert_int_equal(r->figs[6].kind->fig, LAB_FIG_MBPS);
    assert_int_equal(r->nstand_ins, 1);
    assert_string_equal(r->stand_ins[0].thread, "2.6.0");
    assert_string_equal(r->stand_ins[0].lab, "2.6.11");
}

/* The file's lines read as the report reads them back from the store. */
static void test_good_and_round_trip(void **state)
{
    struct lab_experiment e;
    assert_int_equal(parse_capturing(good, &e), 0);
    check_good(e.reported);
    char *list = lab_experiment_kernels(&e);
    assert_string_equal(list, "2.6.0,2.6.1-rc1");
    free(list);
    struct lab_reported *back = calloc(1, sizeof *back);
    assert_int_equal(lab_reported_parse("stored", e.reported_text, back), 0);
    check_good(back);
    free(back);
    /* --set replaces the kernels and adds a stand-in */
    assert_int_equal(lab_experiment_set(&e, "--set", "kernels=6.1.0-47,6.12.113"), 0);
    assert_int_equal(lab_experiment_set(&e, "--set", "stand_in=2.6.1-rc1:6.12.113"), 0);
    list = lab_experiment_kernels(&e);
    assert_string_equal(list, "6.1.0-47,6.12.113");
    free(list);
    back = calloc(1, sizeof *back);
    assert_int_equal(lab_reported_parse("stored", e.reported_text, back), 0);
    assert_int_equal(back->nkernels, 2);
    assert_string_equal(back->kernels[1], "6.12.113");
    assert_int_equal(back->nstand_ins, 2);
    free(back);
    lab_experiment_free(&e);
    /* an experiment with none has none */
    assert_int_equal(parse_capturing("test = seqread\n", &e), 0);
    assert_null(e.reported);
    assert_null(e.reported_text);
    assert_null(lab_experiment_kernels(&e));
    lab_experiment_free(&e);
}

static void test_refusals(void **state)
{
    static const struct {
        const char *line, *message;
    } bad[] = {
        {"kernels = 2.6.0,,2.6.1", "t.exp:2: kernels = 2.6.0,,2.6.1: want up to 16 kernel names"},
        {"kernels = 2.6.0, 2.6.0", "t.exp:2: kernels = 2.6.0, 2.6.0 names 2.6.0 twice"},
        {"kernels = 2.6.0 2.6.1", "want up to 16 kernel names"},
        {"reported = 2.6.0 11.4 s", "t.exp:2: reported = 2.6.0 11.4 s: want 'KERNEL [ROW]:"},
        {"reported = : 11.4 s", "t.exp:2: reported = : 11.4 s: no kernel name"},
        {"reported = 2.6.0:", "t.exp:2: want a figure, its values and its unit"},
        {"reported = 2.6.0: 11.4", "t.exp:2: want a figure, its values and its unit"},
        {"reported = 2.6.0: 11.4 12.x s", "t.exp:2: '12.x' is not a figure"},
        {"reported = 2.6.0: -1 s", "'-1' is not a figure"},
        {"reported = 2.6.0: nan s", "unknown figure 'nan'"},
        {"reported = 2.6.0: 11.4 11.5 sec", "t.exp:2: 'sec' names no figure by itself"},
        {"reported = 2.6.0: speed 11.4 s", "t.exp:2: unknown figure 'speed' (known: time (s)"},
        {"reported = 2.6.0: sys 11.4 ms", "t.exp:2: sys is in s, not 'ms'"},
        {"reported = 2.6.0: 11.4 %", "'%' names no figure by itself"},
        {"reported = 2.6.0: time s", "t.exp:2: no figures before the unit"},
        {"reported = 2.6.0: time mean 164.9 s", "t.exp:2: a summary needs its run count"},
        {"reported = 2.6.0: time min 1 s, 3 runs", "t.exp:2: a summary needs its mean"},
        {"reported = 2.6.0: time mean 1 mean 2 s, 3 runs", "'mean': a summary is min, mean"},
        {"reported = 2.6.0: time mean 1 11.2 s, 3 runs", "'11.2': a summary is min, mean"},
        {"reported = 2.6.0: time mean s, 3 runs", "'mean': a summary is min, mean"},
        {"reported = 2.6.0: 11.4 11.5 s, 2 runs", "t.exp:2: ', N runs' goes with a summary"},
        {"reported = 2.6.0: time mean 1 s, 0 runs", "t.exp:2: after the unit, want ', N runs'"},
        {"reported = 2.6.0: time mean 1 s, five runs", "got ', five runs'"},
        {"reported = 2.6.0: time mean 1 s, 3 boots", "got ', 3 boots'"},
        {"stand_in = 2.6.0 2.6.11", "t.exp:2: stand_in = 2.6.0 2.6.11: want 'THREAD_KERNEL: LAB"},
        {"stand_in = 2.6.0:", "want 'THREAD_KERNEL: LAB_KERNEL'"},
        {"stand_in = 2.6.0: a b", "want 'THREAD_KERNEL: LAB_KERNEL'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct lab_experiment e;
        char *text = NULL;
        assert_true(asprintf(&text, "test = seqread\n%s\n", bad[i].line) > 0);
        if (parse_capturing(text, &e) != -1)
            fail_msg("accepted: %s", bad[i].line);
        if (!strstr(captured, bad[i].message))
            fail_msg("%s: said '%s', want '%s'", bad[i].line, captured, bad[i].message);
        free(text);
    }
}

/* The same row, figure and kernel twice is an error on the second line. */
static void test_duplicates(void **state)
{
    struct lab_experiment e;
    assert_int_equal(parse_capturing("test = seqread\n"
                                     "reported = 2.6.0 ra=64: 9.1 s\n"
                                     "reported = 2.6.0 ra=64: user 0.1 s\n"
                                     "reported = 2.6.0 ra=64: 9.2 s\n",
                                     &e),
                     -1);
    assert_non_null(strstr(captured, "t.exp:4: 2.6.0 ra=64's time is reported twice"));
    assert_int_equal(parse_capturing("test = seqread\n"
                                     "stand_in = 2.6.0: a\n"
                                     "stand_in = 2.6.0: b\n",
                                     &e),
                     -1);
    assert_non_null(strstr(captured, "t.exp:3: 2.6.0 already has a stand-in (a)"));
}

/* The seeds' own recipes: their kernels and every figure their threads gave. */
static void test_shipped_seeds(void **state)
{
    static const struct {
        const char *name, *kernels;
        size_t nfigs;
    } seeds[] = {
        {"readahead-sweep", "2.6.0,2.6.1-rc1", 18}, /* 2 kernels x 3 settings x real/user/sys */
        {"contest", "2.4.20", 50},                  /* 5 kernels x 2 loads x 5 columns */
        {"rawread-direct", "2.4.26,2.6.12", 6},     /* 2 kernels x real/user/sys */
        {"rawread", "2.4.26,2.6.12", 0},
        {"tree-under-load", NULL, 8}, /* base, arjan x time/%user/%system/%iowait */
        {"tree-under-load-bigfile", NULL, 8},
        {"tree-under-load-overwrite", NULL, 8},
    };
    for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
        struct lab_experiment e;
        assert_int_equal(lab_experiment_load(seeds[i].name, &e), 0);
        char *list = lab_experiment_kernels(&e);
        if (seeds[i].kernels)
            assert_string_equal(list, seeds[i].kernels);
        else
            assert_null(list);
        free(list);
        assert_non_null(e.reported);
        assert_int_equal(e.reported->nfigs, seeds[i].nfigs);
        lab_experiment_free(&e);
    }
    struct lab_experiment e;
    assert_int_equal(lab_experiment_load("readahead-sweep", &e), 0);
    const struct lab_reported_fig *f = &e.reported->figs[9]; /* 2.6.1-rc1 ra=256 time */
    assert_string_equal(f->kernel, "2.6.1-rc1");
    assert_string_equal(f->qualifier, "ra=256");
    assert_true(fabs(f->values[0] - 11.984) < 1e-9);
    lab_experiment_free(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_and_round_trip),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_duplicates),
        cmocka_unit_test(test_shipped_seeds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
