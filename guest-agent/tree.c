/* The tree tests: treeread (seed 003 b: read every regular file of a tree, as
 * `find | xargs dd` does) and contest (seed 001: the same read with CPU work
 * proportional to the data, standing in for contest's kernel compile), and
 * the recursive walk they share with the copy load and the cache drop. */
#include "agent.h"
#include "str.h"
#include "sys.h"

#define WALK_DEPTH_MAX 64
#define DT_DIR_        4
#define DT_REG_        8
#define DT_UNKNOWN_    0

static long walk_dir(struct walk *w, unsigned depth)
{
    char dents[2048] __attribute__((aligned(8)));
    if (depth > WALK_DEPTH_MAX) {
        w->what = "tree deeper than 64";
        return -E_INVAL;
    }
    long fd = sys_open(w->path, O_RDONLY_ | O_DIRECTORY_ | O_LARGEFILE_, 0);
    if (fd < 0) {
        w->what = "open directory";
        return fd;
    }
    w->dirs++;
    long r = w->on_dir ? w->on_dir(w) : 0;
    if (r < 0)
        w->what = "directory";
    size_t len = agent_strlen(w->path);
    long n = 0;
    while (r == 0 && (n = sys_getdents((int)fd, dents, sizeof(dents))) > 0) {
        for (long i = 0; i < n && r == 0;) {
            struct k_dirent64 *d = (struct k_dirent64 *)(dents + i);
            i += d->d_reclen;
            const char *nm = d->d_name;
            if (nm[0] == '.' && (nm[1] == 0 || (nm[1] == '.' && nm[2] == 0)))
                continue;
            if (len + 1 + agent_strlen(nm) + 1 > sizeof(w->path)) {
                w->what = "path too long";
                r = -E_INVAL;
                break;
            }
            size_t at = agent_cat(w->path, sizeof(w->path), len, "/");
            agent_cat(w->path, sizeof(w->path), at, nm);
            int is_dir = d->d_type == DT_DIR_;
            int is_reg = d->d_type == DT_REG_;
            if (d->d_type == DT_UNKNOWN_) {
                /* getdents (2.4) or a filesystem without d_type. */
                long t = sys_open(w->path, O_RDONLY_ | O_DIRECTORY_ | O_LARGEFILE_, 0);
                if (t >= 0) {
                    sys_close((int)t);
                    is_dir = 1;
                } else if (t == -E_NOTDIR) {
                    is_reg = 1; /* or a device, fifo or symlink: opening tells */
                }
            }
            if (is_dir) {
                r = walk_dir(w, depth + 1);
            } else if (is_reg) {
                w->files++;
                r = w->on_file ? w->on_file(w) : 0;
                if (r < 0 && !w->what)
                    w->what = "file";
            }
            w->path[len] = 0;
        }
    }
    if (r == 0 && n < 0) {
        w->what = "getdents";
        r = n;
    }
    sys_close((int)fd);
    if (r == 0 && w->on_dir_done) {
        r = w->on_dir_done(w);
        if (r < 0)
            w->what = "directory done";
    }
    return r;
}

long walk_tree(struct walk *w)
{
    size_t n = agent_strlen(w->path);
    while (n > 1 && w->path[n - 1] == '/')
        w->path[--n] = 0;
    w->rootlen = n;
    w->files = w->dirs = 0;
    w->what = NULL;
    return walk_dir(w, 0);
}

struct tree_ctx {
    const struct agent_config *c;
    uint64_t rounds;
    uint64_t bytes;
    uint64_t sum;
};

static long read_one(struct walk *w)
{
    struct tree_ctx *x = w->arg;
    long fd = sys_open(w->path, O_RDONLY_ | O_LARGEFILE_, 0);
    if (fd < 0) {
        w->what = "open";
        return fd;
    }
    long r = 0;
    for (;;) {
        long n = sys_read((int)fd, agent_iobuf, (size_t)x->c->bs);
        if (n == -E_INTR)
            continue;
        if (n < 0) {
            w->what = "read";
            r = n;
        }
        if (n <= 0)
            break;
        x->bytes += (uint64_t)n;
        for (uint64_t k = 0; k < x->rounds; k++)
            x->sum = agent_checksum(x->sum, agent_iobuf, (size_t)n);
    }
    sys_close((int)fd);
    return r;
}

