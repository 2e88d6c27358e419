/* Era hard-disk timing model: pure computation, no I/O, no clock reads.
 * Time is passed in and returned as nanoseconds on the caller's clock; the
 * platter's rotational phase is 0 at t = 0 of that clock.
 * See host/hdd/README.md and docs/disk-model.md. */
#ifndef LAB_HDD_MODEL_H
#define LAB_HDD_MODEL_H

#include <stddef.h>
#include <stdint.h>

enum hdd_bus { HDD_BUS_IDE, HDD_BUS_SATA, HDD_BUS_SCSI };
enum hdd_seek_type { HDD_SEEK_LEE, HDD_SEEK_HPL };
enum hdd_op { HDD_READ, HDD_WRITE, HDD_FLUSH };
enum hdd_outcome { HDD_MISS, HDD_HIT, HDD_PARTIAL };

#define HDD_MAX_ZONES    64
#define HDD_MAX_SEGMENTS 64
#define HDD_MAX_QUEUE    256

/* Every value a profile can set. Rates are in MB/s (10^6 bytes/s), times in
 * ms, sizes in bytes. */
struct hdd_params {
    char description[160];
    int bus;         /* enum hdd_bus (lab only) */
    int queue_depth; /* 1 = FIFO (IDE); > 1 = NCQ/TCQ with SPTF + aging */
    int memory_mib;  /* guest RAM (lab only) */
    char cpu[160];   /* the era CPU (lab only: host/plan/cpu.h); "" = fast */

    uint64_t capacity_bytes; /* the drive's real capacity */
    double rpm;
    int heads;                    /* recording surfaces */
    int zones;                    /* 1..HDD_MAX_ZONES, 15-30 typical */
    double media_outer_mbs;       /* instantaneous media rate, outermost zone */
    double media_inner_mbs;       /* instantaneous media rate, innermost zone */
    double head_switch_ms;        /* sets the track skew */
    double cyl_switch_ms;         /* sets the cylinder skew */
    int seek_type;                /* enum hdd_seek_type */
    double seek_t2t_ms;           /* single-cylinder seek (Lee "min") */
    double seek_avg_ms;           /* uniform-random average over the full stroke */
    double seek_full_ms;          /* full stroke */
    double lee_a, lee_b;          /* 0,0 = fit from t2t/avg/full; x = d/N */
    double hpl[6];                /* V1 (cyl), V2..V6 (ms), DiskSim HPL */
    double write_settle_ms;       /* added to every media write's positioning */
    double overhead_read_miss_ms; /* controller overhead, media read */
    double overhead_read_hit_ms;  /* controller overhead, cache hit */
    double overhead_write_ms;     /* controller overhead, write (cache or media) */
    double interface_mbs;         /* host transfer rate */
    uint64_t cache_bytes;         /* total buffer */
    int cache_segments;           /* read segments (LRU) */
    uint64_t readahead_bytes;     /* max read-ahead past a miss; 0 = segment size */
    int write_cache;              /* WCE: 1 write-back, 0 write-through */
    uint64_t write_cache_bytes;   /* dirty limit; 0 = cache_bytes / 2 */
    double max_wait_ms;           /* aging limit for queued scheduling */
};

/* Result of one request. Times are absolute on the caller's clock. */
struct hdd_result {
    int64_t arrival_ns, start_ns, finish_ns;
    int outcome; /* enum hdd_outcome */
};

struct hdd_model;

/* Sensible defaults for optional keys (zeros elsewhere). */
void hdd_params_defaults(struct hdd_params *p);
/* NULL and a message in err when the parameters are unusable. The drive has
 * max(profile capacity, image_bytes); the image sits on the outer cylinders. */
struct hdd_model *hdd_model_new(const struct hdd_params *p, uint64_t image_bytes, char *err,
                                size_t errlen);
void hdd_model_free(struct hdd_model *m);
const struct hdd_params *hdd_model_params(const struct hdd_model *m);

/* FIFO (non-queued) service: start = max(arrival, drive free). Arrivals must
 * not decrease. Returns 0, or -1 for an out-of-range request. */
int hdd_model_service(struct hdd_model *m, int op, uint64_t offset, uint32_t len, int fua,
                      int64_t arrival_ns, struct hdd_result *out);

/* Queued interface (NCQ/TCQ; also FIFO when queue_depth is 1).
 * submit returns a ticket >= 0 (or -1 when HDD_MAX_QUEUE requests wait).
 * next() dispatches at most one request when the drive is free at now_ns:
 * among the first queue_depth pending requests (by arrival) it picks one
 * older than max_wait_ms (oldest first), else the shortest positioning
 * time. Returns the dispatched ticket or -1. done() returns 1 and fills out
 * once the ticket was dispatched, and forgets the ticket. */
int hdd_queue_submit(struct hdd_model *m, int op, uint64_t offset, uint32_t len, int fua,
                     int64_t arrival_ns);
int hdd_queue_next(struct hdd_model *m, int64_t now_ns);
int hdd_queue_done(struct hdd_model *m, int ticket, struct hdd_result *out);
/* When the drive can take its next command (ns); pending count. */
int64_t hdd_queue_free_at(const struct hdd_model *m);
int hdd_queue_pending(const struct hdd_model *m);

/* Introspection for tests and the summary. */
struct hdd_geom {
    uint64_t cyl;
    unsigned head, sector, spt, zone;
    double angle; /* 0..1 of a revolution, skew included */
};
int hdd_model_geom(const struct hdd_model *m, uint64_t lba, struct hdd_geom *g);
uint64_t hdd_model_cylinders(const struct hdd_model *m);
double hdd_model_seek_ms(const struct hdd_model *m, uint64_t dist_cyl);
uint64_t hdd_model_dirty_bytes(const struct hdd_model *m);

/* Analytic expectations (no model object needed).
 * seq_rate: sustained sequential bytes/s of the zone holding offset, i.e.
 * the instantaneous rate reduced by the track and cylinder skews.
 * media_rate: instantaneous rate (bytes/s) of that zone.
 * avg_seek: uniform-random seek (ms) between two points within the first
 * span bytes. random: read-miss overhead + that seek + T_rev/2 + media and
 * bus transfer of io_bytes. Negative when params are unusable. */
double hdd_expect_seq_rate(const struct hdd_params *p, uint64_t offset);
double hdd_expect_media_rate(const struct hdd_params *p, uint64_t offset);
double hdd_expect_avg_seek_ms(const struct hdd_params *p, uint64_t span_bytes);
double hdd_expect_random_ms(const struct hdd_params *p, uint64_t span_bytes, uint32_t io_bytes);

#endif
