/* Data disks: filesystem images holding files of deterministic content,
 * built with mke2fs -d and cached by a hash of their recipe. */
#ifndef LAB_IMAGES_DATADISK_H
#define LAB_IMAGES_DATADISK_H

#include <stdint.h>

#define LAB_DATADISK_DEFAULT_SIZE (256ULL << 20)

struct lab_datadisk_recipe {
    const char *fs;        /* "ext2" (also "ext3", "ext4"), or "raw": a sparse disk of
                              file_size bytes with no filesystem; NULL means "ext2" */
    const char *file_name; /* "big_file"; NULL means "big_file" */
    uint64_t file_size;    /* bytes; 0 means LAB_DATADISK_DEFAULT_SIZE */
    uint64_t seed;         /* content: 8-byte LE words lab_content_word(seed, i) */
};

/* Builds (or reuses) lab_home()/images/data-<hash>.img (mode 0644): a
 * filesystem image of file_size + 10% + 16 MiB (rounded up to 4 KiB) with
 * 4 KiB blocks and 128-byte inodes (mountable by 2.4 kernels), holding the
 * one file at its root, owned by 0:0, mode 0644. The hash covers the recipe;
 * the same recipe gives the same image bytes (fixed UUID and hash seed derived
 * from the hash, E2FSPROGS_FAKE_TIME, fixed file times). *path_out malloc'd. */
int lab_datadisk_get(const struct lab_datadisk_recipe *r, char **path_out);

/* The cache path the recipe maps to, built or not (malloc'd); NULL on error. */
char *lab_datadisk_path(const struct lab_datadisk_recipe *r);

#endif
