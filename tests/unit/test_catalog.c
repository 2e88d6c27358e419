/* The kernel catalog: lookups, the known-names message, no duplicates. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "kernels/catalog.h"

static void test_find_known(void **state)
{
    const struct lab_kernel *k = lab_kernel_find("6.1.0-47");
    assert_non_null(k);
    assert_string_equal(k->name, "6.1.0-47");
    assert_string_equal(k->package, "linux-image-6.1.0-47-amd64-unsigned");
    assert_string_equal(k->release, "6.1.0-47-amd64");
    assert_string_equal(k->arch, "x86_64");
    assert_string_equal(k->source, "debian");
    assert_string_equal(k->version, "6.1.170");
    assert_string_equal(k->deb_arch, "amd64");

    k = lab_kernel_find("6.12.113");
    assert_non_null(k);
    assert_string_equal(k->package, "linux-image-6.12.113+deb12-amd64-unsigned");
    assert_string_equal(k->release, "6.12.113+deb12-amd64");
    assert_string_equal(k->version, "6.12.113");
}

/* Debian's 32-bit kernels (i386 architecture, 686 flavour). */
static void test_find_i386(void **state)
{
    const struct lab_kernel *k = lab_kernel_find("6.1.0-50-i386");
    assert_non_null(k);
    assert_string_equal(k->package, "linux-image-6.1.0-50-686-unsigned");
    assert_string_equal(k->release, "6.1.0-50-686");
    assert_string_equal(k->arch, "i686");
    assert_string_equal(k->deb_arch, "i386");
    assert_string_equal(k->version, "6.1.176");
    k = lab_kernel_find("6.1.0-47-i386");
    assert_non_null(k);
    assert_string_equal(k->package, "linux-image-6.1.0-47-686-unsigned");
    assert_null(lab_kernel_find("6.1.0-50-686"));
}

static void test_find_unknown(void **state)
{
    assert_null(lab_kernel_find("foo"));
    assert_null(lab_kernel_find(""));
    assert_null(lab_kernel_find(NULL));
    assert_null(lab_kernel_find("6.1.0-4")); /* no prefix matching */
    assert_null(lab_kernel_find("6.1.0-47-amd64"));
    assert_null(lab_kernel_at(lab_kernel_count()));
}

static void test_entries_consistent(void **state)
{
    assert_true(lab_kernel_count() >= 2);
    for (size_t i = 0; i < lab_kernel_count(); i++) {
        const struct lab_kernel *k = lab_kernel_at(i);
        assert_non_null(k);
        assert_ptr_equal(lab_kernel_find(k->name), k);
        /* the package carries the release: linux-image-<release>-unsigned */
        char *pkg = malloc(strlen(k->release) + 32);
        strcpy(pkg, "linux-image-");
        strcat(pkg, k->release);
        strcat(pkg, "-unsigned");
        assert_string_equal(k->package, pkg);
        free(pkg);
        /* name: the release without its flavour; i386 kernels end in -i386 */
        if (strcmp(k->deb_arch, "i386") == 0) {
            assert_string_equal(k->arch, "i686");
            size_t n = strlen(k->name);
            assert_true(n > 5 && strcmp(k->name + n - 5, "-i386") == 0);
            assert_true(strncmp(k->release, k->name, n - 5) == 0);
            assert_string_equal(k->release + n - 5, "-686");
        } else {
            assert_string_equal(k->deb_arch, "amd64");
            assert_string_equal(k->arch, "x86_64");
            assert_true(strncmp(k->release, k->name, strlen(k->name)) == 0);
            assert_string_equal(k->release + strlen(k->name),
                                strstr(k->release, "+deb12") ? "+deb12-amd64" : "-amd64");
        }
        /* the upstream version shares major.minor with the name */
        const char *dot = strchr(k->version, '.');
        assert_non_null(dot);
        dot = strchr(dot + 1, '.');
        assert_non_null(dot);
        size_t mm = (size_t)(dot - k->version) + 1; /* "6.1." */
        assert_true(strncmp(k->version, k->name, mm) == 0);
        assert_string_equal(k->source, "debian");
    }
}

static void test_no_duplicates(void **state)
{
    for (size_t i = 0; i < lab_kernel_count(); i++)
        for (size_t j = i + 1; j < lab_kernel_count(); j++) {
            assert_string_not_equal(lab_kernel_at(i)->name, lab_kernel_at(j)->name);
            assert_string_not_equal(lab_kernel_at(i)->package, lab_kernel_at(j)->package);
        }
}

static void test_known_names(void **state)
{
    char *s = lab_kernel_known_names();
    assert_non_null(s);
    assert_true(strncmp(s, "6.1.0-47, ", 10) == 0);
    size_t len = 0;
    for (size_t i = 0; i < lab_kernel_count(); i++) {
        const char *name = lab_kernel_at(i)->name;
        /* each name appears as a whole item */
        char *item = malloc(strlen(name) + 3);
        strcpy(item, name);
        strcat(item, i + 1 < lab_kernel_count() ? ", " : "");
        assert_non_null(strstr(s, item));
        free(item);
        len += strlen(name) + (i ? 2 : 0);
    }
    assert_int_equal(strlen(s), len);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find_known),    cmocka_unit_test(test_find_i386),
        cmocka_unit_test(test_find_unknown),  cmocka_unit_test(test_entries_consistent),
        cmocka_unit_test(test_no_duplicates), cmocka_unit_test(test_known_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
