/* The filesystem image builder: a small recipe builds (and passes the
 * libguestfs verification when the appliance can start), rebuilds
 * byte-identical, is ext3 with only 2.4-era features, and holds the tree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "images/fsimage.h"
#include "common/hash.h"
#include "guest-agent/protocol.h"
#include "common/clock.h"
#include "common/file.h"
#include "common/paths.h"
#include "common/proc.h"
#include "common/str.h"
#include "tests/unit/tmphome.h"

static int setup(void **state)
{
    return tmphome_setup("fsimage");
}

static int teardown(void **state)
{
    return tmphome_teardown();
}

static void sha256_file(const char *path, char hex[LAB_HASH_HEX_LEN + 1])
{
    struct lab_hash h;
    size_t len;
    char *d = lab_read_file(path, &len);
    assert_non_null(d);
    assert_int_equal(lab_hash_init(&h), 0);
    lab_hash_update(&h, d, len);
    assert_int_equal(lab_hash_final(&h, hex), 0);
    free(d);
}

static const char *sbin(const char *name)
{
    static char buf[64];
    snprintf(buf, sizeof buf, "/usr/sbin/%s", name);
    if (access(buf, X_OK) == 0)
        return buf;
    snprintf(buf, sizeof buf, "/sbin/%s", name);
    return access(buf, X_OK) == 0 ? buf : name;
}

/* Runs a tool with its output into a file; returns the output (malloc'd). */
static char *run(char *const argv[], int want_status)
{
    char *log = lab_asprintf("%s/tool.log", tmpdir);
    int st = lab_spawn_wait(argv, log);
    char *out = lab_read_file(log, NULL);
    if (st != want_status)
        fail_msg("%s exited %d, want %d:\n%s", argv[0], st, want_status, out ? out : "");
    free(log);
    return out;
}

static const struct lab_fsimage_recipe small = {
    .fs = "ext3",
    .big_file_size = 4 << 20,
    .tree_copies = 2,
    .tree = {11, 200, 30},
    .extra_bytes = 8 << 20,
};

static void check_features(const char *img)
{
    char *argv[] = {(char *)sbin("dumpe2fs"), "-h", (char *)img, NULL};
    char *out = run(argv, 0);
    char *feat = strstr(out, "Filesystem features:");
    assert_non_null(feat);
    char line[256];
    sscanf(feat, "Filesystem features: %255[^\n]", line);
    printf("features: %s\n", line);
    assert_string_equal(line, "has_journal filetype sparse_super large_file");
    assert_non_null(strstr(out, "Inode size:\t          128\n"));
    assert_non_null(strstr(out, "Block size:               4096\n"));
    assert_non_null(strstr(out, "Filesystem created:       Sun Sep  9 01:46:40 2001\n"));
    assert_non_null(strstr(out, "Last write time:          Sun Sep  9 01:46:40 2001\n"));
    assert_non_null(strstr(out, "Total journal size:       4096k\n"));
    assert_null(strstr(out, "dir_index"));
    free(out);
    char *fsck[] = {(char *)sbin("e2fsck"), "-fn", (char *)img, NULL};
    free(run(fsck, 0));
}

static void check_tree(const char *img)
{
    struct lab_tree_iter *it = lab_tree_iter_new(&small.tree);
    struct lab_tree_entry e;
    char *dump = lab_asprintf("%s/dumped", tmpdir);
    unsigned checked = 0;
    while (lab_tree_next(it, &e)) {
        if (e.is_dir || e.index % 50 != 7)
            continue;
        char *req = lab_asprintf("dump \"/tree1/%s\" %s", e.path, dump);
        char *argv[] = {(char *)sbin("debugfs"), "-R", req, (char *)img, NULL};
        unlink(dump);
        free(run(argv, 0));
        size_t len;
        char *d = lab_read_file(dump, &len);
        assert_non_null(d);
        assert_int_equal(len, e.size);
        char *want = lab_xcalloc(len + 1, 1);
        lab_tree_content(&small.tree, e.index, 0, want, len);
        assert_memory_equal(d, want, len);
        free(want);
        free(d);
        free(req);
        checked++;
    }
    lab_tree_iter_free(it);
    assert_int_equal(checked, 4);
    /* every inode carries the fixed time, ctime included */
    char *argv[] = {(char *)sbin("debugfs"), "-R", "stat /tree0", (char *)img, NULL};
    char *out = run(argv, 0);
    assert_non_null(strstr(out, "ctime: 0x3b9aca00 -- Sun Sep  9 01:46:40 2001"));
    assert_non_null(strstr(out, "atime: 0x3b9aca00"));
    free(out);
    char *big[] = {(char *)sbin("debugfs"), "-R", "stat /big_file", (char *)img, NULL};
    out = run(big, 0);
    assert_non_null(strstr(out, "Size: 4194304"));
    assert_non_null(strstr(out, "ctime: 0x3b9aca00"));
    free(out);
    free(dump);
}

