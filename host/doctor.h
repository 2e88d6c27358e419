/* `lab doctor`: what a cell needs from this machine, checked one by one,
 * each failure with the command that fixes it. */
#ifndef LAB_DOCTOR_H
#define LAB_DOCTOR_H

#include <stdio.h>

enum lab_doctor_level {
    LAB_DOCTOR_OK,
    LAB_DOCTOR_NOTE, /* works, but the user should know (TCG, kernels to fetch) */
    LAB_DOCTOR_FAIL, /* no cell can run until this is fixed */
};

struct lab_doctor_result {
    enum lab_doctor_level level;
    char what[512]; /* what was found */
    char fix[512];  /* how to fix it; empty when nothing to do */
};

/* Runs every check and prints one line each (and its fix). Returns the
 * number of failed checks: 0 means a cell can run. */
int lab_doctor_run(FILE *out);

#endif
