/* The result store: one SQLite file holding runs, their cells, every sample
 * and every raw agent line, and the bisections (host/bisect/store_bisect.h).
 * Durable as it goes: each call commits on its own (WAL mode), so an
 * interrupted run keeps everything measured until then.
 *
 * Errors are reported with lab_error (including sqlite3_errmsg) and returned
 * as -1 (or NULL). A store may be used from several threads: calls are
 * serialised by a lock inside. */
#ifndef LAB_STORE_H
#define LAB_STORE_H

#include <stddef.h>
#include <stdint.h>

#define LAB_STORE_SCHEMA_VERSION                                                                   \
    8 /* 2: runs.pid, runs.pid_start; 3: the bisection tables; 4: cell_phases;                     \
         5: cells.cell_key, attempt, host (result bundles); 6: kernel_patches;                     \
         7: cell_failures; 8: cells.cpu (CPU profiles) */

struct lab_store;

/* Opens or creates the file and its schema (version in PRAGMA user_version;
 * a file with a newer version is refused), WAL mode, foreign keys on, busy
 * timeout. 0 on success. */
int lab_store_open(const char *path, struct lab_store **out);
void lab_store_close(struct lab_store *st); /* NULL is fine */
/* The file it was opened from, as given (the run's log directory is keyed
 * by it: lab_run_log_dir). */
const char *lab_store_file(const struct lab_store *st);

/* A run: one `lab` invocation. Records the wall-clock start and this
 * process (pid and start time); status starts as "running". Returns the run
 * id, -1 on error. */
int64_t lab_store_run_begin(struct lab_store *st, const char *command_line, const char *experiment,
                            const char *profile);
/* A run whose lab process is gone (killed): the run and its running cells
 * become "abandoned" (reason on the cells), ended now. */
int lab_store_run_abandon(struct lab_store *st, int64_t run, const char *reason);
/* status: "ok" | "failed" | "interrupted". Records the wall-clock end. */
int lab_store_run_end(struct lab_store *st, int64_t run, const char *status);

/* A cell: one kernel x experiment x parameters within a run; status starts as
 * "running". Returns the cell id, -1 on error. */
int64_t lab_store_cell_begin(struct lab_store *st, int64_t run, const char *kernel,
                             const char *experiment, const char *params);
/* status "ok" | "failed" | "interrupted" | "skipped"; reason may be NULL. */
int lab_store_cell_end(struct lab_store *st, int64_t cell, const char *status, const char *reason);
/* Extra facts of a cell (uname, boot_to_agent_ns, accel ...); setting a key
 * again replaces its value. */
int lab_store_cell_set(struct lab_store *st, int64_t cell, const char *key, const char *value);
/* The cell's CPU profile (host/plan/cpu.h: "fast" or an era CPU's name). */
int lab_store_cell_cpu(struct lab_store *st, int64_t cell, const char *cpu);
/* Copies the fact into buf (truncated to buflen-1 bytes) and returns buf;
 * NULL if absent or on error. */
const char *lab_store_cell_get(struct lab_store *st, int64_t cell, const char *key, char *buf,
                               size_t buflen);

struct lab_sample {
    int64_t cell;
    int rep;
    const char *test;
    uint64_t bytes;
    int64_t real_ns, user_ns, sys_ns;     /* guest's measures */
    int64_t guest_begin_ns, guest_end_ns; /* guest clock */
    int64_t host_begin_ns, host_end_ns;   /* host monotonic clock at arrival of begin/end */
    const char *extra; /* remaining keys of the end record as "k=v k=v", may be NULL */
};
int lab_store_add_sample(struct lab_store *st, const struct lab_sample *s);
/* Raw log of every agent line, stamped with the host's clock. */
int lab_store_add_record(struct lab_store *st, int64_t cell, int64_t host_ns, const char *line);

/* Iteration, in id order (the order of creation). Strings passed to a
 * callback are valid during that call only. A callback returning non-zero
 * stops the iteration, and foreach returns that value; otherwise foreach
 * returns 0, or -1 on a database error. Callbacks may call other store
 * functions. */
struct lab_cell_info {
    int64_t id, run;
    const char *kernel, *experiment, *params, *status, *reason; /* reason may be NULL */
    const char *cpu; /* the CPU profile; NULL for a cell stored before there were any */
};
/* run LAB_STORE_ALL_RUNS: the cells of every run; any other id below 1 is
 * an error (-1), never "all". */
#define LAB_STORE_ALL_RUNS 0
int lab_store_foreach_cell(struct lab_store *st, int64_t run,
                           int (*cb)(const struct lab_cell_info *, void *), void *ctx);
/* A cell's facts (lab_store_cell_set), by key. */
int lab_store_foreach_fact(struct lab_store *st, int64_t cell,
                           int (*cb)(const char *key, const char *value, void *), void *ctx);
int lab_store_foreach_sample(struct lab_store *st, int64_t cell,
                             int (*cb)(const struct lab_sample *, void *), void *ctx);

/* Where a cell's time went (host/cell/timing.h): phase `seq` (its order), its
 * duration in ns, or ns < 0 for a phase that could not be measured, and a
 * note (may be NULL). Setting a phase again replaces it. A cell stored
 * before schema 4 has no phases: foreach_phase finds none. */
