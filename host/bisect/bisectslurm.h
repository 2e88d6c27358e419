/* The bisection's ops (host/bisect/bisectdriver.h) on Slurm (issue 11): `lab
 * bisect --engine slurm`. A commit's build is a Slurm job running `lab
 * kernels build` (which admits the kernel only after the IO smoke test, a
 * cell on the node it built on); the boots that measure it are `lab cell`
 * jobs submitted right after with --dependency=afterok on the build, their
 * bundles imported from the spool as engine_slurm.c imports a run's. A
 * failed build job is a skip; a failed cell a measuring failure. Every job
 * of one bisection asks for the same node class (host/run/slurm.h): the host
 * is a blocking factor. */
#ifndef LAB_BISECTSLURM_H
#define LAB_BISECTSLURM_H

#include "host/bisect/bisectcells.h"

struct lab_bisect_slurm;

/* The ops' context over c (its experiment, metric, profile, store and run,
 * as the local ops use them), every job to partition (NULL: the
 * default). NULL when Slurm is not here or the spool cannot be made
 * (said). */
struct lab_bisect_slurm *lab_bisect_slurm_open(struct lab_bisect_cells *c, const char *partition);
/* Cancels what is still queued (boots the bisection did not need), ends
 * their rows, removes the spool. NULL is fine. */
void lab_bisect_slurm_close(struct lab_bisect_slurm *s);

/* build, measure, describe and queue, with a struct lab_bisect_slurm as
 * ctx. */
extern const struct lab_bisect_ops lab_bisect_slurm_ops;

#endif
