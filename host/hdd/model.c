/* The service-time computation: rotation, media streaming, segmented read
 * cache with lazily modelled read-ahead, write-back cache with destage, and
 * the FIFO entry point (docs/disk-model.md, "One request's service time"). All internal times are
 * double nanoseconds on the caller's clock. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/hdd/model_int.h"

#define MS 1e6 /* ns per ms */

static double frac1(double x)
{
    return x - floor(x);
}

static double phase(const struct hdd_model *m, double t)
{
    return frac1(t / m->L.trev);
}

static void geom(const struct hdd_model *m, uint64_t lba, struct hdd_geom *g)
{
    hdd_layout_geom(&m->L, lba, g);
}

static double bus_ns(const struct hdd_model *m, uint64_t nsect)
{
    return (double)nsect * SECTOR / (m->p.interface_mbs * 1e6) * 1e9;
}

/* Wait at a track boundary: the head left the previous track at time t and
 * needs sw ns to switch; the next track's first sector is at angle. */
static double switch_wait(const struct hdd_model *m, double t, double angle, double sw)
{
    double T = m->L.trev;
    double wait = frac1(angle - phase(m, t)) * T;
    if (wait + 1 < sw)
        wait += T * ceil((sw - wait - 1) / T);
    return wait;
}

/* The head is at the start of sector a at time ta and reads on: the time it
 * passes the end of sector b - 1. */
static double stream_to(const struct hdd_model *m, uint64_t a, double ta, uint64_t b)
{
    double t = ta, T = m->L.trev;
    struct hdd_geom g, g2;
    while (a < b) {
        geom(m, a, &g);
        uint64_t tend = a - g.sector + g.spt;
        uint64_t e = tend < b ? tend : b;
        t += (double)(e - a) / g.spt * T;
        a = e;
        if (a >= b)
            break;
        geom(m, a, &g2);
        double sw = (g2.cyl != g.cyl ? m->p.cyl_switch_ms : m->p.head_switch_ms) * MS;
        t += switch_wait(m, t, g2.angle, sw);
    }
    return t;
}

/* The same stream: the first sector not yet read at time t (<= limit). */
static uint64_t stream_pos(const struct hdd_model *m, uint64_t a, double ta, uint64_t limit,
                           double t)
{
    double tc = ta, T = m->L.trev;
    struct hdd_geom g, g2;
    if (t <= ta)
        return a;
    while (a < limit) {
        geom(m, a, &g);
        uint64_t tend = a - g.sector + g.spt;
        uint64_t e = tend < limit ? tend : limit;
        double te = tc + (double)(e - a) / g.spt * T;
        if (te > t)
            return a + (uint64_t)((t - tc) / T * g.spt);
        tc = te;
        a = e;
        if (a >= limit)
            break;
        geom(m, a, &g2);
        double sw = (g2.cyl != g.cyl ? m->p.cyl_switch_ms : m->p.head_switch_ms) * MS;
        tc += switch_wait(m, tc, g2.angle, sw);
        if (tc > t)
            return a;
    }
    return limit;
}

/* Seek plus head switch (plus write settle) from (cyl, head) to g, ns. */
static double position_ns(const struct hdd_model *m, uint64_t cyl, unsigned head,
                          const struct hdd_geom *g, int write)
{
    uint64_t d = g->cyl > cyl ? g->cyl - cyl : cyl - g->cyl;
    double s = hdd_seek_ms_p(&m->p, m->lee_a, m->lee_b, m->L.ncyl, d);
    if (g->head != head && m->p.head_switch_ms > s)
        s = m->p.head_switch_ms;
    if (write && (d > 0 || g->head != head))
        s += m->p.write_settle_ms;
    return s * MS;
}

/* Positions at sector a from the idle arm, starting at t (overhead already
 * included in t): the time the head is at the start of a. */
