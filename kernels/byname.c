/* Kernels by name; see byname.h. */
#include "kernels/byname.h"

#include "kernels/build.h"
#include "kernels/mirror.h"
#include "kernels/release.h"
#include "kernels/user.h"
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
#include <sys/file.h>
#include <unistd.h>

#define MAX_PATCHES 16

/* A spec split: the base name and the user's patch files. */
struct spec {
    char *text; /* owns the strings below */
    const char *base;
    const char *patches[MAX_PATCHES];
    size_t npatches;
};

static int spec_split(const char *s, struct spec *sp, char *err, size_t len)
{
    *sp = (struct spec){.text = lab_xstrdup(s)};
    char *save, *tok = strtok_r(sp->text, "+", &save);
    sp->base = tok ? tok : "";
    while ((tok = strtok_r(NULL, "+", &save))) {
        if (sp->npatches == MAX_PATCHES)
            return lab_fail_into(err, len, "%s: at most %d patches", s, MAX_PATCHES);
        sp->patches[sp->npatches++] = tok;
    }
    if (strchr(s, '+') && sp->npatches == 0)
        return lab_fail_into(err, len, "%s: a variant names its patch files after '+'", s);
    return 0;
}

int lab_byname_valid(const char *s, char *err, size_t len)
{
    struct spec sp;
    struct lab_release r;
    int ok = spec_split(s, &sp, err, len) == 0 && lab_release_parse(sp.base, &r, err, len) == 0;
    free(sp.text);
    return ok;
}

char *lab_byname_label(const char *s)
{
    struct spec sp;
    spec_split(s, &sp, NULL, 0);
    char *out = lab_xstrdup(sp.base);
    for (size_t i = 0; i < sp.npatches; i++) {
        const char *b = strrchr(sp.patches[i], '/');
        char *more = lab_asprintf("%s+%s", out, b ? b + 1 : sp.patches[i]);
        free(out);
        out = more;
    }
    for (char *p = out; *p; p++) /* a user kernel's name: [A-Za-z0-9._+-] */
        if (!strchr("._+-", *p) && !(*p >= '0' && *p <= '9') &&
            !((*p | 32) >= 'a' && (*p | 32) <= 'z'))
            *p = '_';
    free(sp.text);
    return out;
}

int lab_byname_made(const struct lab_kernel *k)
{
    if (!k->dir)
        return 0;
    char *conf = lab_asprintf("%s/kernel.conf", k->dir);
    size_t len;
    char *text = lab_read_file(conf, &len);
    int made = text && (strncmp(text, "origin_name=", 12) == 0 || strstr(text, "\norigin_name="));
    free(text);
    free(conf);
    return made;
}

/* The lock of one name: a second lab waits, and says so. The fd, or -1. */
static int lock_name(const char *label)
{
    char *dir = lab_asprintf("%s/kernels/release", lab_home());
    char *path = lab_asprintf("%s/%s.lock", dir, label);
    int fd = lab_mkdir_p(dir, 0755) == 0 ? open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644) : -1;
    if (fd < 0) {
        lab_error("cannot open the lock %s: %s", path, strerror(errno));
    } else if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
        fprintf(stderr, "lab: another lab is preparing %s (lock %s); waiting for it\n", label,
                path);
        if (flock(fd, LOCK_EX) < 0) {
            lab_error("waiting for the lock %s: %s", path, strerror(errno));
            close(fd);
            fd = -1;
        } else {
            fprintf(stderr, "lab: %s: the other lab is done; using what it left\n", label);
        }
    }
    free(path);
    free(dir);
    return fd;
}

/* One file of the plan: its cache path, where it came from, its sha256. */
struct got {
    char path[1024];
    struct lab_mirror_file f;
};

