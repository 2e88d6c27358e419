/* The kernel builder; see build.h. */
#include "kernels/build.h"
#include "kernels/rules.h"

#include "common/datadir.h"
#include "common/hash.h"
#include "kernels/compat.h"
#include "kernels/compat_strings.h"
#include "kernels/fragment.h"
#include "kernels/mirror.h"
#include "kernels/patch.h"
#include "kernels/source.h"
#include "kernels/toolchain.h"
#include "kernels/user.h"
#include "common/clock.h"
#include "common/file.h"
#include "common/interrupt.h"
#include "common/msg.h"
#include "common/paths.h"
#include "common/proc.h"
#include "common/str.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

const char *lab_build_configs_dir(void)
{
    return lab_data_dir(LAB_DATA_KERNEL_CONFIGS);
}

const char *lab_build_fragment_name(lab_kver v)
{
    return lab_rule_value(LAB_RULE_CONFIG_FRAGMENT, v, NULL);
}

static int mk_field(const char *mk, const char *key, char *out, size_t len)
{
    size_t kl = strlen(key);
    for (const char *l = mk; l && *l;) {
        const char *end = strchr(l, '\n');
        size_t n = end ? (size_t)(end - l) : strlen(l);
        if (n > kl && strncmp(l, key, kl) == 0 && (l[kl] == ' ' || l[kl] == '=')) {
            const char *v = l + kl;
            while (*v == ' ' || *v == '\t')
                v++;
            if (*v == '=') {
                v++;
                while (*v == ' ' || *v == '\t')
                    v++;
                size_t vl = (size_t)(l + n - v);
                while (vl && (v[vl - 1] == ' ' || v[vl - 1] == '\r' || v[vl - 1] == '\t'))
                    vl--;
                snprintf(out, len, "%.*s", (int)vl, v);
                return 0;
            }
        }
        l = end ? end + 1 : NULL;
    }
    return -1;
}

int lab_makefile_version(const char *mk, char *out, size_t len)
{
    char v[16], p[16], s[16] = "", e[32] = "";
    if (mk_field(mk, "VERSION", v, sizeof v) < 0 || mk_field(mk, "PATCHLEVEL", p, sizeof p) < 0)
        return -1;
    mk_field(mk, "SUBLEVEL", s, sizeof s);
    mk_field(mk, "EXTRAVERSION", e, sizeof e);
    if (!v[0] || !p[0] || v[0] < '0' || v[0] > '9')
        return -1;
    /* 3.x+ trees have SUBLEVEL = 0 for a .0 release: "3.4", "6.1" */
    if (!s[0] || (strcmp(s, "0") == 0 && atoi(v) >= 3))
        snprintf(out, len, "%s.%s%s", v, p, e);
    else
        snprintf(out, len, "%s.%s.%s%s", v, p, s, e);
    return 0;
}

static int sh_log(const char *cmd, const char *log)
{
    char *argv[] = {"sh", "-c", (char *)cmd, NULL};
    return lab_spawn_wait_group(argv, log); /* a Ctrl-C stops make and gcc too */
}

static int nprocs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static int have_ccache(void)
{
    char *path = lab_capture("command -v ccache");
    free(path);
    return path != NULL;
}

/* One build, stage by stage: what was decided, the paths, the make command.
 * Every heap string is owned here and freed by job_free. */
struct job {
    const struct lab_build_spec *b;
    struct lab_build_source src;
    char version[64], hex[LAB_HASH_HEX_LEN + 1];
    lab_kver kv;
    const char *cc, *arch, *fname; /* fname: the lab's fragment, or NULL */
    int is32, era;                 /* era: through the compat layer */
    unsigned carch;
    struct lab_compiler comp;
    char *cc_full, *frag_lab, *frag_user, *name;
    char *top, *cache, *log, *work, *objdir, *make, *config_path;
    const char *srcdir, *bdir;
    /* What the user registry gets: the cached bzImage, config, System.map. */
    char *extra, *bz, *cfg, *map;
    char *patch_lines;  /* build_patch_N= and build_patch_N_sha256= lines */
    char compat_id[24]; /* the era compat layer's rows that applied, hashed: "-" native */
};

static void job_free(struct job *j)
{
    lab_build_source_free(&j->src);
    char *owned[] = {j->cc_full, j->frag_lab, j->frag_user, j->name,       j->top,         j->cache,
                     j->log,     j->work,     j->objdir,    j->make,       j->config_path, j->extra,
                     j->bz,      j->cfg,      j->map,       j->patch_lines};
    for (size_t i = 0; i < sizeof owned / sizeof owned[0]; i++)
        free(owned[i]);
}

