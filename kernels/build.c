/* The kernel builder; see build.h. */
#include "kernels/build.h"

#include "common/hash.h"
#include "kernels/compat.h"
#include "kernels/toolchain.h"
#include "kernels/user.h"
#include "common/clock.h"
#include "common/file.h"
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
    static char *dir;
    const char *env = getenv("LAB_KERNEL_CONFIGS");
    if (env && *env)
        return env;
    if (!dir) {
#if defined(LAB_KERNEL_CONFIGS_DIR)
        dir = lab_xstrdup(LAB_KERNEL_CONFIGS_DIR);
#elif defined(LAB_EXPERIMENTS_DIR)
        /* LAB_EXPERIMENTS_DIR is <tree>/lab/experiments */
        dir = lab_asprintf("%s/../../kernels/configs", LAB_EXPERIMENTS_DIR);
#else
        dir = lab_xstrdup("kernels/configs");
#endif
    }
    return dir;
}

const char *lab_build_fragment_name(lab_kver v)
{
    if (v >= LAB_KV_RC(4, 0, 0, 0))
        return "lab-6.x.config";
    if (v >= LAB_KV_RC(2, 6, 0, 0))
        return "lab-2.6.config";
    if (v >= LAB_KV_RC(2, 4, 0, 0) && v < LAB_KV_RC(2, 5, 0, 0))
        return "lab-2.4.config";
    return NULL;
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

/* The shell command's stdout to *out (malloc'd) when out is not NULL. */
static int sh_capture(const char *cmd, char **out)
{
    char *text = lab_capture(cmd);
    if (!text)
        return -1;
    if (out)
        *out = text;
    else
        free(text);
    return 0;
}

static int sh_log(const char *cmd, const char *log)
{
    char *argv[] = {"sh", "-c", (char *)cmd, NULL};
    return lab_spawn_wait(argv, log);
}

enum src_kind { SRC_TARBALL, SRC_DIR, SRC_GIT };

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Directory trees: a hash of every file's path, size and mtime (.git and
 * the kernel's own build outputs are skipped: O= keeps the tree clean). */
static struct lab_hash *walk_hash;
static size_t walk_root;
static int walk_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    const char *base = path + ftw->base;
    if (flag == FTW_D && strcmp(base, ".git") == 0)
        return FTW_SKIP_SUBTREE;
    if (flag != FTW_F)
        return FTW_CONTINUE;
    lab_hash_str(walk_hash, path + walk_root);
    lab_hash_u64(walk_hash, (uint64_t)st->st_size);
    lab_hash_u64(walk_hash,
                 (uint64_t)st->st_mtim.tv_sec * 1000000000ull + (uint64_t)st->st_mtim.tv_nsec);
    return FTW_CONTINUE;
}

static int dir_tree_id(const char *dir, char hex[LAB_HASH_HEX_LEN + 1])
{
    struct lab_hash h;
    if (lab_hash_init(&h) < 0)
        return -1;
    walk_hash = &h;
    walk_root = strlen(dir);
    if (nftw(dir, walk_one, 64, FTW_PHYS | FTW_ACTIONRETVAL) != 0) {
        lab_hash_abort(&h);
        return lab_error("cannot walk %s: %s", dir, strerror(errno));
    }
    return lab_hash_final(&h, hex);
}

struct source {
    enum src_kind kind;
    char *path; /* tarball, directory or repo */
    char *ref;
    char *makefile;
    char tree_id[LAB_HASH_HEX_LEN + 1];
};

static void source_free(struct source *s)
{
    free(s->path);
    free(s->ref);
    free(s->makefile);
}

