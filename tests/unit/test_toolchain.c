/* The compiler-per-era table and the go/refuse decision of the builder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "kernels/build.h"
#include "kernels/era.h"
#include "kernels/fragment.h"
#include "kernels/toolchain.h"

static lab_kver kv(const char *s)
{
    lab_kver v = 0;
    assert_int_equal(lab_kver_parse(s, &v), 0);
    return v;
}

static struct lab_compiler gcc(const char *dump, const char *line)
{
    struct lab_compiler c;
    assert_int_equal(lab_compiler_parse(dump, line, &c), 0);
    return c;
}

static void test_compiler_parse(void **state)
{
    struct lab_compiler c = gcc("12", "gcc (Debian 12.2.0-14+deb12u1) 12.2.0");
    assert_int_equal(c.version, LAB_CC(12, 2));
    assert_false(c.is_clang);
    assert_string_equal(c.text, "gcc 12.2");
    c = gcc("4.4.7", "gcc-4.4 (Debian 4.4.7-2) 4.4.7");
    assert_int_equal(c.version, LAB_CC(4, 4));
    c = gcc("14.0.6", "Debian clang version 14.0.6");
    assert_true(c.is_clang);
    assert_int_equal(lab_compiler_parse("", NULL, &c), -1);
    assert_int_equal(lab_compiler_parse("cc: not found", NULL, &c), -1);
}

/* The brief's three cases: gcc 12 refuses 2.6.1 with the message, builds
 * 6.1; gcc 4.4 builds 2.6.1. */
static void test_decisions(void **state)
{
    char msg[512];
    struct lab_compiler g12 = gcc("12", "gcc (Debian 12.2.0-14+deb12u1) 12.2.0");
    struct lab_compiler g44 = gcc("4.4.7", "gcc-4.4 (Debian 4.4.7-2) 4.4.7");
    assert_int_equal(lab_toolchain_check(kv("2.6.1"), &g12, 0, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "linux 2.6.1 needs gcc 3.2..4.4 (see "));
    assert_non_null(strstr(msg, "this host has gcc 12.2"));
    assert_non_null(strstr(msg, "--cc gcc-4.4"));
    assert_non_null(strstr(msg, "--wrap 'schroot -c squeeze --'"));
    assert_int_equal(lab_toolchain_check(kv("6.1.170"), &g12, 0, msg, sizeof msg), 1);
    assert_int_equal(lab_toolchain_check(kv("2.6.1"), &g44, 1, msg, sizeof msg), 1);
    /* -rc kernels belong to their release's row */
    assert_int_equal(lab_toolchain_check(kv("2.6.37-rc1"), &g44, 1, msg, sizeof msg), 1);
    assert_int_equal(lab_toolchain_check(kv("2.6.36"), &g44, 1, msg, sizeof msg), 1);
    /* too old a compiler for a new kernel */
    assert_int_equal(lab_toolchain_check(kv("6.1"), &g44, 1, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "needs gcc 5.1 or newer"));
    assert_non_null(strstr(msg, "this compiler has gcc 4.4"));
    /* 4.x with gcc 12: refused, 8 suggested from 4.12 on */
    assert_int_equal(lab_toolchain_check(kv("4.14.300"), &g12, 0, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "gcc-8"));
    assert_int_equal(lab_toolchain_check(kv("5.16"), &g12, 0, msg, sizeof msg), 1);
    /* 2.4 */
    assert_int_equal(lab_toolchain_check(kv("2.4.20"), &g44, 1, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "gcc 2.95..3.4"));
    /* clang only from 5.3 */
    struct lab_compiler cl = gcc("14.0.6", "Debian clang version 14.0.6");
    assert_int_equal(lab_toolchain_check(kv("6.1"), &cl, 1, msg, sizeof msg), 1);
    assert_int_equal(lab_toolchain_check(kv("4.19"), &cl, 1, msg, sizeof msg), 0);
}