int tree_one(const struct agent_config *c, const char *path, const char *test, uint64_t rep,
             uint64_t rounds, struct tree_out *o)
{
    static struct walk w;
    struct tree_ctx x = {c, rounds, 0, AGENT_SUM_INIT};
    unsigned long ra = 0;
    const char *what = NULL;
    int have_ra = 0;
    if (is_pid1()) {
        long r = dev_readahead(c, &ra, &what);
        if (r < 0) {
            test_fail(test, what, r, rep);
            return -1;
        }
        have_ra = 1;
    }
    drop_caches(c, DROP_TREE, path);

    struct agent_cpustat cpu0, cpu1;
    int64_t sec0 = is_pid1() ? seqread_sectors(c->dev) : -1;
    int have_cpu = cpu_read(&cpu0) == 0;
    if (bg_start(c) < 0)
        return -1;
    struct k_rusage ru0, ru1;
    sys_getrusage(RUSAGE_SELF_, &ru0);
    o->t0 = sys_now_ns();
    struct agent_line *l = report_start("begin");
    agent_line_str(l, "test", test);
    agent_line_u64(l, "rep", rep);
    agent_line_u64(l, "guest_ns", o->t0);
    report_send();

    agent_cat(w.path, sizeof(w.path), 0, path);
    w.on_file = read_one;
    w.on_dir = w.on_dir_done = NULL;
    w.arg = &x;
    long r = walk_tree(&w);

    o->t1 = sys_now_ns();
    sys_getrusage(RUSAGE_SELF_, &ru1);
    int load_ok = bg_stop() == 0;
    have_cpu = have_cpu && cpu_read(&cpu1) == 0;
    int64_t sec1 = is_pid1() ? seqread_sectors(c->dev) : -1;
    o->bytes = x.bytes;
    o->files = w.files;
    o->dirs = w.dirs;
    o->checksum = x.sum;
    o->user_ns = sys_timeval_ns(&ru1.ru_utime) - sys_timeval_ns(&ru0.ru_utime);
    o->sys_ns = sys_timeval_ns(&ru1.ru_stime) - sys_timeval_ns(&ru0.ru_stime);
    if (r < 0) {
        char m[WALK_PATH_MAX + 40];
        size_t at = agent_cat(m, sizeof(m), 0, w.what ? w.what : "walk");
        at = agent_cat(m, sizeof(m), at, " ");
        agent_cat(m, sizeof(m), at, w.path);
        test_fail(test, m, r, rep);
        return -1;
    }
    if (!load_ok)
        return -1;
    l = report_start("end");
    agent_line_str(l, "test", test);
    agent_line_u64(l, "rep", rep);
    agent_line_u64(l, "guest_ns", o->t1);
    agent_line_u64(l, "bytes", o->bytes);
    agent_line_u64(l, "real_ns", o->t1 - o->t0);
    agent_line_u64(l, "user_ns", o->user_ns);
    agent_line_u64(l, "sys_ns", o->sys_ns);
    agent_line_u64(l, "files", o->files);
    agent_line_u64(l, "dirs", o->dirs);
    agent_line_u64(l, "bs", c->bs);
    if (rounds) {
        agent_line_u64(l, "cpu_rounds", rounds);
        agent_line_u64(l, "checksum", o->checksum);
    }
    if (have_ra)
        agent_line_u64(l, "ra_sectors", ra);
    if (sec0 >= 0 && sec1 >= sec0)
        agent_line_u64(l, "dev_read_bytes", (uint64_t)(sec1 - sec0) * 512);
    bg_keys(l);
    if (have_cpu)
        cpu_keys(l, &cpu0, &cpu1);
    report_send();
    return 0;
}

static uint64_t tree_run(const struct agent_config *c, const char *test, uint64_t rounds)
{
    if (c->bs > LAB_AGENT_MAX_BS) {
        report_error("lab.bs larger than the agent's 4 MiB buffer", test, -1);
        return 0;
    }
    char path[WALK_PATH_MAX];
    if (data_path(path, sizeof(path), c->tree) < 0) {
        report_error("lab.tree: path too long", test, -1);
        return 0;
    }
    uint64_t runs = 0;
    for (uint64_t r = 0; r < c->reps; r++) {
        struct tree_out o;
        if (tree_one(c, path, test, c->rep0 + r, rounds, &o) == 0)
            runs++;
    }
    return runs;
}

uint64_t treeread_run(const struct agent_config *c)
{
    return tree_run(c, "treeread", 0);
}

uint64_t contest_run(const struct agent_config *c)
{
    return tree_run(c, "contest", c->cpu_rounds);
}
