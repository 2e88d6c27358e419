/* Filesystem images with a large file and copies of a synthetic tree.
 *
 * Why the bytes are made on the host and libguestfs only verifies: an image
 * written through a mounted filesystem in the appliance cannot be made
 * byte-identical from build to build. The kernel's journal (jbd2) writes
 * commit blocks carrying the commit time and commits on a 5 s timer, so how
 * many transactions the journal holds, and their contents, depend on how fast
 * the emulated appliance ran; ctime is the appliance clock and cannot be set
 * from user space; ext4's block allocator (which mounts ext3 today) places
 * indirect-mapped files at a goal coloured by the writer's PID (pid % 16,
 * ext4_inode_to_goal_block) and uses per-CPU preallocation; and the
 * superblock records mount times, mount counts and the last mount point.
 * Some of that can be patched afterwards (times with debugfs, the journal by
 * recreating it), block placement cannot. mke2fs -d (e2fsprogs 1.47 sorts
 * directory entries) with E2FSPROGS_FAKE_TIME, a fixed UUID and hash seed and
 * debugfs for the times it copies from the host is deterministic; the
 * appliance then mounts the result read-only and checks it. */
#include "images/fsimage.h"
#include "images/e2fs.h"

#include "images/cache.h"
#include "images/content.h"
#include "common/hash.h"
#include "guest-agent/protocol.h"
#include "common/clock.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/paths.h"
#include "common/proc.h"
#include "common/str.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <guestfs.h>

#define FSIMAGE_FORMAT "lab-fsimage-v1"
#define BLOCK          4096ULL
#define BIG_FILE       "big_file"
#define LABEL_CHARS    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-"

struct recipe {
    const char *fs;
    uint64_t big, extra;
    unsigned copies;
    struct lab_tree_recipe tree;
    const char *label;
};

static int normalise(const struct lab_fsimage_recipe *in, struct recipe *r)
{
    memset(r, 0, sizeof *r);
    r->fs = in->fs ? in->fs : "ext3";
    r->big = in->big_file_size;
    r->extra = in->extra_bytes;
    r->copies = in->tree_copies;
    r->label = in->label;
    if (r->label &&
        (!*r->label || strlen(r->label) > 16 || strspn(r->label, LABEL_CHARS) != strlen(r->label)))
        return lab_error("fs image: label '%s' is not 1-16 of [A-Za-z0-9._-]", r->label);
    if (r->copies) {
        r->tree = in->tree;
        if (!r->tree.files)
            r->tree.files = LAB_TREE_DEFAULT_FILES;
        if (!r->tree.dirs)
            r->tree.dirs = LAB_TREE_DEFAULT_DIRS;
        if (lab_tree_check(&r->tree) < 0)
            return -1;
    }
    if (strcmp(r->fs, "ext3") != 0 && strcmp(r->fs, "ext2") != 0)
        return lab_error("fs image: unsupported filesystem '%s' (ext3 or ext2)", r->fs);
    if (r->copies > 1000)
        return lab_error("fs image: %u tree copies is too many (at most 1000)", r->copies);
    if (r->big > (1ULL << 42) || r->extra > (1ULL << 42))
        return lab_error("fs image: sizes above 4 TiB are refused");
    return 0;
}

static int recipe_hash(const struct recipe *r, char hex[LAB_HASH_HEX_LEN + 1])
{
    struct lab_hash h;
    if (lab_hash_init(&h) < 0)
        return -1;
    lab_hash_str(&h, FSIMAGE_FORMAT);
    lab_hash_str(&h, r->fs);
    lab_hash_u64(&h, r->big);
    lab_hash_u64(&h, LAB_CONTENT_SEED_DEFAULT);
    lab_hash_u64(&h, r->copies);
    lab_hash_u64(&h, r->tree.seed);
    lab_hash_u64(&h, r->tree.files);
    lab_hash_u64(&h, r->tree.dirs);
    lab_hash_u64(&h, r->extra);
    if (r->label) /* only when set: the unlabelled images of before keep their names */
        lab_hash_str(&h, r->label);
    return lab_hash_final(&h, hex);
}

char *lab_fsimage_path(const struct lab_fsimage_recipe *in)
{
    struct recipe r;
    char hex[LAB_HASH_HEX_LEN + 1];
    if (normalise(in, &r) < 0 || recipe_hash(&r, hex) < 0)
        return NULL;
    return lab_asprintf("%s/images/fs-%.*s.img", lab_home(), LAB_HASH_SHORT, hex);
}

