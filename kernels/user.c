/* The user-kernel registry; see user.h. */
#include "kernels/user.h"

#include "kernels/bzimage.h"
#include "kernels/fetch.h"
#include "kernels/kconfig.h"
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

static struct lab_kernel *reg;
static size_t nreg;
static int loaded;

char *lab_user_kernels_dir(void)
{
    return lab_asprintf("%s/kernels/user", lab_home());
}

static void free_kernel(struct lab_kernel *k)
{
    free((char *)k->name);
    free((char *)k->release);
    free((char *)k->arch);
    free((char *)k->source);
    free((char *)k->version);
    free((char *)k->dir);
    free((char *)k->config_path);
    free((char *)k->verified);
    free((char *)k->verified_note);
    free((char *)k->build_hash);
    free((char *)k->banner);
}

void lab_user_kernels_reload(void)
{
    for (size_t i = 0; i < nreg; i++)
        free_kernel(&reg[i]);
    free(reg);
    reg = NULL;
    nreg = 0;
    loaded = 0;
}

/* The value of key in key=value text (malloc'd) or NULL. */
static char *conf_get(const char *text, const char *key)
{
    size_t kl = strlen(key);
    for (const char *l = text; l && *l;) {
        const char *end = strchr(l, '\n');
        size_t len = end ? (size_t)(end - l) : strlen(l);
        if (len > kl && strncmp(l, key, kl) == 0 && l[kl] == '=')
            return strndup(l + kl + 1, len - kl - 1);
        l = end ? end + 1 : NULL;
    }
    return NULL;
}

static int conf_int(const char *text, const char *key)
{
    char *v = conf_get(text, key);
    int n = v ? atoi(v) : 0;
    free(v);
    return n;
}

static int load_one(const char *dir, struct lab_kernel *k)
{
    char *path = lab_asprintf("%s/kernel.conf", dir);
    size_t len;
    char *text = lab_read_text(path, 64 << 10, &len); /* a dozen key = value lines */
    free(path);
    if (!text)
        return -1;
    memset(k, 0, sizeof *k);
    k->name = conf_get(text, "name");
    k->version = conf_get(text, "version");
    k->release = conf_get(text, "release");
    k->arch = conf_get(text, "arch");
    k->source = conf_get(text, "source");
    k->banner = conf_get(text, "banner");
    k->package = "";
    k->deb_arch = "";
    k->dir = lab_xstrdup(dir);
    k->has_modules = conf_int(text, "has_modules");
    k->builtin_drivers = conf_int(text, "builtin_drivers");
    if (conf_int(text, "has_config"))
        k->config_path = lab_asprintf("%s/config", dir);
    k->verified = conf_get(text, "verified");
    k->verified_note = conf_get(text, "verified_note");
    k->build_hash = conf_get(text, "build_hash");
    free(text);
    if (!k->name || !k->version || !k->release || !k->arch || !k->source) {
        free_kernel(k);
        return -1;
    }
    if (!k->banner)
        k->banner = lab_xstrdup("");
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct lab_kernel *)a)->name, ((const struct lab_kernel *)b)->name);
}

static void load(void)
{
    if (loaded)
        return;
    loaded = 1;
    char *top = lab_user_kernels_dir();
    DIR *d = opendir(top);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char *dir = lab_asprintf("%s/%s", top, e->d_name);
        struct lab_kernel k;
        if (load_one(dir, &k) == 0) {
            if (strcmp(k.name, e->d_name) != 0 || lab_kernel_is_debian_name(k.name)) {
                lab_warn("ignoring user kernel %s: its kernel.conf names '%s'", dir, k.name);
                free_kernel(&k);
            } else {
                struct lab_kernel *r = realloc(reg, (nreg + 1) * sizeof *r);
                if (!r)
                    abort();
                reg = r;
                reg[nreg++] = k;
            }
        } else {
            lab_warn("ignoring %s: no readable kernel.conf", dir);
        }
        free(dir);
    }
    if (d)
        closedir(d);
    free(top);
    if (nreg > 1)
        qsort(reg, nreg, sizeof *reg, by_name);
}

size_t lab_user_kernel_count(void)
{
    load();
    return nreg;
}

const struct lab_kernel *lab_user_kernel_at(size_t i)
{
    load();
    return i < nreg ? &reg[i] : NULL;
}

