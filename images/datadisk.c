/* Data disk builder: deterministic content file + mke2fs -d, then rename. */
#include "images/datadisk.h"
#include "images/e2fs.h"

#include "images/cache.h"
#include "images/content.h"
#include "common/hash.h"
#include "guest-agent/protocol.h"
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

#define DATADISK_FORMAT "lab-datadisk-v1"
/* Every time stamp in the image: 2001-09-09 01:46:40 UTC. */
#define DATADISK_TIME 1000000000LL

struct recipe {
    const char *fs, *file_name;
    uint64_t file_size, seed;
};

static int normalise(const struct lab_datadisk_recipe *in, struct recipe *r)
{
    r->fs = in->fs ? in->fs : "ext2";
    r->file_name = in->file_name ? in->file_name : "big_file";
    r->file_size = in->file_size ? in->file_size : LAB_DATADISK_DEFAULT_SIZE;
    r->seed = in->seed;
    if (strcmp(r->fs, "ext2") != 0 && strcmp(r->fs, "ext3") != 0 && strcmp(r->fs, "ext4") != 0 &&
        strcmp(r->fs, "raw") != 0)
        return lab_error("data disk: unsupported filesystem '%s' (ext2, ext3, ext4 or raw)", r->fs);
    if (strcmp(r->fs, "raw") == 0 && r->file_size > (16ULL << 40))
        return lab_error("data disk: raw size %llu too large", (unsigned long long)r->file_size);
    if (!*r->file_name || strchr(r->file_name, '/') || strcmp(r->file_name, ".") == 0 ||
        strcmp(r->file_name, "..") == 0 || strlen(r->file_name) > 255)
        return lab_error("data disk: bad file name '%s'", r->file_name);
    if (strcmp(r->fs, "raw") != 0 && r->file_size > (1ULL << 42))
        return lab_error("data disk: file size %llu too large", (unsigned long long)r->file_size);
    return 0;
}

static int recipe_hash(const struct recipe *r, char hex[LAB_HASH_HEX_LEN + 1])
{
    struct lab_hash h;
    if (lab_hash_init(&h) < 0)
        return -1;
    lab_hash_str(&h, DATADISK_FORMAT);
    lab_hash_str(&h, r->fs);
    lab_hash_str(&h, r->file_name);
    lab_hash_u64(&h, r->file_size);
    lab_hash_u64(&h, r->seed);
    return lab_hash_final(&h, hex);
}

static uint64_t image_size(uint64_t file_size)
{
    uint64_t s = file_size + file_size / 10 + (16ULL << 20);
    return (s + 4095) & ~4095ULL;
}

char *lab_datadisk_path(const struct lab_datadisk_recipe *in)
{
    struct recipe r;
    char hex[LAB_HASH_HEX_LEN + 1];
    if (normalise(in, &r) < 0 || recipe_hash(&r, hex) < 0)
        return NULL;
    hex[LAB_HASH_SHORT] = '\0';
    return lab_asprintf("%s/images/data-%s.img", lab_home(), hex);
}

static int build(const struct recipe *r, const char *hex, const char *tmp, const char *img)
{
    char uuid[37], seed_uuid[37], size[32];
    char *src = lab_asprintf("%s/src", tmp);
    char *file = lab_asprintf("%s/%s", src, r->file_name);
    char *log = lab_asprintf("%s/build.log", tmp);
    char *setctime = lab_asprintf("set_inode_field /%s ctime @%lld", r->file_name, DATADISK_TIME);
    struct timespec times[2] = {{DATADISK_TIME, 0}, {DATADISK_TIME, 0}};
    int rc = -1;

    lab_e2fs_uuid(hex, uuid);
    lab_e2fs_uuid(hex + 32, seed_uuid);
    snprintf(size, sizeof size, "%lluk", (unsigned long long)(image_size(r->file_size) / 1024));

    if (mkdir(src, 0755) < 0) {
        lab_error("cannot create %s: %s", src, strerror(errno));
        goto out;
    }
    if (lab_content_file_write(file, r->file_size, r->seed, -1) < 0)
        goto out;
    if (chmod(file, 0644) < 0 || utimensat(AT_FDCWD, file, times, 0) < 0 ||
        utimensat(AT_FDCWD, src, times, 0) < 0) {
        lab_error("cannot set times on %s: %s", file, strerror(errno));
        goto out;
    }
    struct lab_e2fs e = {.fs = r->fs,
                         .src = src,
                         .img = img,
                         .size = size,
                         .log = log,
                         .uuid = uuid,
                         .hash_seed = seed_uuid,
                         .fake_time = DATADISK_TIME,
                         .block_size = 4096};
    /* mke2fs -d copies the source's ctime, which cannot be set: fix it. */
    if (lab_e2fs_make(&e) < 0 ||
        lab_e2fs_debugfs(img, DATADISK_TIME, LAB_DEBUGFS_REQUEST, setctime, log) < 0)
        goto out;
    if (chmod(img, 0644) < 0) {
        lab_error("cannot chmod %s: %s", img, strerror(errno));
        goto out;
    }
    rc = 0;
out:
    unlink(file); /* free the space early: the file can be large */
    free(src);
    free(file);
    free(log);
    free(setctime);
    return rc;
}

/* A drive of full capacity costs nothing as a sparse file: reads of holes
 * return zeros, and the timing model, not the content, is what is measured. */
static int build_raw(const struct recipe *r, const char *img)
{
    int fd = open(img, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || ftruncate(fd, (off_t)r->file_size) < 0 || close(fd) < 0)
        return lab_error("cannot create the raw disk %s: %s", img, strerror(errno));
    return chmod(img, 0644);
}

struct build_ctx {
    const struct recipe *r;
    const char *hex;
};

static int build_any(const char *tmpdir, const char *img, void *arg)
{
    const struct build_ctx *b = arg;
    lab_info("building data disk (%s, %s of %llu bytes)", b->r->fs, b->r->file_name,
             (unsigned long long)b->r->file_size);
    return strcmp(b->r->fs, "raw") == 0 ? build_raw(b->r, img) : build(b->r, b->hex, tmpdir, img);
}

int lab_datadisk_get(const struct lab_datadisk_recipe *in, char **path_out)
{
    struct recipe r;
    char hex[LAB_HASH_HEX_LEN + 1], shorthex[LAB_HASH_SHORT + 1];
    *path_out = NULL;
    if (normalise(in, &r) < 0 || recipe_hash(&r, hex) < 0)
        return -1;
    snprintf(shorthex, sizeof shorthex, "%.*s", LAB_HASH_SHORT, hex);
    struct build_ctx ctx = {&r, hex};
    return lab_image_cached("data", shorthex, "img", build_any, &ctx, path_out);
}