/* Data blocks plus an upper bound on the indirect blocks of a file. */
static uint64_t file_blocks(uint64_t size)
{
    uint64_t nb = (size + BLOCK - 1) / BLOCK;
    return nb + (nb > 12 ? (nb + 1023) / 1024 + (nb + 1048575) / 1048576 + 2 : 0);
}

struct layout {
    uint64_t blocks, inodes, journal_mib;
};

static void layout(const struct recipe *r, struct layout *l)
{
    uint64_t data = file_blocks(r->big) + 16, inodes = 64 + r->extra / 8192;
    if (r->copies) {
        struct lab_tree_iter *it = lab_tree_iter_new(&r->tree);
        struct lab_tree_entry e;
        uint64_t per = 1;
        while (lab_tree_next(it, &e))
            per += e.is_dir ? 2 : file_blocks(e.size);
        lab_tree_iter_free(it);
        data += per * r->copies;
        inodes += (uint64_t)r->copies * (r->tree.files + r->tree.dirs + 1);
    }
    inodes = (inodes + 1023) & ~1023ULL;
    uint64_t blocks = data + r->extra / BLOCK + inodes * 128 / BLOCK;
    blocks += blocks / 32 + 1024; /* bitmaps, group descriptors, slack */
    /* mke2fs of 2003 (e2fsprogs 1.3x): 1024 journal blocks below 32768
     * blocks, 4096 below 262144, else 8192 (32 MiB at 4 KiB). */
    l->journal_mib = strcmp(r->fs, "ext3") != 0 ? 0
                     : blocks < 32768           ? 4
                     : blocks < 262144          ? 16
                                                : 32;
    l->blocks = (blocks + l->journal_mib * 256 + 255) & ~255ULL;
    l->inodes = inodes;
}

static void fix_times(FILE *f, const char *path)
{
    static const char *fields[] = {"atime", "mtime", "ctime"};
    for (int i = 0; i < 3; i++)
        fprintf(f, "sif \"%s\" %s @%lld\n", path, fields[i], LAB_TREE_TIME);
}

/* A debugfs script setting atime, mtime and ctime of every inode mke2fs -d
 * made: it copies them from the host, where ctime cannot be set and reading
 * a file can move atime. */
static int write_fixups(const struct recipe *r, const char *script)
{
    FILE *f = fopen(script, "w");
    if (!f)
        return lab_error("cannot create %s: %s", script, strerror(errno));
    fix_times(f, "/");
    fix_times(f, "/lost+found");
    if (r->big)
        fix_times(f, "/" BIG_FILE);
    for (unsigned c = 0; c < r->copies; c++) {
        char top[32];
        snprintf(top, sizeof top, "/tree%u", c);
        fix_times(f, top);
        struct lab_tree_iter *it = lab_tree_iter_new(&r->tree);
        struct lab_tree_entry e;
        while (lab_tree_next(it, &e)) {
            char *p = lab_asprintf("%s/%s", top, e.path);
            fix_times(f, p);
            free(p);
        }
        lab_tree_iter_free(it);
    }
    if (fclose(f) != 0)
        return lab_error("cannot write %s: %s", script, strerror(errno));
    return 0;
}

static int build(const struct recipe *r, const char *hex, const char *tmp, const char *img)
{
    char uuid[37], seed_uuid[37], size[32], features[96];
    char *src = lab_asprintf("%s/src", tmp);
    char *big = lab_asprintf("%s/%s", src, BIG_FILE);
    char *log = lab_asprintf("%s/build.log", tmp);
    char *script = lab_asprintf("%s/fixups.debugfs", tmp);
    struct timespec t[2] = {{LAB_TREE_TIME, 0}, {LAB_TREE_TIME, 0}};
    struct layout l;
    int rc = -1, ext3 = strcmp(r->fs, "ext3") == 0;

    layout(r, &l);
    lab_e2fs_uuid(hex, uuid);
    lab_e2fs_uuid(hex + 32, seed_uuid);
    snprintf(size, sizeof size, "%lluk", (unsigned long long)(l.blocks * 4));
    snprintf(features, sizeof features, "none,%sfiletype,sparse_super,large_file",
             ext3 ? "has_journal," : "");

    if (mkdir(src, 0755) < 0) {
        lab_error("cannot create %s: %s", src, strerror(errno));
        goto out;
    }
    if (r->big && lab_content_file_write(big, r->big, LAB_CONTENT_SEED_DEFAULT, LAB_TREE_TIME) < 0)
        goto out;
    for (unsigned c = 0; c < r->copies; c++) {
        char *dir = lab_asprintf("%s/tree%u", src, c);
        int k = lab_tree_write(&r->tree, dir, NULL);
        free(dir);
        if (k < 0)
            goto out;
    }
    if (chmod(src, 0755) < 0 || utimensat(AT_FDCWD, src, t, 0) < 0) {
        lab_error("cannot set the times of %s: %s", src, strerror(errno));
        goto out;
    }
    if (write_fixups(r, script) < 0)
        goto out;
    struct lab_e2fs e = {.fs = r->fs,
                         .src = src,
                         .img = img,
                         .size = size,
                         .log = log,
                         .uuid = uuid,
                         .hash_seed = seed_uuid,
                         .fake_time = LAB_TREE_TIME,
                         .block_size = 4096,
                         .features = features,
                         .inodes = l.inodes,
                         .journal_mib = ext3 ? l.journal_mib : 0,
                         .label = r->label};
    if (lab_e2fs_make(&e) < 0 ||
        lab_e2fs_debugfs(img, LAB_TREE_TIME, LAB_DEBUGFS_SCRIPT, script, log) < 0)
        goto out;
    if (chmod(img, 0644) < 0) {
        lab_error("cannot chmod %s: %s", img, strerror(errno));
        goto out;
    }
    rc = 0;
out:
    lab_rm_rf(src); /* free the space early: the trees and big file can be large */
    free(src);
    free(big);
    free(log);
    free(script);
    return rc;
}

