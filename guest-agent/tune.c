/* Cache dropping for every era, readahead, and the block queue's tunables:
 * lab.sched (sysfs scheduler switch, 2.6.10+), lab.sysfs (queue/KEY), and
 * lab.elvtune (2.4's BLKELVGET/BLKELVSET). */
#include "agent.h"
#include "str.h"
#include "sys.h"

static void dev_path(char *out, size_t cap, const char *name)
{
    size_t at = agent_cat(out, cap, 0, "/dev/");
    agent_cat(out, cap, at, name);
}

static long write_text(const char *path, const char *text)
{
    long fd = sys_open(path, O_WRONLY_, 0);
    if (fd < 0)
        return fd;
    long r;
    do
        r = sys_write((int)fd, text, agent_strlen(text));
    while (r == -E_INTR);
    sys_close((int)fd);
    return r < 0 ? r : 0;
}

static void flush_dev(const struct agent_config *c)
{
    char dev[64];
    dev_path(dev, sizeof(dev), c->dev);
    long fd = sys_open(dev, O_RDONLY_ | O_LARGEFILE_, 0);
    if (fd >= 0) {
        sys_ioctl((int)fd, BLKFLSBUF_, 0);
        sys_close((int)fd);
    }
}

static long fadvise_path(const char *path)
{
    long fd = sys_open(path, O_RDONLY_ | O_LARGEFILE_, 0);
    if (fd < 0)
        return fd;
    long r = sys_fadvise_dontneed((int)fd);
    sys_close((int)fd);
    return r;
}

static long fadv_file(struct walk *w)
{
    long r = fadvise_path(w->path);
    long *worst = w->arg;
    if (r < 0 && *worst == 0)
        *worst = r;
    return 0;
}

const char *drop_caches(const struct agent_config *c, enum drop_scope scope, const char *path)
{
    static const char *reported;
    const char *how = "none";
    long err = 0;
    agent_phase("cache drop (sync)");
    sys_sync();
    /* Only PID 1 touches the global knob: the self-test must not drop the host's cache. */
    int proc = is_pid1() && (c->drop == AGENT_DROP_AUTO || c->drop == AGENT_DROP_PROC);
    if (proc)
        agent_phase("cache drop (drop_caches)");
    if (proc && write_text("/proc/sys/vm/drop_caches", "3") == 0) {
        how = "proc";
    } else if (c->drop == AGENT_DROP_PROC) {
        report_error("lab.drop=drop_caches: /proc/sys/vm/drop_caches cannot be written "
                     "(the kernel has it from 2.6.16)",
                     c->test, -1);
    } else if (scope == DROP_DEVICE) {
        how = "blkflsbuf"; /* blk_open does BLKFLSBUF and fadvise on the device fd */
    } else {
        /* A tree is remounted (auto), unless lab.drop=fadvise; a file gets
         * fadvise, and a remount where there is none (2.4). The self-test's
         * files are not a mount of ours: fadvise only. */
        int remount = data_mounted() && (c->drop == AGENT_DROP_REMOUNT ||
                                         (c->drop == AGENT_DROP_AUTO && scope == DROP_TREE));
        if (!remount && path) {
            long worst = 0;
            agent_phase("cache drop (posix_fadvise)");
            if (scope == DROP_FILE) {
                worst = fadvise_path(path);
            } else {
                static struct walk w;
                agent_cat(w.path, sizeof(w.path), 0, path);
                w.on_file = fadv_file;
                w.on_dir = w.on_dir_done = NULL;
                w.arg = &worst;
                long r = walk_tree(&w);
                if (worst == 0)
                    worst = r;
            }
            if (worst == 0) {
                if (data_mounted())
                    flush_dev(c);
                how = "fadvise";
            } else {
                remount = data_mounted();
            }
        }
        if (remount) {
            agent_phase("cache drop (remount)");
            err = remount_data();
            how = err == 0 ? "remount" : "none";
        }
    }
    if (err) {
        char m[120];
        size_t at = agent_cat(m, sizeof(m), 0, "drop caches: remount /mnt: errno ");
        agent_cat_i64(m, sizeof(m), at, -err);
        report_error(m, c->test, -1);
    }
    if (!reported || !agent_streq(reported, how)) {
        reported = how;
        struct agent_line *l = report_start("log");
        agent_line_str(l, "msg", "drop caches");
        agent_line_str(l, "drop", how);
        report_send();
    }
    return how;
}

