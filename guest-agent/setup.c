/* PID 1 duties: mounts, device nodes, modules, the report channel, the data disk. */
#include "agent.h"
#include "parse.h"
#include "str.h"
#include "sys.h"

static char big[65536]; /* /proc text, module list */

static void note_err(const char *what, const char *path, long err)
{
    char m[200];
    size_t at = agent_cat(m, sizeof(m), 0, what);
    at = agent_cat(m, sizeof(m), at, " ");
    at = agent_cat(m, sizeof(m), at, path);
    at = agent_cat(m, sizeof(m), at, ": errno ");
    agent_cat_i64(m, sizeof(m), at, -err);
    note(m);
}

static void mknod_cb(const char *name, unsigned maj, unsigned min, void *arg)
{
    char path[80];
    size_t at = agent_cat(path, sizeof(path), 0, "/dev/");
    agent_cat(path, sizeof(path), at, name);
    sys_mknod(path, S_IFBLK_ | 0600, maj, min);
}

/* Without devtmpfs (before 2.6.32): block nodes from /proc/partitions, the
 * serial ports from /proc/devices. Best effort. */
static void make_nodes(void)
{
    long n = read_file("/proc/partitions", big, sizeof(big));
    if (n > 0)
        agent_partitions_each(big, (size_t)n, mknod_cb, NULL);
    n = read_file("/proc/devices", big, sizeof(big));
    int maj = n > 0 ? agent_devices_char_major(big, (size_t)n, "ttyS") : -1;
    if (maj < 0)
        maj = 4;
    static const char *const tty[] = {"/dev/ttyS0", "/dev/ttyS1", "/dev/ttyS2", "/dev/ttyS3"};
    for (unsigned i = 0; i < 4; i++)
        sys_mknod(tty[i], S_IFCHR_ | 0600, (unsigned)maj, 64 + i);
    sys_mknod("/dev/null", S_IFCHR_ | 0666, 1, 3);
}

static int have_devtmpfs;

void setup_proc(void)
{
    sys_mkdir("/proc", 0755);
    long r = sys_mount("proc", "/proc", "proc", 0, NULL);
    if (r < 0 && r != -E_BUSY)
        note_err("mount proc", "/proc", r);
}

void setup_mounts(const struct agent_config *c)
{
    sys_mkdir("/sys", 0755);
    sys_mount("sysfs", "/sys", "sysfs", 0, NULL); /* 2.4 has none */
    sys_mkdir("/dev", 0755);
    if (c->devtmpfs) {
        long r = sys_mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
        have_devtmpfs = r == 0 || r == -E_BUSY;
    }
    if (!have_devtmpfs)
        make_nodes();
    sys_mkdir("/mnt", 0755);
}

void setup_report(const struct agent_config *c)
{
    /* What this boot decided, for the host's records and the era tests:
     * the data disk, how its node came to be, the channel, the command
     * line as the kernel kept it (old kernels cut it at 256 bytes). */
    struct agent_line *l = report_start("log");
    agent_line_str(l, "msg", "setup");
    agent_line_str(l, "dev", c->dev);
    agent_line_str(l, "nodes", have_devtmpfs ? "devtmpfs" : "mknod");
    agent_line_str(l, "chan", c->chan == AGENT_CHAN_TTYS1 ? "ttyS1" : "virtio");
    agent_line_str(l, "fs", c->fs);
    long n = read_file("/proc/cmdline", big, 1024);
    while (n > 0 && (big[n - 1] == '\n' || big[n - 1] == ' '))
        big[--n] = 0;
    agent_line_str(l, "cmdline", n > 0 ? big : "");
    report_send();
}

/* The command line's "MOD.param=value" words for the module at path
 * (/lib/modules/.../libata.ko -> "libata"), as modprobe would pass them:
 * boot words such as libata.dma=0 (host/plan/idemode.h) reach a modular
 * driver only so. */
static void module_params(const char *path, char *out, size_t cap)
{
    static char cmd[1024];
    char name[64];
    const char *base = path;
    for (const char *p = path; *p; p++)
        if (*p == '/')
            base = p + 1;
    size_t n = 0;
    while (base[n] && base[n] != '.' && n + 1 < sizeof(name)) {
        name[n] = base[n];
        n++;
    }
    name[n] = 0;
    long len = read_file("/proc/cmdline", cmd, sizeof(cmd));
    if (len <= 0 || agent_module_params(cmd, (size_t)len, name, out, cap) < 0)
        out[0] = 0;
}

