/* kernel.org release names and their mirror paths; see release.h. */
#include "kernels/release.h"

#include "common/msg.h"

#include <stdio.h>
#include <string.h>

/* The last release of each major series: what X.0-rcM applies to. */
static const struct {
    int major;
    const char *last;
} series_last[] = {
    {3, "2.6.39"}, {4, "3.19"}, {5, "4.20"}, {6, "5.19"}, {7, "6.19"},
};
#define MAJOR_MAX 7

/* The compressions kernel.org published, newest first: xz from 2.6.x on,
 * bz2 and gz for the older trees (and until 3.x for the newer ones). */
static const char *const exts[] = {"xz", "bz2", "gz"};
#define NEXTS (sizeof exts / sizeof exts[0])

/* A decimal without a leading zero, at most 3 digits; the end in *s. */
static int number(const char **s, int *out)
{
    const char *p = *s;
    int v = 0, n = 0;
    while (*p >= '0' && *p <= '9' && n < 4) {
        v = v * 10 + (*p++ - '0');
        n++;
    }
    if (n == 0 || n > 3 || (n > 1 && **s == '0'))
        return -1;
    *s = p;
    *out = v;
    return 0;
}

/* "-rcM" or "-preM" (2.4) after the release part. */
static int suffix(const char **s, struct lab_release *r, char *err, size_t len)
{
    if (strncmp(*s, "-rc", 3) == 0) {
        r->kind = LAB_REL_RC;
        *s += 3;
    } else if (strncmp(*s, "-pre", 4) == 0 && r->major == 2 && r->minor == 4) {
        r->kind = LAB_REL_PRE;
        *s += 4;
    } else {
        return lab_fail_into(err, len, "'%s' is not a suffix of a release name (-rcN%s)", *s,
                             r->major == 2 && r->minor == 4 ? " or -preN" : "");
    }
    if (number(s, &r->n) < 0 || r->n == 0)
        return lab_fail_into(err, len, "the %s number must be a number from 1",
                             r->kind == LAB_REL_RC ? "-rc" : "-pre");
    return 0;
}

/* The part after MAJOR.MINOR[.SUB]: ".N" (stable), "-rcN", "-preN" or
 * nothing. */
static int tail(const char *s, struct lab_release *r, char *err, size_t len)
{
    if (*s == '.') {
        s++;
        if (number(&s, &r->n) < 0 || r->n == 0)
            return lab_fail_into(err, len, "a stable number must be a number from 1");
        r->kind = LAB_REL_STABLE;
    } else if (*s == '-') {
        if (suffix(&s, r, err, len) < 0)
            return -1;
    }
    if (*s)
        return lab_fail_into(err, len, "unexpected '%s' after the version", s);
    if (r->major == 2 && r->sub == 0 && (r->kind == LAB_REL_RC || r->kind == LAB_REL_PRE))
        return lab_fail_into(err, len,
                             "2.%d.0's test kernels came from the 2.%d development series, which "
                             "the lab does not fetch",
                             r->minor, r->minor - 1);
    return 0;
}

int lab_release_parse(const char *name, struct lab_release *r, char *err, size_t len)
{
    const char *s = name;
    *r = (struct lab_release){.sub = -1};
    if (!name || !*name)
        return lab_fail_into(err, len, "an empty kernel name");
    if (strlen(name) >= LAB_RELEASE_NAME_MAX || number(&s, &r->major) < 0 || *s++ != '.' ||
        number(&s, &r->minor) < 0)
        return lab_fail_into(err, len,
                             "'%s' is not a kernel.org release name (2.4.N, 2.4.N-preM, 2.6.N, "
                             "2.6.N-rcM, 2.6.N.M, 3.N .. 6.N with -rcM or .M)",
                             name);
    if (r->major == 2) {
        if (r->minor != 4 && r->minor != 6)
            return lab_fail_into(
                err, len, "'%s': the lab fetches the 2.4 and 2.6 series (2.%d is %s)", name,
                r->minor, r->minor % 2 ? "a development series" : "older than 2.4");
        if (*s++ != '.' || number(&s, &r->sub) < 0)
            return lab_fail_into(err, len, "'%s': a 2.%d name has three numbers (2.%d.N)", name,
                                 r->minor, r->minor);
    } else if (r->major < 3 || r->major > MAJOR_MAX) {
        return lab_fail_into(err, len, "'%s': no kernel.org series %d", name, r->major);
    }
    if (tail(s, r, err, len) < 0)
        return -1;
    return 0;
}

