/* The IO smoke test a kernel must pass before the lab trusts it: modern
 * compilers miscompile 2.4/2.6 trees silently (dropped stores in "=m" asm,
 * an empty initcall table), so a build that links proves nothing. One cell
 * on PIIX IDE over the era's agent channel reads a file of known content
 * twice with the agent checking every 8-byte word. */
#ifndef LAB_SMOKE_H
#define LAB_SMOKE_H

#include "host/cell/cell.h"

#include <stddef.h>

#define LAB_SMOKE_FILE_MIB 32
#define LAB_SMOKE_REPS     2

/* Runs the smoke cell for kernel k in env (its samples go to env's store
 * and run) under accel ("auto", "tcg", "kvm": host/cell/accel.h). 1 passed with the figures in note
 * ("boot-to-agent 3.1 s, 2 reads of 32 MiB at 39.3 MB/s on hda (drivers/ide) in
 * mwdma2, every word as written"); 0 failed with why
 * in note; -1 could not run it (bad input: note says why). */
int lab_kernel_smoke(const struct lab_cell_env *env, const struct lab_kernel *k, const char *accel,
                     char *note, size_t len);

/* lab_kernel_smoke on the kernel named `name`, then its verdict recorded
 * with a user kernel (lab_user_kernel_set_verified) unless interrupted.
 * The same returns; a kernel that passed before is not run again (1). */
int lab_kernel_verify(const struct lab_cell_env *env, const char *name, const char *accel,
                      int again, char *note, size_t len);

#endif
