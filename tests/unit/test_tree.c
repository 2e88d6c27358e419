/* The synthetic source tree: deterministic, counts as asked, kernel-like
 * sizes and depths, and lab_tree_write puts exactly the iterated bytes on disk. */
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

#include "images/tree.h"
#include "common/file.h"
#include "common/str.h"

struct item {
    char *path;
    int is_dir;
    uint64_t size;
    unsigned char md[32];
};

static void content_hash(const struct lab_tree_recipe *r, uint64_t index, uint64_t size,
                         unsigned char md[32])
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    unsigned char buf[4096];
    unsigned int n = 0;
    assert_non_null(ctx);
    assert_int_equal(EVP_DigestInit_ex(ctx, EVP_sha256(), NULL), 1);
    for (uint64_t off = 0; off < size; off += sizeof buf) {
        size_t k = size - off < sizeof buf ? (size_t)(size - off) : sizeof buf;
        lab_tree_content(r, index, off, buf, k);
        EVP_DigestUpdate(ctx, buf, k);
    }
    assert_int_equal(EVP_DigestFinal_ex(ctx, md, &n), 1);
    EVP_MD_CTX_free(ctx);
}

static struct item *list(const struct lab_tree_recipe *r, size_t *n)
{
    struct lab_tree_iter *it = lab_tree_iter_new(r);
    struct lab_tree_entry e;
    size_t cap = 1024, len = 0;
    struct item *v = lab_xcalloc(cap, sizeof *v);
    assert_non_null(it);
    while (lab_tree_next(it, &e)) {
        if (len == cap) {
            v = realloc(v, 2 * cap * sizeof *v);
            assert_non_null(v);
            cap *= 2;
        }
        v[len].path = lab_xstrdup(e.path);
        v[len].is_dir = e.is_dir;
        v[len].size = e.size;
        if (!e.is_dir)
            content_hash(r, e.index, e.size, v[len].md);
        else
            memset(v[len].md, 0, 32);
        len++;
    }
    lab_tree_iter_free(it);
    *n = len;
    return v;
}

static void free_list(struct item *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i].path);
    free(v);
}

static int same(const struct item *a, size_t na, const struct item *b, size_t nb)
{
    if (na != nb)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (strcmp(a[i].path, b[i].path) || a[i].is_dir != b[i].is_dir || a[i].size != b[i].size ||
            memcmp(a[i].md, b[i].md, 32))
            return 0;
    return 1;
}

