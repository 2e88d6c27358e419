/* Experiment files: values, defaults, and refusals with file, line, reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/plan/experiment.h"

/* Captures what lab_error prints, to check the message names file and line. */
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

static void test_values_and_sizes(void **state)
{
    struct lab_experiment e;
    assert_int_equal(parse_capturing("# c\ntest = seqread\nreps=3\nblock_size = 64k\n"
                                     "file_size = 1GiB  # trailing comment\nreadahead = 128\n",
                                     &e),
                     0);
    assert_string_equal(e.test, "seqread");
    assert_int_equal(e.reps, 3);
    assert_int_equal(e.block_size, 65536);
    assert_int_equal(e.file_size, 1ULL << 30);
    assert_int_equal(e.readahead, 128);
    lab_experiment_free(&e);
}

static void test_defaults(void **state)
{
    struct lab_experiment e;
    assert_int_equal(parse_capturing("test = seqread\n", &e), 0);
    assert_int_equal(e.reps, 5);
    assert_int_equal(e.block_size, 1 << 20);
    assert_int_equal(e.file_size, 256 << 20);
    lab_experiment_free(&e);
}

static void test_refusals(void **state)
{
    static const struct {
        const char *text, *message;
    } cases[] = {
        {"test = seqread\nreadahed = 64\n", "t.exp:2: unknown key 'readahed'"},
        {"test = seqread\n\nreps =\n", "t.exp:3: key 'reps' has no value"},
        {"test = seqread\nreps = 0\n", "t.exp:2: reps = 0 is out of range [1, 1000]"},
        {"test = seqread\nblock_size = 8M\n", "t.exp:2: block_size = 8M is out of range"},
        {"test = seqread\nreps = 3x\n", "t.exp:2: value of 'reps' is not a number"},
        {"test = seqread\nfile_size = lots\n", "t.exp:2: value of 'file_size' is not a size"},
        {"test = seqwrite\n", "t.exp:1: unknown test 'seqwrite' (known: seqread, devread, "
                              "randread, treeread, overwrite, contest"}, /* then any added */
        {"reps = 2\n", "t.exp: no 'test = ...' line"},
        {"test seqread\n", "t.exp:1: expected 'key = value'"},
        {"test = seqread\nboot_args = clock=pit lab.reps=9\n",
         "t.exp:2: boot_args = clock=pit lab.reps=9: lab.* words are the agent's"},
        {"test = seqread\nboot_args = acpi_osi=\"Linux\"\n",
         "t.exp:2: boot_args = acpi_osi=\"Linux\": only printable characters without quotes"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct lab_experiment e;
        assert_int_equal(parse_capturing(cases[i].text, &e), -1);
        if (!strstr(captured, cases[i].message))
            fail_msg("case %zu: expected '%s' in '%s'", i, cases[i].message, captured);
    }
}

static void test_raw_disk_keys(void **state)
{
    struct lab_experiment e;
    assert_int_equal(parse_capturing("test = randread\nblock_size = 4k\ndirect = 1\nqd = 16\n"
                                     "disk_size = full\nspan = 1G\n",
                                     &e),
                     0);
    assert_string_equal(e.disk, "raw"); /* the device tests default to a raw disk */
    assert_int_equal(e.disk_size, 0);   /* full: the profile's capacity */
    assert_int_equal(e.qd, 16);
    assert_int_equal(e.span, 1ULL << 30);
    char *cmd = lab_experiment_cmdline(&e);
    assert_non_null(strstr(cmd, "lab.test=randread lab.reps=6 lab.bs=4096"));
    assert_non_null(strstr(cmd, "lab.direct=1 lab.qd=16 lab.count=2000 lab.span=1073741824"));
    free(cmd);
    lab_experiment_free(&e);
    assert_int_equal(parse_capturing("test = seqread\ndisk = raw\n", &e), -1);
    assert_non_null(
        strstr(captured, "test seqread cannot use disk = raw (it needs one of: ext2 ext3tree)"));
    assert_int_equal(parse_capturing("test = devread\ndisk = xfs\n", &e), -1);
    assert_non_null(strstr(captured, "t.exp:2: unknown disk 'xfs' (known: ext2, raw, ext3tree)"));
    assert_int_equal(parse_capturing("test = devread\ndisk_size = some\n", &e), -1);
    assert_non_null(strstr(captured, "t.exp:2: value of 'disk_size' is not a size"));
}

static void test_readahead_list(void **state)
{
    struct lab_experiment e;
    assert_int_equal(parse_capturing("test = seqread\nreadahead_list = 256,128,64\n", &e), 0);
    char *cmd = lab_experiment_cmdline(&e);
    assert_non_null(strstr(cmd, " lab.ra_list=256,128,64"));
    free(cmd);
    lab_experiment_free(&e);
    static const char *const bad[] = {"256,,64", "256,x", "0", "1,2,3,4,5,6,7,8,9", "70000", ","};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "test = seqread\nreadahead_list = %s\n", bad[i]);
        assert_int_equal(parse_capturing(text, &e), -1);
        if (!strstr(captured, "t.exp:2: readahead_list"))
            fail_msg("'%s' not refused as expected: %s", bad[i], captured);
    }
}

