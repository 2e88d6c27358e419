/* Statistics that know about boots (issue 13): runs of one boot share that
 * boot's state (memory layout, caches, the host's load at the time), so
 * they are not independent measurements of a kernel. A comparison takes
 * the boot as its unit:
 *   - at least LAB_BOOT_MIN_MEANS boots on each side: Welch's t-test and
 *     interval on the per-boot means (each boot's mean of its runs);
 *   - 2 boots on a side (the default --boots 2): a two-level bootstrap:
 *     resample boots with replacement, then runs within each drawn boot,
 *     LAB_BOOTSTRAP_ROUNDS times; the change of the mean of boot means,
 *     its 95% percentile interval, p = two-sided share of resamples on
 *     the other side of 0 (from a fixed seed: a report is reproducible);
 *   - 1 boot on a side: runs as the units (Welch), as before boots, and
 *     the between-boot variation is unknown.
 * Variation is reported at both levels: within a boot (the pooled
 * standard deviation of runs around their boot's mean) and between boots
 * (the standard deviation of the boot means). */
#ifndef LAB_BOOTSTATS_H
#define LAB_BOOTSTATS_H

#include <stddef.h>
#include <stdint.h>

#include "host/stats/stats.h"

#define LAB_BOOT_MIN_MEANS   3
#define LAB_BOOTSTRAP_ROUNDS 10000
#define LAB_BOOTS_MAX        64

struct lab_boot_var {
    size_t n;                     /* runs */
    unsigned nboots;              /* boots with runs */
    unsigned boot[LAB_BOOTS_MAX]; /* their numbers, in order of first appearance */
    size_t runs[LAB_BOOTS_MAX];   /* runs per boot */
    double mean[LAB_BOOTS_MAX];   /* per-boot means */
    double grand_mean;            /* mean of the boot means */
    double within_sd;  /* pooled sd of runs around their boot's mean; NAN if no boot has 2 runs */
    double between_sd; /* sd (n-1) of the boot means; NAN with fewer than 2 boots */
};
/* x[i] measured in boot boot[i]. -1 when n == 0 or more than LAB_BOOTS_MAX boots. */
int lab_boot_variation(const double *x, const unsigned *boot, size_t n, struct lab_boot_var *out);

enum lab_boot_method {
    LAB_BOOT_RUNS,      /* runs as units (one boot on a side) */
    LAB_BOOT_MEANS,     /* Welch on per-boot means */
    LAB_BOOT_BOOTSTRAP, /* two-level bootstrap */
};
const char *lab_boot_method_name(enum lab_boot_method m); /* "runs", "boot-means", "bootstrap" */

struct lab_boot_cmp {
    enum lab_boot_method method;
    unsigned boots_a, boots_b;
    /* diff_pct, diff_ci_lo/hi, significant and p by the method; the other
     * fields (Welch over runs, Mann-Whitney, Cohen's d) over the runs. */
    struct lab_comparison c;
    double p;      /* the method's two-sided p */
    double runs_p; /* Welch's p with runs as units, for comparison */
};
/* b against a. -1 if a side has fewer than 2 runs. */
int lab_boot_compare(const double *a, const unsigned *boot_a, size_t na, const double *b,
                     const unsigned *boot_b, size_t nb, struct lab_boot_cmp *out);

#endif