static void test_deterministic(void **state)
{
    struct lab_tree_recipe r = {42, 3000, 200};
    size_t n1, n2, n3;
    struct item *a = list(&r, &n1), *b = list(&r, &n2);
    assert_int_equal(n1, 3200);
    assert_true(same(a, n1, b, n2));
    r.seed = 43;
    struct item *c = list(&r, &n3);
    assert_int_equal(n3, 3200);
    assert_false(same(a, n1, c, n3));
    /* a different seed changes paths, sizes and bytes, not just one of them */
    size_t diff_path = 0, diff_size = 0;
    for (size_t i = 200; i < n1; i++) {
        diff_path += strcmp(a[i].path, c[i].path) != 0;
        diff_size += a[i].size != c[i].size;
    }
    assert_true(diff_path > 2000 && diff_size > 2000);
    free_list(a, n1);
    free_list(b, n2);
    free_list(c, n3);
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* The default tree (2.6.0's shape): counts, unique paths, depths 1-5, size
 * median ~3.9 KiB and mean ~14 KiB (images/tree.c says where they come from). */
static void test_shape(void **state)
{
    struct lab_tree_recipe r = {7, 0, 0};
    struct lab_tree_iter *it = lab_tree_iter_new(&r);
    struct lab_tree_entry e;
    uint64_t *sizes = lab_xcalloc(LAB_TREE_DEFAULT_FILES, sizeof *sizes);
    size_t nf = 0, nd = 0, depth[LAB_TREE_MAX_DEPTH + 1] = {0}, ndirs_at_top = 0;
    uint64_t total = 0, max = 0;
    assert_non_null(it);
    while (lab_tree_next(it, &e)) {
        assert_true(e.depth >= 1 && e.depth <= LAB_TREE_MAX_DEPTH);
        if (e.is_dir) {
            assert_int_equal(nf, 0); /* directories come first */
            nd++;
            ndirs_at_top += strchr(e.path, '/') == NULL;
            continue;
        }
        assert_true(nf < LAB_TREE_DEFAULT_FILES);
        assert_true(strncmp(strrchr(e.path, '/'), "/file", 5) == 0);
        sizes[nf++] = e.size;
        depth[e.depth]++;
        total += e.size;
        if (e.size > max)
            max = e.size;
    }
    lab_tree_iter_free(it);
    assert_int_equal(nf, LAB_TREE_DEFAULT_FILES);
    assert_int_equal(nd, LAB_TREE_DEFAULT_DIRS);
    assert_int_equal(ndirs_at_top, 16);
    qsort(sizes, nf, sizeof *sizes, cmp_u64);
    uint64_t median = sizes[nf / 2], mean = total / nf;
    printf("default tree: %zu files, %zu dirs, %llu bytes, median %llu, mean %llu, max %llu, "
           "depth 1-5: %zu %zu %zu %zu %zu\n",
           nf, nd, (unsigned long long)total, (unsigned long long)median, (unsigned long long)mean,
           (unsigned long long)max, depth[1], depth[2], depth[3], depth[4], depth[5]);
    assert_true(median >= 3500 && median <= 4300);
    assert_true(mean >= 12 * 1024 && mean <= 16 * 1024);
    assert_true(max <= LAB_TREE_MAX_SIZE);
    assert_true(sizes[nf / 10] < 1024 && sizes[nf * 9 / 10] > 20000);
    /* most files sit 2-4 levels down, as in a kernel tree; some at 5 */
    assert_true(depth[2] + depth[3] + depth[4] > nf / 2);
    assert_true(depth[5] > 0);
    struct lab_tree_stats st;
    assert_int_equal(lab_tree_stats(&r, &st), 0);
    assert_int_equal(st.files, nf);
    assert_int_equal(st.dirs, nd);
    assert_int_equal(st.bytes, total);
    free(sizes);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_unique_sorted(void **state)
{
    struct lab_tree_recipe r = {3, 20000, 1000};
    struct lab_tree_iter *it = lab_tree_iter_new(&r);
    struct lab_tree_entry e;
    char **p = lab_xcalloc(21000, sizeof *p);
    size_t n = 0;
    while (lab_tree_next(it, &e))
        p[n++] = lab_xstrdup(e.path);
    lab_tree_iter_free(it);
    assert_int_equal(n, 21000);
    qsort(p, n, sizeof *p, cmp_str);
    for (size_t i = 0; i + 1 < n; i++)
        if (strcmp(p[i], p[i + 1]) == 0)
            fail_msg("duplicate path %s", p[i]);
    for (size_t i = 0; i < n; i++)
        free(p[i]);
    free(p);
}

static void test_content_text(void **state)
{
    struct lab_tree_recipe r = {9, 10, 2};
    unsigned char a[1000], b[600];
    lab_tree_content(&r, 3, 0, a, sizeof a);
    lab_tree_content(&r, 3, 397, b, sizeof b); /* random access agrees */
    assert_memory_equal(a + 397, b, sizeof b);
    size_t nl = 0;
    for (size_t i = 0; i < sizeof a; i++) {
        assert_true(a[i] == '\n' || a[i] == '\t' || (a[i] >= 0x20 && a[i] < 0x7f));
        nl += a[i] == '\n';
    }
    assert_true(nl > 10 && nl < 100);
    lab_tree_content(&r, 4, 0, b, sizeof b); /* another file, other bytes */
    assert_memory_not_equal(a, b, sizeof b);
}

static void test_write(void **state)
{
    char tmpl[] = "/tmp/lab-test-tree-XXXXXX";
    assert_non_null(mkdtemp(tmpl));
    char *dir = lab_asprintf("%s/t", tmpl);
    struct lab_tree_recipe r = {5, 500, 60};
    struct lab_tree_stats st, want;
    assert_int_equal(lab_tree_write(&r, dir, &st), 0);
    assert_int_equal(lab_tree_stats(&r, &want), 0);
    assert_int_equal(st.files, 500);
    assert_int_equal(st.dirs, 60);
    assert_int_equal(st.bytes, want.bytes);
    struct lab_tree_iter *it = lab_tree_iter_new(&r);
    struct lab_tree_entry e;
    while (lab_tree_next(it, &e)) {
        char *p = lab_asprintf("%s/%s", dir, e.path);
        struct stat s;
        assert_int_equal(lstat(p, &s), 0);
        assert_int_equal(s.st_mtime, LAB_TREE_TIME);
        assert_int_equal(s.st_mode & 07777, e.is_dir ? 0755 : 0644);
        if (!e.is_dir) {
            assert_true(S_ISREG(s.st_mode));
            size_t len;
            char *d = lab_read_file(p, &len);
            assert_non_null(d);
            assert_int_equal(len, e.size);
            unsigned char *w = lab_xcalloc(len + 1, 1);
            lab_tree_content(&r, e.index, 0, w, len);
            assert_memory_equal(d, w, len);
            free(w);
            free(d);
        }
        free(p);
    }
    lab_tree_iter_free(it);
    struct lab_tree_recipe bad = {1, 20000000, 10};
    assert_null(lab_tree_iter_new(&bad));
    free(dir);
    lab_rm_rf(tmpl);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deterministic), cmocka_unit_test(test_shape),
        cmocka_unit_test(test_unique_sorted), cmocka_unit_test(test_content_text),
        cmocka_unit_test(test_write),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
