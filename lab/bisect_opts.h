/* lab bisect's command line: one table of options, from which --help and
 * getopt's tables are made, into struct lab_bisect_opts (the stored row,
 * the cells' settings, and what to show). lab/cmd_bisect.c runs it. */
#ifndef LAB_BISECT_OPTS_H
#define LAB_BISECT_OPTS_H

#include "host/bisect/bisectcells.h"
#include "host/bisect/store_bisect.h"

#include <stddef.h>
#include <stdint.h>

struct lab_bisect_opts {
    struct lab_bisect_row row;     /* repo, good, bad, experiment, metric, profile, ... */
    struct lab_bisect_cells cells; /* fragment, cc, accel, timeout_s */
    const char *junit;             /* JUnit XML of the bisection, written at the end */
    const char *engine;            /* "local" (NULL) or "slurm" */
    const char *partition;         /* slurm */
    char *sets[32];
    size_t nsets;
    int show, list, no_rt;
    int64_t show_id;
};

/* The options after the defaults (experiment seqread, profile fast, a 5%
 * threshold, 5 reps and at most 20, accel auto): 0, or -1 said (exit 2).
 * --help prints the usage and exits 0. */
int lab_bisect_opts_parse(int argc, char **argv, struct lab_bisect_opts *o);
/* 1 when the bisection's builds and boots are Slurm jobs (--engine slurm). */
int lab_bisect_opts_slurm(const struct lab_bisect_opts *o);

#endif
