/* Where the lab finds its files (common/datadir.h): an environment variable
 * wins; a build-tree binary (these tests) finds the checkout's files. The
 * installed layout is tested with the real package (tests/boot/install.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "common/datadir.h"

static void test_build_tree(void **state)
{
    struct stat st;
    (void)state;
    assert_null(lab_install_prefix()); /* build/tests/test_datadir is no PREFIX/bin/lab */
    assert_string_equal(lab_data_dir(LAB_DATA_EXPERIMENTS), LAB_SOURCE_DIR "/lab/experiments");
    assert_string_equal(lab_data_dir(LAB_DATA_PROFILES), LAB_SOURCE_DIR "/lab/profiles");
    assert_string_equal(lab_data_dir(LAB_DATA_KERNEL_CONFIGS), LAB_SOURCE_DIR "/kernels/configs");
    assert_string_equal(lab_data_dir(LAB_DATA_BUILT), LAB_BUILD_DIR);
    assert_string_equal(lab_data_dir(LAB_DATA_DOCS), LAB_SOURCE_DIR "/docs");
    assert_int_equal(stat(LAB_SOURCE_DIR "/lab/experiments/seqread.exp", &st), 0);
}

static void test_env_wins(void **state)
{
    (void)state;
    setenv("LAB_EXPERIMENTS", "/nowhere/exp", 1);
    setenv("LAB_LIBDIR", "/nowhere/lib", 1);
    assert_string_equal(lab_data_dir(LAB_DATA_EXPERIMENTS), "/nowhere/exp");
    assert_string_equal(lab_data_dir(LAB_DATA_BUILT), "/nowhere/lib");
    setenv("LAB_EXPERIMENTS", "", 1); /* empty: as if unset */
    assert_string_equal(lab_data_dir(LAB_DATA_EXPERIMENTS), LAB_SOURCE_DIR "/lab/experiments");
    unsetenv("LAB_EXPERIMENTS");
    unsetenv("LAB_LIBDIR");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_tree),
        cmocka_unit_test(test_env_wins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