/* Version and toolchain first: nothing is extracted or built for a
 * compiler that cannot build this tree. -2 for a toolchain refusal. */
static int job_decide(struct job *j)
{
    char msg[1024];
    if (lab_build_source_open(j->b, &j->src) < 0)
        return -1;
    if (j->b->version)
        snprintf(j->version, sizeof j->version, "%s", j->b->version);
    else if (lab_makefile_version(j->src.makefile, j->version, sizeof j->version) < 0)
        j->version[0] = '\0';
    if (!j->version[0] || lab_kver_parse(j->version, &j->kv) < 0)
        return lab_error("cannot read the kernel version from %s's Makefile", j->src.path);
    if (lab_compiler_probe(j->cc, j->b->wrap, &j->comp, &j->cc_full) < 0)
        return -1;
    int how =
        lab_toolchain_decide(j->kv, j->arch, &j->comp, j->b->cc || j->b->wrap, msg, sizeof msg);
    if (!how) {
        lab_error("%s", msg);
        return -2;
    }
    /* era: the compat layer builds this tree with this compiler (flags and
     * fixups on the lab's copy of the tree; kernels/compat.h) */
    j->era = how == 2;
    j->carch = lab_compat_arch(j->arch);
    return 0;
}

static int job_fragments(struct job *j)
{
    size_t len;
    j->fname = lab_build_fragment_name(j->kv);
    if (j->fname) {
        char *p = lab_asprintf("%s/%s", lab_build_configs_dir(), j->fname);
        j->frag_lab = lab_read_file(p, &len);
        if (!j->frag_lab)
            lab_error("cannot read the lab's config fragment %s", p);
        free(p);
        if (!j->frag_lab)
            return -1;
    } else if (!j->b->fragment) {
        return lab_error("the lab has no config fragment for linux %s yet; give one with --config "
                         "FRAGMENT (it is merged over allnoconfig)",
                         j->version);
    } else {
        j->frag_lab = lab_xstrdup("");
    }
    if (j->b->fragment && !(j->frag_user = lab_read_file(j->b->fragment, &len)))
        return lab_error("cannot read the config fragment %s", j->b->fragment);
    return 0;
}

/* Each patch's bytes (sha256, in order) into the key, and a line each for
 * kernel.conf; the compat layer's id (its rows for this tree, hashed). */
static int job_patches_key(struct job *j, struct lab_hash *h)
{
    snprintf(j->compat_id, sizeof j->compat_id, "-");
    if (j->era) {
        char *d = lab_compat_describe(j->kv, j->carch), hex[LAB_HASH_HEX_LEN + 1];
        struct lab_hash ch;
        if (lab_hash_init(&ch) == 0) {
            lab_hash_str(&ch, d);
            if (lab_hash_final(&ch, hex) == 0)
                snprintf(j->compat_id, sizeof j->compat_id, "compat-%.12s", hex);
        }
        free(d);
    }
    j->patch_lines = lab_xstrdup("");
    if (j->b->npatches == 0 && !j->b->check_version)
        return 0; /* the key of a plain build stays what it always was */
    lab_hash_u64(h, j->b->npatches);
    for (size_t i = 0; i < j->b->npatches; i++) {
        char hex[LAB_HASH_HEX_LEN + 1];
        if (lab_mirror_file_sha256(j->b->patches[i], hex) < 0)
            return -1;
        lab_hash_str(h, hex);
        char *more = lab_asprintf("%sbuild_patch_%zu=%s\nbuild_patch_%zu_sha256=%s\n",
                                  j->patch_lines, i + 1, j->b->patches[i], i + 1, hex);
        free(j->patch_lines);
        j->patch_lines = more;
    }
    if (j->b->check_version)
        lab_hash_str(h, j->version);
    return 0;
}

/* The cache key: the tree, the arch, both fragments, the compiler's full
 * version, the wrap prefix and, for era trees, every compat fixup. */
