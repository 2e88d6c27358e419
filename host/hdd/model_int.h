/* Internals shared by the model's files (layout.c, model.c, queue.c). */
#ifndef LAB_HDD_MODEL_INT_H
#define LAB_HDD_MODEL_INT_H

#include "host/hdd/model.h"

#define SECTOR 512u

struct hdd_zone {
    uint64_t first_lba, nsect, first_cyl, ncyl;
    unsigned spt, tskew, cskew; /* sectors per track, skews in sectors */
};

struct hdd_layout {
    int nz;
    struct hdd_zone z[HDD_MAX_ZONES];
    uint64_t ncyl, total; /* cylinders, sectors */
    unsigned heads;
    double trev; /* ns per revolution */
};

/* layout.c */
int hdd_layout_build(const struct hdd_params *p, uint64_t total_sectors, struct hdd_layout *L,
                     char *err, size_t errlen);
const struct hdd_zone *hdd_layout_zone(const struct hdd_layout *L, uint64_t lba);
void hdd_layout_geom(const struct hdd_layout *L, uint64_t lba, struct hdd_geom *g);
/* Lee coefficients (normalized x = d/N); 0 when the fit is usable. */
int hdd_lee_fit(const struct hdd_params *p, double *a, double *b);
double hdd_seek_ms_p(const struct hdd_params *p, double lee_a, double lee_b, uint64_t ncyl,
                     uint64_t d);
/* Fills a zeroed buffer with the first problem of p, returns -1; else 0. */
int hdd_params_check(const struct hdd_params *p, char *err, size_t errlen);

struct hdd_seg {
    uint64_t start, end, lru;
    int valid;
};

struct hdd_extent {
    uint64_t start, end;
};

struct hdd_qreq {
    int used, done, ticket, op, fua;
    uint64_t lba, nsect;
    int64_t arrival;
    struct hdd_result res;
};

struct hdd_model {
    struct hdd_params p;
    struct hdd_layout L;
    double lee_a, lee_b;
    double busy_until; /* the command slot is free (ns) */
    /* the arm: idle at (head_cyl, head_head) since arm_t, or streaming */
    double arm_t;
    uint64_t head_cyl;
    unsigned head_head;
    /* read-ahead stream: head at pf_lba exactly at time pf_t, reading on
     * up to pf_limit into segment pf_seg */
    int pf_active, pf_seg;
    uint64_t pf_lba, pf_limit;
    double pf_t;
    /* the read-ahead into segment pf_paused (-1: none) stopped at its
     * limit and the arm still idles at the segment's end: a read hit in
     * that segment resumes it (the drive keeps a sequential stream ahead) */
    int pf_paused;
    struct hdd_seg seg[HDD_MAX_SEGMENTS];
    int nseg;
    uint64_t seg_sect, ra_sect, lru_clock;
    struct hdd_extent *dirty;
    size_t ndirty, dirty_cap;
    uint64_t dirty_sect, wc_limit_sect;
    struct hdd_qreq q[HDD_MAX_QUEUE];
    int next_ticket;
};

/* model.c, for queue.c */
int hdd_serve(struct hdd_model *m, int op, uint64_t offset, uint32_t len, int fua, int64_t arrival,
              int64_t start, struct hdd_result *r);
double hdd_position_estimate(const struct hdd_model *m, int op, uint64_t offset, uint32_t len,
                             int fua, double t);

#endif