void setup_modules(const char *list_path)
{
    static char list[8192];
    long n = read_file(list_path, list, sizeof(list));
    if (n < 0) {
        if (n != -E_NOENT)
            note_err("read", list_path, n);
        return;
    }
    size_t pos = 0, len;
    const char *l;
    while ((l = agent_next_line(list, (size_t)n, &pos, &len))) {
        char path[256];
        if (len == 0 || l[0] == '#')
            continue;
        if (agent_strlcpy(path, l, len, sizeof(path)) < 0) {
            note("module path too long");
            continue;
        }
        long fd = sys_open(path, O_RDONLY_, 0);
        if (fd < 0) {
            note_err("open module", path, fd);
            continue;
        }
        long size = sys_lseek((int)fd, 0, 2 /* SEEK_END */);
        sys_lseek((int)fd, 0, 0);
        char *img = size > 0 ? sys_alloc((size_t)size) : NULL;
        if (!img) {
            note_err("module too big or empty", path, size < 0 ? size : -E_NOMEM);
            sys_close((int)fd);
            continue;
        }
        size_t got = 0;
        while (got < (size_t)size) {
            long r = sys_read((int)fd, img + got, (size_t)size - got);
            if (r == -E_INTR)
                continue;
            if (r <= 0)
                break;
            got += (size_t)r;
        }
        sys_close((int)fd);
        if (got != (size_t)size) {
            note_err("short read of module", path, -E_IO);
        } else {
            char params[256];
            module_params(path, params, sizeof(params));
            long r = sys_init_module(img, (unsigned long)size, params);
            if (r < 0 && r != -E_EXIST)
                note_err("init_module", path, r);
        }
        sys_free(img, (size_t)size);
    }
}

static int exists(const char *path)
{
    long fd = sys_open(path, O_RDONLY_ | O_NONBLOCK_ | O_NOCTTY_, 0);
    if (fd < 0)
        return 0;
    sys_close((int)fd);
    return 1;
}

/* Finds the virtio-serial port named LAB_PROTO_PORT_NAME; fills dev ("vport0p1")
 * and its sysfs dev attribute path. */
static int find_vport(char *dev, size_t cap)
{
    static char dents[4096];
    const char *dir = "/sys/class/virtio-ports";
    long fd = sys_open(dir, O_RDONLY_ | O_DIRECTORY_, 0);
    if (fd < 0)
        return -1;
    int found = -1;
    long n;
    while (found < 0 && (n = sys_getdents((int)fd, dents, sizeof(dents))) > 0) {
        for (long i = 0; i < n && found < 0;) {
            struct k_dirent64 *d = (struct k_dirent64 *)(dents + i);
            i += d->d_reclen;
            if (d->d_name[0] == '.')
                continue;
            char path[256], name[128];
            size_t at = agent_cat(path, sizeof(path), 0, dir);
            at = agent_cat(path, sizeof(path), at, "/");
            at = agent_cat(path, sizeof(path), at, d->d_name);
            agent_cat(path, sizeof(path), at, "/name");
            long r = read_file(path, name, sizeof(name));
            if (r <= 0)
                continue;
            while (r > 0 && (name[r - 1] == '\n' || name[r - 1] == ' '))
                name[--r] = 0;
            if (agent_streq(name, LAB_PROTO_PORT_NAME) && agent_strlen(d->d_name) + 1 <= cap) {
                agent_cat(dev, cap, 0, d->d_name);
                found = 0;
            }
        }
        if (n <= 0)
            break;
    }
    sys_close((int)fd);
    return found;
}

/* Opens /dev/<name>, creating the node from /sys/class/<cls>/<name>/dev if need be. */
static long open_node(const char *name, const char *cls, int flags)
{
    char path[128], attr[160], txt[32];
    size_t at = agent_cat(path, sizeof(path), 0, "/dev/");
    agent_cat(path, sizeof(path), at, name);
    long fd = sys_open(path, flags, 0);
    if (fd != -E_NOENT)
        return fd;
    at = agent_cat(attr, sizeof(attr), 0, "/sys/class/");
    at = agent_cat(attr, sizeof(attr), at, cls);
    at = agent_cat(attr, sizeof(attr), at, "/");
    at = agent_cat(attr, sizeof(attr), at, name);
    agent_cat(attr, sizeof(attr), at, "/dev");
    long n = read_file(attr, txt, sizeof(txt));
    unsigned maj, min;
    if (n > 0 && agent_parse_majmin(txt, (size_t)n, &maj, &min) == 0)
        sys_mknod(path, S_IFCHR_ | 0600, maj, min);
    return sys_open(path, flags, 0);
}