static int job_key(struct job *j)
{
    char msg[512];
    struct lab_hash h;
    if (lab_build_source_tree_id(&j->src) < 0 || lab_hash_init(&h) < 0)
        return -1;
    lab_hash_str(&h, "lab-kernel-build-1");
    lab_hash_str(&h, j->src.tree_id);
    lab_hash_str(&h, j->arch);
    lab_hash_str(&h, j->frag_lab);
    lab_hash_str(&h, j->frag_user);
    lab_hash_str(&h, j->cc_full);
    lab_hash_str(&h, j->b->wrap);
    if (j->era) {
        char *d = lab_compat_describe(j->kv, j->carch);
        lab_hash_str(&h, d);
        free(d);
    }
    if (job_patches_key(j, &h) < 0) {
        lab_hash_abort(&h);
        return -1;
    }
    if (lab_hash_final(&h, j->hex) < 0)
        return -1;
    j->name = j->b->name ? lab_xstrdup(j->b->name) : lab_asprintf("build-%.12s", j->hex);
    if (!lab_user_kernel_name_ok(j->name, msg, sizeof msg))
        return lab_error("%s", msg);
    j->top = lab_asprintf("%s/kernels/build", lab_home());
    j->cache = lab_asprintf("%s/%.*s", j->top, LAB_HASH_SHORT, j->hex);
    j->extra =
        lab_asprintf("build_hash=%s\nbuild_src=%s%s%s\nbuild_cc=%s\nbuild_wrap=%s\n"
                     "build_version=%s\nbuild_compat=%s\n%s%s",
                     j->hex, j->src.path, j->src.ref ? ":" : "", j->src.ref ? j->src.ref : "",
                     j->comp.text, j->b->wrap ? j->b->wrap : "", j->version, j->compat_id,
                     j->patch_lines ? j->patch_lines : "", j->b->extra ? j->b->extra : "");
    j->bz = lab_asprintf("%s/bzImage", j->cache);
    j->cfg = lab_asprintf("%s/config", j->cache);
    j->map = lab_asprintf("%s/System.map", j->cache);
    return 0;
}

/* Registers the cached build under its name, replacing a kernel of that
 * name; this very build already registered under it stays as it is (with
 * its smoke-test verdict). A different build of that name is replaced:
 * a changed fragment whose build was cached under another name used to
 * leave the old kernel in place, silently. */
static int job_register(struct job *j, int keep_registered_build)
{
    const struct lab_kernel *k = lab_kernel_find(j->name);
    if (keep_registered_build && k && k->dir && strcmp(k->source, "build") == 0 && k->build_hash &&
        strcmp(k->build_hash, j->hex) == 0)
        return 0;
    if (k && k->dir)
        lab_user_kernel_remove(j->name);
    struct lab_user_kernel_spec us = {.name = j->name,
                                      .image = j->bz,
                                      .config = j->cfg,
                                      .system_map = lab_file_exists(j->map) ? j->map : NULL,
                                      .arch = j->arch,
                                      .source = "build",
                                      .extra = j->extra,
                                      .replace = 1};
    return lab_user_kernel_add(&us);
}

/* The series on the lab's copy, dry run first; with check_version the
 * patched Makefile must name the version the build was decided for. */
static int job_apply_patches(struct job *j)
{
    if (j->b->npatches == 0)
        return 0;
    if (lab_patch_apply_series(j->work, j->b->patches, j->b->npatches, j->log) < 0)
        return -1;
    if (!j->b->check_version)
        return 0;
    char *mk = lab_asprintf("%s/Makefile", j->work), got[64] = "";
    size_t len;
    char *text = lab_read_file(mk, &len);
    free(mk);
    if (text)
        lab_makefile_version(text, got, sizeof got);
    free(text);
    if (strcmp(got, j->version) != 0)
        return lab_error("the patched tree's Makefile says linux %s, not %s: refused",
                         got[0] ? got : "(no version)", j->version);
    return 0;
}

/* A directory outside an era build is built out of tree (O=); anything
 * else is unpacked into a work tree the compat layer may change. */