static int ra_wanted(const struct agent_config *c)
{
    return c->ra > 0 || (c->given & AGENT_GIVEN_RA_SET);
}

/* 2.6 on: BLKRASET is the file readahead, in sectors. */
static long ra_blkra(long fd, const struct agent_config *c, unsigned long *ra, const char **what)
{
    long r = 0;
    if (ra_wanted(c) && (r = sys_ioctl((int)fd, BLKRASET_, (unsigned long)c->ra)) < 0)
        *what = "BLKRASET";
    if (r == 0) {
        *ra = 0;
        if ((r = sys_ioctl((int)fd, BLKRAGET_, (unsigned long)ra)) < 0)
            *what = "BLKRAGET";
    }
    return r;
}

/* 2.4: file reads follow the drive's max_readahead, BLKFRASET in pages;
 * BLKRASET (the block layer's, at most 255 sectors) is set as near as it
 * goes. The figure reported is the file readahead, in sectors. */
static long ra_blkfra(long fd, const struct agent_config *c, unsigned long *ra, const char **what)
{
    long r = 0;
    if (ra_wanted(c)) {
        unsigned long pages = (unsigned long)((c->ra * 512 + 4095) / 4096);
        if ((r = sys_ioctl((int)fd, BLKFRASET_, pages)) < 0)
            *what = "BLKFRASET";
        else if ((r = sys_ioctl((int)fd, BLKRASET_, c->ra > 255 ? 255 : (unsigned long)c->ra)) < 0)
            *what = "BLKRASET";
    }
    if (r == 0) {
        long pages = 0;
        if ((r = sys_ioctl((int)fd, BLKFRAGET_, (unsigned long)&pages)) < 0)
            *what = "BLKFRAGET";
        *ra = (unsigned long)pages * 8;
    }
    return r;
}

long dev_readahead(const struct agent_config *c, unsigned long *ra, const char **what)
{
    char dev[64];
    dev_path(dev, sizeof(dev), c->dev);
    long fd = sys_open(dev, O_RDONLY_ | O_LARGEFILE_, 0);
    if (fd < 0) {
        *what = "open block device";
        return fd;
    }
    long r = c->ra_blkfra ? ra_blkfra(fd, c, ra, what) : ra_blkra(fd, c, ra, what);
    sys_close((int)fd);
    return r;
}

static void queue_path(char *out, size_t cap, const struct agent_config *c, const char *key)
{
    size_t at = agent_cat(out, cap, 0, "/sys/block/");
    at = agent_cat(out, cap, at, c->dev);
    at = agent_cat(out, cap, at, "/queue/");
    agent_cat(out, cap, at, key);
}

/* Reads a sysfs attribute, trimmed of its newline. */
static long read_attr(const char *path, char *buf, size_t cap)
{
    long n = read_file(path, buf, cap);
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
        buf[--n] = 0;
    return n;
}

static void apply_sched(const struct agent_config *c)
{
    char path[160], txt[256];
    queue_path(path, sizeof(path), c, "scheduler");
    long r = write_text(path, c->sched);
    if (r < 0) {
        report_failure("lab.sched", path, r);
        return;
    }
    r = read_attr(path, txt, sizeof(txt));
    if (r < 0) {
        report_failure("lab.sched: read back", path, r);
        return;
    }
    /* "noop deadline [cfq]": the bracketed one is in effect; a single
     * name without brackets is the only one (e.g. "none"). */
    const char *cur = txt;
    size_t len = (size_t)r;
    for (long i = 0; i < r; i++)
        if (txt[i] == '[') {
            cur = txt + i + 1;
            len = 0;
            while (cur[len] && cur[len] != ']')
                len++;
            break;
        }
    struct agent_line *l = report_start("log");
    agent_line_str(l, "msg", "lab.sched applied");
    agent_line_strn(l, "sched", cur, len);
    report_send();
    if (len != agent_strlen(c->sched) || !agent_memeq(cur, c->sched, len))
        report_failure("lab.sched", "scheduler not in effect after the switch", 0);
}

static void apply_sysfs(const struct agent_config *c, const struct agent_kv *kv)
{
    char path[200], txt[256];
    queue_path(path, sizeof(path), c, kv->key);
    long r = write_text(path, kv->val);
    if (r < 0) {
        report_failure("lab.sysfs", path, r);
        return;
    }
    r = read_attr(path, txt, sizeof(txt));
    if (r < 0) {
        report_failure("lab.sysfs: read back", path, r);
        return;
    }
    struct agent_line *l = report_start("log");
    agent_line_str(l, "msg", "lab.sysfs applied");
    agent_line_str(l, "sysfs", kv->key);
    agent_line_str(l, "asked", kv->val);
    agent_line_strn(l, "value", txt, (size_t)r > 200 ? 200 : (size_t)r);
    report_send();
}

