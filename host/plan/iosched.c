/* IO schedulers per era. */
#include "host/plan/iosched.h"
#include "kernels/rules.h"

#include <stdio.h>
#include <string.h>

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
    /* When each scheduler existed: the rules table's rows. */
    const struct lab_rule_row *r = lab_rule_named(LAB_RULE_SCHEDULER, name);
    if (r) {
        if (!lab_rule_for(LAB_RULE_SCHEDULER, name, era->version)) {
            char since[32], until[32] = "";
            lab_kver_format(r->since, since, sizeof since);
            if (r->until)
                lab_kver_format(r->until, until, sizeof until);
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
