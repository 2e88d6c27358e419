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

uint64_t agent_lat[AGENT_COUNT_MAX];

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
};

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

int randread_one(const struct agent_config *c, const char *path, const char *name, const char *test,
                 uint64_t rep, struct randread_out *o)
{
    struct blk_dev d;
    if (blk_open(c, path, (int)c->direct, test, rep, &d) < 0)
        return -1;
    int fd = (int)d.fd;
    int ret = -1;
    unsigned char *alloc = NULL;
    size_t alloc_len = 0;
    unsigned long ctx = 0;
    int have_ctx = 0;

    o->offset = c->offset;
    o->span = c->span ? c->span : (c->offset < d.size ? d.size - c->offset : 0);
    o->qd = c->qd;
    if (c->offset >= d.size || o->span > d.size - c->offset) {
        test_fail(test, "lab.offset + lab.span beyond the end of the device", 0, rep);
        goto out;
    }
    if (c->direct && (c->bs & (d.ssz - 1)) != 0) {
        test_fail(test, "O_DIRECT needs lab.bs in whole sectors", 0, rep);
        goto out;
    }
    struct rr_state s;
    s.c = c;
    if (agent_randrange_init(&s.range, o->offset, o->span, c->bs) < 0) {
        test_fail(test, "no lab.bs block fits in lab.offset .. lab.offset + lab.span", 0, rep);
        goto out;
    }
    agent_rng_seed(&s.rng, c->seed, rep);
    s.done = s.bytes = s.verify_errors = 0;
    s.err = 0;
    s.short_read = 0;
    s.short_off = 0;

    if (o->qd > 1) {
        long r = sys_io_setup((unsigned)o->qd, &ctx);
        if (r == 0) {
            have_ctx = 1;
        } else {
            char m[160];
            size_t at = agent_cat(m, sizeof(m), 0, test);
            at = agent_cat(m, sizeof(m), at, ": no native AIO (io_setup: errno ");
            at = agent_cat_i64(m, sizeof(m), at, -r);
            agent_cat(m, sizeof(m), at, "); queue depth 1 with pread64");
            report_log(m);
            if (r == -E_NOSYS)
                sys_fallback_taken(SYS_FB_NO_AIO);
            o->qd = 1;
        }
    }
    size_t need = (size_t)o->qd * (size_t)c->bs;
    if (need <= LAB_AGENT_MAX_BS) {
        s.buf = agent_iobuf;
    } else {
        alloc = sys_alloc(need); /* page-aligned */
        if (!alloc) {
            test_fail(test, "no memory for lab.qd * lab.bs", -E_NOMEM, rep);
            goto out;
        }
        alloc_len = need;
        s.buf = alloc;
    }

    struct agent_cpustat cpu0, cpu1;
    int64_t sec0 = name ? seqread_sectors(name) : -1;
    int have_cpu = cpu_read(&cpu0) == 0;
    if (bg_start(c) < 0)
        goto out;
    struct k_rusage ru0, ru1;
    sys_getrusage(RUSAGE_SELF_, &ru0);
    o->t0 = sys_now_ns();
    struct agent_line *l = report_start("begin");
    agent_line_str(l, "test", test);
    agent_line_u64(l, "rep", rep);
    agent_line_u64(l, "guest_ns", o->t0);
    report_send();

    if (have_ctx)
        run_aio(&s, fd, ctx, (unsigned)o->qd);
    else
        run_sync(&s, fd);

    o->t1 = sys_now_ns();
    sys_getrusage(RUSAGE_SELF_, &ru1);
    int load_ok = bg_stop() == 0;
    have_cpu = have_cpu && cpu_read(&cpu1) == 0;
    int64_t sec1 = name ? seqread_sectors(name) : -1;
    o->bytes = s.bytes;
    o->verify_errors = s.verify_errors;
    o->user_ns = sys_timeval_ns(&ru1.ru_utime) - sys_timeval_ns(&ru0.ru_utime);
    o->sys_ns = sys_timeval_ns(&ru1.ru_stime) - sys_timeval_ns(&ru0.ru_stime);

    if (s.err) {
        if (s.short_read) {
            char m[120];
            size_t at = agent_cat(m, sizeof(m), 0, "short read at offset ");
            agent_cat_u64(m, sizeof(m), at, s.short_off);
            test_fail(test, m, 0, rep);
        } else {
            test_fail(test, "read", s.err, rep);
        }
        goto out;
    }
    if (!load_ok)
        goto out;
    uint64_t n = s.done < AGENT_COUNT_MAX ? s.done : AGENT_COUNT_MAX;
    agent_latency_summary(agent_lat, (size_t)n, &o->lat);

    l = report_start("end");
    agent_line_str(l, "test", test);
    agent_line_u64(l, "rep", rep);
    agent_line_u64(l, "guest_ns", o->t1);
    agent_line_u64(l, "bytes", o->bytes);
    agent_line_u64(l, "real_ns", o->t1 - o->t0);
    agent_line_u64(l, "user_ns", o->user_ns);
    agent_line_u64(l, "sys_ns", o->sys_ns);
    agent_line_u64(l, "bs", c->bs);
    agent_line_u64(l, "qd", o->qd);
    agent_line_u64(l, "count", s.done);
    agent_line_u64(l, "direct", c->direct ? 1 : 0);
    agent_line_u64(l, "lat_mean_ns", o->lat.mean);
    agent_line_u64(l, "lat_min_ns", o->lat.min);
    agent_line_u64(l, "lat_p50_ns", o->lat.p50);
    agent_line_u64(l, "lat_p99_ns", o->lat.p99);
    agent_line_u64(l, "lat_max_ns", o->lat.max);
    if (c->load == AGENT_LOAD_NONE) {
        /* With a load's three keys the record would pass 32: the region is
         * the host's own parameter, so it goes. */
        agent_line_u64(l, "offset", o->offset);
        agent_line_u64(l, "span", o->span);
    }
    if (d.have_ra)
        agent_line_u64(l, "ra_sectors", d.ra);
    if (c->verify)
        agent_line_u64(l, "verify_errors", o->verify_errors);
    if (sec0 >= 0 && sec1 >= sec0)
        agent_line_u64(l, "dev_read_bytes", (uint64_t)(sec1 - sec0) * 512);
    bg_keys(l);
    if (have_cpu)
        cpu_keys(l, &cpu0, &cpu1);
    report_send();
    ret = 0;
out:
    if (have_ctx)
        sys_io_destroy(ctx);
    sys_free(alloc, alloc_len);
    sys_close(fd);
    return ret;
}

uint64_t randread_run(const struct agent_config *c)
{
    if (c->bs > LAB_AGENT_MAX_BS) {
        report_error("lab.bs larger than the agent's 4 MiB buffer", "randread", -1);
        return 0;
    }
    char dev[64];
    size_t at = agent_cat(dev, sizeof(dev), 0, "/dev/");
    agent_cat(dev, sizeof(dev), at, c->dev);
    uint64_t runs = 0;
    for (uint64_t r = 0; r < c->reps; r++) {
        struct randread_out o;
        if (randread_one(c, dev, c->dev, "randread", c->rep0 + r, &o) == 0)
            runs++;
    }
    return runs;
}
