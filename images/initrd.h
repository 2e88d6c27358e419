/* The 2.4 boot image: an ext2 filesystem given as the initrd and mounted as
 * root (2.4 predates initramfs), with the same contents as the initramfs. */
#ifndef LAB_IMAGES_INITRD_H
#define LAB_IMAGES_INITRD_H

#include "images/initramfs.h"

/* Builds (or reuses) lab_home()/images/initrd-<hash>.ext2 from the
 * initramfs the spec describes; cached and reproducible like it. */
int lab_ext2_initrd_get(const struct lab_initramfs_spec *spec, char **path_out);

#endif
