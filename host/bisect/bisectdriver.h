/* The bisection driver: the loop of `lab bisect`, behind an ops table, so
 * any way of building and measuring kernels (cells on this host, another
 * engine, the fakes of tests/unit/test_bisect_driver.c) shares one path.
 *
 * 1. Both endpoints are built and measured, interleaved: good, bad, good,
 *    bad, a boot each of ceil(reps/2) runs (at least 2). A build or
 *    measuring failure of an endpoint ends the bisection ("failed"); the
 *    endpoints must differ (host/bisect/bisect.h) or it is "refused".
 * 2. Steps: the commit lab_bisect_pick_next names is built (a build that
 *    fails is a skip, like git bisect's 125) and measured in two boots,
 *    then decided by lab_bisect_decide_boots. An inconclusive step gets
 *    another boot of more runs (lab_bisect_more_reps, up to max_reps; then
 *    a skip), and before it the endpoint nearer to the step is measured
 *    again beside it (the host may have drifted). A measuring failure is a
 *    skip, never bad.
 * 3. The verdict: "found" (the first bad commit), "ambiguous" (only
 *    skipped commits are left), "failed" (the steps contradict the
 *    endpoints), or "interrupted"/"failed" when the stop hook said stop.
 *    A step cut short by a stop gets no verdict and is not stored.
 *
 * Every step is stored as it is decided (host/bisect/store_bisect.h); the
 * endpoints once both are measured, or when the bisection ends before. */
#ifndef LAB_BISECTDRIVER_H
#define LAB_BISECTDRIVER_H

#include "host/bisect/bisect.h"

#include <stddef.h>
#include <stdint.h>

struct lab_store;

/* A commit's measured values, each with the boot it came from (the boot
 * is the unit of the decisions: host/stats/bootstats.h). */
struct lab_bisect_values {
    double *v;
    unsigned *boot; /* parallel to v */
    size_t n, cap;
    unsigned nboots; /* the boot lab_bisect_values_add adds to */
};
void lab_bisect_values_add(struct lab_bisect_values *x, double v);
void lab_bisect_values_free(struct lab_bisect_values *x);

/* What the driver asks of the world; ctx is the setup's ops_ctx. */
struct lab_bisect_ops {
    /* Builds the commit (or finds it built) and names its kernel. 0, or -1
     * when it does not build or the build is unusable: a skip. kernel may
     * be filled in either way. */
    int (*build)(void *ctx, const char *commit, char *kernel, size_t len);
    /* One boot of reps counted runs of the kernel: each run's value added
     * to out with lab_bisect_values_add (the driver has started the boot).
     * *cell: the stored cell it ran as, -1 when none. 0, or -1 with why in
     * reason (a boot or cell failure, or fewer than reps values). */
    int (*measure)(void *ctx, const char *kernel, unsigned reps, struct lab_bisect_values *out,
                   int64_t *cell, char *reason, size_t len);
    /* The commit's subject line. */
    void (*describe)(void *ctx, const char *commit, char *subject, size_t len);
    /* Optional (NULL: measure starts each boot itself). A boot the driver
     * is sure to ask for with measure(kernel, reps), told right after the
     * build (or before the measure) and in the order it will be asked: an
     * engine that runs boots elsewhere starts it now, so a step's boots
     * queue behind its build instead of waiting for each other. */
    void (*queue)(void *ctx, const char *kernel, unsigned reps);
};

enum lab_bisect_stop {
    LAB_BISECT_RUN_ON,
    LAB_BISECT_STOP_SIGNAL,  /* Ctrl-C: "interrupted", exit 130 */
    LAB_BISECT_STOP_FAILURE, /* the store or the machinery failed: "failed", exit 1 */
};

/* What the driver tells its caller, as it happens. */
enum lab_bisect_event_kind {
    LAB_BISECT_EV_BEGIN,     /* the bisection is stored as id */
    LAB_BISECT_EV_DECIDED,   /* step: an endpoint measured or a step decided */
    LAB_BISECT_EV_ENDPOINTS, /* ends: the endpoints differ, the steps begin */
    LAB_BISECT_EV_STEP,      /* step (number, commit, subject): it is built next; left */
    LAB_BISECT_EV_REMEASURE, /* endpoint is measured again beside step */
    LAB_BISECT_EV_MORE,      /* step was inconclusive at n (reason): more runs next */
};
struct lab_bisect_setup;
struct lab_bisect_event {
    enum lab_bisect_event_kind kind;
    const struct lab_bisect_setup *set;
    int64_t id;                              /* the bisection */
    const struct lab_bisect_step *step;      /* DECIDED, STEP, REMEASURE, MORE */
    const struct lab_bisect_step *endpoint;  /* REMEASURE */
    const struct lab_bisect_endpoints *ends; /* ENDPOINTS */
    size_t left;                             /* STEP: commits between last good and first bad */
    size_t n;                                /* MORE: values so far */
    unsigned more;                           /* MORE: runs the next boot has */
    const char *reason;                      /* MORE: why it was inconclusive */
};

/* What the driver asks and tells its caller; either may be NULL. */
struct lab_bisect_hooks {
    /* Whether to stop now: LAB_BISECT_RUN_ON, or why in why. Asked before
     * and after each build and boot; once it said stop, not asked again. */
    enum lab_bisect_stop (*stop)(void *ctx, char *why, size_t len);
    void (*report)(void *ctx, const struct lab_bisect_event *ev);
    void *ctx;
};

struct lab_bisect_setup {
    const char (*commits)[41]; /* good .. bad on the ancestry path (host/bisect/git.h) */
    size_t ncommits;           /* at least 2 */
    struct lab_bisect_row row; /* stored; its threshold_pct, reps and max_reps drive */
    const struct lab_bisect_ops *ops;
    void *ops_ctx;
    struct lab_bisect_hooks hooks;
};

struct lab_bisect_result {
    int64_t id;             /* the stored bisection (-1 if the store refused it) */
    const char *status;     /* as stored: found, ambiguous, refused, failed, interrupted */
    const char *run_status; /* for the run holding its cells: ok, failed, interrupted */
    int rc;                 /* lab bisect's exit code: 0 found, 1, 2 refused, 130 interrupted */
    int bisected;           /* the endpoints differed: steps were taken */
    enum lab_bisect_stop stop;
    char message[512]; /* as stored */
    char first_bad[41], first_bad_subject[128];
    struct lab_bisect_endpoints ends;
    int64_t elapsed_ns; /* from the stored start to the verdict */
    /* good, bad (their figures as last re-measured), then the steps taken */
    struct lab_bisect_step *steps;
    size_t nsteps;
};

/* Runs the bisection, stored in st (the steps' cells are the ops'); the
 * result's rc. Free the result with lab_bisect_result_free. */
int lab_bisect_drive(const struct lab_bisect_setup *set, struct lab_store *st,
                     struct lab_bisect_result *out);
void lab_bisect_result_free(struct lab_bisect_result *r);

#endif
