/* kernel.org release names, from 2.4.0 to today, and where a mirror laid
 * out like kernel.org's pub/linux/kernel/ keeps the files that make each.
 * Pure: names in, relative paths and bases out; kernels/mirror.h fetches.
 *
 * The rules (kernel.org's "prepatches" page, Documentation/applying-patches
 * and scripts/patch-kernel):
 * - a release X.Y.Z (2.x) or X.Y (3.0 on) is a tarball in vX.Y/ (2.x) or
 *   vX.x/ (3.0 on): linux-NAME.tar.{xz,bz2,gz}, whichever the mirror has;
 * - a prepatch (-rcM, and 2.4's -preM) lives in that directory's testing/
 *   and applies to the previous full release, never to a stable one:
 *   2.6.12-rc2 to 2.6.11, 2.4.21-pre3 to 2.4.20, 3.1-rc1 to 3.0, 3.0-rc1
 *   to 2.6.39;
 * - a stable patch patch-X.Y.Z.N (2.x) or patch-X.Y.N (3.0 on) lives in the
 *   release's directory (later 2.6 longterm ones also under
 *   longterm/v2.6.Z/) and applies to its base release, not to the stable
 *   release before it: 2.6.11.7 is 2.6.11 + patch-2.6.11.7. */
#ifndef LAB_KERNELS_RELEASE_H
#define LAB_KERNELS_RELEASE_H

#include <stddef.h>

enum lab_release_kind { LAB_REL_FINAL, LAB_REL_RC, LAB_REL_PRE, LAB_REL_STABLE };

/* 2.6.12-rc2: major 2, minor 6, sub 12, kind RC, n 2. 3.4.5: major 3,
 * minor 4, sub -1, kind STABLE, n 5. 2.6.11.7: sub 11, STABLE, n 7. */
struct lab_release {
    int major, minor, sub;
    enum lab_release_kind kind;
    int n; /* the -rc/-pre number or the stable number; 0 for a release */
};

#define LAB_RELEASE_PATH_MAX 160
#define LAB_RELEASE_CANDS    6
#define LAB_RELEASE_NAME_MAX 32

/* What makes a release: the base tarball (one of base_paths, first found
 * wins) and, unless the name is a release itself, one patch (one of
 * patch_paths) applied to it with -p1. Paths are relative to the mirror's
 * pub/linux/kernel/. */
struct lab_release_plan {
    char name[LAB_RELEASE_NAME_MAX]; /* as given: "2.6.12-rc2" */
    char base[LAB_RELEASE_NAME_MAX]; /* "2.6.11" */
    const char *kind;                /* "release", "prepatch", "stable patch" */
    size_t nbase, npatch;
    char base_paths[LAB_RELEASE_CANDS][LAB_RELEASE_PATH_MAX];
    char patch_paths[LAB_RELEASE_CANDS][LAB_RELEASE_PATH_MAX];
};

/* 0, or -1 with why in err (a name outside the grammar: "2.6.011",
 * "2.6.11-rc0", "2.5.3", "2.6.0-rc1", "3.4.5-rc1"). */
int lab_release_parse(const char *name, struct lab_release *r, char *err, size_t len);
/* The mirror paths for a name. 0, or -1 with why in err. */
int lab_release_plan(const char *name, struct lab_release_plan *p, char *err, size_t len);
/* A git tag for a name in Linux's git history ("v2.6.13", "v2.6.12-rc2",
 * "v3.4.5" only in the stable tree): 0, or -1 for names before the history
 * starts (2.6.12-rc2) or outside the grammar. */
int lab_release_git_tag(const char *name, char *out, size_t len);
/* The first name a git tree can have: "2.6.12-rc2". */
#define LAB_RELEASE_GIT_FIRST "2.6.12-rc2"

#endif
