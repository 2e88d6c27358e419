/* The image cache's one way of building: a file named by the hash of its
 * inputs is built once, in a temporary directory beside it, and renamed
 * into place, so a reader never sees half an image and an interrupted
 * build leaves nothing behind. */
#ifndef LAB_IMAGES_CACHE_H
#define LAB_IMAGES_CACHE_H

/* Writes the image to `img` (a path inside `tmpdir`, which it may use). */
typedef int (*lab_image_build_fn)(const char *tmpdir, const char *img, void *ctx);

/* lab_home()/images/PREFIX-HASH.SUFFIX: built by `build` unless it exists.
 * *path_out (malloc'd) on success. */
int lab_image_cached(const char *prefix, const char *hash, const char *suffix,
                     lab_image_build_fn build, void *ctx, char **path_out);

/* Prints a tool's log indented, for failures. */
void lab_image_show_log(const char *log);

#endif
