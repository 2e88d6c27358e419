/* Synthetic kernel-shaped source trees: structure, sizes and bytes from
 * integer-only PRNG draws (no libm), so every machine gives the same tree. */
#include "images/tree.h"

#include "common/file.h"
#include "common/msg.h"
#include "common/str.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Top-level directories of linux-2.6.0, most populous first (a tree with
 * fewer directories keeps the first ones), with their share of the
 * directories below them (percent, roughly as in 2.6.0). */
static const struct {
    const char *name;
    unsigned weight;
} top[] = {
    {"drivers", 35}, {"arch", 30}, {"include", 12},      {"fs", 8},
    {"net", 6},      {"sound", 5}, {"Documentation", 2}, {"kernel", 1},
    {"scripts", 1},  {"lib", 1},   {"security", 1},      {"crypto", 1},
    {"mm", 1},       {"init", 1},  {"ipc", 1},           {"usr", 1},
};
#define NTOP (sizeof top / sizeof top[0])

/* File sizes: quantiles q = i/256 (i = 0..256) of a lognormal fitted to the
 * regular files of Debian's linux-source-6.1 tarball (78,579 files in 5,096
 * directories: median 3,874 bytes, log-sigma 1.618, mean 16.5 KiB with a
 * tail of firmware and generated headers), capped at 1 MiB; the last point
 * is the 1 - 1/2048 quantile. A size is read between two points by linear
 * interpolation, so the table's median is 3,874 bytes and its mean ~14 KiB
 * (2.6.0: ~15,000 files, ~200 MB unpacked, ~13 KiB a file). Generated with
 * Python's statistics.NormalDist; integers, so no libm rounding can change
 * a size from one machine to the next. */
static const uint32_t size_q[257] = {
    0,     52,    78,    99,    119,    137,    155,    173,    190,    207,    224,   241,   257,
    274,   291,   307,   324,   340,    357,    374,    391,    408,    425,    442,   459,   477,
    494,   512,   530,   548,   566,    584,    602,    621,    640,    659,    678,   697,   716,
    736,   756,   776,   796,   817,    837,    858,    879,    901,    922,    944,   966,   988,
    1011,  1033,  1056,  1080,  1103,   1127,   1151,   1175,   1200,   1224,   1250,  1275,  1301,
    1327,  1353,  1380,  1407,  1434,   1462,   1490,   1518,   1546,   1575,   1605,  1634,  1664,
    1695,  1726,  1757,  1788,  1820,   1853,   1885,   1919,   1952,   1986,   2021,  2056,  2091,
    2127,  2163,  2200,  2237,  2275,   2313,   2352,   2392,   2431,   2472,   2513,  2554,  2597,
    2639,  2683,  2726,  2771,  2816,   2862,   2908,   2956,   3003,   3052,   3101,  3151,  3202,
    3253,  3306,  3359,  3412,  3467,   3523,   3579,   3636,   3694,   3753,   3813,  3874,  3936,
    3999,  4063,  4128,  4193,  4261,   4329,   4398,   4469,   4540,   4613,   4687,  4763,  4839,
    4917,  4997,  5078,  5160,  5244,   5329,   5416,   5505,   5595,   5686,   5780,  5875,  5972,
    6071,  6172,  6275,  6380,  6487,   6597,   6708,   6822,   6938,   7056,   7177,  7301,  7427,
    7556,  7688,  7822,  7960,  8101,   8245,   8392,   8543,   8697,   8855,   9017,  9183,  9353,
    9527,  9705,  9888,  10076, 10268,  10466,  10669,  10877,  11091,  11311,  11538, 11770, 12010,
    12256, 12510, 12772, 13041, 13320,  13606,  13902,  14208,  14524,  14851,  15189, 15538, 15901,
    16276, 16665, 17069, 17489, 17925,  18378,  18850,  19342,  19855,  20390,  20950, 21535, 22147,
    22789, 23463, 24172, 24917, 25703,  26532,  27409,  28338,  29324,  30372,  31489, 32682, 33960,
    35333, 36811, 38409, 40142, 42029,  44093,  46363,  48871,  51662,  54788,  58321, 62350, 66999,
    72435, 78901, 86750, 96539, 109188, 126375, 151569, 193620, 286654, 803636,
};

