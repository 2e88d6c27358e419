/* `lab run -e E` with no --kernels: the kernels E's thread compared (its
 * kernels key, host/plan/reported.h). */
#ifndef LAB_SEEDKERNELS_H
#define LAB_SEEDKERNELS_H

#include <stddef.h>

/* The experiment's kernels as a --kernels list, said on stderr; NULL with
 * an error when the experiment (with the --set overrides) names none or
 * does not load. The list lives until the next call. */
char *lab_seed_kernels(const char *experiment, char *const *sets, size_t nsets);

#endif