int lab_user_kernel_name_ok(const char *name, char *reason, size_t len)
{
    size_t n = name ? strlen(name) : 0;
    if (n == 0 || n > 64 || name[0] == '.' || name[0] == '-') {
        snprintf(reason, len, "a kernel name is 1 to 64 characters, not starting with . or -");
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '+' || c == '-')) {
            snprintf(reason, len, "'%c' is not allowed in a kernel name (use A-Z a-z 0-9 . _ + -)",
                     c);
            return 0;
        }
    }
    if (lab_kernel_is_debian_name(name)) {
        snprintf(reason, len, "'%s' is a Debian catalog kernel", name);
        return 0;
    }
    return 1;
}

static int make_readable(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    if (flag == FTW_D || flag == FTW_DP)
        return chmod(path, 0755);
    if (flag == FTW_F && S_ISREG(st->st_mode))
        return chmod(path, 0644);
    return 0;
}

static int run(char *const argv[])
{
    int rc = lab_spawn_wait(argv, NULL);
    if (rc != 0)
        return lab_error("%s failed (exit %d)", argv[0], rc);
    return 0;
}

/* depmod lives in /sbin or /usr/sbin, not in a normal user's PATH. */
static const char *depmod_path(void)
{
    static const char *const c[] = {"/usr/sbin/depmod", "/sbin/depmod", "/usr/bin/depmod",
                                    "/bin/depmod"};
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        if (access(c[i], X_OK) == 0)
            return c[i];
    return "depmod";
}

/* Where the modules of `release` are, given what the user named: the tree
 * itself or a root holding lib/modules/<release>. NULL with a message. */
static char *find_modules(const char *given, const char *release)
{
    char *p = lab_asprintf("%s/lib/modules/%s", given, release);
    if (lab_file_exists(p))
        return p;
    free(p);
    p = lab_asprintf("%s/kernel", given);
    int tree = lab_file_exists(p);
    free(p);
    p = lab_asprintf("%s/modules.order", given);
    tree = tree || lab_file_exists(p);
    free(p);
    if (tree)
        return lab_xstrdup(given);
    lab_error("--modules %s: neither a module tree (kernel/, modules.order) nor a root holding "
              "lib/modules/%s (the image's release)",
              given, release);
    return NULL;
}

/* arch: the image's xloadflags (2.12+), else --arch, else the .config. */
static const char *decide_arch(const struct lab_bzimage *bz, const struct lab_user_kernel_spec *s,
                               const struct lab_kconfig *cfg)
{
    const char *img = lab_bzimage_arch(bz);
    if (img) {
        if (s->arch && strcmp(s->arch, img) != 0 &&
            !(strcmp(img, "i686") == 0 && strncmp(s->arch, "i", 1) == 0)) {
            lab_error("--arch %s contradicts the image: its header (protocol 2.12+) says %s",
                      s->arch, img);
            return NULL;
        }
        return img;
    }
    if (s->arch) {
        struct lab_era era;
        if (lab_era_for("2.6.0", s->arch, &era) < 0)
            return NULL;
        return strcmp(era.arch, "x86_64") == 0 ? "x86_64" : "i686";
    }
    if (cfg)
        return lab_kconfig_state(cfg, "X86_64") == LAB_KCONFIG_BUILTIN ||
                       lab_kconfig_state(cfg, "64BIT") == LAB_KCONFIG_BUILTIN
                   ? "x86_64"
                   : "i686";
    lab_warn("the image (boot protocol %u.%02u, before 2.12) does not say whether it is 64-bit; "
             "assuming x86_64 (give --arch i686 or --config for a 32-bit kernel)",
             bz->protocol >> 8, bz->protocol & 0xff);
    return "x86_64";
}

/* Copies src to dir/name; src may be NULL (nothing to copy). */
static int copy_into(const char *src, const char *dir, const char *name)
{
    if (!src)
        return 0;
    char *to = lab_asprintf("%s/%s", dir, name);
    char *cp[] = {"cp", (char *)src, to, NULL};
    int bad = run(cp);
    free(to);
    return bad ? -1 : 0;
}

/* The module tree as lib/modules/RELEASE with its depmod indexes. */
static int copy_modules(const char *mods, const char *dir, const char *release)
{
    char *parent = lab_asprintf("%s/lib/modules", dir);
    char *to = lab_asprintf("%s/%s", parent, release);
    char *cp_mods[] = {"cp", "-a", (char *)mods, to, NULL};
    char *depmod[] = {(char *)depmod_path(), "-b", (char *)dir, (char *)release, NULL};
    int bad = lab_mkdir_p(parent, 0755) < 0 || run(cp_mods) < 0 || run(depmod) < 0;
    free(parent);
    free(to);
    return bad ? -1 : 0;
}

/* Everything the kernel's directory holds, written into tmp: image,
 * config, System.map, modules, kernel.conf; then made readable to QEMU. */