#define GOLDEN 0x9E3779B97F4A7C15ULL

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

struct dir {
    unsigned parent; /* UINT32_MAX for top-level */
    unsigned group, depth;
};

struct lab_tree_iter {
    struct lab_tree_recipe r;
    struct dir *dirs;
    unsigned *nfiles_in; /* per directory: files named so far */
    uint64_t next;       /* entries returned so far */
    char path[512];
};

static void normalise(const struct lab_tree_recipe *in, struct lab_tree_recipe *r)
{
    *r = *in;
    if (!r->files)
        r->files = LAB_TREE_DEFAULT_FILES;
    if (!r->dirs)
        r->dirs = LAB_TREE_DEFAULT_DIRS;
}

int lab_tree_check(const struct lab_tree_recipe *in)
{
    struct lab_tree_recipe r;
    normalise(in, &r);
    if (r.files > 10000000u)
        return lab_error("tree: %u files is too many (at most 10,000,000)", r.files);
    if (r.dirs > 1000000u)
        return lab_error("tree: %u directories is too many (at most 1,000,000)", r.dirs);
    return 0;
}

/* Directory i: the first NTOP are the top-level ones; each later one picks a
 * top-level group by weight, a depth (2: 30%, 3: 40%, 4: 20%, 5: 10%, about
 * the directory depths of linux-source-6.1 with its deepest levels folded
 * into 5), then a parent uniformly among the group's directories one level
 * up (or the deepest level the group has so far). */
static struct dir *make_dirs(const struct lab_tree_recipe *r)
{
    unsigned n = r->dirs, ntop = n < NTOP ? n : (unsigned)NTOP, wsum = 0;
    struct dir *d = lab_xcalloc(n, sizeof *d);
    unsigned *cand[NTOP][LAB_TREE_MAX_DEPTH], ncand[NTOP][LAB_TREE_MAX_DEPTH];
    memset(cand, 0, sizeof cand);
    memset(ncand, 0, sizeof ncand);
    for (unsigned g = 0; g < ntop; g++) {
        d[g] = (struct dir){UINT32_MAX, g, 1};
        cand[g][1] = lab_xcalloc(1, sizeof(unsigned));
        cand[g][1][ncand[g][1]++] = g;
        wsum += top[g].weight;
    }
    uint64_t s = mix64(r->seed ^ 0xd1b54a32d192ed03ULL);
    for (unsigned i = ntop; i < n; i++) {
        uint64_t h = mix64(s += GOLDEN);
        unsigned w = (unsigned)(h % wsum), g = 0, pct = (unsigned)((h >> 24) % 100);
        while (w >= top[g].weight)
            w -= top[g++].weight;
        unsigned depth = pct < 30 ? 2 : pct < 70 ? 3 : pct < 90 ? 4 : 5;
        while (ncand[g][depth - 1] == 0)
            depth--;
        unsigned *c = cand[g][depth - 1];
        unsigned p = c[(h >> 40) % ncand[g][depth - 1]];
        d[i] = (struct dir){p, g, depth};
        if (depth < LAB_TREE_MAX_DEPTH) {
            unsigned k = ncand[g][depth]++;
            if ((k & (k - 1)) == 0) /* grow at powers of two */
                cand[g][depth] = realloc(cand[g][depth], 2 * (k ? k : 1) * sizeof(unsigned));
            if (!cand[g][depth])
                abort();
            cand[g][depth][k] = i;
        }
    }
    for (unsigned g = 0; g < ntop; g++)
        for (unsigned k = 0; k < LAB_TREE_MAX_DEPTH; k++)
            free(cand[g][k]);
    return d;
}

struct file_draw {
    unsigned dir;
    const char *ext;
    uint64_t size;
};

