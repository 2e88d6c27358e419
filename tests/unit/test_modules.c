/* Module resolution over a fake modules tree, and xz decompression. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lzma.h>

#include "images/modules.h"
#include "common/file.h"
#include "common/str.h"

static char *root; /* temp modules_dir */

static void put(const char *rel, const char *text)
{
    char *p = lab_asprintf("%s/%s", root, rel);
    char *dir = lab_xstrdup(p);
    *strrchr(dir, '/') = '\0';
    assert_int_equal(lab_mkdir_p(dir, 0755), 0);
    assert_int_equal(lab_write_file(p, text, strlen(text)), 0);
    free(dir);
    free(p);
}

static unsigned char *xz(const void *data, size_t len, size_t *out_len)
{
    size_t cap = lzma_stream_buffer_bound(len);
    unsigned char *out = malloc(cap);
    *out_len = 0;
    assert_int_equal(
        lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, data, len, out, out_len, cap), LZMA_OK);
    return out;
}

/* Diamond: top -> left, right; left -> base; right -> base. Plus a module
 * with a dash in its file name, an xz module, and builtins. */
static int setup(void **state)
{
    char tmpl[] = "/tmp/lab-test-modules-XXXXXX";
    assert_non_null(mkdtemp(tmpl));
    root = lab_xstrdup(tmpl);
    put("modules.dep", "kernel/a/top.ko: kernel/a/left.ko kernel/b/right.ko kernel/c/base.ko\n"
                       "kernel/a/left.ko: kernel/c/base.ko\n"
                       "kernel/b/right.ko: kernel/c/base.ko\n"
                       "kernel/c/base.ko:\n"
                       "kernel/lib/crc-t10dif.ko:\n"
                       "kernel/x/packed.ko.xz: kernel/lib/crc-t10dif.ko\n"
                       "kernel/x/other_top.ko: kernel/c/base.ko kernel/b/right.ko\n");
    put("modules.builtin", "kernel/drivers/virtio/virtio_pci.ko\nkernel/fs/ext-two.ko\n");
    put("kernel/a/top.ko", "TOP");
    put("kernel/c/base.ko", "\177ELF base module bytes");
    size_t n;
    const char plain[] = "\177ELF this module was xz-compressed";
    unsigned char *packed = xz(plain, sizeof plain, &n);
    char *p = lab_asprintf("%s/kernel/x/packed.ko.xz", root);
    put("kernel/x/.keep", "");
    assert_int_equal(lab_write_file(p, packed, n), 0);
    free(p);
    free(packed);
    return 0;
}

static int teardown(void **state)
{
    lab_rm_rf(root);
    free(root);
    return 0;
}

static size_t index_of(char **paths, size_t n, const char *path)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(paths[i], path) == 0)
            return i;
    fail_msg("%s not in the resolved list", path);
    return n;
}

static void test_diamond_order(void **state)
{
    const char *wanted[] = {"top"};
    char **paths;
    size_t n;
    assert_int_equal(lab_modules_resolve(root, wanted, 1, &paths, &n), 0);
    assert_int_equal(n, 4); /* base only once */
    assert_string_equal(paths[0], "kernel/c/base.ko");
    assert_string_equal(paths[3], "kernel/a/top.ko");
    size_t l = index_of(paths, n, "kernel/a/left.ko"), r = index_of(paths, n, "kernel/b/right.ko");
    assert_true(l > 0 && l < 3);
    assert_true(r > 0 && r < 3);
    lab_modules_free(paths, n);
}

static void test_dedup_across_wanted(void **state)
{
    const char *wanted[] = {"right", "top", "other_top", "base", "top"};
    char **paths;
    size_t n;
    assert_int_equal(lab_modules_resolve(root, wanted, 5, &paths, &n), 0);
    assert_int_equal(n, 5);
    assert_string_equal(paths[0], "kernel/c/base.ko");
    assert_string_equal(paths[1], "kernel/b/right.ko");
    assert_true(index_of(paths, n, "kernel/a/top.ko") > index_of(paths, n, "kernel/a/left.ko"));
    assert_string_equal(paths[4], "kernel/x/other_top.ko");
    lab_modules_free(paths, n);
}

