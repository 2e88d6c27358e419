/* Zoned layout, LBA -> geometry with skews, the seek curve, parameter
 * checks and the analytic expectations (docs/disk-model.md). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "host/hdd/model_int.h"

void hdd_params_defaults(struct hdd_params *p)
{
    memset(p, 0, sizeof(*p));
    p->bus = HDD_BUS_IDE;
    p->queue_depth = 1;
    p->memory_mib = 256;
    p->zones = 20;
    p->seek_type = HDD_SEEK_LEE;
    p->hpl[5] = -1;
    p->cache_segments = 4;
    p->write_cache = 1;
    p->max_wait_ms = 100;
}

int hdd_lee_fit(const struct hdd_params *p, double *a, double *b)
{
    if (p->lee_a != 0 || p->lee_b != 0) {
        *a = p->lee_a;
        *b = p->lee_b;
    } else {
        /* t(x) = min + A*sqrt(x) + B*x with x = d/N. Under uniform random
         * endpoints x has density 2(1-x): E[sqrt x] = 8/15, E[x] = 1/3, so
         * avg - min = 8A/15 + B/3 and full - min = A + B, which gives
         * A = 5(avg - min) - 5(full - min)/3 and B = full - min - A. */
        double lo = p->seek_t2t_ms;
        *a = 5 * (p->seek_avg_ms - lo) - 5 * (p->seek_full_ms - lo) / 3;
        *b = p->seek_full_ms - lo - *a;
    }
    /* t'(x) = A/(2 sqrt x) + B must stay positive on (0, 1]. */
    return (*a >= 0 && *a / 2 + *b > 0) ? 0 : -1;
}

double hdd_seek_ms_p(const struct hdd_params *p, double lee_a, double lee_b, uint64_t ncyl,
                     uint64_t d)
{
    if (d == 0)
        return 0;
    if (p->seek_type == HDD_SEEK_HPL) {
        const double *v = p->hpl;
        if (d == 1 && v[5] >= 0)
            return v[5];
        if ((double)d < v[0])
            return v[1] + v[2] * sqrt((double)d);
        return v[3] + v[4] * (double)d;
    }
    double x = (double)d / (double)(ncyl > 1 ? ncyl - 1 : 1);
    return p->seek_t2t_ms + lee_a * sqrt(x) + lee_b * x;
}

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            snprintf(err, errlen, __VA_ARGS__);                                                    \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)

int hdd_params_check(const struct hdd_params *p, char *err, size_t errlen)
{
    CHECK(p->capacity_bytes >= (1u << 20), "capacity_bytes too small");
    CHECK(p->rpm >= 1000 && p->rpm <= 20000, "rpm out of range");
    CHECK(p->heads >= 1 && p->heads <= 64, "heads out of range");
    CHECK(p->zones >= 1 && p->zones <= HDD_MAX_ZONES, "zones out of range");
    CHECK(p->media_outer_mbs > 0 && p->media_inner_mbs > 0 &&
              p->media_inner_mbs <= p->media_outer_mbs,
          "media rates must be > 0 and inner <= outer");
    CHECK(p->interface_mbs > 0, "interface_mbs must be > 0");
    CHECK(p->cache_segments >= 1 && p->cache_segments <= HDD_MAX_SEGMENTS,
          "cache_segments out of range");
    CHECK(p->queue_depth >= 1 && p->queue_depth <= HDD_MAX_QUEUE, "queue_depth out of range");
    if (p->seek_type == HDD_SEEK_HPL) {
        CHECK(p->hpl[0] >= 1 && p->hpl[1] >= 0 && p->hpl[2] >= 0 && p->hpl[3] >= 0 &&
                  p->hpl[4] >= 0,
              "hpl values out of range");
    } else {
        double a, b;
        CHECK(p->seek_t2t_ms > 0 && p->seek_avg_ms > p->seek_t2t_ms &&
                  p->seek_full_ms > p->seek_avg_ms,
              "need 0 < seek_t2t_ms < seek_avg_ms < seek_full_ms");
        CHECK(hdd_lee_fit(p, &a, &b) == 0, "Lee seek fit is not increasing (check seek times)");
    }
    return 0;
}

int hdd_layout_build(const struct hdd_params *p, uint64_t total, struct hdd_layout *L, char *err,
                     size_t errlen)
{
    if (hdd_params_check(p, err, errlen) < 0)
        return -1;
    memset(L, 0, sizeof(*L));
    double trev_s = 60.0 / p->rpm;
    L->trev = trev_s * 1e9;
    L->heads = (unsigned)p->heads;
    L->total = total;
    /* Constant linear density: spt falls linearly with the cylinder. */
    double spt_o = p->media_outer_mbs * 1e6 * trev_s / SECTOR;
    double spt_i = p->media_inner_mbs * 1e6 * trev_s / SECTOR;
    double n_est = (double)total / (p->heads * (spt_o + spt_i) / 2);
    if (n_est < p->zones)
        n_est = p->zones;
    uint64_t left = total, cyl = 0, lba = 0;
    int z;
    for (z = 0; z < p->zones && left > 0; z++) {
        struct hdd_zone *Z = &L->z[z];
        double c0 = n_est * z / p->zones, c1 = n_est * (z + 1) / p->zones;
        double mid = (c0 + c1) / 2;
        double spt = spt_o - (spt_o - spt_i) * mid / n_est;
        Z->spt = (unsigned)(spt + 0.5);
        if (Z->spt < 8)
            Z->spt = 8;
        Z->tskew = (unsigned)ceil(p->head_switch_ms * 1e6 / L->trev * Z->spt - 1e-9);
        Z->cskew = (unsigned)ceil(p->cyl_switch_ms * 1e6 / L->trev * Z->spt - 1e-9);
        if (Z->tskew >= Z->spt)
            Z->tskew = Z->spt - 1;
        if (Z->cskew >= Z->spt)
            Z->cskew = Z->spt - 1;
        uint64_t per_cyl = (uint64_t)Z->spt * L->heads;
        uint64_t ncyl = (uint64_t)(c1 + 0.5) - (uint64_t)(c0 + 0.5);
        if (ncyl < 1)
            ncyl = 1;
        if (z == p->zones - 1 || ncyl * per_cyl >= left)
            ncyl = (left + per_cyl - 1) / per_cyl;
        Z->first_cyl = cyl;
        Z->ncyl = ncyl;
        Z->first_lba = lba;
        Z->nsect = ncyl * per_cyl < left ? ncyl * per_cyl : left;
        cyl += ncyl;
        lba += Z->nsect;
        left -= Z->nsect;
    }
    L->nz = z;
    L->ncyl = cyl;
    return 0;
}

