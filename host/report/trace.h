/* Summaries of the hdd filter's per-request traces: the guest kernel's real
 * request pattern (sizes, sequentiality, idle gaps, drive cache hits), even
 * for kernels that have no blktrace. */
#ifndef LAB_TRACE_H
#define LAB_TRACE_H

#include <stdint.h>
#include <stdio.h>

#define LAB_TRACE_SIZE_BUCKETS 16 /* 512 B, 1 KiB, ... 16 MiB and more */

struct lab_trace_summary {
    uint64_t requests, reads, writes, flushes;
    uint64_t bytes_read, bytes_written;
    uint64_t size_hist[LAB_TRACE_SIZE_BUCKETS]; /* reads and writes by size */
    uint64_t sequential;                        /* starts where the previous one ended */
    uint64_t hits, partial, misses;             /* drive cache, for reads */
    uint64_t idle_gaps;                         /* the drive idle before an arrival */
    int64_t idle_ns, span_ns, service_ns, wait_ns;
};

/* A time window in the host's CLOCK_MONOTONIC ns; {0, 0} takes everything. */
struct lab_trace_window {
    int64_t from_ns, to_ns;
};

/* Reads a trace (op offset length arrival start finish outcome, tab-separated,
 * times relative to the "# t0_ns=N" line before them, N on CLOCK_MONOTONIC)
 * and counts the requests that arrived inside the window. -1 with
 * "LINE: reason" in err for a malformed line. */
int lab_trace_summarize(FILE *in, struct lab_trace_window window, struct lab_trace_summary *out,
                        char *err, size_t errlen);
struct lab_store;
/* A cell's counted runs as a window on the host clock (boot, warm-up and
 * power-off requests left out: lab_warmup_is); {0, 0} when its samples
 * have no host timestamps. */
struct lab_cell_info;
struct lab_trace_window lab_trace_cell_window(struct lab_store *st, const struct lab_cell_info *ci);

/* One request of a trace; times in ns after the trace's t0. */
struct lab_trace_request {
    int op; /* 0 read, 1 write, 2 flush, 3 other */
    uint64_t offset, length;
    int64_t arrival, start, finish;
    int outcome; /* 0 hit, 1 partial, 2 miss, 3 none */
};
/* The requests inside the window in arrival order (*out malloc'd, *n of
 * them), for plots; errors as for lab_trace_summarize. */
int lab_trace_read(FILE *in, struct lab_trace_window window, struct lab_trace_request **out,
                   size_t *n, char *err, size_t errlen);
void lab_trace_print(FILE *out, const struct lab_trace_summary *s);
/* The lower bound in bytes of size bucket i. */
uint64_t lab_trace_bucket_bytes(int i);

#endif