/* The table covers 2.4.0 on without gaps or overlaps, each row cited. */
static void test_table_contiguous(void **state)
{
    size_t n = lab_toolchain_row_count();
    assert_true(n > 5);
    assert_int_equal(lab_toolchain_row_at(0)->from, LAB_KV(2, 4, 0));
    for (size_t i = 0; i < n; i++) {
        const struct lab_toolchain_row *r = lab_toolchain_row_at(i);
        assert_true(r->source && strlen(r->source) > 10);
        assert_true(r->gcc_min > 0);
        assert_true(!r->gcc_max || r->gcc_max >= r->gcc_min);
        if (i + 1 < n)
            assert_int_equal(r->until, lab_toolchain_row_at(i + 1)->from);
        else
            assert_int_equal(r->until, 0);
    }
    assert_null(lab_toolchain_row_at(n));
    assert_null(lab_toolchain_for(kv("2.2.26")));
    assert_ptr_equal(lab_toolchain_for(kv("6.15")), lab_toolchain_row_at(n - 1));
}

static void test_makefile_version(void **state)
{
    char v[64];
    assert_int_equal(lab_makefile_version("# SPDX\nVERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 170\n"
                                          "EXTRAVERSION =\nNAME = Curry Ramen\n",
                                          v, sizeof v),
                     0);
    assert_string_equal(v, "6.1.170");
    assert_int_equal(lab_makefile_version("VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 1\n"
                                          "EXTRAVERSION = -rc1\n",
                                          v, sizeof v),
                     0);
    assert_string_equal(v, "2.6.1-rc1");
    assert_int_equal(lab_makefile_version("VERSION = 3\nPATCHLEVEL = 4\nSUBLEVEL = 0\n"
                                          "EXTRAVERSION =\n",
                                          v, sizeof v),
                     0);
    assert_string_equal(v, "3.4");
    assert_int_equal(lab_makefile_version("all:\n\techo hi\n", v, sizeof v), -1);
    assert_string_equal(lab_build_fragment_name(kv("6.1")), "lab-6.x.config");
    assert_string_equal(lab_build_fragment_name(kv("2.6.32")), "lab-2.6.21.config");
    assert_string_equal(lab_build_fragment_name(kv("2.6.21-rc1")), "lab-2.6.21.config");
    assert_string_equal(lab_build_fragment_name(kv("2.6.20")), "lab-2.6.config");
    assert_string_equal(lab_build_fragment_name(kv("2.4.20")), "lab-2.4.config");
    assert_string_equal(lab_build_fragment_name(kv("2.4.0-test1")), "lab-2.4.config");
    assert_null(lab_build_fragment_name(kv("2.5.70")));
    assert_null(lab_build_fragment_name(kv("2.2.26")));
}

/* The merged .config keeps one assignment per option, the last: kconfig
 * before 2.6.2x keeps the first ("trying to reassign symbol"), so the
 * base's "# CONFIG_PCI is not set" used to beat the fragment's =y. */
static void test_config_last_wins(void **state)
{
    char *out = lab_config_last_wins("# comment\n# CONFIG_PCI is not set\nCONFIG_BLOCK=y\n"
                                     "CONFIG_PCI_GOANY=y\n# lab fragment\nCONFIG_PCI=y\n"
                                     "# CONFIG_BLOCK is not set\nCONFIG_NR=8\nCONFIG_NR=16");
    assert_string_equal(out, "# comment\nCONFIG_PCI_GOANY=y\n# lab fragment\nCONFIG_PCI=y\n"
                             "# CONFIG_BLOCK is not set\nCONFIG_NR=16");
    free(out);
    out = lab_config_last_wins("");
    assert_string_equal(out, "");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compiler_parse),   cmocka_unit_test(test_decisions),
        cmocka_unit_test(test_table_contiguous), cmocka_unit_test(test_makefile_version),
        cmocka_unit_test(test_config_last_wins),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
