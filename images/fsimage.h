/* Filesystem images for tree workloads (seed 003): an ext3 filesystem with a
 * large file and copies of a synthetic kernel tree, built on the host with
 * mke2fs -d (byte-deterministic), verified with libguestfs, cached by a hash
 * of the recipe. */
#ifndef LAB_IMAGES_FSIMAGE_H
#define LAB_IMAGES_FSIMAGE_H

#include <stdint.h>

#include "images/tree.h"

struct lab_fsimage_recipe {
    const char *fs;         /* "ext3" (NULL means "ext3"; "ext2": the same without journal) */
    uint64_t big_file_size; /* /big_file of lab_content_word(LAB_CONTENT_SEED_DEFAULT, i)
                               words; 0 = none */
    unsigned tree_copies;   /* /tree0, /tree1, ...: each a copy of `tree` */
    struct lab_tree_recipe tree;
    uint64_t extra_bytes; /* free space for copies and loads (blocks and inodes) */
    const char *label;    /* the volume label (at most 16 bytes), or NULL: none */
};

/* Builds (or reuses) lab_home()/images/fs-<hash>.img, mode 0644. Features
 * are given explicitly for 2.4-era kernels: has_journal (ext3), filetype,
 * sparse_super, large_file; 4 KiB blocks, 128-byte inodes; no dir_index,
 * extents, flex_bg, huge_file, metadata_csum, 64bit, resize_inode, ext_attr.
 * Journal size as mke2fs of 2003 chose it (4, 16 or 32 MiB). Every inode
 * and the superblock carry the time LAB_TREE_TIME, the UUID and hash seed
 * come from the recipe hash: the same recipe gives the same bytes.
 * After a build, the image is checked inside a libguestfs appliance (see
 * lab_fsimage_verify); set LAB_FSIMAGE_VERIFY=0 to skip that. *path_out
 * malloc'd. */
int lab_fsimage_get(const struct lab_fsimage_recipe *r, char **path_out);

/* The cache path the recipe maps to, built or not (malloc'd); NULL on error. */
char *lab_fsimage_path(const struct lab_fsimage_recipe *r);

/* Mounts the image read-only in a libguestfs appliance (LIBGUESTFS_BACKEND=direct
 * and LIBGUESTFS_BACKEND_SETTINGS=force_tcg unless already set) and checks
 * the filesystem type, /big_file's size and checksum, the number of entries
 * of every tree copy and the sizes and SHA-256 of a sample of its files.
 * 0: matches; -1: a mismatch or error (with a message); 1: the appliance
 * could not be started (no host kernel for supermin, ...), nothing checked. */
int lab_fsimage_verify(const struct lab_fsimage_recipe *r, const char *path);

#endif
