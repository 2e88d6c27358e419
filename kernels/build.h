/* The kernel builder: `lab kernels build SRC`. SRC is a source tarball
 * (.tar.xz, .tar.gz, .tar.bz2, .tar), a directory (built out of tree with
 * O=, so it stays clean) or a git ref (REPO:REF, or repo + ref: `git archive`).
 * The version comes from the tree's Makefile; the compiler is checked
 * against kernels/toolchain.h before anything starts. The config is
 * `make tinyconfig` (allnoconfig before 3.17) plus the lab's fragment for
 * the era (kernels/configs/) plus the user's fragment, then olddefconfig.
 * ccache is used when installed (CCACHE_DIR defaults to
 * lab_home()/kernels/ccache). The result is cached in
 * lab_home()/kernels/build/<hash>/ by (tree, arch, config fragments,
 * compiler --version, wrap prefix) and registered as a user kernel. */
#ifndef LAB_KERNELS_BUILD_H
#define LAB_KERNELS_BUILD_H

#include "kernels/era.h"

#include <stddef.h>

struct lab_build_spec {
    const char *src;      /* tarball, directory or REPO:REF; or NULL with repo + ref */
    const char *repo;     /* --repo DIR */
    const char *ref;      /* --ref REF */
    const char *name;     /* NULL: "build-<first 12 hex of the hash>" */
    const char *fragment; /* --config FRAGMENT: the user's extra options; may be NULL */
    const char *cc;       /* NULL: "gcc" */
    const char *wrap;     /* command prefix ("schroot -c squeeze --"); may be NULL */
    const char *arch;     /* NULL: x86_64; "i686" builds ARCH=i386 */
    int jobs;             /* 0: the number of online CPUs */
    int keep;             /* keep the extracted tree of a tarball or git source */
    /* Patches applied in order to the lab's copy of the tree before
     * anything builds (kernels/patch.h); their bytes are part of the cache
     * key and each one's path and sha256 goes into kernel.conf. */
    const char *const *patches;
    size_t npatches;
    /* The version the tree has once patched (a release name: "2.6.12-rc2"
     * from 2.6.11 and its prepatch): it decides the toolchain before
     * anything is unpacked, and with check_version the patched Makefile
     * must say it. NULL: the source's Makefile. */
    const char *version;
    int check_version;
    const char *extra; /* more kernel.conf lines ("key=value\n", provenance); may be NULL */
};

/* Builds (or finds in the cache) and registers the kernel; *name_out gets
 * its name (malloc'd). 0, or -1 with a message; a toolchain refusal is -2. */
int lab_kernel_build(const struct lab_build_spec *s, char **name_out);

/* "6.1.170", "2.6.1-rc1" from a top-level Makefile's VERSION, PATCHLEVEL,
 * SUBLEVEL and EXTRAVERSION. -1 if they are not there. */
int lab_makefile_version(const char *makefile, char *out, size_t len);
/* The lab's fragment file name for a version ("lab-6.x.config",
 * "lab-2.6.config"), or NULL when the lab has none for that era. */
const char *lab_build_fragment_name(lab_kver v);
/* The directory holding the fragments (kernels/configs in the source tree;
 * $LAB_KERNEL_CONFIGS overrides). */
const char *lab_build_configs_dir(void);

#endif
