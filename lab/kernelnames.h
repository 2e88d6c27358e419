/* Kernel names as the commands take them (`--kernels`, `lab kernels
 * fetch`, an experiment's own kernels): a catalog name as it is (Debian's,
 * or a user kernel, which wins over a kernel.org release of the same
 * name), or a kernel.org release name or variant (kernels/byname.h)
 * fetched, patched, built and passed through the IO smoke test, each once
 * and before anything else runs. */
#ifndef LAB_KERNELNAMES_H
#define LAB_KERNELNAMES_H

#include "kernels/catalog.h"
#include "host/store/store.h"

#include <stddef.h>

struct lab_kernel_names_opts {
    const char *arch; /* --arch for kernels built by name; NULL: the era's */
    int jobs;         /* make -jN; 0: every CPU */
    int refresh;      /* look at a kernel built here before again (lab kernels fetch) */
    int argc;         /* the command line, for the smoke test's stored run */
    char **argv;
};

/* Resolves a comma-separated list into catalog kernels (at most max, in
 * order; the pointers are valid until the next registry change). 0, or
 * the exit code: 2 for a name that is nothing (said, with the known
 * kernels), a mirror that does not have it or cannot be reached; 1 for a
 * failed build or smoke test; 130 for Ctrl-C. */
int lab_kernel_list_resolve(const char *list, const struct lab_kernel_names_opts *o,
                            const struct lab_kernel **out, size_t max, size_t *n);

/* One name to its catalog name (malloc'd in *name_out): prepared and
 * smoke-tested when it is a release name or variant. The same returns. */
int lab_kernel_name_prepare(const char *name, const struct lab_kernel_names_opts *o,
                            char **name_out);

/* Runs the IO smoke test on a catalog kernel and records the verdict. 0
 * passed, 1 failed, 2 could not run it, 130 interrupted. */
int lab_kernel_smoke_and_mark(const char *name, int argc, char **argv);

/* Stores, for run `run`, every patch each kernel was built with (its
 * kernel.conf's build_patch_N lines, in order): a kernel.org patch by its
 * URL and sha256, any other by its file, sha256 and text. A patch file
 * whose bytes changed since the build is an error. 0, or -1 said. */
int lab_kernel_patches_record(struct lab_store *st, int64_t run, const struct lab_kernel *const *ks,
                              size_t n);

#endif