static int job_unpack(struct job *j)
{
    j->log = lab_asprintf("%s/%.*s.log", j->top, LAB_HASH_SHORT, j->hex);
    unlink(j->log);
    if (j->src.kind == SRC_DIR && !j->era && j->b->npatches == 0) {
        struct lab_hash hd;
        char dh[LAB_HASH_HEX_LEN + 1];
        if (lab_hash_init(&hd) < 0)
            return -1;
        lab_hash_str(&hd, j->src.path);
        lab_hash_str(&hd, j->arch);
        if (lab_hash_final(&hd, dh) < 0)
            return -1;
        j->objdir = lab_asprintf("%s/obj-%.*s", j->top, LAB_HASH_SHORT, dh);
        j->srcdir = j->src.path;
        j->bdir = j->objdir;
        return lab_mkdir_p(j->objdir, 0755);
    }
    j->work = lab_asprintf("%s/%.*s.work", j->top, LAB_HASH_SHORT, j->hex);
    j->srcdir = j->bdir = j->work;
    lab_rm_rf(j->work);
    if (lab_mkdir_p(j->work, 0755) < 0)
        return -1;
    char *qsrc = lab_shell_quote(j->src.path), *qw = lab_shell_quote(j->work), *cmd;
    if (j->src.kind == SRC_TARBALL) {
        cmd = lab_asprintf("tar -xf %s -C %s --strip-components=1", qsrc, qw);
    } else if (j->src.kind == SRC_DIR) { /* fixups apply: never to the user's tree */
        cmd = lab_asprintf("cp -a %s/. %s/ && rm -rf %s/.git", qsrc, qw, qw);
    } else {
        char *qr = lab_shell_quote(j->src.ref);
        cmd = lab_asprintf("git -C %s archive --format=tar %s | tar -x -C %s", qsrc, qr, qw);
        free(qr);
    }
    free(qw);
    free(qsrc);
    fprintf(stderr, "lab: unpacking %s into %s\n", j->src.path, j->work);
    int rc = sh_log(cmd, j->log);
    free(cmd);
    if (rc != 0) {
        lab_error("unpacking %s failed (log %s)", j->src.path, j->log);
        lab_log_tail(j->log, 5, "");
        return -1;
    }
    if (job_apply_patches(j) < 0) {
        lab_rm_rf(j->work); /* refused before building: no tree left behind */
        return -1;
    }
    if (j->era) {
        int n = lab_compat_apply_tree(j->work, j->kv, j->carch, j->log);
        if (n < 0)
            return -1;
        fprintf(stderr, "lab: era compat layer: %d file(s) fixed in the lab's copy (log %s)\n", n,
                j->log);
    }
    return 0;
}

/* make with the wrap prefix, the tree, O=, ARCH and the compiler (with the
 * compat layer's flags and tools for an era tree), and the environment
 * every build gets. */
static void job_make_command(struct job *j)
{
    struct lab_compat_vars cv = {0};
    if (j->era)
        lab_compat_vars_for(j->kv, j->carch, &cv);
    char *ccv = lab_asprintf("%s%s%s%s", have_ccache() ? "ccache " : "", j->cc,
                             cv.cflags && *cv.cflags ? " " : "", cv.cflags ? cv.cflags : "");
    char *hostcc = lab_asprintf("%s%s%s", j->cc, cv.hostcc && *cv.hostcc ? " " : "",
                                cv.hostcc ? cv.hostcc : "");
    char *q[] = {lab_shell_quote(j->srcdir),
                 j->objdir ? lab_shell_quote(j->objdir) : NULL,
                 lab_shell_quote(ccv),
                 lab_shell_quote(hostcc),
                 cv.as && *cv.as ? lab_shell_quote(cv.as) : NULL,
                 cv.ld && *cv.ld ? lab_shell_quote(cv.ld) : NULL};
    const char *wrap = j->b->wrap;
    j->make = lab_asprintf("%s%smake -C %s%s%s ARCH=%s CC=%s HOSTCC=%s%s%s%s%s", wrap ? wrap : "",
                           wrap ? " " : "", q[0], q[1] ? " O=" : "", q[1] ? q[1] : "",
                           j->is32 ? "i386" : "x86_64", q[2], q[3], q[4] ? " AS=" : "",
                           q[4] ? q[4] : "", q[5] ? " LD=" : "", q[5] ? q[5] : "");
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
        free(q[i]);
    free(ccv);
    free(hostcc);
    lab_compat_vars_free(&cv);
    setenv("LC_ALL", "C", 1); /* ASCII diagnostics, parsed by the compat layer */
    /* A lab started from make (make check) inherits its MAKEFLAGS, which
     * carry --no-print-directory and the outer jobserver: the kernel's make
     * would then print no "Entering directory" lines, and the compat layer
     * could not find the files its diagnostics name. */
    unsetenv("MAKEFLAGS");
    unsetenv("MFLAGS");
    unsetenv("MAKELEVEL");
    unsetenv("MAKEOVERRIDES");
    if (!getenv("CCACHE_DIR")) {
        char *cd = lab_asprintf("%s/kernels/ccache", lab_home());
        lab_mkdir_p(cd, 0755);
        setenv("CCACHE_DIR", cd, 1);
        free(cd);
    }
    setenv("KBUILD_BUILD_USER", "lab", 1);
    setenv("KBUILD_BUILD_HOST", "lab", 1);
}

