/* The random read (lab.test=randread): lab.count reads of lab.bs bytes at
 * uniformly random bs-aligned offsets in [lab.offset, lab.offset + lab.span)
 * of /dev/<lab.dev>, O_DIRECT by default, lab.qd requests in flight with
 * Linux native AIO (pread64 one at a time at qd 1, or where io_setup says
 * ENOSYS, as on 2.4). Every request is timed; the agent sends the mean, min,
 * p50, p99 and max latency and the CPU split from /proc/stat. */
#include "agent.h"
#include "str.h"
#include "sys.h"
#include "verify.h"

/* One run's state, from prepare to cleanup. */
struct rr_state {
    const struct agent_config *c;
    struct agent_randrange range;
    struct agent_rng rng;
    unsigned char *buf; /* qd slots of bs bytes */
    uint64_t done;      /* requests completed */
    uint64_t bytes;
    uint64_t verify_errors;
    long err; /* first failure: -errno, or -E_IO for a short read */
    int short_read;
    uint64_t short_off;
    unsigned long ctx; /* the native AIO context, when have_ctx */
    int have_ctx;
    unsigned char *alloc; /* the buffer when qd * bs passes agent_iobuf */
    size_t alloc_len;
};
static struct rr_state st;

static void completed(struct rr_state *s, const unsigned char *buf, uint64_t off, long n,
                      uint64_t ns)
{
    if (s->done < AGENT_COUNT_MAX)
        agent_lat[s->done] = ns;
    s->done++;
    if (n < 0) {
        if (!s->err)
            s->err = n;
        return;
    }
    s->bytes += (uint64_t)n;
    if ((uint64_t)n != s->c->bs && !s->err) {
        s->err = -E_IO;
        s->short_read = 1;
        s->short_off = off;
    }
    if (s->c->verify && n > 0) {
        struct agent_verify v;
        agent_verify_init(&v, s->c->seed);
        v.off = off;
        agent_verify_feed(&v, buf, (size_t)n);
        s->verify_errors += agent_verify_finish(&v);
    }
}

static void run_sync(struct rr_state *s, int fd)
{
    size_t bs = (size_t)s->c->bs;
    for (uint64_t i = 0; i < s->c->count && !s->err; i++) {
        uint64_t off = agent_randrange_next(&s->range, &s->rng);
        uint64_t t0 = sys_now_ns();
        long n;
        do
            n = sys_pread64(fd, s->buf, bs, off);
        while (n == -E_INTR);
        uint64_t t1 = sys_now_ns();
        completed(s, s->buf, off, n, t1 - t0);
    }
}

static void run_aio(struct rr_state *s, int fd, unsigned long ctx, unsigned qd)
{
    static struct k_iocb cb[AGENT_QD_MAX];
    static struct k_iocb *ptr[AGENT_QD_MAX];
    static struct k_io_event ev[AGENT_QD_MAX];
    static uint64_t sub_ns[AGENT_QD_MAX], sub_off[AGENT_QD_MAX];
    unsigned freel[AGENT_QD_MAX], nfree = qd;
    for (unsigned i = 0; i < qd; i++)
        freel[i] = qd - 1 - i;
    uint64_t issued = 0, count = s->c->count;
    size_t bs = (size_t)s->c->bs;
    unsigned inflight = 0;
    while (s->done < count) {
        /* Fill every free slot, then submit them in one call. */
        unsigned k = 0;
        while (!s->err && nfree && issued + k < count) {
            unsigned slot = freel[--nfree];
            struct k_iocb *b = &cb[slot];
            char *p = (char *)b;
            for (size_t i = 0; i < sizeof(*b); i++)
                p[i] = 0;
            sub_off[slot] = agent_randrange_next(&s->range, &s->rng);
            b->aio_data = slot;
            b->aio_lio_opcode = IOCB_CMD_PREAD_;
            b->aio_fildes = (uint32_t)fd;
            b->aio_buf = (uint64_t)(unsigned long)(s->buf + (size_t)slot * bs);
            b->aio_nbytes = bs;
            b->aio_offset = (int64_t)sub_off[slot];
            ptr[k++] = b;
        }
        if (k) {
            uint64_t now = sys_now_ns();
            for (unsigned i = 0; i < k; i++)
                sub_ns[ptr[i]->aio_data] = now;
            long r = sys_io_submit(ctx, (long)k, ptr);
            if (r == -E_INTR || r == -E_AGAIN)
                r = 0;
            if (r < 0) {
                if (!s->err)
                    s->err = r;
                r = 0;
            }
            /* Slots not taken go back to the free list; their offsets are
             * drawn again, so the sequence depends on the kernel's pace only
             * when it refuses a submission. */
            for (unsigned i = (unsigned)r; i < k; i++)
                freel[nfree++] = (unsigned)ptr[i]->aio_data;
            issued += (uint64_t)r;
            inflight += (unsigned)r;
            if (r == 0 && inflight == 0 && !s->err)
                s->err = -E_AGAIN; /* nothing in flight and nothing taken */
        }
        if (inflight == 0) {
            if (s->err || issued >= count)
                break;
            continue;
        }
        long n = sys_io_getevents(ctx, 1, (long)inflight, ev);
        if (n == -E_INTR)
            continue;
        if (n < 0) {
            if (!s->err)
                s->err = n;
            break; /* io_destroy waits for what is still in flight */
        }
        uint64_t now = sys_now_ns();
        for (long i = 0; i < n; i++) {
            unsigned slot = (unsigned)ev[i].data;
            if (slot >= qd)
                continue;
            completed(s, s->buf + (size_t)slot * bs, sub_off[slot], (long)ev[i].res,
                      now - sub_ns[slot]);
            freel[nfree++] = slot;
            inflight--;
        }
        if (s->err && inflight == 0)
            break;
    }
}