static double locate(const struct hdd_model *m, uint64_t a, double t, int write)
{
    struct hdd_geom g;
    geom(m, a, &g);
    double ready = t + position_ns(m, m->head_cyl, m->head_head, &g, write);
    return ready + frac1(g.angle - phase(m, ready)) * m->L.trev;
}

static void park(struct hdd_model *m, uint64_t last_lba, double t)
{
    struct hdd_geom g;
    geom(m, last_lba, &g);
    m->head_cyl = g.cyl;
    m->head_head = g.head;
    m->arm_t = t;
    m->pf_paused = -1; /* the arm moved on (bg_catch_up re-marks a pause) */
}

static void seg_trim(struct hdd_model *m, struct hdd_seg *s)
{
    if (s->end > m->seg_sect && s->end - m->seg_sect > s->start)
        s->start = s->end - m->seg_sect;
}

/* The read-ahead stream ends at pos at time t; the arm idles there. */
static void pf_finish(struct hdd_model *m, uint64_t pos, double t)
{
    struct hdd_seg *s = &m->seg[m->pf_seg];
    s->end = pos > s->start ? pos : s->start;
    seg_trim(m, s);
    park(m, pos > 0 ? pos - 1 : 0, t);
    m->pf_active = 0;
}

static void pf_stop(struct hdd_model *m, double t)
{
    pf_finish(m, stream_pos(m, m->pf_lba, m->pf_t, m->pf_limit, t), t);
}

/* Writes the dirty extent nearest to the arm (at most one segment of it),
 * starting at t; returns the completion time. */
static double destage_one(struct hdd_model *m, double t)
{
    size_t best = 0;
    uint64_t bestd = UINT64_MAX;
    struct hdd_geom g;
    for (size_t i = 0; i < m->ndirty; i++) {
        geom(m, m->dirty[i].start, &g);
        uint64_t d = g.cyl > m->head_cyl ? g.cyl - m->head_cyl : m->head_cyl - g.cyl;
        if (d < bestd) {
            bestd = d;
            best = i;
        }
    }
    struct hdd_extent *e = &m->dirty[best];
    uint64_t chunk = m->seg_sect > 0 ? m->seg_sect : 256;
    uint64_t a = e->start, b = e->end - e->start > chunk ? e->start + chunk : e->end;
    double ms = locate(m, a, t, 1);
    double me = stream_to(m, a, ms, b);
    park(m, b - 1, me);
    m->dirty_sect -= b - a;
    e->start = b;
    if (e->start >= e->end)
        m->dirty[best] = m->dirty[--m->ndirty];
    return me;
}

static void dirty_add(struct hdd_model *m, uint64_t a, uint64_t b)
{
    for (size_t i = 0; i < m->ndirty;) {
        struct hdd_extent *e = &m->dirty[i];
        if (e->end >= a && e->start <= b) {
            a = e->start < a ? e->start : a;
            b = e->end > b ? e->end : b;
            m->dirty_sect -= e->end - e->start;
            *e = m->dirty[--m->ndirty];
        } else {
            i++;
        }
    }
    if (m->ndirty == m->dirty_cap) {
        m->dirty_cap = m->dirty_cap ? 2 * m->dirty_cap : 64;
        m->dirty = realloc(m->dirty, m->dirty_cap * sizeof(*m->dirty));
        if (!m->dirty)
            abort();
    }
    m->dirty[m->ndirty++] = (struct hdd_extent){a, b};
    m->dirty_sect += b - a;
}

static void dirty_drop_inside(struct hdd_model *m, uint64_t a, uint64_t b)
{
    for (size_t i = 0; i < m->ndirty;) {
        struct hdd_extent *e = &m->dirty[i];
        if (e->start >= a && e->end <= b) {
            m->dirty_sect -= e->end - e->start;
            *e = m->dirty[--m->ndirty];
        } else {
            i++;
        }
    }
}

/* Background work (read-ahead to its limit, then destage) lazily run up to
 * t, when a new command wants the drive. Returns when the drive can start it
 * (>= t: a destage under way is finished first). A read-ahead still running
 * at t stays active; the caller continues or stops it. */
