/* The hdd filter's deadline overruns, shared with the host (issue 13): with
 * stats=PATH the filter maps PATH (created, sizeof(struct hdd_stats)) and
 * counts, for every request, how late its reply was ready against the
 * model's deadline (the real I/O took longer, or the sleep woke late). The
 * host reads the file as each run begins and ends; the counters only grow. */
#ifndef LAB_HDD_STATS_H
#define LAB_HDD_STATS_H

#include <stdint.h>

#define HDD_STATS_MAGIC   0x3174617473646468ULL /* "hddstat1" */
#define HDD_STATS_LATE_NS 1000000               /* a request over 1 ms late counts as late */

struct hdd_stats {
    uint64_t magic;
    uint64_t requests;    /* served */
    uint64_t late;        /* ready more than HDD_STATS_LATE_NS after the deadline */
    uint64_t late_ns;     /* total lateness of every request past its deadline */
    uint64_t max_late_ns; /* the worst */
};

#endif
