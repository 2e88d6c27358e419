/* The bisection's real ops (host/bisect/bisectdriver.h) on this host: a commit
 * built by the lab's builder (kernels/build.h) and admitted only after the
 * IO smoke test (host/cell/smoke.h), measured as ordinary cells in the caller's
 * run (host/cell/cell.h), described by git (host/bisect/git.h). */
#ifndef LAB_BISECTCELLS_H
#define LAB_BISECTCELLS_H

#include "host/bisect/bisectdriver.h"
#include "host/cell/cell.h"

/* The ops' context: options set by the caller, the rest by
 * lab_bisect_cells_prepare and the caller's session. */
struct lab_bisect_cells {
    const char *repo;          /* the kernel git repository */
    const char *fragment, *cc; /* builds: extra config, compiler (NULL: defaults) */
    const char *arch;          /* builds: "x86_64" or "i686" (NULL: x86_64) */
    const char *accel;         /* "auto", "tcg", "kvm" */
    const char *cpu;           /* --cpu: the CPU profile's name; NULL: the profile's */
    unsigned timeout_s;        /* per cell; 0: derived from the work */
    struct lab_experiment exp; /* its reps is set per boot */
    char **sets;               /* its --set overrides (cell jobs carry them) */
    size_t nsets;
    struct lab_profile profile;      /* the data disk */
    const struct lab_metric *metric; /* each counted sample's value */
    struct lab_cell_env env;         /* conn, store, run, log directory */
    int rt_priority;                 /* lab_rt_plan's decision */
    char rt_note[256];               /* its note, the cells' "rt" fact */
    const char *virt_type;           /* chosen at the first cell (NULL until then) */
};

/* build, measure and describe, with a struct lab_bisect_cells as ctx. */
extern const struct lab_bisect_ops lab_bisect_cell_ops;

/* The metric, and the experiment (with its --set overrides) and the
 * profile by name, checked: cells of the experiment must give the metric,
 * one figure per kernel. 0, or -1 said. Free with lab_bisect_cells_free. */
int lab_bisect_cells_prepare(struct lab_bisect_cells *c, const struct lab_metric *metric,
                             const char *experiment, char **sets, size_t nsets,
                             const char *profile);
void lab_bisect_cells_free(struct lab_bisect_cells *c);

/* The counted values of the metric in a stored cell of the run (the
 * experiment's warm-ups left out), added to out: 0, or -1 with why when
 * fewer than reps runs gave one. */
int lab_bisect_cells_values(const struct lab_bisect_cells *c, int64_t cell, unsigned reps,
                            struct lab_bisect_values *out, char *reason, size_t len);

/* The driver's setup for these ops over commits (good first, bad last):
 * row as given, with the commits' hashes and the experiment's and
 * profile's own names. The caller adds the run, command line and hooks. */
void lab_bisect_cells_setup(struct lab_bisect_cells *c, const char (*commits)[41], size_t n,
                            const struct lab_bisect_row *row, struct lab_bisect_setup *out);

#endif