/* What the cache says about a file fetched earlier (its .origin). */
static int from_cache(const char *dl, const char *base, const char *rel, struct got *g)
{
    snprintf(g->path, sizeof g->path, "%s/%s", dl, rel);
    if (!lab_file_exists(g->path))
        return 0;
    char *origin = lab_asprintf("%s.origin", g->path);
    size_t len;
    char *text = lab_read_file(origin, &len);
    free(origin);
    char url[1024] = "", checked[160] = "";
    if (!text || sscanf(text, "url=%1023[^\n]\nsha256=%64[0-9a-f]\nchecked=%159[^\n]", url,
                        g->f.sha256, checked) != 3) {
        snprintf(url, sizeof url, "%s%s", base, rel);
        snprintf(checked, sizeof checked, "cached");
        if (lab_mirror_file_sha256(g->path, g->f.sha256) < 0) {
            free(text);
            return -1;
        }
    }
    free(text);
    snprintf(g->f.url, sizeof g->f.url, "%s", url);
    snprintf(g->f.checked, sizeof g->f.checked, "%s (cached)", checked);
    return 1;
}

/* The first candidate the cache or the mirror has. 0; -2 none (said,
 * with every URL tried) or unreachable; -1 failed. */
static int fetch_one(const char *dl, const char *base, const char (*cands)[LAB_RELEASE_PATH_MAX],
                     size_t n, const char *what, struct got *g)
{
    for (size_t i = 0; i < n; i++) {
        int c = from_cache(dl, base, cands[i], g);
        if (c != 0)
            return c < 0 ? -1 : 0;
    }
    for (size_t i = 0; i < n; i++) {
        snprintf(g->path, sizeof g->path, "%s/%s", dl, cands[i]);
        char *dir = lab_asprintf("%.*s", (int)(strrchr(g->path, '/') - g->path), g->path);
        int mk = lab_mkdir_p(dir, 0755);
        free(dir);
        if (mk < 0)
            return -1;
        enum lab_mirror_rc rc = lab_mirror_get(base, cands[i], g->path, &g->f);
        if (rc == LAB_MIRROR_ABSENT)
            continue;
        if (rc != LAB_MIRROR_OK)
            return rc == LAB_MIRROR_UNREACHABLE ? -2 : -1;
        char *origin = lab_asprintf("%s.origin", g->path);
        char *text =
            lab_asprintf("url=%s\nsha256=%s\nchecked=%s\n", g->f.url, g->f.sha256, g->f.checked);
        lab_write_file(origin, text, strlen(text));
        free(text);
        free(origin);
        return 0;
    }
    char tried[2048] = "";
    for (size_t i = 0; i < n; i++)
        snprintf(tried + strlen(tried), sizeof tried - strlen(tried), "%s%s%s", i ? ", " : "", base,
                 cands[i]);
    lab_error("the mirror has no %s (tried %s); is it a kernel.org release? (%s=%s)", what, tried,
              LAB_MIRROR_ENV, base);
    return -2;
}

/* The release's own files: the base tarball and its patch, from the
 * mirror. Fills the build spec's source, first patch and provenance. */
static int from_mirror(const struct lab_release_plan *p, struct got *tar, struct got *patch,
                       char **origin)
{
    char *base = lab_mirror_base();
    if (!base)
        return -2;
    const char *dlenv = getenv(LAB_KERNEL_DOWNLOADS_ENV);
    char *dl =
        dlenv && *dlenv ? lab_xstrdup(dlenv) : lab_asprintf("%s/kernels/release/dl", lab_home());
    char what[160];
    snprintf(what, sizeof what, "linux-%s.tar.{xz,bz2,gz} (the base of %s)", p->base, p->name);
    int rc = fetch_one(dl, base, p->base_paths, p->nbase, what, tar);
    if (rc == 0 && p->npatch) {
        snprintf(what, sizeof what, "patch-%s.{xz,bz2,gz} (the %s to %s)", p->name, p->kind,
                 p->base);
        rc = fetch_one(dl, base, p->patch_paths, p->npatch, what, patch);
    }
    if (rc == 0) {
        *origin = lab_asprintf("origin_name=%s\norigin_mirror=%s\norigin_base_url=%s\n"
                               "origin_base_sha256=%s\norigin_base_checked=%s\n",
                               p->name, base, tar->f.url, tar->f.sha256, tar->f.checked);
        if (p->npatch) {
            char *more =
                lab_asprintf("%sorigin_patch_kind=%s\norigin_patch_url=%s\n"
                             "origin_patch_sha256=%s\norigin_patch_checked=%s\n",
                             *origin, p->kind, patch->f.url, patch->f.sha256, patch->f.checked);
            free(*origin);
            *origin = more;
        }
    }
    free(dl);
    free(base);
    return rc;
}