static int job_make(struct job *j, const char *target)
{
    char *cmd = lab_asprintf("%s %s", j->make, target);
    int rc = sh_log(cmd, j->log);
    free(cmd);
    return rc;
}

/* The base .config with the fragments appended. 2.4 has no base target:
 * its oldconfig answers 'n' to every bool the .config lacks, so the
 * fragment alone is "allnoconfig" + fragment. */
static int job_merge_fragments(struct job *j, const char *base_target)
{
    size_t cl;
    if (!base_target)
        unlink(j->config_path);
    char *base = base_target ? lab_read_file(j->config_path, &cl) : lab_xstrdup("");
    if (!base)
        return -1;
    char *all =
        lab_asprintf("%s\n# lab fragment %s\n%s\n# user fragment\n%s\n", base,
                     j->fname ? j->fname : "-", j->frag_lab, j->frag_user ? j->frag_user : "");
    char *merged = lab_config_last_wins(all);
    free(all);
    int rc = lab_write_file(j->config_path, merged, strlen(merged));
    free(base);
    free(merged);
    return rc;
}

/* tinyconfig (3.17+) or allnoconfig (kconfig trees, 2.6.0 on), the
 * fragments, olddefconfig (3.7+) or oldconfig with default answers; make
 * dep for 2.4 (scripts/Configure, no kconfig). */
static int job_configure(struct job *j)
{
    j->config_path = lab_asprintf("%s/.config", j->bdir);
    char *kmk = lab_asprintf("%s/scripts/kconfig/Makefile", j->srcdir);
    size_t kl;
    char *ktext = lab_read_file(kmk, &kl);
    int kconfig = ktext != NULL, has_allno = ktext && strstr(ktext, "allnoconfig");
    free(kmk);
    free(ktext);
    const char *base_target =
        lab_rule_value(LAB_RULE_KCONFIG_BASE, j->kv, has_allno ? "allnoconfig" : NULL);
    fprintf(stderr, "lab: configuring linux %s (%s + %s%s%s)\n", j->version,
            base_target ? base_target : "an empty .config", j->fname ? j->fname : "",
            j->b->fragment ? " + " : "", j->b->fragment ? j->b->fragment : "");
    int bad = base_target && job_make(j, base_target) != 0;
    bad = bad || job_merge_fragments(j, base_target) < 0;
    const char *update = lab_rule_value(LAB_RULE_KCONFIG_UPDATE, j->kv, NULL);
    if (!bad && update) {
        bad = job_make(j, update) != 0;
    } else if (!bad) {
        char *cmd = lab_asprintf("yes '' | %s oldconfig", j->make);
        bad = sh_log(cmd, j->log) != 0;
        free(cmd);
    }
    if (!bad && !kconfig) { /* 2.4: the dependency files */
        fprintf(stderr, "lab: make dep (2.4)\n");
        bad = job_make(j, "dep") != 0;
    }
    if (bad) {
        lab_error("configuring linux %s failed (log %s)", j->version, j->log);
        lab_log_tail(j->log, 10, "");
        return -1;
    }
    int i386 = j->carch == LAB_COMPAT_I386;
    lab_build_check_fragment(j->frag_lab, j->config_path, j->srcdir, i386);
    if (j->frag_user)
        lab_build_check_fragment(j->frag_user, j->config_path, j->srcdir, i386);
    return 0;
}

/* make bzImage; for an era tree, the compat layer fixes the FASTCALL and
 * asmlinkage conflicts and the multi-line strings gcc reports in the new
 * part of the log and the build goes again (make -k: every error of a pass
 * at once). */
static int job_compile(struct job *j)
{
    int jobs = j->b->jobs > 0 ? j->b->jobs : nprocs();
    char *target = lab_asprintf("%s-j%d bzImage", j->era ? "-k " : "", jobs);
    fprintf(stderr, "lab: building linux %s with %s%s%s, -j%d (log %s)\n", j->version, j->comp.text,
            j->era ? " through the era compat layer" : "", have_ccache() ? " and ccache" : "", jobs,
            j->log);
    int rc = 0;
    for (int pass = 1;; pass++) {
        struct stat lst;
        off_t off = stat(j->log, &lst) == 0 ? lst.st_size : 0;
        if (job_make(j, target) == 0)
            break;
        if (lab_interrupted) {
            rc = -1;
            break;
        }
        int fixed = 0;
        if (j->era && pass < 16) {
            size_t ll;
            char *text = lab_read_file(j->log, &ll);
            if (text && (size_t)off <= ll)
                fixed = lab_compat_fix_conflicts(j->srcdir, text + off, j->log) +
                        lab_compat_fix_strings(j->srcdir, text + off, j->log, j->kv, j->carch);
            free(text);
        }
        if (fixed <= 0) {
            lab_error("building linux %s failed (log %s)", j->version, j->log);
            lab_log_tail(j->log, 15, "");
            rc = -1;
            break;
        }
        fprintf(stderr,
                "lab: era compat layer: %d fix(es) from gcc's errors (FASTCALL/asmlinkage "
                "definitions, multi-line strings); building again (pass %d)\n",
                fixed, pass + 1);
    }
    free(target);
    return rc;
}