struct build_ctx {
    const struct lab_fsimage_recipe *in;
    const struct recipe *r;
    const char *hex;
};

/* Builds on the host, then (unless LAB_FSIMAGE_VERIFY=0) checks the result
 * in a libguestfs appliance before it enters the cache. */
static int build_and_verify(const char *tmpdir, const char *img, void *arg)
{
    const struct build_ctx *b = arg;
    const char *v = getenv("LAB_FSIMAGE_VERIFY");
    lab_info("building filesystem image (%s, big file %llu bytes, %u tree copies of %u files)",
             b->r->fs, (unsigned long long)b->r->big, b->r->copies,
             b->r->copies ? b->r->tree.files : 0);
    if (build(b->r, b->hex, tmpdir, img) < 0)
        return -1;
    if (!(v && strcmp(v, "0") == 0) && lab_fsimage_verify(b->in, img) < 0)
        return -1;
    return 0;
}

int lab_fsimage_get(const struct lab_fsimage_recipe *in, char **path_out)
{
    struct recipe r;
    char hex[LAB_HASH_HEX_LEN + 1], shorthex[LAB_HASH_SHORT + 1];
    *path_out = NULL;
    if (normalise(in, &r) < 0 || recipe_hash(&r, hex) < 0)
        return -1;
    snprintf(shorthex, sizeof shorthex, "%.*s", LAB_HASH_SHORT, hex);
    struct build_ctx ctx = {in, &r, hex};
    return lab_image_cached("fs", shorthex, "img", build_and_verify, &ctx, path_out);
}

/* ---- verification inside a libguestfs appliance ---- */

static int g_fail(guestfs_h *g, const char *what)
{
    const char *e = guestfs_last_error(g);
    return lab_error("fs image verify: %s: %s", what, e ? e : "failed");
}

static void sha256_hex(void (*fill)(const void *, uint64_t, unsigned char *, size_t),
                       const void *ctx, uint64_t size, char hex[LAB_HASH_HEX_LEN + 1])
{
    struct lab_hash h;
    unsigned char buf[65536];
    hex[0] = '\0';
    if (lab_hash_init(&h) < 0)
        return;
    for (uint64_t off = 0; off < size;) {
        size_t n = size - off < sizeof buf ? (size_t)(size - off) : sizeof buf;
        fill(ctx, off, buf, n);
        lab_hash_update(&h, buf, n);
        off += n;
    }
    lab_hash_final(&h, hex);
}

static void fill_big(const void *ctx, uint64_t off, unsigned char *buf, size_t n)
{
    lab_content_bytes(LAB_CONTENT_SEED_DEFAULT, off, buf, n);
}

struct tree_file {
    const struct lab_tree_recipe *r;
    uint64_t index;
};

static void fill_tree(const void *ctx, uint64_t off, unsigned char *buf, size_t n)
{
    const struct tree_file *t = ctx;
    lab_tree_content(t->r, t->index, off, buf, n);
}

