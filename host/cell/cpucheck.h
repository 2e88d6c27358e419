/* A cell under a CPU profile (host/plan/cpu.h), checked as it runs:
 *  - the speed the guest measured with the agent's calibration loop
 *    (`log msg=calibration calib_instructions=N calib_ns=T`), which must be
 *    within LAB_CPU_MIPS_TOLERANCE_PCT of the profile's nominal, or the
 *    cell fails;
 *  - each run's length on the guest's clock (guest_ns of its begin and end
 *    records) against the host's stamps of the same two records: under
 *    the instruction counter the guest's clock is the counter's, so a host
 *    that cannot keep up shows as a guest clock falling behind. A run whose
 *    clocks disagree beyond the bound is flagged like a contended run
 *    (host_flag=1: left out, and rerun once in another boot). */
#ifndef LAB_CELL_CPUCHECK_H
#define LAB_CELL_CPUCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "host/cell/proto.h"

/* The bound: both a share of the run and an absolute floor, since the
 * host stamps a record when it arrives and the channel's delivery jitters
 * by a few ms (docs/cpu.md has the figures). */
#define LAB_CLOCK_DRIFT_PCT      2.0
#define LAB_CLOCK_DRIFT_FLOOR_NS 10000000LL

/* 1 when rec is the agent's calibration record (then *mips is its speed),
 * else 0. */
int lab_cpucheck_calibration(const struct lab_record *rec, double *mips);

/* Appends "host_clock_guest_ns=G host_clock_drift_pct=P" to buf (len its
 * size); returns 1 when the run's clocks disagree beyond the bound. */
int lab_cpucheck_clock_extra(int64_t guest_ns, int64_t host_ns, char *buf, size_t len);

#endif