/* bzImage, config, build log and System.map (symbol resolution of
 * /proc/profile) into a temp dir renamed into the cache. */
static int job_store(struct job *j)
{
    char *built = lab_asprintf("%s/arch/x86/boot/bzImage", j->bdir);
    if (!lab_file_exists(built)) { /* before 2.6.24: arch/i386, arch/x86_64 */
        free(built);
        built = lab_asprintf("%s/arch/%s/boot/bzImage", j->bdir, j->is32 ? "i386" : "x86_64");
    }
    char *smap = lab_asprintf("%s/System.map", j->bdir);
    char *tmp = lab_asprintf("%s/.%.*s-XXXXXX", j->top, LAB_HASH_SHORT, j->hex);
    int rc = -1;
    if (!mkdtemp(tmp)) {
        lab_error("cannot create a directory in %s: %s", j->top, strerror(errno));
        goto out;
    }
    chmod(tmp, 0755);
    char *q[] = {lab_shell_quote(built), lab_shell_quote(j->config_path), lab_shell_quote(tmp),
                 lab_shell_quote(j->log), lab_shell_quote(smap)};
    char *cmd = lab_asprintf("cp %s %s/bzImage && cp %s %s/config && cp %s %s/build.log && "
                             "{ ! test -f %s || cp %s %s/System.map; } && chmod 644 %s/*",
                             q[0], q[2], q[1], q[2], q[3], q[2], q[4], q[4], q[2], q[2]);
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
        free(q[i]);
    rc = sh_log(cmd, NULL) != 0 || rename(tmp, j->cache) < 0 ? -1 : 0;
    free(cmd);
    if (rc < 0) {
        lab_error("cannot store the build in %s", j->cache);
        lab_rm_rf(tmp);
    }
out:
    free(tmp);
    free(smap);
    free(built);
    return rc;
}

/* A failed stage; an interrupted build keeps nothing half-built (its work
 * tree goes, nothing was cached). */
static int job_failed(struct job *j)
{
    if (lab_interrupted && j->work) {
        lab_rm_rf(j->work);
        lab_error("building linux %s: interrupted; its work tree is removed", j->version);
    }
    return -1;
}

static int job_build(struct job *j)
{
    if (lab_mkdir_p(j->top, 0755) < 0)
        return -1;
    if (job_unpack(j) < 0)
        return job_failed(j);
    job_make_command(j);
    int64_t t0 = lab_now_ns();
    if (job_configure(j) < 0 || job_compile(j) < 0)
        return job_failed(j);
    double secs = (double)(lab_now_ns() - t0) / 1e9;
    if (job_store(j) < 0)
        return -1;
    fprintf(stderr, "lab: built linux %s in %.0f s -> %s\n", j->version, secs, j->cache);
    if (j->work && !j->b->keep)
        lab_rm_rf(j->work);
    return job_register(j, 0);
}

int lab_kernel_build(const struct lab_build_spec *b, char **name_out)
{
    struct job j = {.b = b, .cc = b->cc ? b->cc : "gcc", .arch = b->arch ? b->arch : "x86_64"};
    j.is32 = strcmp(j.arch, "x86_64") != 0;
    int rc = job_decide(&j);
    if (rc == 0)
        rc = job_fragments(&j) < 0 || job_key(&j) < 0 ? -1 : 0;
    if (rc == 0 && lab_file_exists(j.bz)) {
        fprintf(stderr, "lab: linux %s for these inputs is cached in %s\n", j.version, j.cache);
        rc = job_register(&j, 1);
    } else if (rc == 0) {
        rc = job_build(&j);
    }
    if (rc == 0 && name_out) {
        *name_out = j.name;
        j.name = NULL;
    }
    job_free(&j);
    return rc;
}