static void test_builtin_skipped(void **state)
{
    const char *wanted[] = {"virtio_pci", "ext_two", "ext-two", "base"};
    char **paths;
    size_t n;
    assert_int_equal(lab_modules_resolve(root, wanted, 4, &paths, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(paths[0], "kernel/c/base.ko");
    lab_modules_free(paths, n);
}

static void test_dash_underscore(void **state)
{
    const char *wanted[] = {"crc_t10dif", "crc-t10dif", "packed"};
    char **paths;
    size_t n;
    assert_int_equal(lab_modules_resolve(root, wanted, 3, &paths, &n), 0);
    assert_int_equal(n, 2);
    assert_string_equal(paths[0], "kernel/lib/crc-t10dif.ko");
    assert_string_equal(paths[1], "kernel/x/packed.ko.xz");
    lab_modules_free(paths, n);
}

static void test_unknown_module(void **state)
{
    const char *wanted[] = {"base", "no_such_module"};
    char **paths = (char **)1;
    size_t n = 99;
    assert_int_equal(lab_modules_resolve(root, wanted, 2, &paths, &n), -1);
    assert_null(paths);
    assert_int_equal(n, 0);
}

static void test_missing_dep_file(void **state)
{
    const char *wanted[] = {"base"};
    char **paths;
    size_t n;
    assert_int_equal(lab_modules_resolve("/nonexistent/lab/modules", wanted, 1, &paths, &n), -1);
}

static void test_module_name(void **state)
{
    const char *cases[][2] = {
        {"kernel/lib/crc-t10dif.ko.xz", "crc_t10dif"},
        {"a/b/ext4.ko", "ext4"},
        {"sd_mod.ko.zst", "sd_mod"},
        {"x-y.ko.gz", "x_y"},
        {"virtio_pci", "virtio_pci"},
        {"kobj.ko", "kobj"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *s = lab_module_name(cases[i][0]);
        assert_string_equal(s, cases[i][1]);
        free(s);
    }
}

static void test_load_bytes(void **state)
{
    unsigned char *d;
    size_t len;
    char *p = lab_asprintf("%s/kernel/x/packed.ko.xz", root);
    const char plain[] = "\177ELF this module was xz-compressed";
    assert_int_equal(lab_module_load_bytes(p, &d, &len), 0);
    assert_int_equal(len, sizeof plain);
    assert_memory_equal(d, plain, sizeof plain);
    free(d);
    free(p);

    p = lab_asprintf("%s/kernel/c/base.ko", root);
    assert_int_equal(lab_module_load_bytes(p, &d, &len), 0);
    assert_int_equal(len, strlen("\177ELF base module bytes"));
    assert_memory_equal(d, "\177ELF base module bytes", len);
    free(d);
    free(p);

    /* a corrupt xz stream is an error, not garbage */
    static const char bad[] = "\xFD"
                              "7zXZ"
                              "\0garbage";
    p = lab_asprintf("%s/kernel/x/bad.ko.xz", root);
    assert_int_equal(lab_write_file(p, bad, sizeof bad - 1), 0);
    assert_int_equal(lab_module_load_bytes(p, &d, &len), -1);
    free(p);
    p = lab_asprintf("%s/kernel/x/none.ko", root);
    assert_int_equal(lab_module_load_bytes(p, &d, &len), -1);
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diamond_order),   cmocka_unit_test(test_dedup_across_wanted),
        cmocka_unit_test(test_builtin_skipped), cmocka_unit_test(test_dash_underscore),
        cmocka_unit_test(test_unknown_module),  cmocka_unit_test(test_missing_dep_file),
        cmocka_unit_test(test_module_name),     cmocka_unit_test(test_load_bytes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
