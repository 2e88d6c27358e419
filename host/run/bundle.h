/* A cell as a unit of work (issue 11). A cell job (CELL.json) says what to
 * run; `lab cell` runs it on its own host exactly as `lab run` always did
 * (local libvirt, local nbdkit, local clocks: host/cell/cell.h) and writes a
 * result bundle, a directory holding:
 *
 *   cell.db        the cell's private result store (one run, one cell),
 *                  sealed into one file
 *   *.console.log  the guest's console; *.trace the era disk's trace, ...
 *   MANIFEST.json  host, cell key, attempt, status, and the size and
 *                  SHA-256 of every other file; written last and renamed
 *                  into place, so a bundle without one is partial
 *
 * Only the controller writes its store: `lab import` (and every engine)
 * checks a bundle against its manifest and loads it in one transaction,
 * once per (cell key, attempt). */
#ifndef LAB_BUNDLE_H
#define LAB_BUNDLE_H

#include <stddef.h>
#include <stdint.h>

#include "host/cell/cell.h"
#include "host/store/store.h"

#define LAB_BUNDLE_FORMAT   1
#define LAB_BUNDLE_MANIFEST "MANIFEST.json"
#define LAB_BUNDLE_DB       "cell.db"
#define LAB_BUNDLE_LIVE_DB  "live.db" /* the store while the cell runs */
#define LAB_BUNDLE_JOB      "CELL.json"
#define LAB_PLAN_FACT       "plan_sha256" /* a dispatched cell's fact: its job's plan hash */

/* What a cell runs, as the controller planned it: everything a worker on
 * another host needs to build the same lab_cell_spec, with no experiment
 * or profile file of its own. The plan ("plan" in CELL.json) carries the
 * experiment as resolved (file, --set, the variant's load or scheduler,
 * a contention rerun's reps) and a model profile's text; its SHA-256
 * covers every decision the planner makes from them (bundle_plan.c). */
struct lab_cell_job {
    char key[96];          /* unique per cell of a run: "run-3-cell-0" */
    unsigned attempt;      /* 0: the worker decides ($SLURM_RESTART_COUNT + 1, else 1) */
    int64_t run;           /* the controller's run (a new run on import when absent) */
    int index;             /* position in the run's matrix */
    char kernel[128];      /* a `lab kernels list` name on the worker */
    char experiment[128];  /* the experiment's name (the store's and the reports') */
    char *plan_experiment; /* lab_experiment_format's text of the resolved experiment */
    char *plan_profile;    /* a model profile's file text; NULL for fast and iotune: */
    char *plan_text;       /* the controller's plan as text (lab_cell_job_plan_text), for people */
    char plan_sha256[65];  /* lab_cell_job_plan_hash: what the worker must plan too */
    char profile[128];     /* fast, a profile name, iotune:B,IOPS */
    char bus[32], channel[32]; /* "" for the profile's and the era's */
    char virt_type[8];         /* qemu (TCG) or kvm */
    unsigned timeout_s, boot;
    int rt_priority;
    char rt_note[256];
    char cpu_profile[64]; /* the CPU profile (host/plan/cpu.h); "fast" or "" for none */
    int cpu;              /* pin the cell (QEMU, nbdkit, reader) to this host CPU; -1: not pinned */
};

/* The job of a planned cell, its plan included (the strings are copied). */
void lab_cell_job_from_spec(struct lab_cell_job *job, int64_t run,
                            const struct lab_cell_spec *spec);
int lab_cell_job_write(const struct lab_cell_job *job, const char *path);
int lab_cell_job_read(const char *path, struct lab_cell_job *job); /* -1 said */
void lab_cell_job_free(struct lab_cell_job *job);

/* The plan of a spec as text: the kernel, the resolved experiment's
 * lines, profile, bus, channel, accelerator, deadline, then what the
 * planner decides from them (lab_cell_plan_describe), the agent's
 * parameters and the kernel's command line (malloc'd). */