/* "2.6.11", "3.19": a release (no suffix) as its name. */
static void release_str(int major, int minor, int sub, char *out, size_t len)
{
    if (sub >= 0)
        snprintf(out, len, "%d.%d.%d", major, minor, sub);
    else
        snprintf(out, len, "%d.%d", major, minor);
}

static void series_dir(int major, int minor, char *out, size_t len)
{
    if (major == 2)
        snprintf(out, len, "v2.%d", minor);
    else
        snprintf(out, len, "v%d.x", major);
}

/* The previous full release: what a prepatch applies to. */
static int previous_release(const struct lab_release *r, char *out, size_t len)
{
    if (r->major == 2) {
        release_str(2, r->minor, r->sub - 1, out, len);
        return 0;
    }
    if (r->minor > 0) {
        release_str(r->major, r->minor - 1, -1, out, len);
        return 0;
    }
    for (size_t i = 0; i < sizeof series_last / sizeof series_last[0]; i++)
        if (series_last[i].major == r->major) {
            snprintf(out, len, "%s", series_last[i].last);
            return 0;
        }
    return -1;
}

/* dir/STEM.EXT for every compression, appended to paths. */
static void add_cands(char paths[][LAB_RELEASE_PATH_MAX], size_t *n, const char *dir,
                      const char *stem)
{
    for (size_t i = 0; i < NEXTS && *n < LAB_RELEASE_CANDS; i++)
        snprintf(paths[(*n)++], LAB_RELEASE_PATH_MAX, "%s/%s.%s", dir, stem, exts[i]);
}

static void plan_base(struct lab_release_plan *p)
{
    struct lab_release b;
    char dir[16], stem[64];
    lab_release_parse(p->base, &b, NULL, 0);
    series_dir(b.major, b.minor, dir, sizeof dir);
    snprintf(stem, sizeof stem, "linux-%s.tar", p->base);
    add_cands(p->base_paths, &p->nbase, dir, stem);
}

int lab_release_plan(const char *name, struct lab_release_plan *p, char *err, size_t len)
{
    struct lab_release r;
    char dir[16], stem[64];
    *p = (struct lab_release_plan){0};
    if (lab_release_parse(name, &r, err, len) < 0)
        return -1;
    snprintf(p->name, sizeof p->name, "%s", name);
    series_dir(r.major, r.minor, dir, sizeof dir);
    snprintf(stem, sizeof stem, "patch-%s", name);
    if (r.kind == LAB_REL_FINAL) {
        p->kind = "release";
        snprintf(p->base, sizeof p->base, "%s", name);
    } else if (r.kind == LAB_REL_STABLE) {
        p->kind = "stable patch";
        release_str(r.major, r.minor, r.sub, p->base, sizeof p->base);
        add_cands(p->patch_paths, &p->npatch, dir, stem);
        if (r.major == 2 && r.minor == 6) { /* the longterm 2.6 trees moved there */
            char lt[64];
            snprintf(lt, sizeof lt, "%s/longterm/v%s", dir, p->base);
            add_cands(p->patch_paths, &p->npatch, lt, stem);
        }
    } else {
        p->kind = "prepatch";
        if (previous_release(&r, p->base, sizeof p->base) < 0)
            return lab_fail_into(err, len, "no release before %s is known to the lab", name);
        char tdir[32];
        snprintf(tdir, sizeof tdir, "%s/testing", dir);
        add_cands(p->patch_paths, &p->npatch, tdir, stem);
    }
    plan_base(p);
    return 0;
}

int lab_release_git_tag(const char *name, char *out, size_t len)
{
    struct lab_release r;
    if (lab_release_parse(name, &r, NULL, 0) < 0)
        return -1;
    if (r.major == 2 &&
        (r.minor == 4 || r.sub < 12 || (r.sub == 12 && r.kind == LAB_REL_RC && r.n < 2)))
        return -1;
    snprintf(out, len, "v%s", name);
    return 0;
}
