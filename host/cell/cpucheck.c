/* A CPU profile's checks while a cell runs: the calibration loop's speed
 * and the agreement of the guest's and the host's clocks. */
#include "host/cell/cpucheck.h"
#include "host/plan/cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lab_cpucheck_calibration(const struct lab_record *rec, double *mips)
{
    const char *msg = lab_record_get(rec, "msg");
    uint64_t insns, ns;
    if (rec->type != LAB_REC_LOG || !msg || strcmp(msg, "calibration") != 0 ||
        lab_record_get_u64(rec, "calib_instructions", &insns) < 0 ||
        lab_record_get_u64(rec, "calib_ns", &ns) < 0 || ns == 0)
        return 0;
    *mips = lab_cpu_mips(insns, ns);
    return 1;
}

int lab_cpucheck_clock_extra(int64_t guest_ns, int64_t host_ns, char *buf, size_t len)
{
    size_t used = strlen(buf);
    if (host_ns <= 0 || guest_ns < 0 || used >= len)
        return 0;
    int64_t diff = guest_ns - host_ns;
    double pct = 100.0 * (double)diff / (double)host_ns;
    snprintf(buf + used, len - used, "%shost_clock_guest_ns=%lld host_clock_drift_pct=%.3f",
             used ? " " : "", (long long)guest_ns, pct);
    return llabs(diff) > LAB_CLOCK_DRIFT_FLOOR_NS &&
           pct * pct > LAB_CLOCK_DRIFT_PCT * LAB_CLOCK_DRIFT_PCT;
}