/* qd > 1: a native AIO context, or queue depth 1 where there is none. */
static void aio_setup(struct agent_run *r, struct rr_state *s)
{
    long e = sys_io_setup((unsigned)r->f.rr.qd, &s->ctx);
    if (e == 0) {
        s->have_ctx = 1;
        return;
    }
    char m[160];
    size_t at = agent_cat(m, sizeof(m), 0, r->test);
    at = agent_cat(m, sizeof(m), at, ": no native AIO (io_setup: errno ");
    at = agent_cat_i64(m, sizeof(m), at, -e);
    agent_cat(m, sizeof(m), at, "); queue depth 1 with pread64");
    report_log(m);
    if (e == -E_NOSYS)
        sys_fallback_taken(SYS_FB_NO_AIO);
    r->f.rr.qd = 1;
}

static int prepare(struct agent_run *r)
{
    const struct agent_config *c = r->c;
    struct randread_figs *o = &r->f.rr;
    struct rr_state *s = &st;
    char *p = (char *)s;
    for (size_t i = 0; i < sizeof(*s); i++)
        p[i] = 0;
    s->c = c;
    uint64_t size;
    unsigned ssz;
    if (blk_open(r, (int)c->direct, &size, &ssz) < 0)
        return -1;
    o->offset = c->offset;
    o->span = c->span ? c->span : (c->offset < size ? size - c->offset : 0);
    o->qd = c->qd;
    if (c->offset >= size || o->span > size - c->offset)
        return run_fail(r, "lab.offset + lab.span beyond the end of the device", 0);
    if (c->direct && (c->bs & (ssz - 1)) != 0)
        return run_fail(r, "O_DIRECT needs lab.bs in whole sectors", 0);
    if (agent_randrange_init(&s->range, o->offset, o->span, c->bs) < 0)
        return run_fail(r, "no lab.bs block fits in lab.offset .. lab.offset + lab.span", 0);
    agent_rng_seed(&s->rng, c->seed, r->rep);
    if (o->qd > 1)
        aio_setup(r, s);
    size_t need = (size_t)o->qd * (size_t)c->bs;
    if (need <= LAB_AGENT_MAX_BS) {
        s->buf = agent_iobuf;
    } else {
        s->alloc = sys_alloc(need); /* page-aligned */
        if (!s->alloc)
            return run_fail(r, "no memory for lab.qd * lab.bs", -E_NOMEM);
        s->alloc_len = need;
        s->buf = s->alloc;
    }
    return 0;
}

static int io(struct agent_run *r)
{
    struct rr_state *s = &st;
    if (s->have_ctx)
        run_aio(s, (int)r->fd, s->ctx, (unsigned)r->f.rr.qd);
    else
        run_sync(s, (int)r->fd);
    r->bytes = s->bytes;
    r->verify_errors = s->verify_errors;
    r->f.rr.count = s->done;
    if (s->err && s->short_read) {
        size_t at = agent_cat(r->why, sizeof(r->why), 0, "short read at offset ");
        agent_cat_u64(r->why, sizeof(r->why), at, s->short_off);
        return run_fail(r, r->why, 0);
    }
    if (s->err)
        return run_fail(r, "read", s->err);
    uint64_t n = s->done < AGENT_COUNT_MAX ? s->done : AGENT_COUNT_MAX;
    agent_latency_summary(agent_lat, (size_t)n, &r->lat);
    return 0;
}

static void cleanup(struct agent_run *r)
{
    if (st.have_ctx)
        sys_io_destroy(st.ctx);
    sys_free(st.alloc, st.alloc_len);
    st.have_ctx = 0;
    st.alloc = NULL;
    st.alloc_len = 0;
}

static void end_keys(const struct agent_run *r, struct agent_line *l)
{
    const struct randread_figs *o = &r->f.rr;
    agent_line_u64(l, "bs", r->c->bs);
    agent_line_u64(l, "qd", o->qd);
    agent_line_u64(l, "count", o->count);
    agent_line_u64(l, "direct", r->c->direct ? 1 : 0);
    agent_line_u64(l, "lat_mean_ns", r->lat.mean);
    agent_line_u64(l, "lat_min_ns", r->lat.min);
    agent_line_u64(l, "lat_p50_ns", r->lat.p50);
    agent_line_u64(l, "lat_p99_ns", r->lat.p99);
    agent_line_u64(l, "lat_max_ns", r->lat.max);
    if (r->c->load == AGENT_LOAD_NONE) {
        /* With a load's three keys the record would pass 32: the region is
         * the host's own parameter, so it goes. */
        agent_line_u64(l, "offset", o->offset);
        agent_line_u64(l, "span", o->span);
    }
    if (r->have_ra)
        agent_line_u64(l, "ra_sectors", r->ra);
}

const struct agent_test test_randread = {
    .name = "randread",
    .mount = 0,
    .verifies = 1,
    .target = blk_target,
    .prepare = prepare,
    .io = io,
    .cleanup = cleanup,
    .end_keys = end_keys,
};
AGENT_TEST(test_randread);
