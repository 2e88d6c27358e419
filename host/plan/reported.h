/* What a seed's thread reported, carried by its experiment file so a run
 * can be read against it (host/stats/agreement.h, docs/seeds.md):
 *
 *   kernels  = 2.6.0, 2.6.1-rc1          the thread's kernels, in its order
 *   reported = 2.6.0 ra=256: 11.427 11.963 11.291 s
 *   reported = 2.4.20 io_load: time mean 164.9 s, 5 runs
 *   stand_in = 2.6.0: 2.6.11             the lab runs 2.6.11 for 2.6.0
 *
 * A reported line is one figure of one row: the row is the thread's kernel
 * and what follows it in the lab's row label (ra=256, io_load, copy); the
 * figure is a word (time, user, sys, cpu, ...; optional where the unit
 * says it: s is time, MB/s throughput, x the ratio), then either each run's
 * value or a summary (min, mean, max, sd; mean required) with its run
 * count, and the figure's unit. Every line is checked; a bad one is an
 * error naming the file and line. */
#ifndef LAB_REPORTED_H
#define LAB_REPORTED_H

#include <stddef.h>

#include "host/plan/testdef.h"

#define LAB_REPORTED_MAX_VALUES  32  /* runs listed on one line */
#define LAB_REPORTED_MAX_FIGS    128 /* reported lines per experiment */
#define LAB_REPORTED_MAX_KERNELS 16
#define LAB_REPORTED_NAME        64 /* a kernel name, thread's or lab's */
#define LAB_REPORTED_TEXT_MAX    (16u << 10)

/* A figure the thread can report: its word, unit and the lab's figure. */
struct lab_reported_kind {
    const char *word;  /* "time" */
    const char *unit;  /* "s" */
    enum lab_fig fig;  /* the lab's figure of the same thing */
    int better;        /* -1: lower is better (a time), 1: higher, 0: neither */
    int unit_default;  /* 1: the unit alone names this figure */
    const char *title; /* how the report names it */
};

struct lab_reported_fig {
    char kernel[LAB_REPORTED_NAME]; /* the thread's name for it */
    char qualifier[96];             /* the rest of the row: "ra=256", "io_load", "" */
    const struct lab_reported_kind *kind;
    double values[LAB_REPORTED_MAX_VALUES]; /* each run's, when listed */
    size_t nvalues;
    int summary;               /* 1: mean (and maybe min, max, sd) of runs, not each run */
    double mean, min, max, sd; /* NAN where the thread gave none */
    unsigned runs;             /* runs behind the figure */
    int decimals;              /* the most the thread wrote a value with: 11.427 is 3 */
};

struct lab_stand_in {
    char thread[LAB_REPORTED_NAME]; /* the thread's kernel */
    char lab[128];                  /* the lab's kernel that runs for it */
};

struct lab_reported {
    char kernels[LAB_REPORTED_MAX_KERNELS][LAB_REPORTED_NAME]; /* the kernels key */
    size_t nkernels;
    struct lab_reported_fig figs[LAB_REPORTED_MAX_FIGS];
    size_t nfigs;
    struct lab_stand_in stand_ins[LAB_REPORTED_MAX_KERNELS];
    size_t nstand_ins;
};

/* One value of the keys above into r; `where` ("file:line") names it in
 * errors. -1 (said) on a malformed or duplicate value. */
int lab_reported_kernels(struct lab_reported *r, const char *where, const char *value);
int lab_reported_add(struct lab_reported *r, const char *where, const char *value);
int lab_reported_stand_in(struct lab_reported *r, const char *where, const char *value);

/* The kernels key as one comma list ("2.6.0,2.6.1-rc1"); NULL without one.
 * malloc'd. */
char *lab_reported_kernel_list(const struct lab_reported *r);

/* "kernels = ...\nreported = ...\n": text the three keys can be read from
 * again (what a run stores: the cell fact "reported"); parse it back with
 * lab_reported_parse. Returns 0 or -1 (said). */
int lab_reported_parse(const char *where, const char *text, struct lab_reported *out);

/* The kinds, by word (NULL: not one). */
const struct lab_reported_kind *lab_reported_kind(const char *word);

/* The thread's mean of a figure (of its values, or its summary's). */
double lab_reported_mean(const struct lab_reported_fig *f);

#endif
