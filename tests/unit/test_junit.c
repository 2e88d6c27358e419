/* JUnit files of stored fixture runs and of a bisection: a regression is
 * one failure, a cell that could not run one error, and every file is
 * valid against tests/schema/junit.xsd (xmllint). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/fixture.h"
#include "host/report/junit.h"
#include "host/store/store.h"
#include "host/bisect/store_bisect.h"
#include "common/file.h"
#include "common/str.h"

static char dir[] = "/tmp/lab-test-junit.XXXXXX";

/* xmllint against the schema, then an XPath count; -1 if invalid. */
static int xpath_count(const char *file, const char *what)
{
    const char *schema = getenv("LAB_SCHEMA_DIR") ? getenv("LAB_SCHEMA_DIR") : "tests/schema";
    char *cmd = lab_asprintf("xmllint --noout --schema %s/junit.xsd %s 2>/dev/null", schema, file);
    int rc = system(cmd);
    free(cmd);
    if (rc != 0) {
        cmd = lab_asprintf("xmllint --noout --schema %s/junit.xsd %s; cat %s", schema, file, file);
        rc = system(cmd); /* shows why */
        free(cmd);
        return -1;
    }
    cmd = lab_asprintf("xmllint --xpath 'count(%s)' %s", what, file);
    FILE *p = popen(cmd, "r");
    int n = -1;
    if (p && fscanf(p, "%d", &n) != 1)
        n = -1;
    if (p)
        pclose(p);
    free(cmd);
    return n;
}

static char *write_run(const char *name, double scale, int with_failure, double threshold)
{
    char *db = lab_asprintf("%s/%s.db", dir, name), *xml = lab_asprintf("%s/%s.xml", dir, name);
    struct lab_store *st;
    assert_int_equal(lab_store_open(db, &st), 0);
    int64_t run = fixture_seqread(st, scale, with_failure);
    assert_int_equal(lab_junit_write_run(st, run, threshold, xml), 0);
    lab_store_close(st);
    free(db);
    return xml;
}

/* 6.12.113 17% slower: the comparison fails, both cells pass. */
static void test_regression_is_one_failure(void **state)
{
    char *xml = write_run("slow", 1.2, 0, 5);
    assert_int_equal(xpath_count(xml, "//testcase"), 3);
    assert_int_equal(xpath_count(xml, "//failure"), 1);
    assert_int_equal(xpath_count(xml, "//error"), 0);
    assert_int_equal(xpath_count(xml, "/testsuites[@failures=1 and @tests=3]"), 1);
    assert_int_equal(xpath_count(xml, "//testcase[contains(@name,\"vs\")]/failure"), 1);
    free(xml);
}

/* Beyond the change but under a 25% threshold: no failure. */
static void test_threshold(void **state)
{
    char *xml = write_run("thresh", 1.2, 0, 25);
    assert_int_equal(xpath_count(xml, "//failure"), 0);
    free(xml);
}

/* A panicked cell is an error; no difference between the others. */
static void test_failed_cell_is_an_error(void **state)
{
    char *xml = write_run("panic", 1.0, 1, 5);
    assert_int_equal(xpath_count(xml, "//failure"), 0);
    assert_int_equal(xpath_count(xml, "//error"), 1);
    assert_int_equal(xpath_count(xml, "//testcase[@name=\"6.1.0-50\"]/error[contains(@message,"
                                      "\"kernel panicked\")]"),
                     1);
    assert_int_equal(xpath_count(xml, "/testsuites[@errors=1]"), 1);
    free(xml);
}

static struct lab_bisect_step step(int n, const char *role, const char *commit,
                                   enum lab_bisect_verdict v, const char *reason)
{
    struct lab_bisect_step s = {.step = n, .verdict = v, .p_good = NAN, .p_bad = NAN};
    snprintf(s.role, sizeof s.role, "%s", role);
    snprintf(s.commit, sizeof s.commit, "%s", commit);
    snprintf(s.subject, sizeof s.subject, "subject <%s> & more", commit); /* escaped */
    snprintf(s.reason, sizeof s.reason, "%s", reason);
    s.sum.n = 5;
    s.sum.mean = v == LAB_BISECT_BAD ? 27.9 : 55.2;
    return s;
}

