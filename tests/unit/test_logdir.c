/* Unit tests of lab_run_log_dir (common/paths.c): every store keeps its
 * runs' logs apart, and the default store keeps $LAB_HOME/logs/run-N. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/file.h"
#include "common/paths.h"
#include "common/str.h"

static void test_default_store(void **state)
{
    char *store = lab_asprintf("%s/results.db", lab_home());
    char *dir = lab_run_log_dir(store, 7), *want = lab_asprintf("%s/logs/run-7", lab_home());
    assert_string_equal(dir, want);
    free(dir);
    free(want);
    free(store);
}

/* Two stores, even with the same file name, never share run N's logs; one
 * store named two ways (relative, through a symlink) is one store. */
static void test_stores_apart(void **state)
{
    char tmp[] = "/tmp/lab-test-logdir-XXXXXX";
    assert_non_null(mkdtemp(tmp));
    char *a = lab_asprintf("%s/a/results.db", tmp), *b = lab_asprintf("%s/b/results.db", tmp);
    char *adir = lab_asprintf("%s/a", tmp), *link = lab_asprintf("%s/l", tmp);
    assert_int_equal(lab_mkdir_p(adir, 0755), 0);
    assert_int_equal(lab_write_file(a, "", 0), 0);
    assert_int_equal(symlink(adir, link), 0);
    char *via_link = lab_asprintf("%s/results.db", link);
    char *da = lab_run_log_dir(a, 1), *db = lab_run_log_dir(b, 1),
         *dl = lab_run_log_dir(via_link, 1);
    assert_string_not_equal(da, db);
    assert_string_equal(da, dl);
    char *prefix = lab_asprintf("%s/logs/store-", lab_home());
    assert_memory_equal(da, prefix, strlen(prefix));
    assert_int_equal(strlen(da), strlen(prefix) + 12 + strlen("/run-1"));
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(adir), 0);
    char *dr = lab_run_log_dir("results.db", 1);
    assert_string_equal(da, dr);
    assert_int_equal(chdir(cwd), 0);
    lab_rm_rf(tmp);
    free(a), free(b), free(adir), free(link), free(via_link);
    free(da), free(db), free(dl), free(dr), free(prefix);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_store),
        cmocka_unit_test(test_stores_apart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