static void test_tree_experiments(void **state)
{
    struct lab_experiment e;
    assert_int_equal(parse_capturing("test = treeread\nload = copy\nscheduler = cfq\n"
                                     "sysfs = read_ahead_kb:128,iosched/quantum:4\n",
                                     &e),
                     0);
    assert_string_equal(e.disk, "ext3tree");
    char *cmd = lab_experiment_cmdline(&e);
    assert_non_null(strstr(cmd, "lab.fs=ext3"));
    assert_non_null(strstr(cmd, " lab.load=copy lab.load_size=268435456"));
    assert_non_null(strstr(cmd, " lab.sysfs=read_ahead_kb:128,iosched/quantum:4"));
    free(cmd);
    /* A test changed by --set takes its own default disk. */
    assert_int_equal(lab_experiment_set(&e, "--set", "test=seqread"), 0);
    assert_int_equal(lab_experiment_set(&e, "--set", "load=none"), 0);
    assert_int_equal(lab_experiment_check("--set", &e), 0);
    assert_string_equal(e.disk, "ext2");
    lab_experiment_free(&e);
    assert_int_equal(parse_capturing("test = devread\nload = io_load\n", &e), -1);
    assert_non_null(strstr(captured, "load = io_load writes files, so it needs disk = ext3tree"));
    assert_int_equal(parse_capturing("test = treeread\ntree_copies = 1\nload = copy\n", &e), -1);
    assert_non_null(strstr(captured, "needs tree_copies >= 2"));
    assert_int_equal(parse_capturing("test = treeread\nsysfs = ../../x:1\n", &e), -1);
    assert_int_equal(parse_capturing("test = treeread\nload = swap\n", &e), -1);
}

static void test_set_override(void **state)
{
    struct lab_experiment e;
    assert_int_equal(parse_capturing("test = seqread\n", &e), 0);
    assert_int_equal(lab_experiment_set(&e, "--set", "readahead=64"), 0);
    assert_int_equal(e.readahead, 64);
    assert_int_equal(lab_experiment_set(&e, "--set", "readahead"), -1);
    assert_int_equal(lab_experiment_set(&e, "--set", "nosuch=1"), -1);
    lab_experiment_free(&e);
}

static void test_shipped_files_parse(void **state)
{
    struct lab_experiment e;
    assert_int_equal(lab_experiment_load("seqread", &e), 0);
    assert_string_equal(e.name, "seqread");
    char *cmd = lab_experiment_cmdline(&e);
    assert_non_null(strstr(cmd, "lab.test=seqread"));
    free(cmd);
    lab_experiment_free(&e);
}

/* What a cell job carries: every shipped experiment, with a variant's
 * load or an override, formatted and parsed back is the same experiment
 * (the same text again, the same agent parameters). */
static void test_format_round_trip(void **state)
{
    static const char *const names[] = {"seqread", "readahead-sweep", "randread",
                                        "contest", "tree-under-load", "tree-under-load-overwrite",
                                        "rawread", "directread"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct lab_experiment e, back;
        assert_int_equal(lab_experiment_load(names[i], &e), 0);
        assert_int_equal(lab_experiment_set(&e, "--set", "warmup=2"), 0);
        char *text = lab_experiment_format(&e);
        assert_int_equal(lab_experiment_parse("job", text, &back), 0);
        char *again = lab_experiment_format(&back);
        assert_string_equal(text, again);
        char *a = lab_experiment_cmdline(&e), *b = lab_experiment_cmdline(&back);
        assert_string_equal(a, b);
        assert_non_null(strstr(text, "warmup = 2\n"));
        free(a);
        free(b);
        free(text);
        free(again);
        lab_experiment_free(&e);
        lab_experiment_free(&back);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_and_sizes),  cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_refusals),          cmocka_unit_test(test_set_override),
        cmocka_unit_test(test_raw_disk_keys),     cmocka_unit_test(test_readahead_list),
        cmocka_unit_test(test_tree_experiments),  cmocka_unit_test(test_shipped_files_parse),
        cmocka_unit_test(test_format_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