/* Linux 2.4 include/linux/elevator.h (the same in 2.2.16+ and up to 2.5.57):
 *
 *     typedef struct blkelv_ioctl_arg_s {
 *         int queue_ID;
 *         int read_latency;
 *         int write_latency;
 *         int max_bomb_segments;
 *     } blkelv_ioctl_arg_t;
 *
 * and include/linux/fs.h:
 *
 *     #define BLKELVGET _IOR(0x12,106,sizeof(blkelv_ioctl_arg_t))
 *     #define BLKELVSET _IOW(0x12,107,sizeof(blkelv_ioctl_arg_t))
 *
 * _IOR applies sizeof to its third argument, so the number encodes
 * sizeof(size_t) (4 on i386, 8 on x86_64), not 16 (elvtune(8) defines them
 * as _IOR(0x12,106,size_t)). The kernel copies the whole 16-byte struct.
 * BLKELVSET takes read_latency and write_latency (and max_bomb_segments
 * where that kernel still used it), refusing negative values; the agent
 * reads first and changes only the two latencies. Removed in 2.5.58: newer
 * kernels answer ENOTTY or EINVAL. */
struct blkelv_ioctl_arg {
    int32_t queue_ID;
    int32_t read_latency;
    int32_t write_latency;
    int32_t max_bomb_segments;
};
#define IOC_(dir, nr)                                                                              \
    (((unsigned long)(dir) << 30) | ((unsigned long)sizeof(size_t) << 16) | (0x12UL << 8) | (nr))
#define BLKELVGET_ IOC_(2u, 106u) /* _IOR */
#define BLKELVSET_ IOC_(1u, 107u) /* _IOW */

static void apply_elvtune(const struct agent_config *c)
{
    char dev[64];
    dev_path(dev, sizeof(dev), c->dev);
    long fd = sys_open(dev, O_RDONLY_ | O_LARGEFILE_, 0);
    if (fd < 0) {
        report_failure("lab.elvtune: open", dev, fd);
        return;
    }
    struct blkelv_ioctl_arg a = {0, 0, 0, 0};
    long r = sys_ioctl((int)fd, BLKELVGET_, (unsigned long)&a);
    if (r < 0) {
        report_failure("lab.elvtune", "BLKELVGET", r);
        sys_close((int)fd);
        return;
    }
    a.read_latency = c->elv_read;
    a.write_latency = c->elv_write;
    r = sys_ioctl((int)fd, BLKELVSET_, (unsigned long)&a);
    if (r < 0) {
        report_failure("lab.elvtune", "BLKELVSET", r);
        sys_close((int)fd);
        return;
    }
    struct blkelv_ioctl_arg b = {0, 0, 0, 0};
    r = sys_ioctl((int)fd, BLKELVGET_, (unsigned long)&b);
    sys_close((int)fd);
    if (r < 0) {
        report_failure("lab.elvtune: read back", "BLKELVGET", r);
        return;
    }
    struct agent_line *l = report_start("log");
    agent_line_str(l, "msg", "lab.elvtune applied");
    agent_line_u64(l, "read_latency", (uint64_t)(uint32_t)b.read_latency);
    agent_line_u64(l, "write_latency", (uint64_t)(uint32_t)b.write_latency);
    agent_line_u64(l, "max_bomb_segments", (uint64_t)(uint32_t)b.max_bomb_segments);
    report_send();
    if (b.read_latency != c->elv_read || b.write_latency != c->elv_write)
        report_failure("lab.elvtune", "latencies not in effect after BLKELVSET", 0);
}

void tune_apply(const struct agent_config *c)
{
    agent_phase("tunable lab.ide_dma/lab.ide_xfer");
    ide_apply(c);
    if (c->sched[0]) {
        agent_phase("tunable lab.sched");
        apply_sched(c);
    }
    for (uint64_t i = 0; i < c->sysfs_count; i++) {
        agent_phase("tunable lab.sysfs");
        apply_sysfs(c, &c->sysfs[i]);
    }
    if (c->have_elvtune) {
        agent_phase("tunable lab.elvtune");
        apply_elvtune(c);
    }
}