/* A patch a run's kernel was built with (kernels by name, variants):
 * position 1.. in the order applied, the file or URL, its sha256 and its
 * text (NULL for a kernel.org patch that its URL and sha256 name). */
int lab_store_add_kernel_patch(struct lab_store *st, int64_t run, const char *kernel, int position,
                               const char *source, const char *sha256, const char *text);
int lab_store_add_phase(struct lab_store *st, int64_t cell, int seq, const char *phase, int64_t ns,
                        const char *note);
int lab_store_foreach_phase(struct lab_store *st, int64_t cell,
                            int (*cb)(int seq, const char *phase, int64_t ns, const char *note,
                                      void *),
                            void *ctx);

/* The agent's raw lines of a cell, as received. */
int lab_store_foreach_record(struct lab_store *st, int64_t cell,
                             int (*cb)(int64_t host_ns, const char *line, void *), void *ctx);

struct lab_run_info {
    int64_t id;
    const char *command_line, *experiment, *profile, *status;
    int64_t started_wall_ns, ended_wall_ns; /* ended 0 while running */
    int64_t pid;                            /* the lab process that made it (0 before schema 2) */
    uint64_t pid_start;                     /* its start time (lab_proc_start), against pid reuse */
};
int lab_store_foreach_run(struct lab_store *st, int (*cb)(const struct lab_run_info *, void *),
                          void *ctx);
int64_t lab_store_last_run(struct lab_store *st); /* newest run id or -1 */
/* The mean wall-clock duration of the finished ok cells of this kernel,
 * parameters and profile in any run (what a cell like it will take), -1
 * when there are none. */
int64_t lab_store_cell_history_ns(struct lab_store *st, const char *kernel, const char *params,
                                  const char *profile);
/* One run's row (strings valid during the call): 0, 1 if there is no such
 * run, -1 on error. */
int lab_store_get_run(struct lab_store *st, int64_t run,
                      int (*cb)(const struct lab_run_info *, void *), void *ctx);

/* NULL while every write went through; else the first write that failed
 * for a reason the file cannot recover from (full, read-only, IO error),
 * naming the store. After that, writes fail quietly; what was committed
 * before stays (each write is its own transaction). */
const char *lab_store_failure(struct lab_store *st);

/* A cell's kernel failure read from its console (host/cell/oops.h): an
 * oops, BUG or panic with the faulting function and offset, the call trace
 * ("a <- b <- c"), kernel BUG at FILE:LINE, the panic line, the agent's
 * phase and the experiment key that avoids it (NULL where none). One per
 * cell (schema 7; setting it again replaces it). */
struct lab_cell_failure {
    const char *headline, *function, *offset, *trace, *bug_file, *panic, *phase, *avoid_key;
    int bug_line; /* 0: no BUG line */
};
int lab_store_set_failure(struct lab_store *st, int64_t cell, const struct lab_cell_failure *f);
/* The cell's failure to cb (strings valid during the call): 0 after cb, 1
 * when the cell has none (or the file predates schema 7), -1 on error. */
int lab_store_get_failure(struct lab_store *st, int64_t cell,
                          int (*cb)(const struct lab_cell_failure *, void *), void *ctx);

/* ---- result bundles (host/run/bundle.h) ---- */

/* A store only read (a running cell's bundle, for the live progress). */
int lab_store_open_readonly(const char *path, struct lab_store **out);
/* Writes the whole store into dest as one self-contained file (VACUUM
 * INTO, journal mode DELETE: no -wal or -shm). 0 or -1. */
int lab_store_seal(struct lab_store *st, const char *dest);

struct lab_store_import {
    const char *db;       /* the bundle's sealed store: one run, one cell */
    const char *key;      /* the cell's key (unique with attempt) */
    unsigned attempt;     /* 1, 2, ... */
    const char *host;     /* where it ran */
    const char *from_dir; /* the bundle's directory, as named in the cell's reason and trace */
    const char *to_dir;   /* where its logs are kept now */
};
/* The bundle's cell (facts, samples, records) as a new cell of run, in ONE
 * transaction: all of it or nothing. Stored with key, attempt and host; a
 * second import of a (key, attempt) fails on the unique key (callers ask
 * lab_store_find_import first). 0 with *cell set, or -1. */
int lab_store_import(struct lab_store *st, int64_t run, const struct lab_store_import *im,
                     int64_t *cell);
/* The row of a cell handed to an engine: "running", key, attempt 0, so a
 * killed lab's reconcile finds it; importing the key's bundle replaces it
 * (same transaction). The cell id, or -1. */
int64_t lab_store_cell_dispatch(struct lab_store *st, int64_t run, const char *key,
                                const char *kernel, const char *experiment, const char *params);
/* The cell imported as (key, attempt): its id, 0 if none, -1 on error;
 * *ok_attempt gets the attempt of key stored with status ok (0: none). */
int64_t lab_store_find_import(struct lab_store *st, const char *key, unsigned attempt,
                              unsigned *ok_attempt);
/* Whether run holds a cell of key (its dispatch row, or an imported
 * attempt): 1, 0, or -1 on error. A dead lab's bundle belongs to this
 * store when its run does. */
int lab_store_run_has_key(struct lab_store *st, int64_t run, const char *key);

#endif
