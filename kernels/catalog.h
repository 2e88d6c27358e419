/* The kernel catalog: the kernels the lab knows by name, and where each
 * comes from. A plain table; kernels/fetch.h turns an entry into files and
 * kernels/era.h turns its version into era facts. */
#ifndef LAB_KERNELS_CATALOG_H
#define LAB_KERNELS_CATALOG_H

#include <stddef.h>

struct lab_kernel {
    const char *name;     /* what the user types: "6.1.0-47", "6.12.113", "6.1.0-50-i386" */
    const char *package;  /* Debian package: "linux-image-6.1.0-47-amd64-unsigned" */
    const char *release;  /* uname -r: "6.1.0-47-amd64" */
    const char *arch;     /* guest architecture: "x86_64" or "i686" (qemu-system-i386) */
    const char *source;   /* "debian" */
    const char *version;  /* upstream kernel version, for the era table: "6.1.170" */
    const char *deb_arch; /* Debian architecture of the package: "amd64", "i386" */
    /* User kernels (kernels/user.h: source "user" or "build"; package and
     * deb_arch are ""). NULL/0 for the Debian entries. */
    const char *dir;         /* lab_home()/kernels/user/<name>: bzImage, config, lib/modules */
    const char *config_path; /* dir/config when a .config came with it, else NULL */
    const char *banner;      /* the image's kernel_version string */
    int has_modules;         /* dir/lib/modules/<release> with modules.dep */
    int builtin_drivers;     /* no modules tree: the agent loads nothing, all is built in */
    /* The IO smoke test (host/cell/smoke.h): "passed", "failed", or NULL when
     * never run. A lab build that has not passed it is not used by cells:
     * modern compilers miscompile old trees silently. */
    const char *verified;
    const char *verified_note; /* the figures, or why it failed; NULL when never run */
    const char *build_hash;    /* a lab build's cache key (kernels/build.h), else NULL */
};

/* NULL if unknown. Debian entries first, then the user kernels registered
 * under lab_home()/kernels/user/ (loaded at first use; see kernels/user.h). */
const struct lab_kernel *lab_kernel_find(const char *name);
size_t lab_kernel_count(void);
/* NULL past the end. */
const struct lab_kernel *lab_kernel_at(size_t i);
/* "6.1.0-47, 6.1.0-50, ..." (malloc'd), for messages such as
 * "unknown kernel 'foo'; known kernels: %s". */
char *lab_kernel_known_names(void);
/* 1 if name is a Debian catalog entry (user kernels may not take it). */
int lab_kernel_is_debian_name(const char *name);

#endif