const struct hdd_zone *hdd_layout_zone(const struct hdd_layout *L, uint64_t lba)
{
    int lo = 0, hi = L->nz - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (L->z[mid].first_lba <= lba)
            lo = mid;
        else
            hi = mid - 1;
    }
    return &L->z[lo];
}

void hdd_layout_geom(const struct hdd_layout *L, uint64_t lba, struct hdd_geom *g)
{
    if (lba >= L->total)
        lba = L->total ? L->total - 1 : 0;
    const struct hdd_zone *Z = hdd_layout_zone(L, lba);
    uint64_t rel = lba - Z->first_lba;
    uint64_t t = rel / Z->spt;
    uint64_t cyls = t / L->heads;
    g->zone = (unsigned)(Z - L->z);
    g->spt = Z->spt;
    g->cyl = Z->first_cyl + cyls;
    g->head = (unsigned)(t % L->heads);
    g->sector = (unsigned)(rel % Z->spt);
    /* t track changes so far: t/H of them cylinder switches. */
    uint64_t skew = ((t - cyls) % Z->spt) * Z->tskew + (cyls % Z->spt) * Z->cskew;
    g->angle = (double)((g->sector + skew) % Z->spt) / Z->spt;
}

/* ---- analytic expectations ---- */

static int expect_layout(const struct hdd_params *p, struct hdd_layout *L)
{
    char err[128];
    return hdd_layout_build(p, p->capacity_bytes / SECTOR, L, err, sizeof(err));
}

double hdd_expect_media_rate(const struct hdd_params *p, uint64_t offset)
{
    struct hdd_layout L;
    if (expect_layout(p, &L) < 0)
        return -1;
    const struct hdd_zone *Z = hdd_layout_zone(&L, offset / SECTOR);
    return Z->spt * (double)SECTOR / (L.trev / 1e9);
}

double hdd_expect_seq_rate(const struct hdd_params *p, uint64_t offset)
{
    struct hdd_layout L;
    if (expect_layout(p, &L) < 0)
        return -1;
    const struct hdd_zone *Z = hdd_layout_zone(&L, offset / SECTOR);
    /* One cylinder: H revolutions of data plus H-1 track skews and one
     * cylinder skew (Hitachi 7K500 §4.4.4 sustained-rate formula). */
    double revs = L.heads + ((L.heads - 1.0) * Z->tskew + Z->cskew) / Z->spt;
    return (double)Z->spt * L.heads * SECTOR / (revs * L.trev / 1e9);
}

/* Expected positioning over the first span bytes: uniform random start and
 * end cylinders among n, P(d) = 2(n-d)/n^2 for d >= 1. with_switch adds the
 * head switch (max(seek, switch) when the head differs, prob. (H-1)/H). */
static double expect_pos(const struct hdd_params *p, uint64_t span, int with_switch)
{
    struct hdd_layout L;
    double a = 0, b = 0;
    if (expect_layout(p, &L) < 0)
        return -1;
    hdd_lee_fit(p, &a, &b);
    uint64_t lba = span / SECTOR;
    if (lba == 0)
        lba = 1;
    struct hdd_geom g;
    hdd_layout_geom(&L, lba - 1, &g);
    double n = (double)(g.cyl + 1), sum = 0, hs = p->head_switch_ms;
    double pdiff = with_switch ? (L.heads - 1.0) / L.heads : 0;
    sum += (1 / n) * pdiff * hs;
    for (uint64_t d = 1; d < g.cyl + 1; d++) {
        double s = hdd_seek_ms_p(p, a, b, L.ncyl, d);
        double pos = (1 - pdiff) * s + pdiff * (s > hs ? s : hs);
        sum += 2 * (n - d) / (n * n) * pos;
    }
    return sum;
}

double hdd_expect_avg_seek_ms(const struct hdd_params *p, uint64_t span_bytes)
{
    return expect_pos(p, span_bytes, 0);
}

double hdd_expect_random_ms(const struct hdd_params *p, uint64_t span_bytes, uint32_t io_bytes)
{
    double pos = expect_pos(p, span_bytes, 1);
    double media = hdd_expect_media_rate(p, span_bytes / 2);
    if (pos < 0 || media <= 0)
        return -1;
    double trev_ms = 60000.0 / p->rpm;
    double xfer = io_bytes / media * 1e3, bus = io_bytes / (p->interface_mbs * 1e6) * 1e3;
    return p->overhead_read_miss_ms + pos + trev_ms / 2 + (xfer > bus ? xfer : bus);
}
