/* The overwrite test (seed 003 c: "overwrite of that large file: random and
 * direct 4 KiB reads/writes"): lab.count operations of lab.bs bytes (4096 by
 * default) at uniformly random bs-aligned offsets over the whole of
 * <data>/<lab.file>, O_DIRECT by default, each a write with probability
 * lab.write_pct % and a read otherwise. Writes put back the lab content of
 * their offset, so the file stays valid for later reads and lab.verify. */
#include "agent.h"
#include "str.h"
#include "sys.h"
#include "verify.h"

static void fill_content(unsigned char *buf, size_t n, uint64_t seed, uint64_t off)
{
    /* off and n are multiples of 8 here (bs is whole sectors for O_DIRECT;
     * buffered runs still align offsets to bs, which the host keeps even). */
    uint64_t word = off >> 3;
    for (size_t k = 0; k + 8 <= n; k += 8) {
        uint64_t w = lab_content_word(seed, word++);
        for (unsigned b = 0; b < 8; b++)
            buf[k + b] = (unsigned char)(w >> (8 * b));
    }
}

static struct agent_randrange range;
static struct agent_rng rng;

static int target(struct agent_run *r, char *buf, size_t cap)
{
    if (data_path(buf, cap, r->c->file) < 0)
        return run_fail(r, "lab.file: path too long", 0);
    r->path = buf;
    return 0;
}

static int prepare(struct agent_run *r)
{
    const struct agent_config *c = r->c;
    int direct = c->direct ? 1 : 0;
    r->fd = sys_open(r->path, O_RDWR_ | O_LARGEFILE_ | (direct ? O_DIRECT_ : 0), 0);
    if (r->fd < 0) {
        long e = r->fd;
        r->fd = -1;
        return run_fail(r, direct ? "open read-write with O_DIRECT" : "open read-write", e);
    }
    uint64_t size = 0;
    long e = sys_dev_size((int)r->fd, &size);
    if (e < 0 || agent_randrange_init(&range, 0, size, c->bs) < 0 || (c->bs & 7) != 0)
        return run_fail(r, "lab.bs must be a multiple of 8 no larger than the file", e < 0 ? e : 0);
    if (!direct)
        drop_caches(c, DROP_FILE, r->path);
    agent_rng_seed(&rng, c->seed ^ 0x6f76657277726974ULL, r->rep); /* not randread's sequence */
    return 0;
}

/* One operation at a random offset: a write of the lab content with
 * probability lab.write_pct %, else a read (checked with lab.verify).
 * Returns 0, or -1 via run_fail. */
static int one_op(struct agent_run *r, uint64_t i)
{
    const struct agent_config *c = r->c;
    struct overwrite_figs *o = &r->f.ow;
    size_t bs = (size_t)c->bs;
    unsigned char *buf = agent_iobuf;
    uint64_t off = agent_randrange_next(&range, &rng);
    /* The top 32 bits, modulo 100 in 32-bit arithmetic (no libgcc on i386). */
    int wr = (uint32_t)(agent_rng_next(&rng) >> 32) % 100u < (uint32_t)c->write_pct;
    if (wr)
        fill_content(buf, bs, c->seed, off);
    uint64_t t0 = sys_now_ns();
    long got;
    do
        got = wr ? sys_pwrite64((int)r->fd, buf, bs, off) : sys_pread64((int)r->fd, buf, bs, off);
    while (got == -E_INTR);
    agent_lat[i] = sys_now_ns() - t0;
    if (got != (long)bs)
        return run_fail(r, wr ? "pwrite64" : "pread64", got < 0 ? got : -E_IO);
    o->ops++;
    if (wr) {
        o->writes++;
        o->bytes_written += bs;
        return 0;
    }
    o->reads++;
    o->bytes_read += bs;
    if (c->verify) {
        struct agent_verify v;
        agent_verify_init(&v, c->seed);
        v.off = off;
        agent_verify_feed(&v, buf, bs);
        r->verify_errors += agent_verify_finish(&v);
    }
    return 0;
}

static int io(struct agent_run *r)
{
    const struct agent_config *c = r->c;
    struct overwrite_figs *o = &r->f.ow;
    uint64_t n = c->count < AGENT_COUNT_MAX ? c->count : AGENT_COUNT_MAX;
    int ret = 0;
    for (uint64_t i = 0; i < n && ret == 0; i++)
        ret = one_op(r, i);
    r->bytes = o->bytes_read + o->bytes_written;
    if (ret == 0)
        agent_latency_summary(agent_lat, (size_t)o->ops, &r->lat);
    return ret;
}

static void end_keys(const struct agent_run *r, struct agent_line *l)
{
    const struct overwrite_figs *o = &r->f.ow;
    agent_line_u64(l, "bytes_read", o->bytes_read);
    agent_line_u64(l, "bytes_written", o->bytes_written);
    agent_line_u64(l, "ops", o->ops);
    agent_line_u64(l, "writes", o->writes);
    agent_line_u64(l, "bs", r->c->bs);
    agent_line_u64(l, "direct", r->c->direct ? 1 : 0);
    agent_line_u64(l, "write_pct", r->c->write_pct);
    agent_line_u64(l, "lat_mean_ns", r->lat.mean);
    agent_line_u64(l, "lat_min_ns", r->lat.min);
    agent_line_u64(l, "lat_p50_ns", r->lat.p50);
    agent_line_u64(l, "lat_p99_ns", r->lat.p99);
    agent_line_u64(l, "lat_max_ns", r->lat.max);
}

const struct agent_test test_overwrite = {
    .name = "overwrite",
    .mount = 1,
    .verifies = 1,
    .target = target,
    .prepare = prepare,
    .io = io,
    .end_keys = end_keys,
};
AGENT_TEST(test_overwrite);
