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

int overwrite_one(const struct agent_config *c, const char *path, const char *test, uint64_t rep,
                  struct overwrite_out *o)
{
    int direct = c->direct ? 1 : 0;
    long fd = sys_open(path, O_RDWR_ | O_LARGEFILE_ | (direct ? O_DIRECT_ : 0), 0);
    if (fd < 0) {
        test_fail(test, direct ? "open read-write with O_DIRECT" : "open read-write", fd, rep);
        return -1;
    }
    uint64_t size = 0;
    long r = sys_dev_size((int)fd, &size);
    struct agent_randrange range;
    if (r < 0 || agent_randrange_init(&range, 0, size, c->bs) < 0 || (c->bs & 7) != 0) {
        test_fail(test, "lab.bs must be a multiple of 8 no larger than the file", r < 0 ? r : 0,
                  rep);
        sys_close((int)fd);
        return -1;
    }
    if (!direct)
        drop_caches(c, DROP_FILE, path);
    struct agent_rng rng;
    agent_rng_seed(&rng, c->seed ^ 0x6f76657277726974ULL, rep); /* not randread's sequence */
    size_t bs = (size_t)c->bs;
    unsigned char *buf = agent_iobuf;
    o->bytes_read = o->bytes_written = o->ops = o->reads = o->writes = o->verify_errors = 0;

    struct agent_cpustat cpu0, cpu1;
    int have_cpu = cpu_read(&cpu0) == 0;
    if (bg_start(c) < 0) {
        sys_close((int)fd);
        return -1;
    }
    struct k_rusage ru0, ru1;
    sys_getrusage(RUSAGE_SELF_, &ru0);
    o->t0 = sys_now_ns();
    struct agent_line *l = report_start("begin");
    agent_line_str(l, "test", test);
    agent_line_u64(l, "rep", rep);
    agent_line_u64(l, "guest_ns", o->t0);
    report_send();

    long err = 0;
    const char *what = "";
    uint64_t n = c->count < AGENT_COUNT_MAX ? c->count : AGENT_COUNT_MAX;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t off = agent_randrange_next(&range, &rng);
        /* The top 32 bits, modulo 100 in 32-bit arithmetic (no libgcc on i386). */
        int wr = (uint32_t)(agent_rng_next(&rng) >> 32) % 100u < (uint32_t)c->write_pct;
        if (wr)
            fill_content(buf, bs, c->seed, off);
        uint64_t t0 = sys_now_ns();
        long got;
        do
            got = wr ? sys_pwrite64((int)fd, buf, bs, off) : sys_pread64((int)fd, buf, bs, off);
        while (got == -E_INTR);
        agent_lat[i] = sys_now_ns() - t0;
        if (got != (long)bs) {
            err = got < 0 ? got : -E_IO;
            what = wr ? "pwrite64" : "pread64";
            break;
        }
        o->ops++;
        if (wr) {
            o->writes++;
            o->bytes_written += bs;
        } else {
            o->reads++;
            o->bytes_read += bs;
            if (c->verify) {
                struct agent_verify v;
                agent_verify_init(&v, c->seed);
                v.off = off;
                agent_verify_feed(&v, buf, bs);
                o->verify_errors += agent_verify_finish(&v);
            }
        }
    }

    o->t1 = sys_now_ns();
    sys_getrusage(RUSAGE_SELF_, &ru1);
    int load_ok = bg_stop() == 0;
    have_cpu = have_cpu && cpu_read(&cpu1) == 0;
    sys_close((int)fd);
    if (err) {
        test_fail(test, what, err, rep);
        return -1;
    }
    if (!load_ok)
        return -1;
    agent_latency_summary(agent_lat, (size_t)o->ops, &o->lat);

    l = report_start("end");
    agent_line_str(l, "test", test);
    agent_line_u64(l, "rep", rep);
    agent_line_u64(l, "guest_ns", o->t1);
    agent_line_u64(l, "bytes", o->bytes_read + o->bytes_written);
    agent_line_u64(l, "real_ns", o->t1 - o->t0);
    agent_line_u64(l, "user_ns", sys_timeval_ns(&ru1.ru_utime) - sys_timeval_ns(&ru0.ru_utime));
    agent_line_u64(l, "sys_ns", sys_timeval_ns(&ru1.ru_stime) - sys_timeval_ns(&ru0.ru_stime));
    agent_line_u64(l, "bytes_read", o->bytes_read);
    agent_line_u64(l, "bytes_written", o->bytes_written);
    agent_line_u64(l, "ops", o->ops);
    agent_line_u64(l, "writes", o->writes);
    agent_line_u64(l, "bs", c->bs);
    agent_line_u64(l, "direct", (uint64_t)direct);
    agent_line_u64(l, "write_pct", c->write_pct);
    agent_line_u64(l, "lat_mean_ns", o->lat.mean);
    agent_line_u64(l, "lat_min_ns", o->lat.min);
    agent_line_u64(l, "lat_p50_ns", o->lat.p50);
    agent_line_u64(l, "lat_p99_ns", o->lat.p99);
    agent_line_u64(l, "lat_max_ns", o->lat.max);
    if (c->verify)
        agent_line_u64(l, "verify_errors", o->verify_errors);
    bg_keys(l);
    if (have_cpu)
        cpu_keys(l, &cpu0, &cpu1);
    report_send();
    return 0;
}

uint64_t overwrite_run(const struct agent_config *c)
{
    if (c->bs > LAB_AGENT_MAX_BS) {
        report_error("lab.bs larger than the agent's 4 MiB buffer", "overwrite", -1);
        return 0;
    }
    char path[WALK_PATH_MAX];
    if (data_path(path, sizeof(path), c->file) < 0) {
        report_error("lab.file: path too long", "overwrite", -1);
        return 0;
    }
    uint64_t runs = 0;
    for (uint64_t r = 0; r < c->reps; r++) {
        struct overwrite_out o;
        if (overwrite_one(c, path, "overwrite", c->rep0 + r, &o) == 0)
            runs++;
    }
    return runs;
}