static int check_file(guestfs_h *g, const char *path, uint64_t size, const char *want)
{
    int64_t got = guestfs_filesize(g, path);
    if (got < 0)
        return g_fail(g, path);
    if ((uint64_t)got != size)
        return lab_error("fs image verify: %s is %lld bytes, want %llu", path, (long long)got,
                         (unsigned long long)size);
    if (!want)
        return 0;
    char *sum = guestfs_checksum(g, "sha256", path);
    if (!sum)
        return g_fail(g, path);
    int ok = strcmp(sum, want) == 0;
    free(sum);
    return ok ? 0 : lab_error("fs image verify: %s has other bytes than the recipe", path);
}

static void free_strings(char **v)
{
    for (size_t i = 0; v && v[i]; i++)
        free(v[i]);
    free(v);
}

static int check_tree(guestfs_h *g, const struct recipe *r, unsigned copy)
{
    char top[32];
    snprintf(top, sizeof top, "/tree%u", copy);
    char **all = guestfs_find(g, top);
    if (!all)
        return g_fail(g, top);
    size_t n = 0;
    while (all[n])
        n++;
    free_strings(all);
    if (n != (size_t)r->tree.files + r->tree.dirs)
        return lab_error("fs image verify: %s holds %zu entries, want %u", top, n,
                         r->tree.files + r->tree.dirs);
    /* 24 files spread over the tree, their sizes and SHA-256 */
    unsigned step = r->tree.files / 24 ? r->tree.files / 24 : 1;
    struct lab_tree_iter *it = lab_tree_iter_new(&r->tree);
    struct lab_tree_entry e;
    int rc = 0;
    while (rc == 0 && lab_tree_next(it, &e)) {
        if (e.is_dir || e.index % step != 0)
            continue;
        char want[LAB_HASH_HEX_LEN + 1];
        struct tree_file t = {&r->tree, e.index};
        sha256_hex(fill_tree, &t, e.size, want);
        char *p = lab_asprintf("%s/%s", top, e.path);
        rc = check_file(g, p, e.size, want);
        free(p);
    }
    lab_tree_iter_free(it);
    return rc;
}

int lab_fsimage_verify(const struct lab_fsimage_recipe *in, const char *path)
{
    struct recipe r;
    if (normalise(in, &r) < 0)
        return -1;
    setenv("LIBGUESTFS_BACKEND", "direct", 0);
    setenv("LIBGUESTFS_BACKEND_SETTINGS", "force_tcg", 0);
    guestfs_h *g = guestfs_create();
    if (!g) {
        lab_warn("fs image verify: cannot create a libguestfs handle; %s not verified", path);
        return 1;
    }
    guestfs_set_error_handler(g, NULL, NULL);
    int rc = -1;
    int64_t t0 = lab_now_ns();
    if (guestfs_add_drive_opts(g, path, GUESTFS_ADD_DRIVE_OPTS_READONLY, 1,
                               GUESTFS_ADD_DRIVE_OPTS_FORMAT, "raw", -1) < 0) {
        g_fail(g, "add_drive");
        goto out;
    }
    if (guestfs_launch(g) < 0) {
        const char *e = guestfs_last_error(g);
        lab_warn("fs image verify: the libguestfs appliance did not start (%s); %s not verified. "
                 "supermin needs a kernel in /boot and /lib/modules (apt-get install "
                 "linux-image-amd64) or SUPERMIN_KERNEL and SUPERMIN_MODULES",
                 e ? e : "?", path);
        rc = 1;
        goto out;
    }
    if (guestfs_mount_ro(g, "/dev/sda", "/") < 0) {
        g_fail(g, "mount_ro /dev/sda");
        goto out;
    }
    char *type = guestfs_vfs_type(g, "/dev/sda");
    if (!type) {
        g_fail(g, "vfs_type");
        goto out;
    }
    int same = strcmp(type, r.fs) == 0;
    if (!same)
        lab_error("fs image verify: the filesystem is %s, want %s", type, r.fs);
    free(type);
    if (!same)
        goto out;
    if (r.big) {
        char want[LAB_HASH_HEX_LEN + 1];
        int sum = r.big <= (256ULL << 20); /* larger: the size only (TCG hashes slowly) */
        if (sum)
            sha256_hex(fill_big, NULL, r.big, want);
        if (check_file(g, "/" BIG_FILE, r.big, sum ? want : NULL) < 0)
            goto out;
    }
    for (unsigned c = 0; c < r.copies; c++)
        if (check_tree(g, &r, c) < 0)
            goto out;
    if (guestfs_umount_all(g) < 0) {
        g_fail(g, "umount_all");
        goto out;
    }
    rc = 0;
    lab_info("verified %s in a libguestfs appliance (%.1f s)", path,
             (double)(lab_now_ns() - t0) / 1e9);
out:
    guestfs_shutdown(g);
    guestfs_close(g);
    return rc;
}