static int source_open(const struct lab_build_spec *b, struct source *s)
{
    memset(s, 0, sizeof *s);
    struct stat st;
    char *cmd;
    if (b->repo || b->ref) {
        if (!b->repo || !b->ref)
            return lab_error("--repo and --ref go together");
        s->kind = SRC_GIT;
        s->path = lab_xstrdup(b->repo);
        s->ref = lab_xstrdup(b->ref);
    } else if (!b->src) {
        return lab_error("no source: give a tarball, a directory, REPO:REF or --repo/--ref");
    } else if (stat(b->src, &st) == 0 && S_ISDIR(st.st_mode)) {
        s->kind = SRC_DIR;
        s->path = realpath(b->src, NULL);
    } else if (stat(b->src, &st) == 0 && S_ISREG(st.st_mode)) {
        if (!ends_with(b->src, ".tar.xz") && !ends_with(b->src, ".tar.gz") &&
            !ends_with(b->src, ".tgz") && !ends_with(b->src, ".tar.bz2") &&
            !ends_with(b->src, ".tar"))
            return lab_error("%s: not a source tarball (.tar.xz, .tar.gz, .tar.bz2, .tar)", b->src);
        s->kind = SRC_TARBALL;
        s->path = realpath(b->src, NULL);
    } else {
        const char *colon = strrchr(b->src, ':');
        if (!colon)
            return lab_error("%s: no such file or directory (nor REPO:REF)", b->src);
        s->kind = SRC_GIT;
        s->path = strndup(b->src, (size_t)(colon - b->src));
        s->ref = lab_xstrdup(colon + 1);
    }
    if (!s->path)
        return lab_error("%s: %s", b->src, strerror(errno));

    if (s->kind == SRC_GIT) {
        char *qp = lab_shell_quote(s->path), *qr = lab_shell_quote(s->ref), *tree = NULL;
        cmd = lab_asprintf("git -C %s rev-parse --verify -q %s^{tree}", qp, qr);
        int rc = sh_capture(cmd, &tree);
        free(cmd);
        if (rc == 0) {
            snprintf(s->tree_id, sizeof s->tree_id, "%.*s", (int)strcspn(tree, "\n"), tree);
            cmd = lab_asprintf("git -C %s show %s:Makefile", qp, qr);
            rc = sh_capture(cmd, &s->makefile);
            free(cmd);
        }
        free(tree);
        free(qp);
        free(qr);
        if (rc < 0)
            return lab_error("%s is not a git ref in %s with a Makefile", s->ref, s->path);
    } else if (s->kind == SRC_DIR) {
        char *mk = lab_asprintf("%s/Makefile", s->path);
        size_t len;
        s->makefile = lab_read_file(mk, &len);
        free(mk);
        if (!s->makefile)
            return lab_error("%s has no Makefile: not a kernel tree", s->path);
    } else {
        /* Only the top directory's Makefile; tar stops at the first. */
        char *qp = lab_shell_quote(s->path);
        cmd = lab_asprintf("tar -xOf %s --wildcards --no-wildcards-match-slash --occurrence=1 "
                           "'*/Makefile' 2>/dev/null",
                           qp);
        int rc = sh_capture(cmd, &s->makefile);
        free(cmd);
        free(qp);
        if (rc < 0 || !s->makefile[0])
            return lab_error("%s: no top-level Makefile in the tarball", s->path);
    }
    return 0;
}

static int source_tree_id(struct source *s)
{
    if (s->kind == SRC_GIT)
        return 0;
    if (s->kind == SRC_DIR)
        return dir_tree_id(s->path, s->tree_id);
    struct lab_hash h;
    if (lab_hash_init(&h) < 0)
        return -1;
    if (lab_hash_file(&h, s->path) < 0) {
        lab_hash_abort(&h);
        return -1;
    }
    return lab_hash_final(&h, s->tree_id);
}

static int nprocs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static int have_ccache(void)
{
    return sh_capture("command -v ccache >/dev/null", NULL) == 0;
}

/* Every option name a tree defines, one per line with a leading newline:
 * "config NAME" / "menuconfig NAME" in Kconfig* (2.6 on), CONFIG_NAME in
 * 2.4's config.in/Config.in. One pass over the tree; malloc'd, or NULL. */
static char *tree_options(const char *srcdir)
{
    char *qd = lab_shell_quote(srcdir), *out = NULL;
    char *cmd = lab_asprintf(
        "cd %s && { find . -name 'Kconfig*' -print0 | xargs -0 grep -hoE "
        "'^[[:space:]]*(menu)?config[[:space:]]+[A-Za-z0-9_]+' 2>/dev/null | "
        "sed -E 's/^[[:space:]]*(menu)?config[[:space:]]+//'; find . \\( -name 'Config.in' "
        "-o -name 'config.in' \\) -print0 | xargs -0 grep -hoE 'CONFIG_[A-Za-z0-9_]+' "
        "2>/dev/null | sed 's/^CONFIG_//'; } | sort -u",
        qd);
    char *names = NULL;
    if (sh_capture(cmd, &names) == 0)
        out = lab_asprintf("\n%s", names);
    free(names);
    free(cmd);
    free(qd);
    return out;
}

static int tree_knows(const char *options, const char *opt)
{
    if (!options)
        return 1;
    char *key = lab_asprintf("\n%s\n", opt);
    int yes = strstr(options, key) != NULL;
    free(key);
    return yes;
}

