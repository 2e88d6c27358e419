/* The boot image: an initramfs (cpio newc) holding the agent as /init and
 * the kernel modules it loads, built deterministically and cached by hash. */
#ifndef LAB_IMAGES_INITRAMFS_H
#define LAB_IMAGES_INITRAMFS_H

#include <stddef.h>

struct lab_initramfs_spec {
    const char *agent_path;     /* host path of the static agent binary -> /init (0755) */
    const char *modules_dir;    /* kernel's lib/modules/<release> */
    const char *const *modules; /* wanted module names (lab_modules_resolve) */
    size_t nmodules;
    const char *params; /* -> /etc/lab/params: the agent's lab.* words; may be NULL */
};

/* Builds (or reuses) lab_home()/images/initramfs-<hash>.cpio; the hash covers
 * the agent's bytes, the kernel release and modules_dir, and the resolved
 * modules (paths and bytes). Same inputs -> same file, byte for byte.
 *
 * Contents (uid/gid 0, mtime 0): /init, /dev with console, null, ttyS0,
 * ttyS1, hda-hdd, sda, sdb (2.4's initrd root may be read-only), /proc,
 * /sys, /mnt, /etc/lab/modules (the in-image module paths, one per line, in
 * load order), /etc/lab/params (the agent's parameters: they do not fit an
 * old kernel's 256-byte command line), /lib/modules/<name>.ko
 * (decompressed). The hash covers the parameters too.
 * *path_out is malloc'd. */
int lab_initramfs_get(const struct lab_initramfs_spec *spec, char **path_out);

#endif
