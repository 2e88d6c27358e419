/* What a run's figures depend on besides its kernels: the experiment, the
 * hardware profile, the bus, the emulated CPU and the kernels' arch. Two
 * runs compared (`lab compare`) must agree on each, or the comparison says
 * so: refused by default, labelled with --force. */
#ifndef LAB_STATS_RUNCONTEXT_H
#define LAB_STATS_RUNCONTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "host/store/store.h"

/* Fills why with the differences ("profile: run 1 pata-2003, run 2 fast;
 * bus: ..."). Returns how many keys differ (0: like with like), -1 with an
 * error when a run cannot be read. */
int lab_run_context_diff(struct lab_store *st, int64_t a, int64_t b, char *why, size_t len);

/* 1 when the store has run `run`, 0 when not, -1 on error. */
int lab_run_exists(struct lab_store *st, int64_t run);

#endif
