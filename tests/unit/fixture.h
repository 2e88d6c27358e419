/* Stored fixture runs for the output tests (JSON, JUnit, HTML, compare):
 * known samples written through the store's own API, so every output is
 * checked against numbers a person can recompute. */
#ifndef LAB_TEST_FIXTURE_H
#define LAB_TEST_FIXTURE_H

#include <stdint.h>
#include <stdio.h>

#include "host/bisect/bisect.h"
#include "host/store/store.h"

/* seqread on 6.1.0-47 and 6.12.113, one warm-up + 3 runs each (times in
 * s below, 256 MiB per run), plus a cell of 6.1.0-50 that panicked.
 * scale multiplies the second kernel's times: 1.2 makes it ~17% slower
 * (a significant regression), 1.0 the same. */
static inline int64_t fixture_seqread(struct lab_store *st, double scale, int with_failure)
{
    static const double secs[2][4] = {{2.0, 1.00, 1.02, 0.98}, {2.1, 1.00, 0.99, 1.04}};
    static const char *const kernels[] = {"6.1.0-47", "6.12.113"};
    int64_t run =
        lab_store_run_begin(st, "lab run --kernels 6.1.0-47,6.12.113", "seqread", "pata-2003");
    const char *params = "lab.test=seqread lab.reps=4";
    char extra[128];
    for (int k = 0; k < 2; k++) {
        int64_t cell = lab_store_cell_begin(st, run, kernels[k], "seqread", params);
        lab_store_cell_set(st, cell, "warmup", "1");
        lab_store_cell_set(st, cell, "bus", "ide");
        lab_store_cell_set(st, cell, "profile", "pata-2003");
        lab_store_cell_set(st, cell, "boot_to_agent_ns", k ? "5100000000" : "6400000000");
        for (int rep = 0; rep < 4; rep++) {
            double t = secs[k][rep] * (k ? scale : 1.0);
            int64_t ns = (int64_t)(t * 1e9);
            snprintf(extra, sizeof extra, "ra_sectors=256 bs=1048576 verify_errors=0 note=x%d",
                     rep);
            struct lab_sample s = {.cell = cell,
                                   .rep = rep,
                                   .test = "seqread",
                                   .bytes = 256ULL << 20,
                                   .real_ns = ns,
                                   .user_ns = 1000000,
                                   .sys_ns = 500000000,
                                   .guest_begin_ns = 100,
                                   .guest_end_ns = 100 + ns,
                                   .host_begin_ns = 1000000000LL * (rep + 1),
                                   .host_end_ns = 1000000000LL * (rep + 1) + ns,
                                   .extra = extra};
            lab_store_add_sample(st, &s);
        }
        lab_store_cell_end(st, cell, "ok", NULL);
    }
    if (with_failure) {
        int64_t bad = lab_store_cell_begin(st, run, "6.1.0-50", "seqread", params);
        lab_store_cell_end(st, bad, "failed", "kernel panicked: Kernel panic - not syncing: VFS");
    }
    lab_store_run_end(st, run, with_failure ? "failed" : "ok");
    return run;
}

/* Seed 000's readahead sweep: 2.6.0 and 2.6.1-rc1 at readahead 256, 128
 * and 64 sectors, the seed's three times each after a warm-up run. */
static inline int64_t fixture_sweep(struct lab_store *st)
{
    static const char *const kernels[] = {"2.6.0", "2.6.1-rc1"};
    static const double secs[2][3][3] = {
        {{11.427, 11.963, 11.291}, {9.910, 9.693, 9.733}, {9.107, 9.227, 9.152}},
        {{11.984, 11.704, 11.886}, {11.120, 11.596, 11.481}, {11.361, 11.655, 11.369}}};
    static const int ra[] = {256, 128, 64};
    char extra[64];
    int64_t run = lab_store_run_begin(st, "lab run", "readahead-sweep", "pata-2003");
    for (int k = 0; k < 2; k++) {
        int64_t cell = lab_store_cell_begin(st, run, kernels[k], "readahead-sweep",
                                            "lab.test=seqread lab.reps=4 lab.ra_list=256,128,64");
        lab_store_cell_set(st, cell, "warmup", "1");
        int rep = 0;
        for (int g = 0; g < 3; g++) {
            for (int i = -1; i < 3; i++) { /* i = -1: the group's warm-up run */
                double t = i < 0 ? 20.0 : secs[k][g][i];
                snprintf(extra, sizeof extra, "ra_sectors=%d bs=1048576", ra[g]);
                struct lab_sample smp = {.cell = cell,
                                         .rep = rep++,
                                         .test = "seqread",
                                         .bytes = 256ULL << 20,
                                         .real_ns = (int64_t)(t * 1e9),
                                         .user_ns = 2000000,
                                         .sys_ns = 1800000000,
                                         .host_begin_ns = 1,
                                         .host_end_ns = 1 + (int64_t)(t * 1e9),
                                         .extra = extra};
                lab_store_add_sample(st, &smp);
            }
        }
        lab_store_cell_end(st, cell, "ok", NULL);
    }
    lab_store_run_end(st, run, "ok");
    return run;
}

/* A bisection of seqread by mbps over /r from g to b, as lab bisect stores
 * it (5 runs per step, up to 20), in `run` on `profile`. */
static inline struct lab_bisect_row fixture_bisect_row(int64_t run, const char *profile)
{
    struct lab_bisect_row row = {.run = run,
                                 .command_line = "lab bisect",
                                 .repo = "/r",
                                 .good = "g",
                                 .bad = "b",
                                 .experiment = "seqread",
                                 .metric = "mbps",
                                 .profile = profile,
                                 .threshold_pct = 5,
                                 .reps = 5,
                                 .max_reps = 20};
    return row;
}

#endif
