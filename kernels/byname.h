/* Kernels by name: a kernel.org release name ("2.6.12-rc2", "2.4.20",
 * "2.6.11.7", "6.1") or a patched variant of one ("2.6.11+fix.diff",
 * "2.4.20+rl2.diff+elv.diff") becomes a built kernel the catalog knows
 * under that name: the base tarball and the release's patch from the
 * mirror (kernels/mirror.h, kernels/release.h) or, with $LAB_KERNEL_GIT,
 * the repository's tag; the user's patches after it; the builder
 * (kernels/build.h) through the era compat layer. Downloads are cached in
 * lab_home()/kernels/release/dl/ (the mirror's paths), builds by the
 * builder's key, so a second time fetches and builds nothing. One lock per
 * name: a second lab preparing the same kernel waits, and says so. The IO
 * smoke test is the caller's (it boots a VM: host/smoke.h). */
#ifndef LAB_KERNELS_BYNAME_H
#define LAB_KERNELS_BYNAME_H

#include "kernels/catalog.h"

#include <stddef.h>

#define LAB_KERNEL_GIT_ENV "LAB_KERNEL_GIT"
/* Where downloads are cached (default lab_home()/kernels/release/dl). */
#define LAB_KERNEL_DOWNLOADS_ENV "LAB_KERNEL_DOWNLOADS"
/* The separator of a variant's patches: "BASE+FILE[+FILE...]". */
#define LAB_VARIANT_SEP '+'

struct lab_byname_opts {
    const char *arch; /* NULL: i686 for 2.x, x86_64 from 3.0 */
    int jobs;         /* make -jN; 0: every CPU */
};

/* The name a spec registers under: the release name, then "+" and each
 * patch file's base name ("2.6.11+fix.diff"). malloc'd. */
char *lab_byname_label(const char *spec);
/* 1 if spec is a release name or a variant of one (whether or not it is
 * built yet), else 0 with why in err when err is given. */
int lab_byname_valid(const char *spec, char *err, size_t len);
/* 1 if the catalog kernel k was made here from a release name (its
 * kernel.conf says origin_name=), else 0 (a user's own kernel). */
int lab_byname_made(const struct lab_kernel *k);

/* Fetches, patches and builds spec unless cached; *name_out the catalog
 * name (malloc'd). 0; -1 failed (said); -2 bad input or no mirror (said:
 * a malformed name, a name the mirror does not have with every URL tried,
 * an unreachable mirror naming the URL and LAB_KERNEL_MIRROR, a missing
 * patch file, a toolchain that cannot build it). */
int lab_byname_prepare(const char *spec, const struct lab_byname_opts *o, char **name_out);

#endif
