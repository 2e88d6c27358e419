/* The 2.4 boot image: an ext2 filesystem given as the initrd and mounted as
 * root (2.4 predates initramfs), with the same contents as the initramfs. */
#ifndef LAB_IMAGES_INITRD_H
#define LAB_IMAGES_INITRD_H

#include "images/initramfs.h"

/* The image's size: the kernel must be told (ramdisk_size=), since 2.4's
 * ramdisk defaults to 4096 KiB and refuses a larger image ("RAMDISK: image
 * too big!", then no root). */
#define LAB_INITRD_KIB 8192

/* Builds (or reuses) lab_home()/images/initrd-<hash>.ext2 from the
 * initramfs the spec describes; cached and reproducible like it. */
int lab_ext2_initrd_get(const struct lab_initramfs_spec *spec, char **path_out);

#endif
