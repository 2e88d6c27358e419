/* Contention on record (issue 13): what the guest did not get during each
 * run, measured by the host as the agent's begin and end records arrive:
 *   vcpu_wait_ns  the vCPU threads' wait on a run queue
 *                 (/proc/QEMU/task/TID/schedstat, second field);
 *   psi_cpu_us    the host's CPU pressure, "some" total
 *                 (/proc/pressure/cpu), and avg10 at the end;
 *   disk_late     the era disk's requests over 1 ms past the model's
 *                 deadline, their total lateness and the worst
 *                 (the hdd filter's stats file, hdd/stats.h).
 * Stored with the sample as host_* keys of its extra; a run over a
 * threshold is flagged (host_flag=1) and left out of the statistics. */
#ifndef LAB_CONTENTION_H
#define LAB_CONTENTION_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A run is flagged when its vCPUs waited more than this share of the run,
 * or the disk's replies were late by more than this share in total. */
#define LAB_CONTENTION_VCPU_PCT 5.0
/* ... and by more than this: a few scheduler ticks of wait are the host's
 * floor even when idle (2-3.3 ms in runs of 30 ms here, real-time cells,
 * load 0.3), which flagged and reran every short run of the boot tests. A
 * contended run waits tens of ms and more (tests/boot/contention.sh). */
#define LAB_CONTENTION_VCPU_FLOOR_NS 5000000
#define LAB_CONTENTION_DISK_PCT      2.0

struct lab_contention {
    pid_t vcpu[8];
    int nvcpu;
    const char *stats_path; /* the hdd filter's, or NULL */
};

struct lab_contention_snap {
    int64_t vcpu_wait_ns; /* -1: unknown */
    int64_t psi_some_us;  /* -1: no PSI */
    double psi_avg10;
    int have_disk;
    uint64_t disk_reqs, disk_late, disk_late_ns, disk_max_late_ns;
};

/* Finds the vCPU threads of the QEMU running domain `name`. 0, or -1 when
 * there is no such QEMU (the snapshots then have no vCPU figure). */
int lab_contention_attach(struct lab_contention *c, const char *name, const char *stats_path);
void lab_contention_snap(const struct lab_contention *c, struct lab_contention_snap *out);

/* The run's figures from its begin and end snapshots as "host_... " keys
 * appended to buf (len its size); returns 1 when the run is over a
 * threshold (then host_flag=1 is among them). run_ns: the run's length. */
int lab_contention_extra(const struct lab_contention_snap *begin,
                         const struct lab_contention_snap *end, int64_t run_ns, char *buf,
                         size_t len);

/* Parsers, pure. "some avg10=0.12 avg60=... total=123" -> avg10, total. */
int lab_psi_parse(const char *text, double *avg10, int64_t *total_us);
/* "run_ns wait_ns slices" -> wait_ns. */
int lab_schedstat_parse(const char *text, int64_t *wait_ns);

#endif
