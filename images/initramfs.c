/* initramfs builder: libarchive cpio newc, deterministic, cached by hash. */
#include "images/initramfs.h"

#include "common/hash.h"
#include "images/modules.h"
#include "guest-agent/protocol.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/paths.h"
#include "common/str.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#define INITRAMFS_FORMAT "lab-initramfs-v2"

/* Device nodes shipped in the image: a 2.4 kernel mounts the ext2 initrd as
 * its root, possibly read-only, where the agent's own mknod fails (EROFS);
 * before devtmpfs (2.6.32) the agent mknods the rest itself. Whole disks
 * only: the data disks carry no partition table. */
static const struct {
    const char *name;
    unsigned type, perm, major, minor;
} dev_nodes[] = {
    {"dev/console", AE_IFCHR, 0600, 5, 1}, {"dev/null", AE_IFCHR, 0666, 1, 3},
    {"dev/ttyS0", AE_IFCHR, 0600, 4, 64},  {"dev/ttyS1", AE_IFCHR, 0600, 4, 65},
    {"dev/hda", AE_IFBLK, 0600, 3, 0},     {"dev/hdb", AE_IFBLK, 0600, 3, 64},
    {"dev/hdc", AE_IFBLK, 0600, 22, 0},    {"dev/hdd", AE_IFBLK, 0600, 22, 64},
    {"dev/sda", AE_IFBLK, 0600, 8, 0},     {"dev/sdb", AE_IFBLK, 0600, 8, 16},
};

struct writer {
    struct archive *a;
    struct archive_entry *e;
    unsigned ino;
    const char *out; /* for messages */
};

static int add(struct writer *w, const char *name, unsigned type, unsigned perm, unsigned rmaj,
               unsigned rmin, const void *data, size_t len)
{
    struct archive_entry *e = w->e;
    archive_entry_clear(e);
    archive_entry_set_pathname(e, name);
    archive_entry_set_filetype(e, type);
    archive_entry_set_perm(e, perm);
    archive_entry_set_uid(e, 0);
    archive_entry_set_gid(e, 0);
    archive_entry_set_mtime(e, 0, 0);
    archive_entry_set_ino(e, ++w->ino);
    archive_entry_set_dev(e, 0);
    archive_entry_set_nlink(e, type == AE_IFDIR ? 2 : 1);
    if (type == AE_IFCHR || type == AE_IFBLK) {
        archive_entry_set_rdevmajor(e, rmaj);
        archive_entry_set_rdevminor(e, rmin);
    }
    archive_entry_set_size(e, type == AE_IFREG ? (la_int64_t)len : 0);
    if (archive_write_header(w->a, e) != ARCHIVE_OK)
        return lab_error("%s: cannot add %s: %s", w->out, name, archive_error_string(w->a));
    if (type == AE_IFREG && len && archive_write_data(w->a, data, len) != (la_ssize_t)len)
        return lab_error("%s: cannot write %s: %s", w->out, name, archive_error_string(w->a));
    return 0;
}

static int add_dir(struct writer *w, const char *name)
{
    return add(w, name, AE_IFDIR, 0755, 0, 0, NULL, 0);
}

/* In-image name of a module: "lib/modules/<basename without .ko*>.ko". */
static char *image_module_name(const char *rel)
{
    const char *base = strrchr(rel, '/');
    char *b = lab_xstrdup(base ? base + 1 : rel);
    char *ko = strstr(b, ".ko");
    while (ko && ko[3] != '\0' && ko[3] != '.')
        ko = strstr(ko + 1, ".ko");
    if (ko)
        *ko = '\0';
    char *name = lab_asprintf("lib/modules/%s.ko", b);
    free(b);
    return name;
}

static int write_image(const char *out, int fd, const unsigned char *agent, size_t agent_len,
                       const char *params, const char *modules_dir, char **paths, size_t n)
{
    struct writer w = {archive_write_new(), archive_entry_new(), 0, out};
    char *list = lab_xstrdup("");
    int rc = -1;
    if (!w.a || !w.e)
        abort();
    if (archive_write_set_format_cpio_newc(w.a) != ARCHIVE_OK ||
        archive_write_set_bytes_in_last_block(w.a, 1) != ARCHIVE_OK ||
        archive_write_open_fd(w.a, fd) != ARCHIVE_OK) {
        lab_error("%s: %s", out, archive_error_string(w.a));
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        char *name = image_module_name(paths[i]);
        char *nl = lab_asprintf("%s/%s\n", list, name);
        free(list);
        list = nl;
        free(name);
    }
    /* Parents before children, in a fixed order. */
    if (add_dir(&w, "dev") < 0)
        goto done;
    for (size_t i = 0; i < sizeof dev_nodes / sizeof dev_nodes[0]; i++)
        if (add(&w, dev_nodes[i].name, dev_nodes[i].type, dev_nodes[i].perm, dev_nodes[i].major,
                dev_nodes[i].minor, NULL, 0) < 0)
            goto done;
    if (add_dir(&w, "etc") < 0 || add_dir(&w, "etc/lab") < 0 ||
        add(&w, "etc/lab/modules", AE_IFREG, 0644, 0, 0, list, strlen(list)) < 0 ||
        add(&w, LAB_PARAMS_PATH + 1, AE_IFREG, 0644, 0, 0, params, strlen(params)) < 0 ||
        add(&w, "init", AE_IFREG, 0755, 0, 0, agent, agent_len) < 0 || add_dir(&w, "lib") < 0 ||
        add_dir(&w, "lib/modules") < 0)
        goto done;
    for (size_t i = 0; i < n; i++) {
        char *src = lab_asprintf("%s/%s", modules_dir, paths[i]);
        char *name = image_module_name(paths[i]);
        unsigned char *data;
        size_t len;
        int r = lab_module_load_bytes(src, &data, &len);
        if (r == 0) {
            r = add(&w, name, AE_IFREG, 0644, 0, 0, data, len);
            free(data);
        }
        free(src);
        free(name);
        if (r < 0)
            goto done;
    }
    if (add_dir(&w, "mnt") < 0 || add_dir(&w, "proc") < 0 || add_dir(&w, "sys") < 0)
        goto done;
    if (archive_write_close(w.a) != ARCHIVE_OK) {
        lab_error("%s: %s", out, archive_error_string(w.a));
        goto done;
    }
    rc = 0;
done:
    free(list);
    archive_entry_free(w.e);
    archive_write_free(w.a);
    return rc;
}