/* $LAB_KERNEL_GIT's tag for the name, when it has one: 1 (ref filled), 0. */
static int from_git(const char *name, const char **repo, char *ref, size_t len)
{
    *repo = getenv(LAB_KERNEL_GIT_ENV);
    if (!*repo || !**repo || lab_release_git_tag(name, ref, len) < 0)
        return 0;
    char *qr = lab_shell_quote(*repo), *qt = lab_shell_quote(ref);
    char *cmd = lab_asprintf("git -C %s rev-parse -q --verify %s^{commit}", qr, qt);
    char *out = lab_capture(cmd);
    free(cmd);
    free(qr);
    free(qt);
    free(out);
    if (!out)
        fprintf(stderr, "lab: %s has no tag %s; using the mirror\n", *repo, ref);
    return out != NULL;
}

static const char *default_arch(const struct lab_release_plan *p)
{
    return strncmp(p->name, "2.", 2) == 0 ? "i686" : "x86_64";
}

/* The build of a planned spec: git or mirror for the release, then the
 * user's patches. */
static int build_planned(const struct spec *sp, const struct lab_release_plan *p,
                         const struct lab_byname_opts *o, const char *label, char **name_out)
{
    const char *patches[MAX_PATCHES + 1];
    size_t np = 0;
    struct got tar = {0}, patch = {0};
    char ref[64];
    char *origin = NULL;
    struct lab_build_spec bs = {.name = label,
                                .arch = o && o->arch ? o->arch : default_arch(p),
                                .jobs = o ? o->jobs : 0,
                                .version = p->name,
                                .check_version = sp->npatches == 0};
    if (from_git(p->name, &bs.repo, ref, sizeof ref)) {
        bs.ref = ref;
        origin = lab_asprintf("origin_name=%s\norigin_git=%s\norigin_git_tag=%s\n", p->name,
                              bs.repo, ref);
        fprintf(stderr, "lab: %s: from %s's tag %s\n", label, bs.repo, ref);
    } else {
        bs.repo = NULL;
        int rc = from_mirror(p, &tar, &patch, &origin);
        if (rc < 0)
            return rc;
        bs.src = tar.path;
        if (p->npatch)
            patches[np++] = patch.path;
    }
    for (size_t i = 0; i < sp->npatches; i++)
        patches[np++] = sp->patches[i];
    bs.patches = patches;
    bs.npatches = np;
    bs.extra = origin;
    int rc = lab_kernel_build(&bs, name_out);
    free(origin);
    return rc;
}

int lab_byname_prepare(const char *s, const struct lab_byname_opts *o, char **name_out)
{
    char err[512];
    struct spec sp;
    struct lab_release_plan p;
    int rc = -2;
    if (spec_split(s, &sp, err, sizeof err) < 0 ||
        lab_release_plan(sp.base, &p, err, sizeof err) < 0) {
        lab_error("%s", err);
        free(sp.text);
        return -2;
    }
    for (size_t i = 0; i < sp.npatches; i++)
        if (access(sp.patches[i], R_OK) != 0) {
            lab_error("%s: cannot read the patch file %s: %s", s, sp.patches[i], strerror(errno));
            free(sp.text);
            return -2;
        }
    char *label = lab_byname_label(s);
    int fd = lock_name(label);
    if (fd >= 0) {
        fprintf(stderr, "lab: preparing %s (%s %s%s%s)\n", label, p.kind, p.name,
                strcmp(p.base, p.name) ? " from " : "", strcmp(p.base, p.name) ? p.base : "");
        rc = build_planned(&sp, &p, o, label, name_out);
        close(fd); /* the lock goes with it */
    } else {
        rc = -1;
    }
    free(label);
    free(sp.text);
    return rc;
}
