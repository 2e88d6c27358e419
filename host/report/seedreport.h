/* The seed thread's figures and findings beside a run's (text), from what
 * the run's cells stored (host/stats/agreement.h). */
#ifndef LAB_SEEDREPORT_H
#define LAB_SEEDREPORT_H

#include <stddef.h>
#include <stdio.h>

#include "host/plan/reported.h"
#include "host/stats/runmodel.h"

/* Prints the part when the run stored reported figures: 1; else nothing, 0. */
int lab_seed_report(FILE *out, const struct lab_model *m);

/* A reported figure's values as the report shows them: "11.427 11.963" or
 * "min 201.6 mean 215.1 ...". */
void lab_seed_values_text(const struct lab_reported_fig *f, char *buf, size_t len);

#endif
