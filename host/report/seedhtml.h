/* The HTML report's section on the seed's thread: its figures beside the
 * run's and its findings with the lab's agreement (host/stats/agreement.h). */
#ifndef LAB_SEEDHTML_H
#define LAB_SEEDHTML_H

#include <stdio.h>

#include "host/stats/runmodel.h"

/* Writes the section when the run stored reported figures: 1; else 0. */
int lab_seed_html(FILE *f, const struct lab_model *m);

#endif
