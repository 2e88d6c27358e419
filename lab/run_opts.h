/* lab run's command line: one table of options (lab/options.h), from which
 * --help and getopt's tables are made, into struct lab_run_opts.
 * lab/cmd_run.c runs it. */
#ifndef LAB_RUN_OPTS_H
#define LAB_RUN_OPTS_H

#include "host/run/engine.h"

#include <stddef.h>

struct lab_run_opts {
    char *kernels;
    const char *arch; /* for kernels built by name */
    const char *experiment;
    const char *profile;
    const char *cpu; /* --cpu: NULL = the profile's (fast when it names none) */
    const char *bus;
    const char *channel;
    const char *accel;
    const char *json, *junit; /* files written after the report */
    const char *fail_on;      /* --fail-on: slower, faster or change (lab/gate.h) */
    double threshold;         /* --junit and --fail-on: smallest change that fails */
    unsigned reps;
    unsigned timeout;
    int no_rt;      /* --no-rt: QEMU and nbdkit at the normal policy */
    unsigned boots; /* --boots: boots per kernel and variant */
    char *sets[32];
    size_t nsets;
    struct lab_engine_opts eng; /* --jobs, --engine, --partition, --hosts */
};

/* The options after the defaults (experiment seqread, profile fast, accel
 * auto, 2 boots, a 5% threshold); without --kernels the experiment's own
 * (lab/seedkernels.h). 0, or -1 said (exit 2); --help exits 0. */
int lab_run_opts_parse(int argc, char **argv, struct lab_run_opts *o);

#endif
