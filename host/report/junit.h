/* JUnit XML for CI (`--junit FILE` of lab run and lab bisect), the
 * Ant/Jenkins dialect every CI system renders. The rule, KernelCI's lesson:
 * a measured regression is a <failure>; a cell that could not run (boot,
 * panic, hang, infrastructure) is an <error>, never a failure, so broken
 * machinery cannot pass for a slower kernel nor hide one. */
#ifndef LAB_JUNIT_H
#define LAB_JUNIT_H

#include <stddef.h>
#include <stdint.h>

#include "host/bisect/bisect.h"
#include "host/store/store.h"

/* One testcase per cell (error unless ok; skipped when skipped) and per
 * comparison (failure when significant, in the bad direction and at least
 * threshold_pct large). 0, or -1 with an error. */
int lab_junit_write_run(struct lab_store *st, int64_t run, double threshold_pct, const char *path);

/* One testcase per step (bad: failure, skip: error) and one for the
 * result (found: failure naming the commit; failed, ambiguous or
 * interrupted: error; refused: the endpoints do not differ, a pass). */
int lab_junit_write_bisect(const struct lab_bisect_info *info, const struct lab_bisect_step *steps,
                           size_t nsteps, const char *path);

#endif
