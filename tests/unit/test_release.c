/* kernel.org release names: the grammar of every era, the mirror paths and
 * bases out, the refusals, the git tags. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "kernels/release.h"

/* name in; kind, base, the first base path and the first patch path out
 * ("" when none). */
static const struct {
    const char *name, *kind, *base, *base_path, *patch_path;
} plans[] = {
    {"2.4.0", "release", "2.4.0", "v2.4/linux-2.4.0.tar.xz", ""},
    {"2.4.20", "release", "2.4.20", "v2.4/linux-2.4.20.tar.xz", ""},
    {"2.4.21-pre3", "prepatch", "2.4.20", "v2.4/linux-2.4.20.tar.xz",
     "v2.4/testing/patch-2.4.21-pre3.xz"},
    {"2.4.27-rc2", "prepatch", "2.4.26", "v2.4/linux-2.4.26.tar.xz",
     "v2.4/testing/patch-2.4.27-rc2.xz"},
    {"2.4.37.11", "stable patch", "2.4.37", "v2.4/linux-2.4.37.tar.xz", "v2.4/patch-2.4.37.11.xz"},
    {"2.6.0", "release", "2.6.0", "v2.6/linux-2.6.0.tar.xz", ""},
    {"2.6.1-rc1", "prepatch", "2.6.0", "v2.6/linux-2.6.0.tar.xz",
     "v2.6/testing/patch-2.6.1-rc1.xz"},
    {"2.6.12-rc2", "prepatch", "2.6.11", "v2.6/linux-2.6.11.tar.xz",
     "v2.6/testing/patch-2.6.12-rc2.xz"},
    {"2.6.8.1", "stable patch", "2.6.8", "v2.6/linux-2.6.8.tar.xz", "v2.6/patch-2.6.8.1.xz"},
    {"2.6.11.7", "stable patch", "2.6.11", "v2.6/linux-2.6.11.tar.xz", "v2.6/patch-2.6.11.7.xz"},
    {"2.6.39", "release", "2.6.39", "v2.6/linux-2.6.39.tar.xz", ""},
    {"3.0-rc1", "prepatch", "2.6.39", "v2.6/linux-2.6.39.tar.xz", "v3.x/testing/patch-3.0-rc1.xz"},
    {"3.0", "release", "3.0", "v3.x/linux-3.0.tar.xz", ""},
    {"3.1-rc4", "prepatch", "3.0", "v3.x/linux-3.0.tar.xz", "v3.x/testing/patch-3.1-rc4.xz"},
    {"3.4.5", "stable patch", "3.4", "v3.x/linux-3.4.tar.xz", "v3.x/patch-3.4.5.xz"},
    {"4.0-rc1", "prepatch", "3.19", "v3.x/linux-3.19.tar.xz", "v4.x/testing/patch-4.0-rc1.xz"},
    {"4.19.325", "stable patch", "4.19", "v4.x/linux-4.19.tar.xz", "v4.x/patch-4.19.325.xz"},
    {"5.0-rc8", "prepatch", "4.20", "v4.x/linux-4.20.tar.xz", "v5.x/testing/patch-5.0-rc8.xz"},
    {"5.10", "release", "5.10", "v5.x/linux-5.10.tar.xz", ""},
    {"6.0-rc1", "prepatch", "5.19", "v5.x/linux-5.19.tar.xz", "v6.x/testing/patch-6.0-rc1.xz"},
    {"6.1", "release", "6.1", "v6.x/linux-6.1.tar.xz", ""},
    {"6.12.113", "stable patch", "6.12", "v6.x/linux-6.12.tar.xz", "v6.x/patch-6.12.113.xz"},
};

static void test_plans(void **state)
{
    char err[256];
    for (size_t i = 0; i < sizeof plans / sizeof plans[0]; i++) {
        struct lab_release_plan p;
        assert_int_equal(lab_release_plan(plans[i].name, &p, err, sizeof err), 0);
        assert_string_equal(p.kind, plans[i].kind);
        assert_string_equal(p.base, plans[i].base);
        assert_string_equal(p.base_paths[0], plans[i].base_path);
        assert_string_equal(p.npatch ? p.patch_paths[0] : "", plans[i].patch_path);
        assert_true(p.nbase == 3); /* xz, bz2, gz */
    }
}

