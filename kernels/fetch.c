/* Kernel fetching: apt-get download + dpkg-deb -x + depmod into a temp dir
 * under lab_home()/kernels, then an atomic rename into place. */
#include "kernels/fetch.h"

#include "common/file.h"
#include "common/msg.h"
#include "common/paths.h"
#include "common/proc.h"
#include "common/str.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void files_for(const struct lab_kernel *k, const char *dir, struct lab_kernel_files *f)
{
    f->dir = lab_xstrdup(dir);
    if (k->dir) { /* a user kernel (kernels/user.h) */
        f->bzimage = lab_asprintf("%s/bzImage", dir);
        f->modules_dir = lab_asprintf("%s/lib/modules/%s", dir, k->release);
        f->config = lab_asprintf("%s/config", dir);
        f->system_map = lab_asprintf("%s/System.map", dir);
        return;
    }
    f->bzimage = lab_asprintf("%s/boot/vmlinuz-%s", dir, k->release);
    f->modules_dir = lab_asprintf("%s/lib/modules/%s", dir, k->release);
    f->config = lab_asprintf("%s/boot/config-%s", dir, k->release);
    f->system_map = lab_asprintf("%s/boot/System.map-%s", dir, k->release);
}

void lab_kernel_files_free(struct lab_kernel_files *f)
{
    if (!f)
        return;
    free(f->dir);
    free(f->bzimage);
    free(f->modules_dir);
    free(f->config);
    free(f->system_map);
    f->dir = f->bzimage = f->modules_dir = f->config = f->system_map = NULL;
}

static int files_complete(const struct lab_kernel *k, const struct lab_kernel_files *f)
{
    if (k->dir && !k->has_modules)
        return lab_file_exists(f->bzimage);
    char *dep = lab_asprintf("%s/modules.dep", f->modules_dir);
    int ok = lab_file_exists(f->bzimage) && lab_file_exists(dep);
    free(dep);
    return ok;
}

static char *cache_dir(const struct lab_kernel *k)
{
    if (k->dir)
        return lab_xstrdup(k->dir);
    return lab_asprintf("%s/kernels/%s", lab_home(), k->name);
}

int lab_kernel_files_for(const struct lab_kernel *k, struct lab_kernel_files *out)
{
    char *dir = cache_dir(k);
    files_for(k, dir, out);
    free(dir);
    return files_complete(k, out);
}

int lab_kernel_is_cached(const struct lab_kernel *k)
{
    struct lab_kernel_files f;
    int ok = lab_kernel_files_for(k, &f);
    lab_kernel_files_free(&f);
    return ok;
}

/* lab_tool_path with a few rotating buffers, so argv can hold several. */
static const char *tool(const char *name)
{
    static char buf[4][64];
    static int next;
    next = (next + 1) % 4;
    return lab_tool_path(name, buf[next], sizeof buf[next]);
}

static int make_readable(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    if (flag == FTW_D || flag == FTW_DP)
        return chmod(path, 0755);
    if (flag == FTW_F && S_ISREG(st->st_mode))
        return chmod(path, (st->st_mode & 07777 & ~07022) | 0644);
    return 0;
}

static char *find_deb(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char *found = NULL;
    if (!d)
        return NULL;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 4 && strcmp(e->d_name + n - 4, ".deb") == 0) {
            found = lab_asprintf("%s/%s", dir, e->d_name);
            break;
        }
    }
    closedir(d);
    return found;
}

