/* The one way the lab makes an ext2/3/4 image from a directory: mke2fs -d
 * with a fixed UUID, hash seed and clock (E2FSPROGS_FAKE_TIME), so the same
 * inputs give the same bytes, and debugfs -w for what mke2fs -d cannot set
 * (ctime, atime). Used by the data disks, the tree images and the 2.4
 * initrd. */
#ifndef LAB_IMAGES_E2FS_H
#define LAB_IMAGES_E2FS_H

struct lab_e2fs {
    const char *fs;                 /* ext2, ext3, ext4 */
    const char *src;                /* the directory copied in (-d) */
    const char *img;                /* the image file, made or overwritten */
    const char *size;               /* in blocks, or with a unit ("65536k") */
    const char *log;                /* mke2fs's output */
    const char *uuid, *hash_seed;   /* "8-4-4-4-12" hex */
    long long fake_time;            /* every time mke2fs writes */
    unsigned block_size;            /* 1024 or 4096 */
    const char *features;           /* -O, or NULL: mke2fs's defaults for fs */
    unsigned long long inodes;      /* -N, or 0: mke2fs's choice */
    unsigned long long journal_mib; /* -J size=, or 0: mke2fs's choice */
    const char *label;              /* -L, or NULL: none */
};

/* 0, or -1 with mke2fs's complaint and its log's tail said. */
int lab_e2fs_make(const struct lab_e2fs *e);

/* debugfs -w on img under the same fake clock, running one request (-R)
 * or a script file (-f). debugfs exits 0 even when a request fails, so its
 * output is checked for complaints too. */
enum lab_debugfs_input { LAB_DEBUGFS_REQUEST, LAB_DEBUGFS_SCRIPT };
int lab_e2fs_debugfs(const char *img, long long fake_time, enum lab_debugfs_input how,
                     const char *what, const char *log);

/* A UUID from 32 hex digits of a hash (hex + offset): "8-4-4-4-12". */
void lab_e2fs_uuid(const char *hex, char out[37]);

#endif
