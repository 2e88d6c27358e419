/* Which runs of a cell are warm-ups, decided once, here. The plan sends the
 * agent lab.reps = reps + warmup runs per readahead group and lab.warmup;
 * the agent numbers its runs on across a sweep's groups (group g holds reps
 * g * lab.reps ..), and the first lab.warmup runs of each group warm up.
 * Every reader of runs (statistics, JSON, timing, trace, kernel profile)
 * asks lab_warmup_is; none counts runs on its own. */
#ifndef LAB_PLAN_WARMUP_H
#define LAB_PLAN_WARMUP_H

#include <stdint.h>

struct lab_experiment;
struct lab_store;

struct lab_warmup {
    unsigned warmup; /* warm-up runs at the start of each group */
    unsigned every;  /* runs per group (the agent's lab.reps); 0: one group */
};

/* The rule the plan of an experiment sends the agent. */
struct lab_warmup lab_warmup_of_experiment(const struct lab_experiment *e);
/* The rule of a stored cell: its "warmup" fact (else lab.warmup) and the
 * lab.reps of the parameters it was sent (params may be NULL: one group). */
struct lab_warmup lab_warmup_of_cell(struct lab_store *st, int64_t cell, const char *params);
/* 1 if run number rep (the agent's rep) is a warm-up. */
int lab_warmup_is(struct lab_warmup w, uint64_t rep);

#endif