static void draw_file(const struct lab_tree_recipe *r, uint64_t index, struct file_draw *f)
{
    uint64_t h = mix64(mix64(r->seed ^ 0x5eed7ee5f11e5ULL) + (index + 1) * GOLDEN);
    uint64_t h1 = mix64(h ^ 1), h2 = mix64(h ^ 2), h3 = mix64(h ^ 3);
    f->dir = (unsigned)(h1 % r->dirs);
    unsigned b = (unsigned)(h2 >> 56);
    uint64_t frac = (h2 >> 24) & 0xffffffffULL, lo = size_q[b], hi = size_q[b + 1];
    f->size = lo + (((hi - lo) * frac) >> 32);
    unsigned e = (unsigned)(h3 % 100);
    f->ext = e < 50 ? "c" : e < 80 ? "h" : e < 86 ? "S" : e < 92 ? "txt" : e < 96 ? "in" : "sh";
}

static size_t dir_path(const struct lab_tree_iter *it, unsigned i, char *buf, size_t size)
{
    unsigned chain[LAB_TREE_MAX_DEPTH], n = 0;
    for (unsigned d = i; d != UINT32_MAX && n < LAB_TREE_MAX_DEPTH; d = it->dirs[d].parent)
        chain[n++] = d;
    size_t len = 0;
    for (unsigned k = n; k-- > 0;) {
        unsigned d = chain[k];
        int w = d < NTOP && it->dirs[d].parent == UINT32_MAX
                    ? snprintf(buf + len, size - len, "%s%s", len ? "/" : "", top[d].name)
                    : snprintf(buf + len, size - len, "%sdir%u", len ? "/" : "", d);
        len += (size_t)w;
    }
    return len;
}

struct lab_tree_iter *lab_tree_iter_new(const struct lab_tree_recipe *in)
{
    if (lab_tree_check(in) < 0)
        return NULL;
    struct lab_tree_iter *it = lab_xcalloc(1, sizeof *it);
    normalise(in, &it->r);
    it->dirs = make_dirs(&it->r);
    it->nfiles_in = lab_xcalloc(it->r.dirs, sizeof(unsigned));
    return it;
}

int lab_tree_next(struct lab_tree_iter *it, struct lab_tree_entry *e)
{
    uint64_t n = it->next;
    if (n >= (uint64_t)it->r.dirs + it->r.files)
        return 0;
    it->next++;
    memset(e, 0, sizeof *e);
    e->path = it->path;
    if (n < it->r.dirs) {
        dir_path(it, (unsigned)n, it->path, sizeof it->path);
        e->is_dir = 1;
        e->depth = it->dirs[n].depth;
        e->index = n;
        return 1;
    }
    struct file_draw f;
    e->index = n - it->r.dirs;
    draw_file(&it->r, e->index, &f);
    size_t len = dir_path(it, f.dir, it->path, sizeof it->path);
    snprintf(it->path + len, sizeof it->path - len, "/file%04u.%s", it->nfiles_in[f.dir]++, f.ext);
    e->depth = it->dirs[f.dir].depth;
    e->size = f.size;
    return 1;
}

void lab_tree_iter_free(struct lab_tree_iter *it)
{
    if (!it)
        return;
    free(it->dirs);
    free(it->nfiles_in);
    free(it);
}

/* 64 symbols, 6 bits each: letters by English frequency, digits, C
 * punctuation, spaces, tabs and newlines (~1 in 32: lines of ~32 bytes). */
static const char symbols[65] =
    "etaoinsrlcdhumpfgbyvkwxzjqETAOINSRL0123456789      \n\n\t_;(){}*=,.";

void lab_tree_content(const struct lab_tree_recipe *in, uint64_t index, uint64_t offset, void *buf,
                      size_t n)
{
    _Static_assert(sizeof symbols == 65, "64 symbols");
    struct lab_tree_recipe r;
    normalise(in, &r);
    uint64_t fseed = mix64(mix64(r.seed ^ 0xc0ffee5eedULL) + (index + 1) * 0xD6E8FEB86659FD93ULL);
    unsigned char *p = buf;
    uint64_t k = offset / 8, w = mix64(fseed + (k + 1) * GOLDEN);
    for (size_t i = 0; i < n; i++) {
        uint64_t o = offset + i;
        if (o / 8 != k) {
            k = o / 8;
            w = mix64(fseed + (k + 1) * GOLDEN);
        }
        p[i] = (unsigned char)symbols[(w >> (6 * (o % 8))) & 63];
    }
}