/* Every compression, in order; the 2.6 longterm directory after the plain
 * one. */
static void test_candidates(void **state)
{
    struct lab_release_plan p;
    assert_int_equal(lab_release_plan("2.6.32.71", &p, NULL, 0), 0);
    assert_int_equal(p.npatch, 6);
    assert_string_equal(p.patch_paths[1], "v2.6/patch-2.6.32.71.bz2");
    assert_string_equal(p.patch_paths[2], "v2.6/patch-2.6.32.71.gz");
    assert_string_equal(p.patch_paths[3], "v2.6/longterm/v2.6.32/patch-2.6.32.71.xz");
    assert_string_equal(p.base_paths[2], "v2.6/linux-2.6.32.tar.gz");
    assert_int_equal(lab_release_plan("3.4.5", &p, NULL, 0), 0);
    assert_int_equal(p.npatch, 3); /* no longterm/ after 2.6 */
}

/* Malformed names and names outside what kernel.org publishes as
 * releases, each with its reason. */
static const struct {
    const char *name, *why;
} refused[] = {
    {"", "empty"},
    {"2.6", "three numbers"},
    {"2.6.011", "2.6.N"},
    {"2.6.x", "three numbers"},
    {"2.5.3", "development series"},
    {"2.2.26", "older than 2.4"},
    {"1.0", "no kernel.org series 1"},
    {"9.1", "no kernel.org series 9"},
    {"2.6.11-rc0", "from 1"},
    {"2.6.11.0", "from 1"},
    {"2.6.0-rc1", "development series"},
    {"2.4.0-pre1", "development series"},
    {"2.6.12-pre1", "not a suffix"},
    {"3.4-pre1", "not a suffix"},
    {"2.6.11.7-rc1", "unexpected '-rc1'"},
    {"3.4.5.6", "unexpected '.6'"},
    {"2.6.11-mm1", "not a suffix"},
    {"2.6.11 ", "unexpected ' '"},
    {"v2.6.11", "not a kernel.org release name"},
    {"6.1.0-47", "from 1"},
    {"2.6.11.7.8.9.10.11.12.13.14.15.16", "not a kernel.org release name"},
};

static void test_refusals(void **state)
{
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char err[256] = "";
        struct lab_release_plan p;
        assert_int_equal(lab_release_plan(refused[i].name, &p, err, sizeof err), -1);
        if (!strstr(err, refused[i].why))
            fail_msg("'%s': '%s' lacks '%s'", refused[i].name, err, refused[i].why);
    }
}

static void test_parse_fields(void **state)
{
    struct lab_release r;
    assert_int_equal(lab_release_parse("2.6.11.7", &r, NULL, 0), 0);
    assert_int_equal(r.sub, 11);
    assert_int_equal(r.kind, LAB_REL_STABLE);
    assert_int_equal(r.n, 7);
    assert_int_equal(lab_release_parse("2.4.21-pre3", &r, NULL, 0), 0);
    assert_int_equal(r.kind, LAB_REL_PRE);
    assert_int_equal(r.n, 3);
    assert_int_equal(lab_release_parse("6.12", &r, NULL, 0), 0);
    assert_int_equal(r.sub, -1);
    assert_int_equal(r.kind, LAB_REL_FINAL);
}

static void test_git_tags(void **state)
{
    char tag[32];
    assert_int_equal(lab_release_git_tag("2.6.12-rc2", tag, sizeof tag), 0);
    assert_string_equal(tag, "v2.6.12-rc2");
    assert_int_equal(lab_release_git_tag("2.6.13", tag, sizeof tag), 0);
    assert_string_equal(tag, "v2.6.13");
    assert_int_equal(lab_release_git_tag("6.1", tag, sizeof tag), 0);
    assert_string_equal(tag, "v6.1");
    assert_int_equal(lab_release_git_tag("2.6.12-rc1", tag, sizeof tag), -1);
    assert_int_equal(lab_release_git_tag("2.6.11", tag, sizeof tag), -1);
    assert_int_equal(lab_release_git_tag("2.4.30", tag, sizeof tag), -1);
    assert_int_equal(lab_release_git_tag("2.6.x", tag, sizeof tag), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plans),    cmocka_unit_test(test_candidates),
        cmocka_unit_test(test_refusals), cmocka_unit_test(test_parse_fields),
        cmocka_unit_test(test_git_tags),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
