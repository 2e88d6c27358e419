/* What a finished `lab run` leaves besides its table: the JSON and JUnit
 * files, and with --fail-on slower|faster|change [--threshold PCT] the exit
 * code a CI job gates on (common/exitcode.h). */
#ifndef LAB_OUTPUTS_H
#define LAB_OUTPUTS_H

#include "host/store/store.h"

#include <stdint.h>

/* --json and --junit (either may be NULL), from the store like the table:
 * 0, or -1 when one could not be written (said). */
int lab_run_write_files(struct lab_store *st, int64_t run, const char *json, const char *junit,
                        double threshold_pct);

/* 1 when name is a gate --fail-on knows. */
int lab_gate_valid(const char *name);

/* LAB_EXIT_OK when gate_name is NULL or no comparison of run trips it,
 * LAB_EXIT_CHANGED when one does (each named on stderr), LAB_EXIT_USAGE for
 * an unknown gate, LAB_EXIT_FAILED when the run cannot be read. */
int lab_gate_check(struct lab_store *st, int64_t run, const char *gate_name, double threshold_pct);

#endif
