/* Slurm's commands as the lab uses them (issue 11): whether sbatch is
 * here, the node class of a run or bisection, submitting a batch script,
 * which tasks squeue still lists, cancelling. The run engine
 * (engine_slurm.c) and the bisection's Slurm ops (bisectslurm.c) share
 * these, so both ask for a node class the same way. */
#ifndef LAB_SLURM_H
#define LAB_SLURM_H

#include <stddef.h>

#define LAB_SLURM_JOB_ID 64 /* a job id, or an array task: "12_3" */

/* 0 when sbatch and squeue are here, else -1 said (for `what`: "--engine
 * slurm"). */
int lab_slurm_check(const char *what);

/* The node class every job of one run or bisection asks for: the feature
 * $LAB_SLURM_FEATURE, else the first feature of the partition's nodes
 * (NULL: the default partition), else "" (any node). Hosts are a blocking
 * factor: both kernels of a comparison, a bisection step and its reference
 * runs, run on the same class. */
void lab_slurm_feature(const char *partition, char *out, size_t len);

/* One sbatch. */
struct lab_slurm_submit {
    const char *script;    /* the batch script */
    const char *name;      /* --job-name */
    const char *output;    /* --output (sbatch's %A, %a, %j patterns) */
    const char *partition; /* NULL: the default */
    const char *feature;   /* --constraint; NULL or "": none */
    const char *after_ok;  /* --dependency=afterok:ID (and --kill-on-invalid-dep), NULL: none */
    unsigned array;        /* tasks 0 .. array-1; 0: a single job */
    int requeue;           /* --requeue */
};

/* Submits the script; its job id into id. 0, or -1 with sbatch's words
 * said. */
int lab_slurm_sbatch(const struct lab_slurm_submit *s, char id[LAB_SLURM_JOB_ID]);

/* The tasks of these jobs that squeue still lists, queued or running ("12"
 * or "12_3" per line; never NULL). */
char *lab_slurm_listed(const char (*jobs)[LAB_SLURM_JOB_ID], size_t n);
/* Whether a task ("12_3") or job ("12") is among those lines. */
int lab_slurm_is_listed(const char *lines, const char *task);

/* scancel --signal=INT --full: each cell tears down and says so. */
void lab_slurm_cancel(const char *job);

#endif