static void raw_tty(int fd)
{
    struct k_termios t;
    if (sys_ioctl(fd, TCGETS_, (unsigned long)&t) < 0)
        return;
    t.c_iflag &= ~(uint32_t)(01 | 02 | 010 | 040 | 0100 | 0200 | 0400 | 02000);
    t.c_oflag &= ~(uint32_t)01; /* OPOST */
    t.c_lflag &= ~(uint32_t)(010 | 0100 | 02 | 01 | 0100000);
    t.c_cflag &= ~(uint32_t)(060 | 0400 | 010017); /* CSIZE PARENB CBAUD */
    t.c_cflag |= 060 | 010002 | 04000 | 0200;      /* CS8 B115200 CLOCAL CREAD */
    t.c_cc[6] = 1;                                 /* VMIN */
    t.c_cc[5] = 0;                                 /* VTIME */
    sys_ioctl(fd, TCSETS_, (unsigned long)&t);
}

int setup_channel(const struct agent_config *c, char *why, size_t whycap)
{
    if (c->chan == AGENT_CHAN_TTYS1) {
        long fd = open_node("ttyS1", "tty", O_RDWR_ | O_NOCTTY_);
        if (fd == -E_NOENT) {
            sys_mknod("/dev/ttyS1", S_IFCHR_ | 0600, 4, 65);
            fd = sys_open("/dev/ttyS1", O_RDWR_ | O_NOCTTY_, 0);
        }
        if (fd < 0) {
            size_t at = agent_cat(why, whycap, 0, "cannot open /dev/ttyS1: errno ");
            agent_cat_i64(why, whycap, at, -fd);
            return -1;
        }
        raw_tty((int)fd);
        return (int)fd;
    }
    uint64_t polls = c->timeout * 20;
    char dev[64];
    for (uint64_t i = 0;; i++) {
        if (find_vport(dev, sizeof(dev)) == 0) {
            long fd = open_node(dev, "virtio-ports", O_RDWR_ | O_NOCTTY_);
            if (fd >= 0)
                return (int)fd;
            if (i >= polls) {
                size_t at = agent_cat(why, whycap, 0, "cannot open /dev/");
                at = agent_cat(why, whycap, at, dev);
                at = agent_cat(why, whycap, at, ": errno ");
                agent_cat_i64(why, whycap, at, -fd);
                return -1;
            }
        } else if (i >= polls) {
            agent_cat(why, whycap, 0, "no virtio-serial port named " LAB_PROTO_PORT_NAME);
            return -1;
        }
        sys_sleep_ms(50);
    }
}

/* The data filesystem as mounted, for remount_data(). */
static struct {
    char dev[64];
    char fs[AGENT_CFG_NAME_MAX];
    unsigned long flags;
    int mounted;
} data_mnt;

static const char *data_root = "/mnt";

void data_root_set(const char *dir)
{
    data_root = dir;
}

long data_path(char *out, size_t cap, const char *rel)
{
    return agent_path_join(out, cap, data_root, rel);
}

int data_mounted(void)
{
    return data_mnt.mounted;
}

long remount_data(void)
{
    if (!data_mnt.mounted)
        return -E_INVAL;
    long r = sys_umount("/mnt");
    if (r < 0)
        return r;
    long fd = sys_open(data_mnt.dev, O_RDONLY_ | O_LARGEFILE_, 0);
    if (fd >= 0) {
        sys_ioctl((int)fd, BLKFLSBUF_, 0);
        sys_close((int)fd);
    }
    r = sys_mount(data_mnt.dev, "/mnt", data_mnt.fs, data_mnt.flags, NULL);
    if (r < 0)
        data_mnt.mounted = 0;
    return r;
}

/* Waits for /dev/<name> (making the node if the kernel knows the disk). */
static int wait_block(const struct agent_config *c, const char *name, char *why, size_t whycap)
{
    char path[64], sys[80];
    size_t at = agent_cat(path, sizeof(path), 0, "/dev/");
    agent_cat(path, sizeof(path), at, name);
    at = agent_cat(sys, sizeof(sys), 0, "/sys/block/");
    agent_cat(sys, sizeof(sys), at, name);
    uint64_t polls = c->timeout * 20;
    long last = -E_NOENT;
    for (uint64_t i = 0;; i++) {
        long fd = sys_open(path, O_RDONLY_ | O_LARGEFILE_, 0);
        if (fd >= 0) {
            sys_close((int)fd);
            break;
        }
        last = fd;
        /* Known to the kernel but no node (no devtmpfs, or not yet): make it. */
        unsigned maj, min;
        long n = read_file("/proc/partitions", big, sizeof(big));
        if (n > 0 && agent_partitions_find(big, (size_t)n, name, &maj, &min) == 0) {
            if (!have_devtmpfs || i >= 10)
                sys_mknod(path, S_IFBLK_ | 0600, maj, min);
        } else if (i >= 10 && exists(sys)) {
            char attr[96], txt[32];
            at = agent_cat(attr, sizeof(attr), 0, sys);
            agent_cat(attr, sizeof(attr), at, "/dev");
            n = read_file(attr, txt, sizeof(txt));
            if (n > 0 && agent_parse_majmin(txt, (size_t)n, &maj, &min) == 0)
                sys_mknod(path, S_IFBLK_ | 0600, maj, min);
        }
        if (i >= polls) {
            at = agent_cat(why, whycap, 0, "block device ");
            at = agent_cat(why, whycap, at, name);
            at = agent_cat(why, whycap, at, " did not appear: errno ");
            agent_cat_i64(why, whycap, at, -last);
            return -1;
        }
        sys_sleep_ms(50);
    }
    return 0;
}