static double bg_catch_up(struct hdd_model *m, double t)
{
    if (m->pf_active) {
        double tl = stream_to(m, m->pf_lba, m->pf_t, m->pf_limit);
        if (tl > t)
            return t;
        int seg = m->pf_seg;
        pf_finish(m, m->pf_limit, tl);
        m->pf_paused = seg;
    }
    double bt = m->arm_t > m->busy_until ? m->arm_t : m->busy_until;
    while (m->ndirty > 0 && bt < t)
        bt = destage_one(m, bt);
    return bt > t ? bt : t;
}

static struct hdd_seg *seg_alloc(struct hdd_model *m, int *idx)
{
    int best = 0;
    for (int i = 0; i < m->nseg; i++) {
        if (!m->seg[i].valid) {
            best = i;
            break;
        }
        if (m->seg[i].lru < m->seg[best].lru)
            best = i;
    }
    *idx = best;
    m->seg[best].valid = 1;
    m->seg[best].lru = ++m->lru_clock;
    return &m->seg[best];
}

static void seg_invalidate(struct hdd_model *m, uint64_t a, uint64_t b)
{
    for (int i = 0; i < m->nseg; i++)
        if (m->seg[i].valid && m->seg[i].start < b && m->seg[i].end > a)
            m->seg[i].valid = 0;
}

static void serve_read(struct hdd_model *m, uint64_t a, uint64_t b, double start,
                       struct hdd_result *r, double *fin)
{
    double t = bg_catch_up(m, start);
    double hit = m->p.overhead_read_hit_ms * MS, miss = m->p.overhead_read_miss_ms * MS;
    double bus = bus_ns(m, b - a);
    uint64_t total = m->L.total;

    if (m->pf_active) {
        struct hdd_seg *s = &m->seg[m->pf_seg];
        uint64_t pos = stream_pos(m, m->pf_lba, m->pf_t, m->pf_limit, t);
        uint64_t lo = s->start;
        if (pos > m->seg_sect && pos - m->seg_sect > lo)
            lo = pos - m->seg_sect;
        if (a >= lo && a <= m->pf_limit) {
            /* On the read-ahead stream: data already read, or data the
             * stream reaches soon ("almost hit"), or a continuation. */
            *fin = t + hit + bus;
            r->outcome = HDD_HIT;
            if (b > pos) {
                double tb = stream_to(m, m->pf_lba, m->pf_t, b);
                if (tb > *fin)
                    *fin = tb;
                r->outcome = HDD_PARTIAL;
                m->pf_lba = b;
                m->pf_t = tb;
            }
            uint64_t lim = b + m->ra_sect < total ? b + m->ra_sect : total;
            if (lim > m->pf_limit)
                m->pf_limit = lim;
            s->lru = ++m->lru_clock;
            r->start_ns = (int64_t)llround(t);
            return;
        }
        pf_stop(m, t);
    }
    r->start_ns = (int64_t)llround(t);
    uint64_t c = a;
    for (int i = 0; i < m->nseg; i++) {
        struct hdd_seg *s = &m->seg[i];
        if (s->valid && s->start <= a && a < s->end) {
            s->lru = ++m->lru_clock;
            uint64_t e = s->end < b ? s->end : b;
            if (e > c)
                c = e;
        }
    }
    if (c >= b) {
        *fin = t + hit + bus;
        r->outcome = HDD_HIT;
        /* A hit in the segment whose read-ahead stopped at its limit: the
         * host consumed part of it, so the drive reads ahead again from
         * where it stopped (the arm is still there) to ra_sect past this
         * read. Without this a sequential stream that is slower than the
         * media misses once per segment (reference §3.3 item 7). */
        int ps = m->pf_paused;
        if (ps >= 0 && m->seg[ps].valid && m->seg[ps].start <= a && b <= m->seg[ps].end) {
            uint64_t e = m->seg[ps].end;
            uint64_t lim = b + m->ra_sect < total ? b + m->ra_sect : total;
            if (lim > e) {
                m->pf_active = 1;
                m->pf_seg = ps;
                m->pf_lba = e;
                m->pf_t = locate(m, e, t, 0);
                m->pf_limit = lim;
                m->pf_paused = -1;
            }
        }
        return;
    }
    m->pf_paused = -1;
    r->outcome = c > a ? HDD_PARTIAL : HDD_MISS;
    double ms = locate(m, c, t + miss, 0);
    double me = stream_to(m, c, ms, b);
    *fin = me > t + miss + bus ? me : t + miss + bus;
    if (m->nseg == 0) {
        park(m, b - 1, me);
        return;
    }
    int idx;
    struct hdd_seg *s = seg_alloc(m, &idx);
    s->start = c;
    s->end = b;
    seg_trim(m, s);
    if (m->ra_sect > 0 && b < total) {
        m->pf_active = 1;
        m->pf_seg = idx;
        m->pf_lba = b;
        m->pf_t = me;
        m->pf_limit = b + m->ra_sect < total ? b + m->ra_sect : total;
    } else {
        park(m, b - 1, me);
    }
}

