/* Engines: where and how the planned cells of a run execute (issue 11).
 * Every engine runs cells as jobs into result bundles (host/run/bundle.h) and
 * the controller imports each bundle as it lands; only the controller
 * writes its store. The local engine runs one cell in this process. */
#ifndef LAB_ENGINE_H
#define LAB_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "host/run/bundle.h"
#include "host/cell/cell.h"
#include "host/run/progress.h"
#include "host/run/run.h"

#define LAB_ENGINE_MAX_JOBS 16

/* The command line's choice (lab run --jobs, --engine, --partition, --hosts). */
struct lab_engine_opts {
    unsigned jobs;         /* cells at once; 0: 1 */
    const char *engine;    /* "local" (NULL), "slurm", "ssh" */
    const char *partition; /* slurm */
    const char *hosts;     /* ssh: GNU parallel's --sshloginfile */
};

/* What every engine starts from. */
struct lab_engine {
    const struct lab_run_ops *ops;
    const struct lab_cell_env *env; /* the controller's store, run and log directory */
    struct lab_engine_opts opts;
    void *priv; /* the engine's own state */
};

/* 0 when the options name an engine this lab has (and what it needs:
 * --hosts for ssh), else -1 with the error said. */
int lab_engine_check(const struct lab_engine_opts *o);

/* The engine the options name, ready for lab_run_execute(..., e->ops, e,
 * ...); NULL with the error said (an unknown engine, a missing tool). */
struct lab_engine *lab_engine_open(const struct lab_engine_opts *o, const struct lab_cell_env *env);
const struct lab_run_ops *lab_engine_ops(struct lab_engine *e);
/* Opens the engine, runs r's cells through it (lab_run_execute), closes
 * it: lab_run_execute's result, -1 when the engine would not open. */
int lab_engine_execute(const struct lab_engine_opts *o, const struct lab_cell_env *env,
                       struct lab_run *r, const struct lab_run_env *renv,
                       struct lab_run_outcome *out);
void lab_engine_close(struct lab_engine *e); /* NULL is fine */

/* A cell on an engine that may run it more than once, elsewhere
 * (engine_spool.c): its attempts write SPOOL/KEY/aN. */
struct lab_spool_cell {
    size_t index;
    int64_t dispatched;
    char key[96];
    char dir[4096];  /* SPOOL/KEY */
    unsigned newest; /* the newest attempt seen */
    uint64_t seen;   /* attempts whose manifest was looked at */
    uint64_t said;   /* partial attempts said */
    char held[4096]; /* a complete but failed attempt, kept for the end */
    char held_why[300];
    char task[64]; /* the engine's name for its task ("12_3": Slurm's array job and task) */
    int gone;      /* polls since the engine stopped listing its task */
    int done;
    int64_t cell; /* done: the cell stored for it (its import, or the failed dispatch row) */
};
/* Imports an ok attempt that landed: 1 with res, else 0 (a failed one
 * held, a partial one refused and said once a later attempt exists). */
/* A cell queued for a spool engine (Slurm, ssh): dispatched in the store,
 * its job written to SPOOL/KEY/, c filled in. 0, or -1 with the cell
 * failed in res (and in the store). */
int lab_spool_queue(struct lab_engine *e, const char *spool, const struct lab_cell_spec *spec,
                    struct lab_spool_cell *c, struct lab_cell_result *res);
int lab_spool_scan(const struct lab_cell_env *env, struct lab_spool_cell *c,
                   struct lab_cell_result *res);
/* The engine ran its last attempt: the held failure imported, or failed
 * with why. */
void lab_spool_give_up(const struct lab_cell_env *env, struct lab_spool_cell *c, const char *why,
                       struct lab_cell_result *res);

/* What the spool engines (Slurm, ssh) keep alike (engine_spool.c): this
 * lab binary as their workers run it, the spool, and the run's cells in
 * the order they were queued; cells[submitted..] wait for the engine's
 * next batch. */
struct lab_spool_cells {
    char *spool;
    char lab[4096];
    struct lab_spool_cell cells[LAB_RUN_MAX_CELLS];
    size_t ncells, submitted;
};
/* This lab binary's path into lab (as a spool engine's workers run it),
 * and this lab's spool (lab_engine_spool) made: the spool's path
 * (malloc'd), or NULL with the error said (what: the engine). */