static int mount_on(const struct agent_config *c, const char *name, const char *dir,
                    unsigned long flags, char *why, size_t whycap)
{
    char path[64];
    size_t at = agent_cat(path, sizeof(path), 0, "/dev/");
    agent_cat(path, sizeof(path), at, name);
    sys_mkdir(dir, 0755);
    long r = sys_mount(path, dir, c->fs, flags, NULL);
    if (r < 0) {
        at = agent_cat(why, whycap, 0, "mount ");
        at = agent_cat(why, whycap, at, path);
        at = agent_cat(why, whycap, at, " (");
        at = agent_cat(why, whycap, at, c->fs);
        at = agent_cat(why, whycap, at, flags & MS_RDONLY_ ? ", ro) on " : ", rw) on ");
        at = agent_cat(why, whycap, at, dir);
        at = agent_cat(why, whycap, at, ": errno ");
        agent_cat_i64(why, whycap, at, -r);
        return -1;
    }
    return 0;
}

int setup_block_device(const struct agent_config *c, int mount, char *why, size_t whycap)
{
    if (wait_block(c, c->dev, why, whycap) < 0)
        return -1;
    if (!mount)
        return 0;
    unsigned long flags = c->rw ? 0 : MS_RDONLY_;
    if (mount_on(c, c->dev, "/mnt", flags, why, whycap) < 0)
        return -1;
    size_t at = agent_cat(data_mnt.dev, sizeof(data_mnt.dev), 0, "/dev/");
    agent_cat(data_mnt.dev, sizeof(data_mnt.dev), at, c->dev);
    agent_cat(data_mnt.fs, sizeof(data_mnt.fs), 0, c->fs);
    data_mnt.flags = flags;
    data_mnt.mounted = 1;
    return 0;
}

int setup_second_disk(const struct agent_config *c, char *why, size_t whycap)
{
    if (wait_block(c, c->dev2, why, whycap) < 0)
        return -1;
    return mount_on(c, c->dev2, "/mnt2", 0, why, whycap);
}

/* The volume label of an ext2/3 superblock: 16 bytes at 1024 + 120. A disk
 * that is not ext2/3 (a raw data disk) reads as some other bytes. */
static int has_scratch_label(const char *name)
{
    char path[64], label[16];
    size_t at = agent_cat(path, sizeof(path), 0, "/dev/");
    agent_cat(path, sizeof(path), at, name);
    long fd = sys_open(path, O_RDONLY_ | O_LARGEFILE_, 0);
    if (fd < 0)
        return 0;
    long n = sys_pread64((int)fd, label, sizeof(label), 1024 + 120);
    sys_close((int)fd);
    static const char want[sizeof(label)] = LAB_SCRATCH_LABEL;
    if (n != (long)sizeof(label))
        return 0;
    for (size_t i = 0; i < sizeof(label); i++)
        if (label[i] != want[i])
            return 0;
    return 1;
}

int setup_disk_order(struct agent_config *c, char *why, size_t whycap)
{
    if (wait_block(c, c->dev, why, whycap) < 0 || wait_block(c, c->dev2, why, whycap) < 0)
        return -1;
    if (!has_scratch_label(c->dev) || has_scratch_label(c->dev2))
        return 0;
    char name[sizeof(c->dev)];
    agent_cat(name, sizeof(name), 0, c->dev);
    agent_cat(c->dev, sizeof(c->dev), 0, c->dev2);
    agent_cat(c->dev2, sizeof(c->dev2), 0, name);
    char msg[160];
    size_t at = agent_cat(msg, sizeof(msg), 0, "disks came up in the other order: data disk is ");
    at = agent_cat(msg, sizeof(msg), at, c->dev);
    at = agent_cat(msg, sizeof(msg), at, ", scratch disk (" LAB_SCRATCH_LABEL ") is ");
    agent_cat(msg, sizeof(msg), at, c->dev2);
    report_log(msg);
    return 1;
}