/* Every =y line of the lab's fragment should be in the final .config: an
 * option the tree knows but did not take (a dependency is off) is warned
 * about; options the tree does not have are listed in one line. */
static void check_fragment(const char *fragment, const char *config_path, const char *srcdir)
{
    size_t len;
    char *cfg = lab_read_file(config_path, &len);
    if (!cfg)
        return;
    char *absent = lab_xstrdup(""), *options = NULL;
    int nabsent = 0;
    for (const char *l = fragment; l && *l;) {
        const char *end = strchr(l, '\n');
        size_t n = end ? (size_t)(end - l) : strlen(l);
        if (n > 9 && strncmp(l, "CONFIG_", 7) == 0 && l[n - 1] == 'y' && l[n - 2] == '=') {
            char *line = lab_asprintf("\n%.*s\n", (int)n, l);
            if (!strstr(cfg, line)) {
                char *opt = lab_asprintf("%.*s", (int)(n - 9), l + 7);
                if (!options && srcdir)
                    options = tree_options(srcdir);
                if (tree_knows(options, opt)) {
                    lab_warn("the built config lacks %.*s (a dependency is off)", (int)n, l);
                } else {
                    char *a = lab_asprintf("%s%s%s", absent, nabsent++ ? ", " : "", opt);
                    free(absent);
                    absent = a;
                }
                free(opt);
            }
            free(line);
        }
        l = end ? end + 1 : NULL;
    }
    /* One fragment serves a range of releases: options of other releases
     * are expected, so they are one line, not a warning each. */
    if (nabsent)
        fprintf(stderr, "lab: %d option(s) of the fragment are not in this tree (ignored): %s\n",
                nabsent, absent);
    free(absent);
    free(options);
    free(cfg);
}

