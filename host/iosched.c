/* IO schedulers per era. */
#include "host/iosched.h"

#include <stdio.h>
#include <string.h>

/* When each scheduler existed. Sources: 2.6.0 shipped noop, deadline and
 * anticipatory (as); cfq was merged for 2.6.6 (Jens Axboe); as was removed
 * in 2.6.33; blk-mq's mq-deadline came in 4.11, kyber and bfq in 4.12; the
 * legacy schedulers went with the legacy request path in 5.0. ("none" is
 * blk-mq's name for no scheduler.) */
static const struct {
    const char *name;
    lab_kver since, until; /* until 0 = still there */
} schedulers[] = {
    {"noop", LAB_KV(2, 6, 0), LAB_KV(5, 0, 0)},
    {"deadline", LAB_KV(2, 6, 0), LAB_KV(5, 0, 0)},
    {"anticipatory", LAB_KV(2, 6, 0), LAB_KV(2, 6, 33)},
    {"as", LAB_KV(2, 6, 0), LAB_KV(2, 6, 33)},
    {"cfq", LAB_KV(2, 6, 6), LAB_KV(5, 0, 0)},
    {"none", LAB_KV(4, 11, 0), 0},
    {"mq-deadline", LAB_KV(4, 11, 0), 0},
    {"kyber", LAB_KV(4, 12, 0), 0},
    {"bfq", LAB_KV(4, 12, 0), 0},
};

int lab_sched_plan(const struct lab_era *era, const char *name, struct lab_sched_plan *out,
                   char *reason, size_t len)
{
    memset(out, 0, sizeof *out);
    if (!name || !*name)
        return 0;
    if (!lab_era_has(era, LAB_FEAT_ELEVATOR_PARAM)) {
        snprintf(reason, len,
                 "Linux %s has one elevator, tuned with elvtune (use elvtune = READ,WRITE), not "
                 "selectable schedulers (those came in 2.6.0)",
                 era->version_str);
        return -1;
    }
    for (size_t i = 0; i < sizeof schedulers / sizeof schedulers[0]; i++) {
        if (strcmp(schedulers[i].name, name) != 0)
            continue;
        if (era->version < schedulers[i].since ||
            (schedulers[i].until && era->version >= schedulers[i].until)) {
            char since[32], until[32] = "";
            lab_kver_format(schedulers[i].since, since, sizeof since);
            if (schedulers[i].until)
                lab_kver_format(schedulers[i].until, until, sizeof until);
            snprintf(reason, len, "scheduler %s exists from Linux %s%s%s; this kernel is %s", name,
                     since, until[0] ? " until before " : "", until, era->version_str);
            return -1;
        }
        /* Switch at run time where sysfs can (2.6.10+), else at boot. */
        if (lab_era_has(era, LAB_FEAT_SCHED_SYSFS))
            snprintf(out->agent_sched, sizeof out->agent_sched, "%s", name);
        else
            snprintf(out->boot_param, sizeof out->boot_param, "elevator=%s", name);
        return 0;
    }
    snprintf(reason, len,
             "unknown scheduler '%s' (known: noop, deadline, as, cfq, none, mq-deadline, kyber, "
             "bfq)",
             name);
    return -1;
}

int lab_tunables_check(const struct lab_era *era, const char *sysfs, const char *elvtune,
                       char *reason, size_t len)
{
    if (sysfs && *sysfs && !lab_era_has(era, LAB_FEAT_SYSFS)) {
        snprintf(reason, len, "sysfs tunables need Linux 2.6 (this kernel is %s); use elvtune",
                 era->version_str);
        return -1;
    }
    if (elvtune && *elvtune && lab_era_has(era, LAB_FEAT_ELEVATOR_PARAM)) {
        snprintf(reason, len,
                 "elvtune is 2.4's elevator interface; Linux %s selects a scheduler instead "
                 "(scheduler = ..., sysfs = iosched/...)",
                 era->version_str);
        return -1;
    }
    return 0;
}
