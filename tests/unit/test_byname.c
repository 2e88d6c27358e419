/* The pure parts of kernels by name: variant specs and their labels,
 * sha256sums.asc lines, and what patch(1)'s dry run says failed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "kernels/byname.h"
#include "kernels/mirror.h"
#include "kernels/patch.h"

static void test_specs(void **state)
{
    char err[256];
    assert_true(lab_byname_valid("2.6.12-rc2", err, sizeof err));
    assert_true(lab_byname_valid("2.4.20+rl2.diff", err, sizeof err));
    assert_true(lab_byname_valid("2.4.20+/tmp/a/rl2.diff+elv.patch", err, sizeof err));
    assert_false(lab_byname_valid("2.4.20+", err, sizeof err));
    assert_non_null(strstr(err, "names its patch files"));
    assert_false(lab_byname_valid("6.1.0-47+x.diff", err, sizeof err));
    assert_false(lab_byname_valid("mykernel", err, sizeof err));
    char *l = lab_byname_label("2.4.20+/tmp/a/rl2.diff+elv tune.patch");
    assert_string_equal(l, "2.4.20+rl2.diff+elv_tune.patch");
    free(l);
    l = lab_byname_label("2.6.11");
    assert_string_equal(l, "2.6.11");
    free(l);
}

/* kernel.org's sha256sums.asc is a clear-signed list of sha256sum lines. */
static const char sums[] =
    "-----BEGIN PGP SIGNED MESSAGE-----\n"
    "Hash: SHA256\n"
    "\n"
    "788e0067a933e9ea688fe90c647fa41cd5907377f38f732c7e2b95e43a7772e0  linux-2.6.11.tar.xz\n"
    "e06a63caed7febdd24d2e214ca22a6903cef3e601e007d1b3f2e802bf6d887cb  patch-2.6.12-rc2.xz\r\n"
    "aaaa  short.xz\n"
    "-----BEGIN PGP SIGNATURE-----\n";

static void test_sums(void **state)
{
    char hex[LAB_HASH_HEX_LEN + 1];
    assert_int_equal(lab_mirror_sums_lookup(sums, "linux-2.6.11.tar.xz", hex), 1);
    assert_string_equal(hex, "788e0067a933e9ea688fe90c647fa41cd5907377f38f732c7e2b95e43a7772e0");
    assert_int_equal(lab_mirror_sums_lookup(sums, "patch-2.6.12-rc2.xz", hex), 1);
    assert_int_equal(hex[0], 'e');
    assert_int_equal(lab_mirror_sums_lookup(sums, "linux-2.6.11.tar", hex), 0);
    assert_int_equal(lab_mirror_sums_lookup(sums, "short.xz", hex), 0);
    assert_int_equal(lab_mirror_sums_lookup(sums, "linux-2.6.12.tar.xz", hex), 0);
}

static void test_patch_failures(void **state)
{
    char why[256];
    assert_int_equal(lab_patch_first_failure("checking file Makefile\n"
                                             "checking file mm/filemap.c\n"
                                             "Hunk #1 succeeded at 10.\n"
                                             "Hunk #2 FAILED at 812.\n"
                                             "1 out of 2 hunks FAILED\n",
                                             why, sizeof why),
                     1);
    assert_string_equal(why, "hunk #2 of mm/filemap.c FAILED at line 812");
    assert_int_equal(
        lab_patch_first_failure("patch: **** unexpected end of file in patch\n", why, sizeof why),
        1);
    assert_non_null(strstr(why, "unexpected end of file"));
    assert_int_equal(
        lab_patch_first_failure("can't find file to patch at input line 3\n", why, sizeof why), 1);
    assert_int_equal(lab_patch_first_failure("checking file a.c\n", why, sizeof why), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specs),
        cmocka_unit_test(test_sums),
        cmocka_unit_test(test_patch_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
