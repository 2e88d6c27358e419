/* The data disk builder: a small recipe builds, rebuilds byte-identical,
 * and holds the deterministic content (checked with debugfs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "images/datadisk.h"
#include "guest-agent/protocol.h"
#include "common/file.h"
#include "common/paths.h"
#include "common/proc.h"
#include "common/str.h"
#include "tests/unit/tmphome.h"

static int setup(void **state)
{
    return tmphome_setup("datadisk");
}

static int teardown(void **state)
{
    return tmphome_teardown();
}

static void sha256_file(const char *path, unsigned char md[32])
{
    size_t len;
    char *data = lab_read_file(path, &len);
    unsigned int n = 0;
    assert_non_null(data);
    assert_int_equal(EVP_Digest(data, len, md, &n, EVP_sha256(), NULL), 1);
    assert_int_equal(n, 32);
    free(data);
}

static const char *debugfs(void)
{
    return access("/usr/sbin/debugfs", X_OK) == 0 ? "/usr/sbin/debugfs"
           : access("/sbin/debugfs", X_OK) == 0   ? "/sbin/debugfs"
                                                  : "debugfs";
}

static void check_content(const char *img, const char *name, uint64_t size, uint64_t seed)
{
    char *out = lab_asprintf("%s/dumped", tmpdir);
    char *req = lab_asprintf("dump /%s %s", name, out);
    char *log = lab_asprintf("%s/debugfs.log", tmpdir);
    char *argv[] = {(char *)debugfs(), "-R", req, (char *)img, NULL};
    unlink(out);
    assert_int_equal(lab_spawn_wait(argv, log), 0);
    size_t len;
    unsigned char *d = (unsigned char *)lab_read_file(out, &len);
    assert_non_null(d);
    assert_int_equal(len, size);
    for (uint64_t off = 0; off < size; off++) {
        unsigned long long w = lab_content_word(seed, off / 8);
        if (d[off] != (unsigned char)(w >> (8 * (off % 8))))
            fail_msg("byte %llu of /%s differs", (unsigned long long)off, name);
    }
    free(d);
    unlink(out);
    free(out);
    free(req);
    free(log);
}

static void test_build_and_content(void **state)
{
    struct lab_datadisk_recipe r = {"ext2", "big_file", 1 << 20, 42};
    char *path;
    assert_int_equal(lab_datadisk_get(&r, &path), 0);
    char *prefix = lab_asprintf("%s/images/data-", lab_home());
    assert_true(strncmp(path, prefix, strlen(prefix)) == 0);
    assert_int_equal(strlen(path), strlen(prefix) + 16 + strlen(".img"));
    free(prefix);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);
    /* 1 MiB + 10% + 16 MiB, rounded up to 4 KiB */
    uint64_t want = ((1 << 20) + (1 << 20) / 10 + (16 << 20) + 4095) & ~4095ULL;
    assert_int_equal((uint64_t)st.st_size, want);
    check_content(path, "big_file", 1 << 20, 42);
    char *again;
    assert_int_equal(lab_datadisk_get(&r, &again), 0); /* cached */
    assert_string_equal(again, path);
    char *p = lab_datadisk_path(&r);
    assert_string_equal(p, path);
    free(p);
    free(again);
    free(path);
}

static void test_deterministic(void **state)
{
    /* odd size: the last word is cut short */
    struct lab_datadisk_recipe r = {"ext2", "data", 300001, 7};
    char *p1, *p2;
    unsigned char h1[32], h2[32];
    assert_int_equal(lab_datadisk_get(&r, &p1), 0);
    sha256_file(p1, h1);
    assert_int_equal(unlink(p1), 0);
    sleep(1); /* a different wall clock second must not matter */
    assert_int_equal(lab_datadisk_get(&r, &p2), 0);
    assert_string_equal(p1, p2);
    sha256_file(p2, h2);
    assert_memory_equal(h1, h2, 32);
    check_content(p2, "data", 300001, 7);
    free(p1);
    free(p2);
}

static void test_keyed_by_recipe(void **state)
{
    struct lab_datadisk_recipe a = {"ext2", "big_file", 1 << 20, 42};
    struct lab_datadisk_recipe b = a, c = a, d = a;
    b.seed = 43;
    c.file_size = 2 << 20;
    d.file_name = "other";
    char *pa = lab_datadisk_path(&a), *pb = lab_datadisk_path(&b), *pc = lab_datadisk_path(&c),
         *pd = lab_datadisk_path(&d);
    assert_string_not_equal(pa, pb);
    assert_string_not_equal(pa, pc);
    assert_string_not_equal(pa, pd);
    /* defaults: NULL fs/name and size 0 mean ext2, big_file, 256 MiB */
    struct lab_datadisk_recipe e = {NULL, NULL, 0, 42}, f = {"ext2", "big_file", 256 << 20, 42};
    char *pe = lab_datadisk_path(&e), *pf = lab_datadisk_path(&f);
    assert_string_equal(pe, pf);
    free(pa);
    free(pb);
    free(pc);
    free(pd);
    free(pe);
    free(pf);
}

static void test_bad_recipes(void **state)
{
    struct lab_datadisk_recipe bad_fs = {"vfat", "big_file", 1 << 20, 1};
    struct lab_datadisk_recipe bad_name = {"ext2", "a/b", 1 << 20, 1};
    char *p = (char *)1;
    assert_int_equal(lab_datadisk_get(&bad_fs, &p), -1);
    assert_null(p);
    assert_int_equal(lab_datadisk_get(&bad_name, &p), -1);
    assert_null(p);
    assert_null(lab_datadisk_path(&bad_fs));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_and_content),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_keyed_by_recipe),
        cmocka_unit_test(test_bad_recipes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
