/* The 2.4 boot image: the initramfs's files as an ext2 filesystem. */
#include "images/initrd.h"
#include "images/e2fs.h"

#include "images/cache.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/proc.h"
#include "common/str.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Unpacks the cpio into dir, device nodes included (we run as root). */
static int extract(const char *cpio, const char *dir)
{
    struct archive *in = archive_read_new(), *out = archive_write_disk_new();
    struct archive_entry *e;
    int rc = 0;
    archive_read_support_format_cpio(in);
    /* Times too: mke2fs -d copies them, and the image must not depend on when
     * it was unpacked. */
    archive_write_disk_set_options(out, ARCHIVE_EXTRACT_PERM | ARCHIVE_EXTRACT_TIME |
                                            ARCHIVE_EXTRACT_SECURE_NODOTDOT);
    if (archive_read_open_filename(in, cpio, 65536) != ARCHIVE_OK) {
        rc = lab_error("cannot read %s: %s", cpio, archive_error_string(in));
        goto out;
    }
    while (rc == 0 && archive_read_next_header(in, &e) == ARCHIVE_OK) {
        char *path = lab_asprintf("%s/%s", dir, archive_entry_pathname(e));
        archive_entry_set_pathname(e, path);
        free(path);
        if (archive_write_header(out, e) != ARCHIVE_OK) {
            rc = lab_error("cannot unpack %s: %s", archive_entry_pathname(e),
                           archive_error_string(out));
            break;
        }
        const void *buf;
        size_t len;
        la_int64_t off;
        while (archive_read_data_block(in, &buf, &len, &off) == ARCHIVE_OK)
            archive_write_data_block(out, buf, len, off);
        archive_write_finish_entry(out);
    }
out:
    archive_read_free(in);
    archive_write_free(out);
    return rc;
}

/* mke2fs -d copies each file's atime and ctime, which are when it was
 * unpacked: debugfs sets every inode's three times to the fake build time
 * afterwards, so the image's bytes depend on its inputs alone. */
#define FAKE_TIME   "1000000000"
#define INITRD_TIME 1000000000LL
#define INITRD_UUID "6c616231-0000-4000-8000-000000000024"

static struct {
    FILE *cmds;
    size_t root_len;
} pin;

static int pin_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    static const char *const fields[] = {"atime", "ctime", "mtime"};
    const char *rel = path[pin.root_len] ? path + pin.root_len : "/";
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        fprintf(pin.cmds, "set_inode_field \"%s\" %s %s\n", rel, fields[i], FAKE_TIME);
    return 0;
}

static int pin_times(const char *root, const char *img, const char *tmpdir)
{
    char *cmds = lab_asprintf("%s/debugfs.cmds", tmpdir),
         *log = lab_asprintf("%s/debugfs.log", tmpdir);
    int rc = -1;
    pin.cmds = fopen(cmds, "w");
    pin.root_len = strlen(root);
    if (!pin.cmds) {
        lab_error("cannot write %s: %s", cmds, strerror(errno));
        goto out;
    }
    int walked = nftw(root, pin_one, 16, FTW_PHYS);
    if (fclose(pin.cmds) != 0 || walked != 0) {
        lab_error("cannot list %s for debugfs", root);
        goto out;
    }
    if (lab_e2fs_debugfs(img, INITRD_TIME, LAB_DEBUGFS_SCRIPT, cmds, log) < 0)
        goto out;
    rc = 0;
out:
    free(cmds);
    free(log);
    return rc;
}

/* 1 KiB blocks and 128-byte inodes, features 2.4's ext2 knows; a fixed
 * UUID, hash seed and time so the same inputs give the same bytes.
 * LAB_INITRD_IMAGE_KIB holds the agent and a 2.4 cell's few files with
 * room to spare. */
static int build(const char *tmpdir, const char *img, void *arg)
{
    const char *cpio = arg;
    char blocks[16];
    snprintf(blocks, sizeof blocks, "%d", LAB_INITRD_IMAGE_KIB);
    char *root = lab_asprintf("%s/root", tmpdir), *log = lab_asprintf("%s/mke2fs.log", tmpdir);
    struct lab_e2fs e = {.fs = "ext2",
                         .src = root,
                         .img = img,
                         .size = blocks,
                         .log = log,
                         .uuid = INITRD_UUID,
                         .hash_seed = INITRD_UUID,
                         .fake_time = INITRD_TIME,
                         .block_size = 1024,
                         .features = "none,filetype,sparse_super"};
    int rc = -1;
    if (lab_mkdir_p(root, 0755) < 0 || extract(cpio, root) < 0 || lab_e2fs_make(&e) < 0)
        goto out;
    if (pin_times(root, img, tmpdir) < 0)
        goto out;
    rc = chmod(img, 0644) < 0 ? lab_error("chmod %s: %s", img, strerror(errno)) : 0;
out:
    free(root);
    free(log);
    return rc;
}

int lab_ext2_initrd_get(const struct lab_initramfs_spec *spec, char **path_out)
{
    char *cpio = NULL, hash[17];
    *path_out = NULL;
    if (lab_initramfs_get(spec, &cpio) < 0)
        return -1;
    /* Named after the initramfs, which is already named by its inputs' hash. */
    snprintf(hash, sizeof hash, "%.16s", strrchr(cpio, '-') + 1);
    /* The size is in the name: an image of another size is another file. */
    char kind[32];
    snprintf(kind, sizeof kind, "initrd-%dk", LAB_INITRD_IMAGE_KIB);
    int rc = lab_image_cached(kind, hash, "ext2", build, cpio, path_out);
    free(cpio);
    return rc;
}