static void serve_write(struct hdd_model *m, uint64_t a, uint64_t b, int fua, double start,
                        struct hdd_result *r, double *fin)
{
    double t = bg_catch_up(m, start);
    if (m->pf_active)
        pf_stop(m, t);
    double ovh = m->p.overhead_write_ms * MS, bus = bus_ns(m, b - a);
    seg_invalidate(m, a, b);
    if (m->p.write_cache && !fua && b - a <= m->wc_limit_sect) {
        while (m->ndirty > 0 && m->dirty_sect + (b - a) > m->wc_limit_sect)
            t = destage_one(m, t > m->arm_t ? t : m->arm_t);
        r->start_ns = (int64_t)llround(t);
        dirty_add(m, a, b);
        *fin = t + ovh + bus;
        r->outcome = HDD_HIT;
        return;
    }
    r->start_ns = (int64_t)llround(t);
    dirty_drop_inside(m, a, b);
    double ms = locate(m, a, t + ovh, 1);
    double me = stream_to(m, a, ms, b);
    park(m, b - 1, me);
    *fin = me > t + ovh + bus ? me : t + ovh + bus;
    r->outcome = HDD_MISS;
}

static void serve_flush(struct hdd_model *m, double start, struct hdd_result *r, double *fin)
{
    double t = bg_catch_up(m, start);
    if (m->pf_active)
        pf_stop(m, t);
    r->start_ns = (int64_t)llround(t);
    r->outcome = m->ndirty ? HDD_MISS : HDD_HIT;
    double td = t + m->p.overhead_write_ms * MS;
    while (m->ndirty > 0)
        td = destage_one(m, td > m->arm_t ? td : m->arm_t);
    *fin = td;
}

int hdd_serve(struct hdd_model *m, int op, uint64_t offset, uint32_t len, int fua, int64_t arrival,
              int64_t start, struct hdd_result *r)
{
    double fin = 0;
    uint64_t a = offset / SECTOR, b = (offset + len + SECTOR - 1) / SECTOR;
    r->arrival_ns = arrival;
    if (op != HDD_FLUSH && (b > m->L.total || len == 0))
        return -1;
    if (op == HDD_READ)
        serve_read(m, a, b, (double)start, r, &fin);
    else if (op == HDD_WRITE)
        serve_write(m, a, b, fua, (double)start, r, &fin);
    else if (op == HDD_FLUSH)
        serve_flush(m, (double)start, r, &fin);
    else
        return -1;
    r->finish_ns = (int64_t)llround(fin);
    m->busy_until = fin;
    return 0;
}

/* Estimated time from t until the media transfer of a request could start
 * (0 for cache hits and write-back absorption): the SPTF key. */
