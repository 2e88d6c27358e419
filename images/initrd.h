/* The 2.4 boot image: an ext2 filesystem given as the initrd and mounted as
 * root (2.4 predates initramfs), with the same contents as the initramfs. */
#ifndef LAB_IMAGES_INITRD_H
#define LAB_IMAGES_INITRD_H

#include "images/initramfs.h"

/* The RAM disk's size, which the kernel must be told (ramdisk_size=): an
 * image larger than 2.4's default of 4096 KiB is refused ("RAMDISK: image
 * too big!", then no root). */
#define LAB_INITRD_KIB 8192
/* The image's own size. 2.4 copies the whole image into the RAM disk, one
 * 1 KiB block at a time, before it mounts it, and the agent and a cell's
 * few files take under 100 KiB: 2048 is the candidate (docs/timing.md),
 * kept at the RAM disk's size until measured interleaved. */
#define LAB_INITRD_IMAGE_KIB 8192

/* Builds (or reuses) lab_home()/images/initrd-<size>k-<hash>.ext2 from the
 * initramfs the spec describes; cached and reproducible like it. */
int lab_ext2_initrd_get(const struct lab_initramfs_spec *spec, char **path_out);

#endif
