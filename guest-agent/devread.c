/* The raw-device sequential read (lab.test=devread): all of /dev/<lab.dev>
 * (or lab.size bytes) in lab.bs blocks, through the page cache after dropping
 * it (BLKFLSBUF, fadvise DONTNEED) or with O_DIRECT, with the CPU split from
 * /proc/stat over the run. Also the parts randread shares. */
#include "agent.h"
#include "str.h"
#include "sys.h"

void test_fail(const char *test, const char *what, long err, uint64_t rep)
{
    char m[200];
    size_t at = agent_cat(m, sizeof(m), 0, what);
    if (err) {
        at = agent_cat(m, sizeof(m), at, ": errno ");
        agent_cat_i64(m, sizeof(m), at, -err);
    }
    report_error(m, test, (int64_t)rep);
}

static void log_errno(const char *test, const char *what, long err)
{
    char m[160];
    size_t at = agent_cat(m, sizeof(m), 0, test);
    at = agent_cat(m, sizeof(m), at, ": ");
    at = agent_cat(m, sizeof(m), at, what);
    at = agent_cat(m, sizeof(m), at, ": errno ");
    agent_cat_i64(m, sizeof(m), at, -err);
    report_log(m);
}

int blk_open(const struct agent_config *c, const char *path, int direct, const char *test,
             uint64_t rep, struct blk_dev *d)
{
    d->fd = -1;
    d->size = 0;
    d->ssz = 512;
    d->ra = 0;
    d->have_ra = 0;
    long fd = sys_open(path, O_RDONLY_ | O_LARGEFILE_ | (direct ? O_DIRECT_ : 0), 0);
    if (fd < 0) {
        test_fail(test, direct ? "open with O_DIRECT" : "open", fd, rep);
        return -1;
    }
    if (c->ra > 0 || (c->given & AGENT_GIVEN_RA_SET)) {
        long r = sys_ioctl((int)fd, BLKRASET_, (unsigned long)c->ra);
        if (r < 0 && r != -E_NOTTY) {
            test_fail(test, "BLKRASET", r, rep);
            sys_close((int)fd);
            return -1;
        }
    }
    unsigned long ra = 0;
    if (sys_ioctl((int)fd, BLKRAGET_, (unsigned long)&ra) == 0) {
        d->ra = ra;
        d->have_ra = 1;
    }
    int ssz = 0;
    if (sys_ioctl((int)fd, BLKSSZGET_, (unsigned long)&ssz) == 0 && ssz >= 512 && ssz <= 65536)
        d->ssz = (unsigned)ssz;
    long r = sys_dev_size((int)fd, &d->size);
    if (r < 0) {
        test_fail(test, "device size", r, rep);
        sys_close((int)fd);
        return -1;
    }
    if (!direct) {
        drop_caches(c, DROP_DEVICE, path);
        r = sys_ioctl((int)fd, BLKFLSBUF_, 0);
        if (r < 0 && r != -E_NOTTY)
            log_errno(test, "BLKFLSBUF", r);
        r = sys_fadvise_dontneed((int)fd);
        if (r < 0 && r != -E_NOSYS)
            log_errno(test, "fadvise DONTNEED", r);
    }
    d->fd = fd;
    return 0;
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

static int multiple_of(uint64_t n, unsigned ssz)
{
    return (n & (uint64_t)(ssz - 1)) == 0; /* ssz is a power of two */
}

int devread_one(const struct agent_config *c, const char *path, const char *name, const char *test,
                uint64_t rep, struct devread_out *o)
{
    struct blk_dev d;
    if (blk_open(c, path, (int)c->direct, test, rep, &d) < 0)
        return -1;
    o->devsize = d.size;
    if (c->size > d.size) {
        test_fail(test, "lab.size larger than the device", 0, rep);
        sys_close((int)d.fd);
        return -1;
    }
    if (c->direct && (!multiple_of(c->bs, d.ssz) || !multiple_of(c->size, d.ssz))) {
        test_fail(test, "O_DIRECT needs lab.bs and lab.size in whole sectors", 0, rep);
        sys_close((int)d.fd);
        return -1;
    }
    /* lab.size 0 reads to the end in whole blocks: a short last read, never
     * a length O_DIRECT would refuse. */
    uint64_t want = c->size ? c->size : d.size;

    struct agent_cpustat cpu0, cpu1;
    int64_t sec0 = name ? seqread_sectors(name) : -1;
    int have_cpu = cpu_read(&cpu0) == 0;
    seqread_measure((int)d.fd, c, test, rep, &o->res);
    have_cpu = have_cpu && cpu_read(&cpu1) == 0;
    int64_t sec1 = name ? seqread_sectors(name) : -1;
    sys_close((int)d.fd);

    if (o->res.load_failed)
        return -1;
    if (o->res.err) {
        test_fail(test, "read", o->res.err, rep);
        return -1;
    }
    if (o->res.bytes != want) {
        test_fail(test, "read fewer bytes than the device size", 0, rep);
        return -1;
    }
    struct agent_line *l = seqread_end(test, rep, &o->res);
    agent_line_u64(l, "bs", c->bs);
    agent_line_u64(l, "direct", c->direct ? 1 : 0);
    if (d.have_ra)
        agent_line_u64(l, "ra_sectors", d.ra);
    if (c->verify)
        agent_line_u64(l, "verify_errors", o->res.verify_errors);
    if (sec0 >= 0 && sec1 >= sec0)
        agent_line_u64(l, "dev_read_bytes", (uint64_t)(sec1 - sec0) * 512);
    bg_keys(l);
    if (have_cpu)
        cpu_keys(l, &cpu0, &cpu1);
    report_send();
    return 0;
}

uint64_t devread_run(const struct agent_config *c)
{
    if (c->bs > LAB_AGENT_MAX_BS) {
        report_error("lab.bs larger than the agent's 4 MiB buffer", "devread", -1);
        return 0;
    }
    char dev[64];
    size_t at = agent_cat(dev, sizeof(dev), 0, "/dev/");
    agent_cat(dev, sizeof(dev), at, c->dev);
    uint64_t runs = 0;
    for (uint64_t r = 0; r < c->reps; r++) {
        struct devread_out o;
        if (devread_one(c, dev, c->dev, "devread", c->rep0 + r, &o) == 0)
            runs++;
    }
    return runs;
}