int lab_tree_stats(const struct lab_tree_recipe *r, struct lab_tree_stats *out)
{
    struct lab_tree_iter *it = lab_tree_iter_new(r);
    struct lab_tree_entry e;
    memset(out, 0, sizeof *out);
    if (!it)
        return -1;
    while (lab_tree_next(it, &e)) {
        if (e.is_dir) {
            out->dirs++;
        } else {
            out->files++;
            out->bytes += e.size;
        }
    }
    lab_tree_iter_free(it);
    return 0;
}

static int write_one(const struct lab_tree_recipe *r, int dfd, const struct lab_tree_entry *e,
                     unsigned char *buf, size_t bufsize)
{
    int fd = openat(dfd, e->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return lab_error("cannot create %s: %s", e->path, strerror(errno));
    for (uint64_t off = 0; off < e->size;) {
        size_t n = e->size - off < bufsize ? (size_t)(e->size - off) : bufsize;
        lab_tree_content(r, e->index, off, buf, n);
        for (size_t done = 0; done < n;) {
            ssize_t k = write(fd, buf + done, n - done);
            if (k < 0 && errno == EINTR)
                continue;
            if (k < 0) {
                int err = errno;
                close(fd);
                return lab_error("cannot write %s: %s", e->path, strerror(err));
            }
            done += (size_t)k;
        }
        off += n;
    }
    struct timespec t[2] = {{LAB_TREE_TIME, 0}, {LAB_TREE_TIME, 0}};
    if (fchmod(fd, 0644) < 0 || futimens(fd, t) < 0) {
        int err = errno;
        close(fd);
        return lab_error("cannot set the mode or times of %s: %s", e->path, strerror(err));
    }
    if (close(fd) < 0)
        return lab_error("cannot write %s: %s", e->path, strerror(errno));
    return 0;
}

int lab_tree_write(const struct lab_tree_recipe *r, const char *dir, struct lab_tree_stats *out)
{
    struct lab_tree_stats st = {0};
    struct timespec t[2] = {{LAB_TREE_TIME, 0}, {LAB_TREE_TIME, 0}};
    struct lab_tree_entry e;
    if (out)
        memset(out, 0, sizeof *out);
    if (lab_tree_check(r) < 0 || lab_mkdir_p(dir, 0755) < 0)
        return -1;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return lab_error("cannot open %s: %s", dir, strerror(errno));
    enum { BUF = 1 << 16 };
    unsigned char *buf = lab_xcalloc(BUF, 1);
    struct lab_tree_iter *it = lab_tree_iter_new(r);
    int rc = 0;
    while (rc == 0 && lab_tree_next(it, &e)) {
        if (e.is_dir) {
            if (mkdirat(dfd, e.path, 0755) < 0 || fchmodat(dfd, e.path, 0755, 0) < 0)
                rc = lab_error("cannot create %s/%s: %s", dir, e.path, strerror(errno));
            st.dirs++;
        } else {
            rc = write_one(r, dfd, &e, buf, BUF);
            st.files++;
            st.bytes += e.size;
        }
    }
    lab_tree_iter_free(it);
    /* Directory times last: adding entries changed them. */
    it = lab_tree_iter_new(r);
    while (rc == 0 && lab_tree_next(it, &e) && e.is_dir)
        if (utimensat(dfd, e.path, t, AT_SYMLINK_NOFOLLOW) < 0)
            rc = lab_error("cannot set the times of %s/%s: %s", dir, e.path, strerror(errno));
    lab_tree_iter_free(it);
    if (rc == 0 && (fchmod(dfd, 0755) < 0 || futimens(dfd, t) < 0))
        rc = lab_error("cannot set the times of %s: %s", dir, strerror(errno));
    close(dfd);
    free(buf);
    if (rc == 0 && out)
        *out = st;
    return rc;
}