char *lab_engine_spool_make(char *lab, size_t len, const char *what);
/* The spool made (this lab's, lab_engine_spool) and this binary found: 0,
 * or -1 with the error said. */
int lab_spool_cells_open(struct lab_spool_cells *q, const char *engine);
/* The spool removed once every cell is done (imported or given up on). */
void lab_spool_cells_close(struct lab_spool_cells *q);
/* The engine's run_cell: the cell queued (lab_spool_queue), or completed
 * as failed in res when its job could not be written. */
enum lab_run_q lab_spool_cells_add(struct lab_engine *e, struct lab_spool_cells *q,
                                   const struct lab_cell_spec *spec, struct lab_cell_result *res);
/* 1 while a cell is not done. */
int lab_spool_cells_outstanding(const struct lab_spool_cells *q);
/* The engine would not take the waiting cells (why): all counted as
 * submitted, the first given up on with res; its index. */
int lab_spool_cells_refuse(const struct lab_cell_env *env, struct lab_spool_cells *q,
                           const char *why, struct lab_cell_result *res);

/* The engines (engine.c picks one by name). open: 0 or -1 said. */
struct lab_engine_kind {
    const char *name;
    const struct lab_run_ops *ops;
    int (*open)(struct lab_engine *e);
    void (*close)(struct lab_engine *e);
};
extern const struct lab_engine_kind lab_engine_local_kind, lab_engine_jobs_kind,
    lab_engine_slurm_kind, lab_engine_ssh_kind;

/* This lab's spool on this host, $LAB_HOME/spool/PID (labs running at once
 * with stores of their own have the same run ids), and where a job's
 * bundle is written in it: SPOOL/KEY.ATTEMPT. */
char *lab_engine_spool(void);
char *lab_engine_bundle_dir(const struct lab_cell_job *job, unsigned attempt);

/* Whose a spool is: SPOOL/OWNER, written with its first dispatched cell, so
 * a later lab's reconciler (host/run/reconcile.h) knows a dead lab's spool on
 * this host, and the store its bundles belong to. */
#define LAB_SPOOL_OWNER "OWNER"
struct lab_spool_owner {
    char host[256]; /* uname's node name: the spool may be on a filesystem other hosts share */
    long pid;
    uint64_t start;   /* lab_proc_start: the pid names one process */
    char store[4096]; /* the store's real path */
};
/* This lab's spool made, with its OWNER for env's store: 0, or -1. */
int lab_engine_spool_claim(const struct lab_cell_env *env);
/* A spool's owner: 0, or -1 when it has no OWNER (a lab before it). */
int lab_engine_spool_owner(const char *spool, struct lab_spool_owner *o);
/* This lab's spool removed once it holds only its OWNER. */
void lab_engine_spool_tidy(void);

/* The cell's "running" row in the controller's store (replaced by its
 * import): the cell id, or -1. */
int64_t lab_engine_dispatch(const struct lab_cell_env *env, const struct lab_cell_spec *spec,
                            const struct lab_cell_job *job);

/* A cell's result as its manifest says. */
void lab_engine_result_of(const struct lab_bundle_manifest *m, struct lab_cell_result *res);

/* Imports the bundle in dir into env's run; imported, the bundle is
 * removed (its logs kept in env->log_dir) and res is the manifest's, its
 * reason naming the kept logs. A refused bundle fails the dispatched row with why (res too). 0, or
 * -1 when nothing was imported. */
int lab_engine_collect(const struct lab_cell_env *env, int64_t dispatched, const char *dir,
                       struct lab_cell_result *res, struct lab_import_result *imp);

/* One planned cell, here and now, the way `lab run` runs every cell:
 * dispatched, run into its bundle (lab_bundle_run, as `lab cell` does),
 * imported. Like lab_cell_run: 0 when the cell is ok, else -1 with res. */
int lab_engine_local_cell(const struct lab_cell_env *env, const struct lab_cell_spec *spec,
                          struct lab_cell_result *res);

#endif