static int fill_kernel_dir(const char *tmp, const struct lab_user_kernel_spec *s,
                           const struct lab_bzimage *bz, const char *arch, const char *mods)
{
    if (copy_into(s->image, tmp, "bzImage") < 0 || copy_into(s->config, tmp, "config") < 0 ||
        copy_into(s->system_map, tmp, "System.map") < 0 ||
        (mods && copy_modules(mods, tmp, bz->release) < 0))
        return -1;
    char *conf =
        lab_asprintf("name=%s\nversion=%s\nrelease=%s\narch=%s\nsource=%s\nhas_config=%d\n"
                     "has_modules=%d\nbuiltin_drivers=%d\nboot_protocol=%u.%02u\n"
                     "banner=%s\n%s",
                     s->name, bz->version, bz->release, arch, s->source ? s->source : "user",
                     s->config != NULL, mods != NULL, mods == NULL, bz->protocol >> 8,
                     bz->protocol & 0xff, bz->banner, s->extra ? s->extra : "");
    char *cpath = lab_asprintf("%s/kernel.conf", tmp);
    int bad = lab_write_file(cpath, conf, strlen(conf)) < 0;
    free(cpath);
    free(conf);
    if (bad)
        return -1;
    if (nftw(tmp, make_readable, 16, FTW_PHYS) != 0)
        return lab_error("cannot set permissions under %s: %s", tmp, strerror(errno));
    return 0;
}

/* The kernel's directory is built beside its final place and renamed in:
 * a reader never sees half a kernel. */
static int install_kernel_dir(const struct lab_user_kernel_spec *s, const struct lab_bzimage *bz,
                              const char *arch, const char *mods)
{
    char *top = lab_user_kernels_dir();
    char *dest = lab_asprintf("%s/%s", top, s->name), *tmp = NULL;
    int rc = -1;
    if (lab_file_exists(dest) && !s->replace) {
        lab_error("user kernel '%s' exists (%s); remove it first: lab kernels remove %s", s->name,
                  dest, s->name);
        goto out;
    }
    if (lab_mkdir_p(top, 0755) < 0)
        goto out;
    chmod(top, 0755);
    tmp = lab_asprintf("%s/.add-%s-XXXXXX", top, s->name);
    if (!mkdtemp(tmp)) {
        lab_error("cannot create a directory in %s: %s", top, strerror(errno));
        goto out;
    }
    if (fill_kernel_dir(tmp, s, bz, arch, mods) == 0) {
        if (lab_file_exists(dest) && s->replace)
            lab_rm_rf(dest);
        if (rename(tmp, dest) == 0)
            rc = 0;
        else
            lab_error("cannot rename %s to %s: %s", tmp, dest, strerror(errno));
    }
    if (rc < 0)
        lab_rm_rf(tmp);
out:
    free(tmp);
    free(dest);
    free(top);
    return rc;
}

int lab_user_kernel_add(const struct lab_user_kernel_spec *s)
{
    char reason[160];
    struct lab_bzimage bz;
    struct lab_kconfig cfg = {0};
    struct lab_era era;
    char *mods = NULL;
    int rc = -1;

    if (!lab_user_kernel_name_ok(s->name, reason, sizeof reason))
        return lab_error("%s", reason);
    if (lab_bzimage_read(s->image, &bz) < 0)
        return -1;
    if (s->config && lab_kconfig_load(s->config, &cfg) < 0)
        return -1;
    const char *arch = decide_arch(&bz, s, s->config ? &cfg : NULL);
    if (arch && lab_era_for(bz.version, arch, &era) == 0 &&
        (!s->modules_dir || (mods = find_modules(s->modules_dir, bz.release))) &&
        install_kernel_dir(s, &bz, arch, mods) == 0) {
        lab_user_kernels_reload();
        rc = 0;
    }
    if (s->config)
        lab_kconfig_free(&cfg);
    free(mods);
    return rc;
}

int lab_user_kernel_remove(const char *name)
{
    char reason[160];
    if (!lab_user_kernel_name_ok(name, reason, sizeof reason))
        return lab_error("%s", reason);
    char *top = lab_user_kernels_dir();
    char *dir = lab_asprintf("%s/%s", top, name);
    char *conf = lab_asprintf("%s/kernel.conf", dir);
    int rc = 0;
    if (!lab_file_exists(conf))
        rc = lab_error("no user kernel '%s' (%s)", name, dir);
    else if (lab_rm_rf(dir) < 0)
        rc = lab_error("cannot remove %s", dir);
    free(conf);
    free(dir);
    free(top);
    lab_user_kernels_reload();
    return rc;
}