static void test_build_deterministic(void **state)
{
    char *p1, *p2, h1[LAB_HASH_HEX_LEN + 1], h2[LAB_HASH_HEX_LEN + 1];
    int64_t t0 = lab_now_ns();
    assert_int_equal(lab_fsimage_get(&small, &p1), 0);
    int64_t t1 = lab_now_ns();
    char *prefix = lab_asprintf("%s/images/fs-", lab_home());
    assert_true(strncmp(p1, prefix, strlen(prefix)) == 0);
    free(prefix);
    char *p = lab_fsimage_path(&small);
    assert_string_equal(p, p1);
    free(p);
    struct stat st;
    assert_int_equal(stat(p1, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);
    sha256_file(p1, h1);
    check_features(p1);
    check_tree(p1);
    char *again;
    assert_int_equal(lab_fsimage_get(&small, &again), 0); /* cached */
    assert_string_equal(again, p1);
    free(again);

    assert_int_equal(unlink(p1), 0);
    sleep(1); /* another wall clock second must not matter */
    int64_t t2 = lab_now_ns();
    assert_int_equal(lab_fsimage_get(&small, &p2), 0);
    int64_t t3 = lab_now_ns();
    assert_string_equal(p1, p2);
    sha256_file(p2, h2);
    printf("image %s (%lld bytes): sha256 %s, build %.1f s and %.1f s (with verification)\n", p2,
           (long long)st.st_size, h2, (double)(t1 - t0) / 1e9, (double)(t3 - t2) / 1e9);
    assert_string_equal(h1, h2);
    free(p1);
    free(p2);
}

static void test_recipe_changes_hash(void **state)
{
    struct lab_fsimage_recipe a = small, b = small;
    b.tree.seed++;
    char *pa = lab_fsimage_path(&a), *pb = lab_fsimage_path(&b);
    assert_non_null(pa);
    assert_non_null(pb);
    assert_string_not_equal(pa, pb);
    free(pb);
    b = small;
    b.extra_bytes++;
    pb = lab_fsimage_path(&b);
    assert_string_not_equal(pa, pb);
    free(pb);
    b = small;
    b.fs = "xfs";
    assert_null(lab_fsimage_path(&b));
    free(pa);
}

/* The scratch disk's label, where the agent reads it (guest-agent/setup.c:
 * 16 bytes at 1024 + 120) and where dumpe2fs shows it; labelled and
 * unlabelled recipes are different images, and a bad label is refused. */
static void test_label(void **state)
{
    struct lab_fsimage_recipe r = {.fs = "ext3", .extra_bytes = 8 << 20}, bare = r;
    r.label = LAB_SCRATCH_LABEL;
    char *p, *pb = lab_fsimage_path(&bare);
    assert_int_equal(lab_fsimage_get(&r, &p), 0);
    assert_string_not_equal(p, pb);
    char *argv[] = {(char *)sbin("dumpe2fs"), "-h", p, NULL};
    char *out = run(argv, 0);
    assert_non_null(strstr(out, "Filesystem volume name:   " LAB_SCRATCH_LABEL "\n"));
    free(out);
    char sb[16] = {0}, want[16] = LAB_SCRATCH_LABEL;
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 1024 + 120, SEEK_SET), 0);
    assert_int_equal(fread(sb, 1, sizeof sb, f), sizeof sb);
    fclose(f);
    assert_memory_equal(sb, want, sizeof sb);
    const char *bad[] = {"", "seventeen-chars-x", "a b", "a/b"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r.label = bad[i];
        assert_null(lab_fsimage_path(&r));
    }
    free(p);
    free(pb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recipe_changes_hash),
        cmocka_unit_test(test_build_deterministic),
        cmocka_unit_test(test_label),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