char *lab_cell_job_plan_text(const struct lab_cell_spec *spec);
/* SHA-256 of that text and of a model profile's file. 0, or -1. */
int lab_cell_job_plan_hash(const struct lab_cell_spec *spec, char hex[65]);

/* The resolved spec of a job: kernel from the catalog, the experiment and
 * profile from the job's plan (a model profile written into dir), bus.
 * Owns what it resolved. */
struct lab_job_spec {
    struct lab_cell_spec spec;
    struct lab_experiment exp;
    struct lab_profile profile;
};
/* 0, or -1 with why (one line: "unknown kernel 'x' on this host", or a
 * plan that hashes differently here). */
int lab_cell_job_resolve(const struct lab_cell_job *job, const char *dir, struct lab_job_spec *out,
                         char *why, size_t len);
void lab_job_spec_free(struct lab_job_spec *js);

/* The manifest: what the importer checks before it trusts anything. */
#define LAB_BUNDLE_MAX_FILES 16
struct lab_bundle_manifest {
    char key[96], host[256], status[16], kernel[128];
    char plan[65]; /* the SHA-256 of the plan the worker ran ("": it could not start) */
    char reason[1024];
    unsigned attempt, samples, flagged;
    int64_t run, hello_ns, total_ns;
    int index;
    char dir[4096]; /* where the bundle was written (its reason and trace name it) */
    size_t nfiles;
    struct {
        char name[256], sha256[65];
        uint64_t size;
    } files[LAB_BUNDLE_MAX_FILES];
};

/* This host's name in manifests: $LAB_HOST, $SLURMD_NODENAME, else uname. */
const char *lab_bundle_host(void);

/* Runs the job into dir (made; must not hold a manifest yet) and writes the
 * bundle, the manifest last. res is the cell's result. A job that cannot
 * start here (its kernel, experiment or profile unknown on this host) is
 * a complete bundle too: one failed cell with why, status failed. 0 when
 * the bundle is complete (whatever the cell's status), -1 when it could
 * not be written. */
int lab_bundle_run(const struct lab_cell_job *job, const char *dir, struct lab_cell_result *res);

/* Lists dir's files with their checksums and writes MANIFEST.json
 * (MANIFEST.json.tmp, fsync, rename). */
int lab_bundle_write_manifest(const char *dir, struct lab_bundle_manifest *m);

/* The SHA-256 of a file's bytes (hex) and its size; -1 if unreadable. */
int lab_bundle_file_sha256(const char *path, char hex[65], uint64_t *size);

/* Checks a bundle: a manifest of this format, every file it lists present
 * with its size and SHA-256, the store one cell that passes
 * integrity_check. 0 with m filled, or -1 with why (one line) in why. */
int lab_bundle_verify(const char *dir, struct lab_bundle_manifest *m, char *why, size_t len);

enum lab_import_outcome {
    LAB_IMPORT_DONE,       /* stored as a new cell */
    LAB_IMPORT_DUPLICATE,  /* this (key, attempt) was imported before: nothing changed */
    LAB_IMPORT_SUPERSEDED, /* another attempt of the key is stored ok: nothing changed */
    LAB_IMPORT_REFUSED,    /* partial or corrupt (why says so): nothing changed */
};
struct lab_import_result {
    enum lab_import_outcome outcome;
    int64_t cell; /* the new cell, or the one stored before */
    struct lab_bundle_manifest m;
    char why[1024];
};
/* Verifies dir and imports its cell into run (logs kept in log_dir, the
 * cell's reason and trace fact pointing there). A cell that ran must have
 * run a plan (the manifest's hash), and the plan the controller dispatched
 * when `plan` is given (NULL: not known here, as for `lab import` of a
 * bundle from elsewhere). 0 for DONE, DUPLICATE and SUPERSEDED; -1 for
 * REFUSED or a store error (said). */
int lab_bundle_import(struct lab_store *st, int64_t run, const char *log_dir, const char *dir,
                      const char *plan, struct lab_import_result *r);

#endif