static void test_bisect(void **state)
{
    struct lab_bisect_step steps[] = {
        step(0, "good", "1f84e2000706", LAB_BISECT_GOOD, ""),
        step(0, "bad", "495b45976119", LAB_BISECT_BAD, "good and bad differ: -50.7%"),
        step(1, "step", "2051907f3823", LAB_BISECT_BAD, "differs from good, like bad"),
        step(2, "step", "aaaaaaaaaaaa", LAB_BISECT_SKIP, "build failed (skip)"),
        step(3, "step", "4330f3a37de1", LAB_BISECT_GOOD, "differs from bad, like good"),
    };
    struct lab_bisect_info info = {.id = 7, .threshold_pct = 5};
    snprintf(info.status, sizeof info.status, "found");
    snprintf(info.experiment, sizeof info.experiment, "seqread");
    snprintf(info.metric, sizeof info.metric, "mbps");
    snprintf(info.first_bad, sizeof info.first_bad, "2051907f382309384522e07755247a6e81c3cf9a");
    snprintf(info.first_bad_subject, sizeof info.first_bad_subject, "block: cap requests");
    char *xml = lab_asprintf("%s/bisect.xml", dir);
    assert_int_equal(lab_junit_write_bisect(&info, steps, 5, xml), 0);
    assert_int_equal(xpath_count(xml, "//testcase"), 6);
    assert_int_equal(xpath_count(xml, "//failure"), 3); /* bad endpoint, step 1, the result */
    assert_int_equal(xpath_count(xml, "//error"), 1);   /* the build failure */
    assert_int_equal(
        xpath_count(xml,
                    "//testcase[@name=\"result\"]/failure[contains(@message,\"2051907f3823\")]"),
        1);
    /* Refused (the endpoints do not differ): nothing fails. */
    snprintf(info.status, sizeof info.status, "refused");
    info.first_bad[0] = '\0';
    assert_int_equal(lab_junit_write_bisect(&info, steps, 2, xml), 0);
    assert_int_equal(xpath_count(xml, "//failure"), 0);
    free(xml);
}

/* Through the store, as `lab bisect --junit` and `--show ID --junit` do:
 * what is stored and read back gives the same testcases. */
static void test_bisect_stored(void **state)
{
    char *db = lab_asprintf("%s/bisect.db", dir), *xml = lab_asprintf("%s/stored.xml", dir);
    struct lab_store *st;
    assert_int_equal(lab_store_open(db, &st), 0); /* the bisection's run lives in the store */
    int64_t run = lab_store_run_begin(st, "lab bisect", "seqread", "pata-2003");
    struct lab_bisect_row row = fixture_bisect_row(run, "pata-2003");
    int64_t id = lab_store_bisect_begin(st, &row);
    struct lab_bisect_step steps[] = {
        step(0, "good", "1f84e2000706", LAB_BISECT_GOOD, ""),
        step(0, "bad", "495b45976119", LAB_BISECT_BAD, "good and bad differ"),
        step(1, "step", "2051907f3823", LAB_BISECT_BAD, "differs from good, like bad"),
    };
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(lab_store_bisect_add_step(st, id, &steps[i]), 0);
    lab_store_bisect_end(st, id, "found", "2051907f382309384522e07755247a6e81c3cf9a",
                         "block: cap requests", "good and bad differ");
    struct lab_bisect_info info;
    struct lab_bisect_step *back;
    size_t n;
    assert_int_equal(lab_store_bisect_load(st, id, &info, &back, &n), 0);
    assert_int_equal(lab_junit_write_bisect(&info, back, n, xml), 0);
    free(back);
    lab_store_close(st);
    assert_int_equal(xpath_count(xml, "//testcase"), 4);
    assert_int_equal(xpath_count(xml, "//failure"), 3);
    assert_int_equal(xpath_count(xml, "//testcase[starts-with(@name,\"step 1 2051907f3823\")]"), 1);
    free(db);
    free(xml);
}

static int setup(void **state)
{
    if (!mkdtemp(dir))
        return -1;
    setenv("LAB_HOME", dir, 1);
    return 0;
}

static int teardown(void **state)
{
    return lab_rm_rf(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regression_is_one_failure),
        cmocka_unit_test(test_threshold),
        cmocka_unit_test(test_failed_cell_is_an_error),
        cmocka_unit_test(test_bisect),
        cmocka_unit_test(test_bisect_stored),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
