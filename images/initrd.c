/* The 2.4 boot image: the initramfs's files as an ext2 filesystem. */
#include "images/initrd.h"

#include "util.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
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
    archive_write_disk_set_options(out, ARCHIVE_EXTRACT_PERM | ARCHIVE_EXTRACT_SECURE_NODOTDOT);
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

int lab_ext2_initrd_get(const struct lab_initramfs_spec *spec, char **path_out)
{
    char *cpio = NULL, *tmp = NULL, *out = NULL, *img = NULL, *root = NULL;
    int rc = -1;
    *path_out = NULL;
    if (lab_initramfs_get(spec, &cpio) < 0)
        return -1;
    /* Named after the initramfs, which is already named by its inputs' hash. */
    const char *base = strrchr(cpio, '-') + 1;
    out = lab_asprintf("%s/images/initrd-%.16s.ext2", lab_home(), base);
    if (lab_file_exists(out)) {
        rc = 0;
        goto done;
    }
    tmp = lab_asprintf("%s/images/.initrd-%.16s.XXXXXX", lab_home(), base);
    if (!mkdtemp(tmp)) {
        lab_error("cannot create a temporary directory: %s", strerror(errno));
        free(tmp);
        tmp = NULL;
        goto done;
    }
    root = lab_asprintf("%s/root", tmp);
    img = lab_asprintf("%s/image", tmp);
    if (lab_mkdir_p(root, 0755) < 0 || extract(cpio, root) < 0)
        goto done;
    /* 1 KiB blocks and 128-byte inodes, features 2.4's ext2 knows;
     * fixed UUID, hash seed and time so the same inputs give the same bytes.
     * 8 MiB holds the agent and a 2.4 cell's few files with room to spare. */
    char *argv[] = {"mke2fs",
                    "-q",
                    "-F",
                    "-t",
                    "ext2",
                    "-b",
                    "1024",
                    "-I",
                    "128",
                    "-m",
                    "0",
                    "-O",
                    "none,filetype,sparse_super",
                    "-U",
                    "6c616231-0000-4000-8000-000000000024",
                    "-E",
                    "hash_seed=6c616231-0000-4000-8000-000000000024,root_owner=0:0,nodiscard",
                    "-d",
                    root,
                    img,
                    "8192",
                    NULL};
    setenv("E2FSPROGS_FAKE_TIME", "1000000000", 1);
    char *log = lab_asprintf("%s/mke2fs.log", tmp);
    int st = lab_spawn_wait(argv, log);
    unsetenv("E2FSPROGS_FAKE_TIME");
    if (st != 0) {
        char *text = lab_read_file(log, NULL);
        lab_error("mke2fs could not build the ext2 initrd (exit %d): %s", st, text ? text : "");
        free(text);
        free(log);
        goto done;
    }
    free(log);
    if (chmod(img, 0644) < 0 || rename(img, out) < 0) {
        lab_error("cannot place %s: %s", out, strerror(errno));
        goto done;
    }
    rc = 0;
done:
    if (tmp)
        lab_rm_rf(tmp);
    free(tmp);
    free(root);
    free(img);
    free(cpio);
    if (rc == 0)
        *path_out = out;
    else
        free(out);
    return rc;
}
