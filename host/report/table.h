/* Reports from the result store: per-kernel tables in the shape of the
 * seeds (n, min, mean, max, stddev of time and MB/s) and kernel-to-kernel
 * comparisons with a confidence interval and a significance test. */
#ifndef LAB_REPORT_H
#define LAB_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "host/store/store.h"

/* Prints the report of run `run`. Returns 0, or -1 if the run has no cells. */
int lab_report_run(FILE *out, struct lab_store *st, int64_t run);

#endif
