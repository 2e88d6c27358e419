/* `lab compare RUN_A RUN_B`: two stored runs side by side, row by row
 * (mmtests' compare-kernels): the same kernel at the same setting and load
 * in both runs, its figure in each with the 95% CI, and run B against run
 * A by the same test as the kernel comparisons. */
#ifndef LAB_RUNCOMPARE_H
#define LAB_RUNCOMPARE_H

#include <stdint.h>
#include <stdio.h>

#include "host/store/store.h"

/* Prints the comparison. 0; 1 when the runs ran different tests (nothing
 * to compare); -1 with an error when a run has no cells. */
int lab_compare_runs(FILE *out, struct lab_store *st, int64_t a, int64_t b);

#endif