double hdd_position_estimate(const struct hdd_model *m, int op, uint64_t offset, uint32_t len,
                             int fua, double t)
{
    uint64_t a = offset / SECTOR, b = (offset + len + SECTOR - 1) / SECTOR;
    uint64_t hc = m->head_cyl;
    unsigned hh = m->head_head;
    if (op == HDD_FLUSH)
        return 0;
    if (op == HDD_WRITE && m->p.write_cache && !fua && b - a <= m->wc_limit_sect)
        return 0;
    if (m->pf_active) {
        uint64_t pos = stream_pos(m, m->pf_lba, m->pf_t, m->pf_limit, t);
        if (op == HDD_READ && a >= m->seg[m->pf_seg].start && a <= m->pf_limit) {
            if (a <= pos)
                return 0;
            return stream_to(m, m->pf_lba, m->pf_t, a) - t;
        }
        struct hdd_geom g;
        geom(m, pos, &g);
        hc = g.cyl;
        hh = g.head;
    }
    if (op == HDD_READ) {
        for (int i = 0; i < m->nseg; i++)
            if (m->seg[i].valid && m->seg[i].start <= a && b <= m->seg[i].end)
                return 0;
    }
    struct hdd_geom g;
    geom(m, a, &g);
    double ovh = (op == HDD_READ ? m->p.overhead_read_miss_ms : m->p.overhead_write_ms) * MS;
    double ready = t + ovh + position_ns(m, hc, hh, &g, op == HDD_WRITE);
    return ready + frac1(g.angle - phase(m, ready)) * m->L.trev - t;
}

struct hdd_model *hdd_model_new(const struct hdd_params *p, uint64_t image_bytes, char *err,
                                size_t errlen)
{
    struct hdd_model *m = calloc(1, sizeof(*m));
    if (!m) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    m->p = *p;
    uint64_t cap = p->capacity_bytes > image_bytes ? p->capacity_bytes : image_bytes;
    if (hdd_layout_build(p, (cap + SECTOR - 1) / SECTOR, &m->L, err, errlen) < 0) {
        free(m);
        return NULL;
    }
    hdd_lee_fit(p, &m->lee_a, &m->lee_b);
    m->nseg = p->cache_bytes >= (uint64_t)p->cache_segments * SECTOR ? p->cache_segments : 0;
    m->seg_sect = m->nseg ? p->cache_bytes / p->cache_segments / SECTOR : 0;
    m->ra_sect = p->readahead_bytes ? p->readahead_bytes / SECTOR : m->seg_sect;
    if (m->nseg == 0)
        m->ra_sect = 0;
    m->wc_limit_sect = (p->write_cache_bytes ? p->write_cache_bytes : p->cache_bytes / 2) / SECTOR;
    m->pf_paused = -1;
    return m;
}

void hdd_model_free(struct hdd_model *m)
{
    if (!m)
        return;
    free(m->dirty);
    free(m);
}

const struct hdd_params *hdd_model_params(const struct hdd_model *m)
{
    return &m->p;
}

int hdd_model_service(struct hdd_model *m, int op, uint64_t offset, uint32_t len, int fua,
                      int64_t arrival_ns, struct hdd_result *out)
{
    int64_t busy = (int64_t)llround(m->busy_until);
    return hdd_serve(m, op, offset, len, fua, arrival_ns, arrival_ns > busy ? arrival_ns : busy,
                     out);
}

int hdd_model_geom(const struct hdd_model *m, uint64_t lba, struct hdd_geom *g)
{
    if (lba >= m->L.total)
        return -1;
    geom(m, lba, g);
    return 0;
}

uint64_t hdd_model_cylinders(const struct hdd_model *m)
{
    return m->L.ncyl;
}

double hdd_model_seek_ms(const struct hdd_model *m, uint64_t d)
{
    return hdd_seek_ms_p(&m->p, m->lee_a, m->lee_b, m->L.ncyl, d);
}

uint64_t hdd_model_dirty_bytes(const struct hdd_model *m)
{
    return m->dirty_sect * SECTOR;
}