/* The kernel's .config, when the lab knows one: 1 loaded, 0 none (a
 * Debian kernel not fetched yet, a user image without --config), -1 with
 * reason when it cannot be read. */
static int kernel_config(const struct lab_kernel *k, struct lab_kconfig *cfg, char *reason,
                         size_t len)
{
    char *path = NULL;
    int have_modules;
    if (k->dir) {
        if (!k->config_path)
            return 0;
        path = lab_xstrdup(k->config_path);
        have_modules = k->has_modules;
    } else {
        struct lab_kernel_files f;
        if (!lab_kernel_files_for(k, &f)) {
            lab_kernel_files_free(&f);
            return 0; /* not fetched yet: the fetch brings a full modular kernel */
        }
        path = lab_xstrdup(f.config);
        lab_kernel_files_free(&f);
        have_modules = 1;
        if (!lab_file_exists(path)) {
            free(path);
            return 0;
        }
    }
    if (lab_kconfig_load(path, cfg) < 0) {
        snprintf(reason, len, "cannot read the kernel config %s", path);
        free(path);
        return -1;
    }
    free(path);
    cfg->kernel = k->name;
    cfg->have_modules = have_modules;
    return 1;
}

void lab_kernel_choose_drivers(const struct lab_kernel *k, struct lab_era *era)
{
    struct lab_kconfig cfg;
    char reason[256];
    if (kernel_config(k, &cfg, reason, sizeof reason) != 1)
        return;
    int libata = lab_kconfig_ide_libata(&cfg, era);
    if (libata >= 0)
        era->ide_libata = libata;
    era->pci_msi = lab_kconfig_state(&cfg, "PCI_MSI") == LAB_KCONFIG_BUILTIN;
    lab_kconfig_free(&cfg);
}

/* kernel.conf without the lines of key, plus key=value (newlines in value
 * become spaces: one line per key). */
static char *conf_with(const char *text, const char *key, const char *value)
{
    size_t kl = strlen(key);
    char *out = lab_xstrdup("");
    for (const char *l = text; l && *l;) {
        const char *end = strchr(l, '\n');
        size_t len = end ? (size_t)(end - l) : strlen(l);
        if (!(len > kl && strncmp(l, key, kl) == 0 && l[kl] == '=')) {
            char *o = lab_asprintf("%s%.*s\n", out, (int)len, l);
            free(out);
            out = o;
        }
        l = end ? end + 1 : NULL;
    }
    char *v = lab_xstrdup(value);
    for (char *p = v; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    char *o = lab_asprintf("%s%s=%s\n", out, key, v);
    free(out);
    free(v);
    return o;
}

int lab_user_kernel_set_verified(const char *name, int passed, const char *note)
{
    const struct lab_kernel *k = lab_kernel_find(name);
    if (!k || !k->dir)
        return lab_error("no user kernel '%s' to mark", name);
    char *path = lab_asprintf("%s/kernel.conf", k->dir), *tmp = lab_asprintf("%s.tmp", path);
    size_t len;
    char *text = lab_read_file(path, &len);
    int rc = -1;
    if (text) {
        char *a = conf_with(text, "verified", passed ? "passed" : "failed");
        char *b = conf_with(a, "verified_note", note ? note : "");
        rc = lab_write_file(tmp, b, strlen(b)) < 0 || chmod(tmp, 0644) < 0 || rename(tmp, path) < 0
                 ? lab_error("cannot update %s: %s", path, strerror(errno))
                 : 0;
        free(a);
        free(b);
    } else {
        lab_error("cannot read %s", path);
    }
    free(text);
    free(path);
    free(tmp);
    lab_user_kernels_reload();
    return rc;
}

int lab_kernel_era(const struct lab_kernel *k, struct lab_era *era)
{
    if (lab_era_for(k->version, k->arch, era) < 0)
        return -1;
    lab_kernel_choose_drivers(k, era);
    return 0;
}

int lab_kernel_cell_ok(const struct lab_kernel *k, const struct lab_era *era, const char *bus,
                       enum lab_agent_channel ch, const char *fs, char *reason, size_t len)
{
    struct lab_kconfig cfg;
    int have = kernel_config(k, &cfg, reason, len);
    if (have <= 0)
        return have == 0;
    int ok = lab_kconfig_bus_ok(&cfg, bus, era, reason, len) == 1 &&
             lab_kconfig_channel_ok(&cfg, ch, era, reason, len) == 1 &&
             lab_kconfig_fs_ok(&cfg, fs, era, reason, len) == 1;
    lab_kconfig_free(&cfg);
    return ok;
}
