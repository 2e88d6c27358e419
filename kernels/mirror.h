/* Fetching from a kernel.org mirror (a tree laid out like kernel.org's
 * pub/linux/kernel/) with libcurl: $LAB_KERNEL_MIRROR, an https or http
 * URL, a file:// URL or a plain directory; kernel.org's CDN by default.
 * Every file is written to a temporary name beside its destination and
 * renamed once it is whole: its sha256 matches the directory's
 * sha256sums.asc where the mirror has one, and a compressed file
 * decompresses to its end (a truncated .xz, .bz2 or .gz is refused).
 * Nothing is half-cached, also not on Ctrl-C. */
#ifndef LAB_KERNELS_MIRROR_H
#define LAB_KERNELS_MIRROR_H

#include "common/hash.h"

#include <stddef.h>

#define LAB_MIRROR_DEFAULT "https://cdn.kernel.org/pub/linux/kernel/"
#define LAB_MIRROR_ENV     "LAB_KERNEL_MIRROR"
/* Seconds to connect (name resolution included); $LAB_KERNEL_CONNECT_TIMEOUT
 * overrides. */
#define LAB_MIRROR_CONNECT_S 10
/* The largest file fetched (6.x tarballs are 140-230 MB). */
#define LAB_MIRROR_MAX_BYTES (1024LL << 20)

/* The mirror's base URL, ending in '/' (malloc'd): a directory becomes a
 * file:// URL of its absolute path. NULL with a message for anything else
 * (ftp://, rsync://, a missing directory). */
char *lab_mirror_base(void);

/* One fetched file: where it came from and what it is. */
struct lab_mirror_file {
    char url[1024];
    char sha256[LAB_HASH_HEX_LEN + 1];
    /* "sha256sums.asc" when the mirror's list vouched for it, else why not
     * ("no sha256sums.asc in v2.6/", "not listed in v2.6/sha256sums.asc") */
    char checked[160];
};

enum lab_mirror_rc {
    LAB_MIRROR_OK = 0,
    LAB_MIRROR_ABSENT = 1,       /* the mirror does not have it (404, no such file) */
    LAB_MIRROR_FAILED = -1,      /* said: a bad checksum, truncated, too big, interrupted */
    LAB_MIRROR_UNREACHABLE = -2, /* said, naming the URL and LAB_KERNEL_MIRROR */
};

/* Fetches base + rel into dest (its directory must exist). */
enum lab_mirror_rc lab_mirror_get(const char *base, const char *rel, const char *dest,
                                  struct lab_mirror_file *out);

/* The sha256 listed for file name `file` in the text of a sha256sums.asc
 * (clear-signed "HEX  NAME" lines): 1 and hex filled, 0 when not listed. */
int lab_mirror_sums_lookup(const char *sums, const char *file, char hex[LAB_HASH_HEX_LEN + 1]);

/* The plain sha256 of a file's bytes (what sha256sum prints). 0, or -1
 * said. */
int lab_mirror_file_sha256(const char *path, char hex[LAB_HASH_HEX_LEN + 1]);

#endif
