/* The sequential-read experiment: read a file of the data disk in lab.bs
 * blocks after dropping its cached pages, timing the run. */
#include "agent.h"
#include "parse.h"
#include "str.h"
#include "sys.h"
#include "verify.h"

unsigned char agent_iobuf[LAB_AGENT_MAX_BS] __attribute__((aligned(4096)));

static void fail(const char *what, long err, uint64_t rep)
{
    char m[200];
    size_t at = agent_cat(m, sizeof(m), 0, what);
    if (err) {
        at = agent_cat(m, sizeof(m), at, ": errno ");
        agent_cat_i64(m, sizeof(m), at, -err);
    }
    report_error(m, "seqread", (int64_t)rep);
}

int64_t seqread_sectors(const char *name)
{
    static char txt[16384];
    char path[96];
    uint64_t v;
    size_t at = agent_cat(path, sizeof(path), 0, "/sys/block/");
    at = agent_cat(path, sizeof(path), at, name);
    agent_cat(path, sizeof(path), at, "/stat");
    long n = read_file(path, txt, sizeof(txt));
    if (n > 0 && agent_blockstat_sectors_read(txt, (size_t)n, NULL, &v) == 0)
        return (int64_t)v;
    n = read_file("/proc/diskstats", txt, sizeof(txt));
    if (n > 0 && agent_blockstat_sectors_read(txt, (size_t)n, name, &v) == 0)
        return (int64_t)v;
    return -1;
}

long seqread_open(const char *path, long *fadv)
{
    long fd = sys_open(path, O_RDONLY_ | O_LARGEFILE_, 0);
    if (fd < 0)
        return fd;
    sys_sync();
    *fadv = sys_fadvise_dontneed((int)fd);
    return fd;
}

void seqread_measure(int fd, const struct agent_config *c, const char *test, uint64_t rep,
                     struct seqread_result *res)
{
    struct agent_verify v;
    agent_verify_init(&v, c->seed);
    res->load_failed = 0;
    res->err = 0;
    res->bytes = res->verify_errors = res->user_ns = res->sys_ns = 0;
    long lr = bg_start(c);
    if (lr < 0) {
        res->t0 = res->t1 = sys_now_ns();
        res->load_failed = 1;
        return;
    }
    struct k_rusage ru0, ru1;
    sys_getrusage(RUSAGE_SELF_, &ru0);
    res->t0 = sys_now_ns();

    struct agent_line *l = report_start("begin");
    agent_line_str(l, "test", test);
    agent_line_u64(l, "rep", rep);
    agent_line_u64(l, "guest_ns", res->t0);
    report_send();

    uint64_t bytes = 0;
    size_t bs = (size_t)c->bs;
    long err = 0;
    for (;;) {
        size_t want = bs;
        if (c->size && c->size - bytes < want)
            want = (size_t)(c->size - bytes);
        if (want == 0)
            break;
        long n = sys_read(fd, agent_iobuf, want);
        if (n == -E_INTR)
            continue;
        if (n < 0) {
            err = n;
            break;
        }
        if (n == 0)
            break;
        if (c->verify)
            agent_verify_feed(&v, agent_iobuf, (size_t)n);
        bytes += (uint64_t)n;
    }
    res->verify_errors = c->verify ? agent_verify_finish(&v) : 0;

    res->t1 = sys_now_ns();
    sys_getrusage(RUSAGE_SELF_, &ru1);
    res->load_failed = bg_stop() != 0;
    res->bytes = bytes;
    res->err = err;
    res->user_ns = sys_timeval_ns(&ru1.ru_utime) - sys_timeval_ns(&ru0.ru_utime);
    res->sys_ns = sys_timeval_ns(&ru1.ru_stime) - sys_timeval_ns(&ru0.ru_stime);
}

struct agent_line *seqread_end(const char *test, uint64_t rep, const struct seqread_result *res)
{
    struct agent_line *l = report_start("end");
    agent_line_str(l, "test", test);
    agent_line_u64(l, "rep", rep);
    agent_line_u64(l, "guest_ns", res->t1);
    agent_line_u64(l, "bytes", res->bytes);
    agent_line_u64(l, "real_ns", res->t1 - res->t0);
    agent_line_u64(l, "user_ns", res->user_ns);
    agent_line_u64(l, "sys_ns", res->sys_ns);
    return l;
}

/* One run; returns 0 if it ended with an `end` record. */
static int one_run(const struct agent_config *c, uint64_t rep)
{
    char file[WALK_PATH_MAX];
    if (data_path(file, sizeof(file), c->file) < 0) {
        fail("lab.file: path too long", 0, rep);
        return -1;
    }
    unsigned long ra = 0;
    const char *what = "";
    long r = dev_readahead(c, &ra, &what);
    if (r < 0) {
        fail(what, r, rep);
        return -1;
    }
    drop_caches(c, DROP_FILE, file);

    long fd = seqread_open(file, &r);
    if (fd < 0) {
        fail("open file", fd, rep);
        return -1;
    }
    if (r < 0 && r != -E_NOSYS)
        fail("fadvise DONTNEED", r, rep); /* reported, the run goes on */

    struct agent_cpustat cpu0, cpu1;
    int64_t sec0 = seqread_sectors(c->dev);
    int have_cpu = cpu_read(&cpu0) == 0;
    struct seqread_result res;
    seqread_measure((int)fd, c, "seqread", rep, &res);
    have_cpu = have_cpu && cpu_read(&cpu1) == 0;
    sys_close((int)fd);
    int64_t sec1 = seqread_sectors(c->dev);

    if (res.load_failed)
        return -1;
    if (res.err) {
        fail("read", res.err, rep);
        return -1;
    }
    if (c->size && res.bytes < c->size) {
        fail("file shorter than lab.size", 0, rep);
        return -1;
    }
    struct agent_line *l = seqread_end("seqread", rep, &res);
    agent_line_u64(l, "ra_sectors", ra);
    agent_line_u64(l, "bs", c->bs);
    if (c->verify)
        agent_line_u64(l, "verify_errors", res.verify_errors);
    if (sec0 >= 0 && sec1 >= sec0) /* what reached the disk: shows the cache was dropped */
        agent_line_u64(l, "dev_read_bytes", (uint64_t)(sec1 - sec0) * 512);
    bg_keys(l);
    if (have_cpu)
        cpu_keys(l, &cpu0, &cpu1);
    report_send();
    return 0;
}

uint64_t seqread_run(const struct agent_config *c)
{
    if (c->bs > LAB_AGENT_MAX_BS) {
        report_error("lab.bs larger than the agent's 4 MiB buffer", "seqread", -1);
        return 0;
    }
    uint64_t runs = 0;
    for (uint64_t r = 0; r < c->reps; r++)
        if (one_run(c, c->rep0 + r) == 0)
            runs++;
    return runs;
}