/* The module tree's release: the last component of modules_dir. */
static const char *release_of(const char *modules_dir)
{
    size_t n = strlen(modules_dir);
    while (n > 1 && modules_dir[n - 1] == '/')
        n--;
    const char *s = modules_dir + n;
    while (s > modules_dir && s[-1] != '/')
        s--;
    return s;
}

int lab_initramfs_get(const struct lab_initramfs_spec *spec, char **path_out)
{
    char **paths = NULL;
    size_t n = 0, agent_len = 0;
    unsigned char *agent = NULL;
    char *dir = NULL, *out = NULL, *tmp = NULL;
    struct lab_hash h = {0};
    char hex[LAB_HASH_HEX_LEN + 1];
    int rc = -1, fd = -1;

    *path_out = NULL;
    if (spec->params && strlen(spec->params) > LAB_PARAMS_MAX)
        return lab_error("the agent's parameters are %zu bytes, over the %d the agent reads",
                         strlen(spec->params), LAB_PARAMS_MAX);
    /* A kernel with its drivers built in (2.4, or a lab build) needs no
     * module tree at all. */
    const char *modules_dir = spec->nmodules ? spec->modules_dir : "";
    if (spec->nmodules &&
        lab_modules_resolve(spec->modules_dir, spec->modules, spec->nmodules, &paths, &n) < 0)
        return -1;
    agent = (unsigned char *)lab_read_file(spec->agent_path, &agent_len);
    if (!agent) {
        lab_error("cannot read the agent %s: %s", spec->agent_path, strerror(errno));
        goto done;
    }
    if (lab_hash_init(&h) < 0)
        goto done;
    lab_hash_str(&h, INITRAMFS_FORMAT);
    lab_hash_u64(&h, agent_len);
    lab_hash_update(&h, agent, agent_len);
    lab_hash_str(&h, release_of(modules_dir));
    lab_hash_str(&h, modules_dir);
    lab_hash_str(&h, spec->params ? spec->params : "");
    lab_hash_u64(&h, n);
    for (size_t i = 0; i < n; i++) {
        char *src = lab_asprintf("%s/%s", spec->modules_dir, paths[i]);
        lab_hash_str(&h, paths[i]);
        int r = lab_hash_file(&h, src);
        free(src);
        if (r < 0)
            goto done;
    }
    if (lab_hash_final(&h, hex) < 0)
        goto done;
    hex[LAB_HASH_SHORT] = '\0';

    dir = lab_asprintf("%s/images", lab_home());
    out = lab_asprintf("%s/initramfs-%s.cpio", dir, hex);
    if (lab_file_exists(out)) {
        rc = 0;
        goto done;
    }
    if (lab_mkdir_p(dir, 0755) < 0)
        goto done;
    tmp = lab_asprintf("%s/.initramfs-%s.XXXXXX", dir, hex);
    fd = mkstemp(tmp);
    if (fd < 0) {
        lab_error("cannot create a temporary file in %s: %s", dir, strerror(errno));
        goto done;
    }
    int wr = write_image(out, fd, agent, agent_len, spec->params ? spec->params : "", modules_dir,
                         paths, n);
    if (wr == 0 && (fchmod(fd, 0644) < 0 || fsync(fd) < 0))
        wr = lab_error("cannot write %s: %s", tmp, strerror(errno));
    if (close(fd) < 0 && wr == 0)
        wr = lab_error("cannot write %s: %s", tmp, strerror(errno));
    fd = -1;
    if (wr < 0) {
        unlink(tmp);
        goto done;
    }
    if (rename(tmp, out) < 0) {
        lab_error("cannot rename %s to %s: %s", tmp, out, strerror(errno));
        unlink(tmp);
        goto done;
    }
    rc = 0;
done:
    if (fd >= 0)
        close(fd);
    lab_hash_abort(&h);
    lab_modules_free(paths, n);
    free(agent);
    free(dir);
    free(tmp);
    if (rc == 0)
        *path_out = out;
    else
        free(out);
    return rc;
}
