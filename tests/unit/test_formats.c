/* The output formats' table (host/report/formats.c): lab show's names and
 * messages come from it, and every row writes a stored run, so a format
 * added as one row is tested here without a line of its own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "tests/unit/fixture.h"
#include "host/report/formats.h"
#include "host/report/json.h"
#include "host/store/store.h"
#include "common/file.h"
#include "common/str.h"

static char dir[] = "/tmp/lab-test-formats.XXXXXX";

static void test_names(void **state)
{
    assert_string_equal(lab_format_find("text")->name, "text"); /* lab show's default */
    assert_string_equal(lab_format_find("json")->name, "json");
    assert_null(lab_format_find("csv"));
    assert_null(lab_format_find(NULL));
    char *s = lab_format_names("|", "|");
    assert_int_equal(strncmp(s, "text|json", 9), 0);
    free(s);
    s = lab_format_names(", ", " or ");
    assert_int_equal(strncmp(s, "text", 4), 0);
    assert_non_null(strstr(s, " or ")); /* the last two joined by " or " */
    free(s);
}

/* Every row writes the fixture run to a file, and refuses a run that does
 * not exist; json's file is json.h's document. */
static void test_every_format_writes(void **state)
{
    char *db = lab_asprintf("%s/results.db", dir), *names = lab_format_names(" ", " ");
    struct lab_store *st;
    assert_int_equal(lab_store_open(db, &st), 0);
    int64_t run = fixture_seqread(st, 1.2, 0);
    for (char *save, *n = strtok_r(names, " ", &save); n; n = strtok_r(NULL, " ", &save)) {
        const struct lab_format *f = lab_format_find(n);
        assert_non_null(f);
        char *path = lab_asprintf("%s/out.%s", dir, n);
        size_t len = 0;
        assert_int_equal(f->write(st, run, path), 0);
        char *text = lab_read_file(path, &len);
        if (!text || len < 100)
            fail_msg("format %s wrote %zu bytes", n, len);
        assert_non_null(strstr(text, "6.12.113")); /* the run's kernels are in it */
        if (strcmp(n, "json") == 0) {
            char *doc = lab_json_run_text(st, run);
            assert_string_equal(text, doc);
            free(doc);
        }
        free(text);
        assert_int_equal(f->write(st, run + 100, path), -1);
        free(path);
    }
    lab_store_close(st);
    free(names);
    free(db);
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
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_every_format_writes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