int lab_kernel_build(const struct lab_build_spec *b, char **name_out)
{
    struct source src;
    int rc = -1;
    char version[64], msg[512], hex[LAB_HASH_HEX_LEN + 1];
    char *frag_lab = NULL, *frag_user = NULL, *cc_full = NULL, *name = NULL, *work = NULL;
    char *objdir = NULL, *top = NULL, *cache = NULL, *log = NULL, *cmd = NULL, *tmp = NULL;
    char *kbuild = NULL, *make = NULL;
    const char *cc = b->cc ? b->cc : "gcc";
    const char *arch = b->arch ? b->arch : "x86_64";
    int is32 = strcmp(arch, "x86_64") != 0;
    struct lab_compiler comp;
    lab_kver kv;
    size_t len;

    if (source_open(b, &src) < 0)
        goto out;
    if (lab_makefile_version(src.makefile, version, sizeof version) < 0 ||
        lab_kver_parse(version, &kv) < 0) {
        lab_error("cannot read the kernel version from %s's Makefile", src.path);
        goto out;
    }
    /* The toolchain decision comes first: nothing is extracted or built for
     * a compiler that cannot build this tree. */
    if (lab_compiler_probe(cc, b->wrap, &comp, &cc_full) < 0)
        goto out;
    int how = lab_toolchain_decide(kv, arch, &comp, b->cc || b->wrap, msg, sizeof msg);
    if (!how) {
        lab_error("%s", msg);
        rc = -2;
        goto out;
    }
    /* era: the compat layer builds this tree with this compiler (flags and
     * fixups on the lab's copy of the tree; kernels/compat.h) */
    int era = how == 2;
    unsigned carch = lab_compat_arch(arch);
    const char *fname = lab_build_fragment_name(kv);
    if (fname) {
        char *p = lab_asprintf("%s/%s", lab_build_configs_dir(), fname);
        frag_lab = lab_read_file(p, &len);
        if (!frag_lab)
            lab_error("cannot read the lab's config fragment %s", p);
        free(p);
        if (!frag_lab)
            goto out;
    } else {
        if (!b->fragment) {
            lab_error("the lab has no config fragment for linux %s yet; give one with --config "
                      "FRAGMENT (it is merged over allnoconfig)",
                      version);
            goto out;
        }
        frag_lab = lab_xstrdup("");
    }
    if (b->fragment && !(frag_user = lab_read_file(b->fragment, &len))) {
        lab_error("cannot read the config fragment %s", b->fragment);
        goto out;
    }
    if (source_tree_id(&src) < 0)
        goto out;

    struct lab_hash h;
    if (lab_hash_init(&h) < 0)
        goto out;
    lab_hash_str(&h, "lab-kernel-build-1");
    lab_hash_str(&h, src.tree_id);
    lab_hash_str(&h, arch);
    lab_hash_str(&h, frag_lab);
    lab_hash_str(&h, frag_user);
    lab_hash_str(&h, cc_full);
    lab_hash_str(&h, b->wrap);
    if (era) {
        char *d = lab_compat_describe(kv, carch);
        lab_hash_str(&h, d);
        free(d);
    }
    if (lab_hash_final(&h, hex) < 0)
        goto out;
    name = b->name ? lab_xstrdup(b->name) : lab_asprintf("build-%.12s", hex);
    if (!lab_user_kernel_name_ok(name, msg, sizeof msg)) {
        lab_error("%s", msg);
        goto out;
    }
    top = lab_asprintf("%s/kernels/build", lab_home());
    cache = lab_asprintf("%s/%.*s", top, LAB_HASH_SHORT, hex);
    char *extra =
        lab_asprintf("build_hash=%s\nbuild_src=%s%s%s\nbuild_cc=%s\nbuild_wrap=%s\n", hex, src.path,
                     src.ref ? ":" : "", src.ref ? src.ref : "", comp.text, b->wrap ? b->wrap : "");
    char *bz = lab_asprintf("%s/bzImage", cache);
    char *cfg = lab_asprintf("%s/config", cache);
    char *map = lab_asprintf("%s/System.map", cache);
    struct lab_user_kernel_spec us = {.name = name,
                                      .image = bz,
                                      .config = cfg,
                                      .arch = arch,
                                      .source = "build",
                                      .extra = extra,
                                      .replace = 1};
    if (lab_file_exists(bz)) {
        const struct lab_kernel *k = lab_kernel_find(name);
        fprintf(stderr, "lab: linux %s for these inputs is cached in %s\n", version, cache);
        rc = 0;
        if (!k || !k->dir || strcmp(k->source, "build") != 0) {
            if (k && k->dir)
                lab_user_kernel_remove(name);
            us.system_map = lab_file_exists(map) ? map : NULL;
            rc = lab_user_kernel_add(&us);
        }
        goto out_reg;
    }
    if (lab_mkdir_p(top, 0755) < 0)
        goto out_reg;

    /* Sources into a work tree (tarball, git) or built out of tree (dir). */
    log = lab_asprintf("%s/%.*s.log", top, LAB_HASH_SHORT, hex);
    unlink(log);
    char *qsrc = lab_shell_quote(src.path);
    const char *srcdir;
    if (src.kind == SRC_DIR && !era) {
        struct lab_hash hd;
        char dh[LAB_HASH_HEX_LEN + 1];
        if (lab_hash_init(&hd) < 0)
            goto out_q;
        lab_hash_str(&hd, src.path);
        lab_hash_str(&hd, arch);
        if (lab_hash_final(&hd, dh) < 0)
            goto out_q;
        objdir = lab_asprintf("%s/obj-%.*s", top, LAB_HASH_SHORT, dh);
        srcdir = src.path;
        if (lab_mkdir_p(objdir, 0755) < 0)
            goto out_q;
    } else {
        work = lab_asprintf("%s/%.*s.work", top, LAB_HASH_SHORT, hex);
        lab_rm_rf(work);
        if (lab_mkdir_p(work, 0755) < 0)
            goto out_q;
        char *qw = lab_shell_quote(work);
        if (src.kind == SRC_TARBALL)
            cmd = lab_asprintf("tar -xf %s -C %s --strip-components=1", qsrc, qw);
        else if (src.kind == SRC_DIR) /* fixups apply: never to the user's tree */
            cmd = lab_asprintf("cp -a %s/. %s/ && rm -rf %s/.git", qsrc, qw, qw);
        else {
            char *qr = lab_shell_quote(src.ref);
            cmd = lab_asprintf("git -C %s archive --format=tar %s | tar -x -C %s", qsrc, qr, qw);
            free(qr);
        }
        free(qw);
        fprintf(stderr, "lab: unpacking %s into %s\n", src.path, work);
        if (sh_log(cmd, log) != 0) {
            lab_error("unpacking %s failed (log %s)", src.path, log);
            lab_log_tail(log, 5, "");
            goto out_q;
        }
        srcdir = work;
    }
    if (era) {
        int n = lab_compat_apply_tree(work, kv, carch, log);
        if (n < 0)
            goto out_q;
        fprintf(stderr, "lab: era compat layer: %d file(s) fixed in the lab's copy (log %s)\n", n,
                log);
    }
    const char *bdir = objdir ? objdir : work;
    int64_t t0 = lab_now_ns();
    /* make with the prefix, the tree, O=, ARCH and the compiler */
    char *qs = lab_shell_quote(srcdir), *qo = objdir ? lab_shell_quote(objdir) : NULL;
    struct lab_compat_vars cv = {0};
    if (era)
        lab_compat_vars_for(kv, carch, &cv);
    char *ccv = lab_asprintf("%s%s%s%s", have_ccache() ? "ccache " : "", cc,
                             cv.cflags && *cv.cflags ? " " : "", cv.cflags ? cv.cflags : "");
    char *qcc = lab_shell_quote(ccv);
    char *qhcc = lab_shell_quote(cc);
    char *qas = cv.as && *cv.as ? lab_shell_quote(cv.as) : NULL, *qld = cv.ld && *cv.ld ? lab_shell_quote(cv.ld) : NULL;
    make = lab_asprintf("%s%smake -C %s%s%s ARCH=%s CC=%s HOSTCC=%s%s%s%s%s",
                        b->wrap ? b->wrap : "", b->wrap ? " " : "", qs, qo ? " O=" : "",
                        qo ? qo : "", is32 ? "i386" : "x86_64", qcc, qhcc, qas ? " AS=" : "",
                        qas ? qas : "", qld ? " LD=" : "", qld ? qld : "");
    free(qas);
    free(qld);
    lab_compat_vars_free(&cv);
    setenv("LC_ALL", "C", 1); /* ASCII diagnostics, parsed by the compat layer */
    free(qs);
    free(qo);
    free(ccv);
    free(qcc);
    free(qhcc);
    if (!getenv("CCACHE_DIR")) {
        char *cd = lab_asprintf("%s/kernels/ccache", lab_home());
        lab_mkdir_p(cd, 0755);
        setenv("CCACHE_DIR", cd, 1);
        free(cd);
    }
    setenv("KBUILD_BUILD_USER", "lab", 1);
    setenv("KBUILD_BUILD_HOST", "lab", 1);

    /* tinyconfig (3.17+) or allnoconfig, the fragments, olddefconfig (3.7+)
     * or oldconfig with default answers. */
    char *config_path = lab_asprintf("%s/.config", bdir);
    /* What the tree's config system offers: 2.4 has scripts/Configure
     * (oldconfig answers 'n' to every bool the .config lacks, so the
     * fragment alone is an "allnoconfig" + fragment) and needs make dep;
     * kconfig trees have allnoconfig (2.6.0 on), tinyconfig from 3.17. */
    char *kmk = lab_asprintf("%s/scripts/kconfig/Makefile", srcdir);
    size_t kl;
    char *ktext = lab_read_file(kmk, &kl);
    int kconfig = ktext != NULL, has_allno = ktext && strstr(ktext, "allnoconfig");
    free(kmk);
    free(ktext);
    const char *base_target = kv >= LAB_KV_RC(3, 17, 0, 0) ? "tinyconfig"
                              : has_allno                  ? "allnoconfig"
                                                           : NULL;
    free(cmd);
    cmd = base_target ? lab_asprintf("%s %s", make, base_target) : NULL;
    fprintf(stderr, "lab: configuring linux %s (%s + %s%s%s)\n", version,
            base_target ? base_target : "an empty .config", fname ? fname : "",
            b->fragment ? " + " : "", b->fragment ? b->fragment : "");
    int bad = cmd ? sh_log(cmd, log) != 0 : 0;
    if (!base_target)
        unlink(config_path);
    if (!bad) {
        size_t cl;
        char *base = base_target ? lab_read_file(config_path, &cl) : lab_xstrdup("");
        char *merged =
            lab_asprintf("%s\n# lab fragment %s\n%s\n# user fragment\n%s\n", base ? base : "",
                         fname ? fname : "-", frag_lab, frag_user ? frag_user : "");
        bad = !base || lab_write_file(config_path, merged, strlen(merged)) < 0;
        free(base);
        free(merged);
    }
    if (!bad) {
        free(cmd);
        cmd = kv >= LAB_KV_RC(3, 7, 0, 0) ? lab_asprintf("%s olddefconfig", make)
                                          : lab_asprintf("yes '' | %s oldconfig", make);
        bad = sh_log(cmd, log) != 0;
    }
    if (!bad && !kconfig) { /* 2.4: the dependency files */
        free(cmd);
        cmd = lab_asprintf("%s dep", make);
        fprintf(stderr, "lab: make dep (2.4)\n");
        bad = sh_log(cmd, log) != 0;
    }
    if (bad) {
        lab_error("configuring linux %s failed (log %s)", version, log);
        lab_log_tail(log, 10, "");
        free(config_path);
        goto out_q;
    }
    check_fragment(frag_lab, config_path, srcdir);
    if (frag_user)
        check_fragment(frag_user, config_path, srcdir);
    int jobs = b->jobs > 0 ? b->jobs : nprocs();
    free(cmd);
    cmd = lab_asprintf("%s%s -j%d bzImage", make, era ? " -k" : "", jobs);
    fprintf(stderr, "lab: building linux %s with %s%s%s, -j%d (log %s)\n", version, comp.text,
            era ? " through the era compat layer" : "", have_ccache() ? " and ccache" : "", jobs,
            log);
    for (int pass = 1;; pass++) {
        struct stat lst;
        off_t off = stat(log, &lst) == 0 ? lst.st_size : 0;
        if (sh_log(cmd, log) == 0)
            break;
        int fixed = 0;
        if (era && pass < 16) {
            size_t ll;
            char *text = lab_read_file(log, &ll);
            if (text && (size_t)off <= ll)
                fixed = lab_compat_fix_conflicts(srcdir, text + off, log);
            free(text);
        }
        if (fixed <= 0) {
            lab_error("building linux %s failed (log %s)", version, log);
            lab_log_tail(log, 15, "");
            free(config_path);
            goto out_q;
        }
        fprintf(stderr,
                "lab: era compat layer: regparm on %d FASTCALL/asmlinkage definition(s) gcc "
                "reported as "
                "conflicting; building again (pass %d)\n",
                fixed, pass + 1);
    }
    double secs = (double)(lab_now_ns() - t0) / 1e9;
    char *built = lab_asprintf("%s/arch/x86/boot/bzImage", bdir);
    if (!lab_file_exists(built)) { /* before 2.6.24: arch/i386, arch/x86_64 */
        free(built);
        built = lab_asprintf("%s/arch/%s/boot/bzImage", bdir, is32 ? "i386" : "x86_64");
    }
    /* Into the cache: a temp dir renamed into place. */
    tmp = lab_asprintf("%s/.%.*s-XXXXXX", top, LAB_HASH_SHORT, hex);
    if (!mkdtemp(tmp)) {
        lab_error("cannot create a directory in %s: %s", top, strerror(errno));
        free(built);
        free(config_path);
        goto out_q;
    }
    chmod(tmp, 0755);
    char *qb = lab_shell_quote(built), *qc = lab_shell_quote(config_path), *qt = lab_shell_quote(tmp), *ql = lab_shell_quote(log);
    char *smap = lab_asprintf("%s/System.map", bdir);
    char *qm = lab_shell_quote(smap);
    free(cmd);
    /* System.map next to bzImage (symbol resolution of /proc/profile) */
    cmd = lab_asprintf("cp %s %s/bzImage && cp %s %s/config && cp %s %s/build.log && "
                       "{ ! test -f %s || cp %s %s/System.map; } && chmod 644 %s/*",
                       qb, qt, qc, qt, ql, qt, qm, qm, qt, qt);
    free(qm);
    free(smap);
    bad = sh_log(cmd, NULL) != 0 || rename(tmp, cache) < 0;
    free(qb);
    free(qc);
    free(qt);
    free(ql);
    free(built);
    free(config_path);
    if (bad) {
        lab_error("cannot store the build in %s", cache);
        lab_rm_rf(tmp);
        goto out_q;
    }
    fprintf(stderr, "lab: built linux %s in %.0f s -> %s\n", version, secs, cache);
    if (work && !b->keep)
        lab_rm_rf(work);
    {
        const struct lab_kernel *k = lab_kernel_find(name);
        if (k && k->dir)
            lab_user_kernel_remove(name);
    }
    us.system_map = lab_file_exists(map) ? map : NULL;
    rc = lab_user_kernel_add(&us);
out_q:
    free(qsrc);
out_reg:
    free(extra);
    free(bz);
    free(cfg);
    free(map);
    if (rc == 0 && name_out) {
        *name_out = name;
        name = NULL;
    }
out:
    source_free(&src);
    free(frag_lab);
    free(frag_user);
    free(cc_full);
    free(name);
    free(work);
    free(objdir);
    free(top);
    free(cache);
    free(log);
    free(cmd);
    free(tmp);
    free(kbuild);
    free(make);
    return rc;
}
