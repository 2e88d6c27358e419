/* The measuring engine every test runs through: the agent's buffers, the
 * counters read around a run (the device's sectors read, /proc/stat, the
 * lab.load child, rusage, the clock), the begin and end records with the
 * kernel profile around them, and the failure records. A test does only its
 * own IO between run_begin and run_stop and names its own end keys; the
 * driver (driver.c) calls the rest in one order for every test. */
#include "agent.h"
#include "str.h"
#include "sys.h"
#include "verify.h"

unsigned char agent_iobuf[LAB_AGENT_MAX_BS] __attribute__((aligned(4096)));
uint64_t agent_lat[AGENT_COUNT_MAX];

void test_fail(const char *test, const char *what, long err, uint64_t rep)
{
    char m[WALK_PATH_MAX + 80];
    size_t at = agent_cat(m, sizeof(m), 0, what);
    if (err) {
        at = agent_cat(m, sizeof(m), at, ": errno ");
        agent_cat_i64(m, sizeof(m), at, -err);
    }
    report_error(m, test, (int64_t)rep);
}

void test_log_errno(const char *test, const char *what, long err)
{
    char m[160];
    size_t at = agent_cat(m, sizeof(m), 0, test);
    at = agent_cat(m, sizeof(m), at, ": ");
    at = agent_cat(m, sizeof(m), at, what);
    at = agent_cat(m, sizeof(m), at, ": errno ");
    agent_cat_i64(m, sizeof(m), at, -err);
    report_log(m);
}

int cpu_read(struct agent_cpustat *s)
{
    static char txt[16384]; /* the cpu line is first; one read is enough */
    long n = read_file("/proc/stat", txt, sizeof(txt));
    if (n <= 0)
        return -1;
    return agent_procstat_cpu(txt, (size_t)n, s);
}

void cpu_keys(struct agent_line *l, const struct agent_cpustat *a, const struct agent_cpustat *b)
{
    struct agent_cpustat d;
    agent_cpustat_delta(a, b, &d);
    agent_line_u64(l, "cpu_user", d.v[AGENT_CPU_USER]);
    agent_line_u64(l, "cpu_nice", d.v[AGENT_CPU_NICE]);
    agent_line_u64(l, "cpu_system", d.v[AGENT_CPU_SYSTEM]);
    agent_line_u64(l, "cpu_idle", d.v[AGENT_CPU_IDLE]);
    agent_line_u64(l, "cpu_iowait", d.v[AGENT_CPU_IOWAIT]);
    if (d.fields >= 7) {
        agent_line_u64(l, "cpu_irq", d.v[AGENT_CPU_IRQ]);
        agent_line_u64(l, "cpu_softirq", d.v[AGENT_CPU_SOFTIRQ]);
    }
    if (d.fields >= 8)
        agent_line_u64(l, "cpu_steal", d.v[AGENT_CPU_STEAL]);
    agent_line_u64(l, "cpu_fields", d.fields);
}

int64_t dev_sectors(const char *name)
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

void run_init(struct agent_run *r, const struct agent_config *c, const char *test, uint64_t rep,
              const char *path, const char *dev)
{
    char *p = (char *)r;
    for (size_t i = 0; i < sizeof(*r); i++)
        p[i] = 0;
    r->c = c;
    r->test = test;
    r->rep = rep;
    r->path = path;
    r->dev = dev;
    r->cpu = 1;
    r->sec0 = r->sec1 = -1;
    r->load_ok = 1;
    r->fd = -1;
}

int run_fail(struct agent_run *r, const char *what, long err)
{
    r->what = what;
    r->err = err;
    return -1;
}

int run_begin(struct agent_run *r)
{
    r->sec0 = r->dev ? dev_sectors(r->dev) : -1;
    r->have_cpu = r->cpu && cpu_read(&r->cpu0) == 0;
    if (bg_start(r->c, agent_iobuf) < 0) {
        r->t0 = r->t1 = sys_now_ns();
        r->load_ok = 0;
        return -1;
    }
    struct k_rusage ru;
    sys_getrusage(RUSAGE_SELF_, &ru);
    r->user0_ns = sys_timeval_ns(&ru.ru_utime);
    r->sys0_ns = sys_timeval_ns(&ru.ru_stime);
    r->t0 = sys_now_ns();
    /* The kernel profile brackets every run: reset after the test's own
     * set-up, before its IO; reported after its end record. */
    kprof_reset();
    struct agent_line *l = report_start("begin");
    agent_line_str(l, "test", r->test);
    agent_line_u64(l, "rep", r->rep);
    agent_line_u64(l, "guest_ns", r->t0);
    report_send();
    return 0;
}

void run_stop(struct agent_run *r)
{
    r->t1 = sys_now_ns();
    struct k_rusage ru;
    sys_getrusage(RUSAGE_SELF_, &ru);
    r->load_ok = bg_stop() == 0;
    r->user_ns = sys_timeval_ns(&ru.ru_utime) - r->user0_ns;
    r->sys_ns = sys_timeval_ns(&ru.ru_stime) - r->sys0_ns;
    r->have_cpu = r->have_cpu && cpu_read(&r->cpu1) == 0;
    r->sec1 = r->dev ? dev_sectors(r->dev) : -1;
}

long run_read_seq(struct agent_run *r, int fd)
{
    const struct agent_config *c = r->c;
    struct agent_verify v;
    agent_verify_init_at(&v, c->seed, c->skip);
    uint64_t bytes = 0;
    size_t bs = (size_t)c->bs;
    long err = 0;
    for (;;) {
        size_t want = bs;
        if (c->size && c->size - bytes < want)
            want = (size_t)(c->size - bytes);
        if (want == 0)
            break;
        long n = c->skip ? sys_pread64(fd, agent_iobuf, want, c->skip + bytes)
                         : sys_read(fd, agent_iobuf, want);
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
    r->verify_errors = c->verify ? agent_verify_finish(&v) : 0;
    r->bytes = bytes;
    return err;
}

struct agent_line *run_end_start(const struct agent_run *r)
{
    struct agent_line *l = report_start("end");
    agent_line_str(l, "test", r->test);
    agent_line_u64(l, "rep", r->rep);
    agent_line_u64(l, "guest_ns", r->t1);
    agent_line_u64(l, "bytes", r->bytes);
    agent_line_u64(l, "real_ns", r->t1 - r->t0);
    agent_line_u64(l, "user_ns", r->user_ns);
    agent_line_u64(l, "sys_ns", r->sys_ns);
    return l;
}

void run_end_send(const struct agent_run *r, struct agent_line *l)
{
    if (r->verifies && r->c->verify)
        agent_line_u64(l, "verify_errors", r->verify_errors);
    /* What reached the disk: shows the cache was dropped. */
    if (r->sec0 >= 0 && r->sec1 >= r->sec0)
        agent_line_u64(l, "dev_read_bytes", (uint64_t)(r->sec1 - r->sec0) * 512);
    bg_keys(l);
    if (r->have_cpu)
        cpu_keys(l, &r->cpu0, &r->cpu1);
    report_send();
    kprof_report();
}
