/* Kernel modules for boot images: resolving names through modules.dep into
 * a load order, and reading (decompressing) module files. */
#ifndef LAB_IMAGES_MODULES_H
#define LAB_IMAGES_MODULES_H

#include <stddef.h>

/* wanted: module names like "ata_piix", "sd_mod", "ext4". Each is looked up
 * in modules_dir/modules.dep by file basename (without .ko, .ko.xz, .ko.zst,
 * .ko.gz; '-' and '_' equivalent); its dependencies come first, each module
 * once, every module after all of its dependencies. A wanted module listed in
 * modules.builtin is skipped. *paths_out: paths relative to modules_dir (as
 * in modules.dep) in load order; free with lab_modules_free. An unknown
 * module is an error naming it. */
int lab_modules_resolve(const char *modules_dir, const char *const *wanted, size_t nwanted,
                        char ***paths_out, size_t *n_out);
void lab_modules_free(char **paths, size_t n);

/* Module name of a path: basename without the .ko* suffix, '-' turned into
 * '_' ("kernel/lib/crc-t10dif.ko.xz" -> "crc_t10dif"). malloc'd. */
char *lab_module_name(const char *path);

/* Reads a module file, decompressing xz (liblzma) by its magic bytes;
 * zstd and gzip modules are refused with a clear message. *data is malloc'd. */
int lab_module_load_bytes(const char *path, unsigned char **data, size_t *len);

#endif