/* Downloads and unpacks into tmp (which exists and is empty). */
static int fetch_into(const struct lab_kernel *k, const char *tmp, const char *log)
{
    int rc;
    /* apt-get download writes to the current directory. The architecture is
     * always named: an i386 kernel on an amd64 host is a foreign package. */
    char *pkg = lab_asprintf("%s:%s", k->package, k->deb_arch ? k->deb_arch : "amd64");
    char *apt[] = {"sh", "-c", "cd \"$1\" && exec apt-get download \"$2\"", "sh", (char *)tmp,
                   pkg,  NULL};
    rc = lab_spawn_wait(apt, log);
    if (rc != 0) {
        if (k->deb_arch && strcmp(k->deb_arch, "amd64") != 0)
            lab_error("apt-get download %s failed (exit %d); %s is a foreign architecture here: "
                      "run dpkg --add-architecture %s && apt-get update",
                      pkg, rc, k->deb_arch, k->deb_arch);
        else
            lab_error("apt-get download %s failed (exit %d); is the package in your apt "
                      "sources? run apt-get update",
                      pkg, rc);
        lab_log_tail(log, 5, "    ");
        free(pkg);
        return -1;
    }
    free(pkg);
    char *deb = find_deb(tmp);
    if (!deb)
        return lab_error("apt-get download %s left no .deb in %s", k->package, tmp);
    char *dpkg[] = {"dpkg-deb", "-x", deb, (char *)tmp, NULL};
    rc = lab_spawn_wait(dpkg, log);
    if (rc != 0) {
        lab_error("dpkg-deb -x %s failed (exit %d)", deb, rc);
        lab_log_tail(log, 5, "    ");
        free(deb);
        return -1;
    }
    unlink(deb);
    free(deb);

    /* Packages built for a merged /usr may ship usr/lib/modules only. */
    char *mods = lab_asprintf("%s/lib/modules/%s", tmp, k->release);
    if (!lab_file_exists(mods)) {
        char *usr = lab_asprintf("%s/usr/lib/modules/%s", tmp, k->release);
        char *lib = lab_asprintf("%s/lib/modules", tmp);
        if (lab_file_exists(usr) && lab_mkdir_p(lib, 0755) == 0)
            rename(usr, mods);
        free(usr);
        free(lib);
    }
    if (!lab_file_exists(mods)) {
        lab_error("package %s has no lib/modules/%s (is the catalog's release right?)", k->package,
                  k->release);
        free(mods);
        return -1;
    }
    free(mods);

    char *depmod[] = {(char *)tool("depmod"), "-b", (char *)tmp, (char *)k->release, NULL};
    rc = lab_spawn_wait(depmod, log);
    if (rc != 0) {
        lab_error("depmod -b %s %s failed (exit %d)", tmp, k->release, rc);
        lab_log_tail(log, 5, "    ");
        return -1;
    }
    unlink(log);
    /* QEMU runs as libvirt-qemu and must read the bzImage (0600 in the package). */
    if (nftw(tmp, make_readable, 16, FTW_PHYS) != 0)
        return lab_error("cannot set permissions under %s: %s", tmp, strerror(errno));
    return 0;
}

int lab_kernel_fetch(const struct lab_kernel *k, struct lab_kernel_files *out)
{
    char *dir = cache_dir(k);
    memset(out, 0, sizeof *out);
    files_for(k, dir, out);
    if (files_complete(k, out)) {
        free(dir);
        return 0;
    }
    if (k->dir) {
        lab_kernel_files_free(out);
        lab_error("user kernel %s: %s is incomplete; add it again (lab kernels remove %s; lab "
                  "kernels add %s --image ...)",
                  k->name, dir, k->name, k->name);
        free(dir);
        return -1;
    }
    if (strcmp(k->source, "debian") != 0) {
        free(dir);
        lab_kernel_files_free(out);
        return lab_error("kernel %s: cannot fetch from source '%s'", k->name, k->source);
    }

    char *parent = lab_asprintf("%s/kernels", lab_home());
    char *tmp = lab_asprintf("%s/.fetch-%s-XXXXXX", parent, k->name);
    char *log = NULL;
    int rc = -1;
    if (lab_mkdir_p(parent, 0755) < 0)
        goto out;
    if (!mkdtemp(tmp)) {
        lab_error("cannot create a temporary directory in %s: %s", parent, strerror(errno));
        goto out;
    }
    chmod(tmp, 0755);
    log = lab_asprintf("%s.log", tmp);
    fprintf(stderr, "lab: fetching kernel %s (%s)\n", k->name, k->package);
    if (fetch_into(k, tmp, log) < 0)
        goto out_rm;
    if (lab_file_exists(dir) && !files_complete(k, out)) {
        lab_warn("replacing the incomplete kernel cache %s", dir);
        lab_rm_rf(dir);
    }
    if (rename(tmp, dir) < 0) {
        /* Someone else finished the same fetch first: theirs is as good. */
        if ((errno == ENOTEMPTY || errno == EEXIST) && files_complete(k, out)) {
            rc = 0;
            goto out_rm;
        }
        lab_error("cannot rename %s to %s: %s", tmp, dir, strerror(errno));
        goto out_rm;
    }
    if (!files_complete(k, out)) {
        lab_error("kernel %s: %s or modules.dep missing after unpacking %s", k->name, out->bzimage,
                  k->package);
        goto out;
    }
    rc = 0;
    goto out;
out_rm:
    lab_rm_rf(tmp);
out:
    if (log)
        unlink(log);
    free(log);
    free(tmp);
    free(parent);
    free(dir);
    if (rc < 0)
        lab_kernel_files_free(out);
    return rc;
}
