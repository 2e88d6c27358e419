/* The run driver: what `lab run` (and any later way of running cells)
 * shares. A run is a matrix of cells, kernels x variants (loads x
 * schedulers) x boots, in the interleaved order of host/plan/order.h; the loop
 * over it asks before each cell whether to go on, runs the cell, and gives
 * a cell with runs over a contention threshold one more boot for as many
 * runs, once; the run's record in the store (its skipped cells, its final
 * status) is kept here too.
 *
 * How one cell is run is an engine behind struct lab_run_ops (fio's
 * ioengine_ops): lab_run_local boots it on this host with lab_cell_run;
 * another engine may queue cells elsewhere and hand their results back
 * through collect. The driver never knows which. */
#ifndef LAB_RUN_H
#define LAB_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "host/cell/cell.h"

#define LAB_RUN_MAX_KERNELS 32
#define LAB_RUN_MAX_LOADS   8 /* a load_list's loads */
#define LAB_RUN_MAX_SCHEDS  4 /* a scheduler_list's schedulers */
#define LAB_RUN_MAX_CELLS   (LAB_RUN_MAX_KERNELS * LAB_RUN_MAX_LOADS * LAB_RUN_MAX_SCHEDS)

/* What to run: the command line's choices, checked already. */
struct lab_run_request {
    const struct lab_kernel *const *kernels;
    size_t nkernels;
    const struct lab_experiment *exp;  /* the experiment as given (its lists unexpanded) */
    const struct lab_profile *profile; /* NULL: fast */
    const struct lab_cpu *cpu;         /* the CPU profile (host/plan/cpu.h); NULL: fast */
    const struct lab_bus *bus;         /* NULL: the profile's */
    const char *channel;               /* NULL: the era's */
    unsigned timeout_s;                /* 0: derived from the work */
    unsigned boots;                    /* per kernel and variant, 1 .. LAB_PLAN_MAX_BOOTS */
};

/* One cell of the matrix. */
struct lab_run_cell {
    struct lab_cell_spec spec; /* spec.index is the cell's position */
    char skip[256];            /* why it cannot run here ("" when it can) */
    int rerun;                 /* 1: added for the flagged runs of an earlier cell */
    int done;                  /* 1: its result is in */
    struct lab_cell_result res;
};

/* ---- engines ---- */

#define LAB_RUN_OPS_VERSION 1

/* What run_cell did with a cell. */
enum lab_run_q {
    LAB_RUN_Q_COMPLETED, /* ran it: *res is its result */
    LAB_RUN_Q_QUEUED,    /* handed it on: collect returns its result later */
};

struct lab_run_ops {
    unsigned version; /* LAB_RUN_OPS_VERSION */
    const char *name; /* "local" */
    /* Required. Runs the cell, or queues it. The spec (and what it points
     * to) stays valid until the cell's result is in. A cell that could not
     * run is a result too (status FAILED or INTERRUPTED, with a reason):
     * there is no error return. The engine stores the cell's rows, as
     * lab_cell_run does; the driver stores only the skipped cells. */
    enum lab_run_q (*run_cell)(void *engine, const struct lab_cell_spec *spec,
                               struct lab_cell_result *res);
    /* Required when run_cell may queue, else NULL. The index (spec.index)
     * of a queued cell whose result is now in *res; -1 when there is none:
     * nothing is queued, or (wait 0) nothing is ready yet. wait 1 blocks
     * until a queued cell has its result. */
    int (*collect)(void *engine, int wait, struct lab_cell_result *res);
};

/* 0, or -1 with an error naming the engine: a version this driver does
 * not know, no run_cell. */
int lab_run_ops_check(const struct lab_run_ops *ops);

/* Boots each cell here, one at a time; the engine argument is the
 * const struct lab_cell_env * of the session. */
extern const struct lab_run_ops lab_run_local;

/* ---- the driver ---- */

/* Why the loop stops before the next cell (the session's reasons). */
enum lab_run_stop {
    LAB_RUN_GO,
    LAB_RUN_STOP_INTERRUPTED,
    LAB_RUN_STOP_STORE,
    LAB_RUN_STOP_LIBVIRT,
};

struct lab_run_env {
    struct lab_store *store; /* the run's store */
    int64_t run_id;
    const char *virt_type; /* every cell's accelerator: "qemu" or "kvm" */
    int rt_priority;       /* lab_rt_plan's decision, for every cell */
    const char *rt_note;
    /* Asked before each cell: LAB_RUN_GO, or why not in why. NULL: go. */
    enum lab_run_stop (*check)(void *arg, char *why, size_t len);
    void *check_arg;
};

/* What the loop did. */
struct lab_run_outcome {
    size_t done;           /* cells the loop went through (skipped ones too) */
    size_t ncells;         /* cells in the end, reruns included */
    unsigned failed;       /* cells that ran and failed */
    unsigned reruns;       /* cells added for flagged runs */
    unsigned flagged_runs; /* runs over a contention threshold */
    enum lab_run_stop stop;
    char why[600];      /* the stop's reason */
    const char *status; /* the run's stored status: "ok", "failed" or "interrupted" */
};

struct lab_run;

/* The matrix of req, every cell checked (lab_cell_check) before anything
 * boots: a cell the era cannot run has its reason in skip. NULL with an
 * error when there are too many cells. Keeps pointers into req's kernels,
 * experiment, profile and bus. */
struct lab_run *lab_run_plan(const struct lab_run_request *req);
void lab_run_free(struct lab_run *r); /* NULL is fine */

size_t lab_run_ncells(const struct lab_run *r);   /* reruns included once added */
size_t lab_run_planned(const struct lab_run *r);  /* the matrix's cells */
size_t lab_run_runnable(const struct lab_run *r); /* planned cells with no skip reason */
const struct lab_run_cell *lab_run_cell_at(const struct lab_run *r, size_t i);
/* The first runnable cell (what the accelerator probe boots), or NULL. */
const struct lab_cell_spec *lab_run_first_runnable(const struct lab_run *r);
/* Samples a cell sends: warm-ups and counted runs, per readahead setting. */
unsigned lab_run_samples_per_cell(const struct lab_experiment *e);

/* Runs the cells through the engine, in order, with their live progress
 * and log lines on stderr; reruns flagged cells; ends the run in the store
 * with its status. 0, or -1 when ops fails lab_run_ops_check (the run is
 * then ended "failed"). */
int lab_run_execute(struct lab_run *r, const struct lab_run_env *env, const struct lab_run_ops *ops,
                    void *engine, struct lab_run_outcome *out);

/* A run that could not start its cells (no accelerator, say): ended
 * "failed", or "interrupted" after a signal. */
void lab_run_end_unstarted(struct lab_store *st, int64_t run);

#endif
