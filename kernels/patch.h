/* Patches on the lab's copy of a kernel tree, with patch(1): kernel.org's
 * prepatches and stable patches, and the user's own (variants). Each patch
 * may be plain or compressed (.xz, .bz2, .gz). A dry run comes first, so a
 * hunk that does not apply is refused (naming the patch, the file and the
 * hunk) before the tree is touched or anything builds. The strip level is
 * -p1 (kernel.org's and `diff -urN a/ b/`), else -p0 when only that
 * applies (era patches made inside the tree). Files a patch empties are
 * removed (patch -E): kernel.org's diffs of two trees leave a deleted file
 * as an empty one. */
#ifndef LAB_KERNELS_PATCH_H
#define LAB_KERNELS_PATCH_H

#include <stddef.h>

/* The patch's text, decompressed (malloc'd, *len its size), or NULL said. */
char *lab_patch_text(const char *path, size_t *len);
/* Applies the patches in order to tree; what patch(1) says goes to log.
 * 0, or -1 said ("patch fix.diff does not apply: hunk #2 of mm/filemap.c
 * FAILED at 812"). */
int lab_patch_apply_series(const char *tree, const char *const *patches, size_t n, const char *log);
/* From patch(1)'s dry-run output: the first failing hunk as "hunk #N of
 * FILE FAILED at L" (or patch's own last complaint) into out. 1 found, 0
 * nothing recognised. Pure; for the unit test. */
int lab_patch_first_failure(const char *output, char *out, size_t len);

#endif
