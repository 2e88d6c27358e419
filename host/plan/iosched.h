/* IO schedulers and block tunables per era: which exist on a kernel, and
 * how to select them (elevator= at boot, sysfs at run time, or 2.4's
 * elvtune ioctls). Impossible settings are refused before any boot. */
#ifndef LAB_IOSCHED_H
#define LAB_IOSCHED_H

#include <stddef.h>

#include "kernels/era.h"

struct lab_sched_plan {
    char boot_param[64];  /* "elevator=NAME" for the kernel command line, or "" */
    char agent_sched[32]; /* the agent's lab.sched (switched in sysfs), or "" */
};

/* name NULL or "" = the kernel's default. 0, or -1 with the reason. */
int lab_sched_plan(const struct lab_era *era, const char *name, struct lab_sched_plan *out,
                   char *reason, size_t len);
/* sysfs knobs ("read_ahead_kb:128,iosched/quantum:4") need sysfs (2.6);
 * elvtune ("R,W") needs 2.4's elevator ioctls. 0, or -1 with the reason. */
int lab_tunables_check(const struct lab_era *era, const char *sysfs, const char *elvtune,
                       char *reason, size_t len);

#endif
