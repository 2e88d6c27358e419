/* User kernels: images the user brought (`lab kernels add`) or the builder
 * made (`lab kernels build`), registered under lab_home()/kernels/user/<name>/
 * as bzImage, config (optional), lib/modules/<release>/ (optional, with
 * modules.dep by depmod -b) and kernel.conf (key=value lines: name, version,
 * release, arch, source, has_config, has_modules, builtin_drivers, banner,
 * plus the builder's provenance). Everything is 0755/0644: QEMU runs as
 * libvirt-qemu and must read the image. The catalog (kernels/catalog.h) lists
 * them after the Debian entries. */
#ifndef LAB_KERNELS_USER_H
#define LAB_KERNELS_USER_H

#include "kernels/catalog.h"
#include "kernels/era.h"

#include <stddef.h>

/* The registry, loaded from lab_home()/kernels/user/<name>/kernel.conf at first
 * use; entries whose kernel.conf does not parse are skipped with a warning. */
size_t lab_user_kernel_count(void);
const struct lab_kernel *lab_user_kernel_at(size_t i);
/* Drops the loaded registry (pointers from it become invalid) so the next
 * use reloads it: after add or remove, or when LAB_HOME changed (tests). */
void lab_user_kernels_reload(void);

struct lab_user_kernel_spec {
    const char *name;        /* [A-Za-z0-9._+-], not a Debian catalog name */
    const char *image;       /* a bzImage */
    const char *modules_dir; /* lib/modules/<release> or a root holding it; may be NULL */
    const char *config;      /* its .config; may be NULL */
    const char *system_map;  /* its System.map (resolves /proc/profile); may be NULL */
    const char *arch;        /* only when the image cannot tell (protocol < 2.12); may be NULL */
    const char *source;      /* "user" (default) or "build" */
    const char *extra;       /* more kernel.conf lines ("key=value\n"); may be NULL */
    int replace;             /* replace an existing user kernel of that name */
};

/* Registers a kernel: reads the version from the image, decides the arch,
 * copies the files and writes kernel.conf, atomically (a temp dir renamed
 * into place). 0, or -1 with a message. */
int lab_user_kernel_add(const struct lab_user_kernel_spec *spec);
/* -1 with a message if there is no such user kernel. */
int lab_user_kernel_remove(const char *name);
/* lab_home()/kernels/user (malloc'd). */
char *lab_user_kernels_dir(void);
/* 1 if name is acceptable for a user kernel, else 0 with a reason. */
int lab_user_kernel_name_ok(const char *name, char *reason, size_t len);

/* Records the IO smoke test's verdict in the user kernel's kernel.conf
 * (verified=passed|failed, verified_note=NOTE); the registry is reloaded, so
 * earlier lab_kernel pointers are stale. 0, or -1 with a message. */
int lab_user_kernel_set_verified(const char *name, int passed, const char *note);

/* Settles the era's driver choices from the kernel's .config where the lab
 * has one: which IDE stack (libata or drivers/ide) it builds, when its era
 * allows both, and whether it builds MSI. Without a .config the era's
 * defaults stand (and no MSI is assumed). */
void lab_kernel_choose_drivers(const struct lab_kernel *k, struct lab_era *era);
/* The era of a kernel as the lab runs it: lab_era_for its version and
 * arch, then lab_kernel_choose_drivers. -1 with a message. */
int lab_kernel_era(const struct lab_kernel *k, struct lab_era *era);
/* Can this kernel run a cell on this bus, with this agent channel and data
 * disk filesystem ("ext2", "ext4", "raw"; NULL skips it)? Uses the kernel's
 * .config when there is one (a user kernel's config, a cached Debian
 * kernel's boot/config-<release>); without a config, 1 (the era check in
 * kernels/era.h is all there is). 1 yes; 0 no with the reason, e.g. "kernel
 * 6.1-mine lacks CONFIG_SATA_AHCI (needed for bus sata)". Call it before
 * booting, next to lab_era_bus_supported. */
int lab_kernel_cell_ok(const struct lab_kernel *k, const struct lab_era *era, const char *bus,
                       enum lab_agent_channel ch, const char *fs, char *reason, size_t len);

#endif
