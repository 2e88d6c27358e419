/* Background loads (lab.load) for any foreground test: a child forked with
 * the fork syscall (2.4 has it) loops on its load until the parent kills it
 * (SIGKILL, then wait4); it works in the buffer bg_start is given (the
 * engine's agent_iobuf: the child has its own copy of it). Its progress is counted in an anonymous
 * shared page (MAP_SHARED|MAP_ANONYMOUS, which 2.4 has too): copy      copies the tree
 * <data>/<lab.load_src> into <data>/<lab.load_dst>/<0|1> (alternating, the target removed first): a
 * unit = a whole tree io_load   writes <data>/load_file, lab.load_size bytes in 1 MiB writes,
 *             fsync, unlink: a unit = one file (contest's io_load)
 *   io_other  the same on /mnt2 (the second disk, lab.dev2)
 *   read_load reads <data>/<lab.load_file> to its end, dropping its pages first
 *             (fadvise, where the kernel has it): a unit = one pass */
#include "agent.h"
#include "str.h"
#include "sys.h"

#define LOAD_CHUNK (1u << 20)

/* The child publishes into the slot the parent is not told about, then flips
 * gen: a child killed half-way through a 64-bit store (two on i386) leaves
 * the published slot whole. */
struct load_shared {
    volatile uint32_t gen;
    volatile int32_t err; /* -errno of the child's failure, 0 while it runs */
    volatile uint32_t what;
    uint32_t pad;
    struct load_figures snap[2];
};

static struct load_shared *sh;
static long child = -1;
static int last_load = AGENT_LOAD_NONE;
static struct load_figures last;
static struct load_figures cur; /* the child's own counters */
static unsigned char *iobuf;    /* the child's LOAD_CHUNK bytes (bg_start's buf) */

static const char *const what_names[] = {"?",     "open",  "read", "write",
                                         "fsync", "mkdir", "walk", "remove"};
enum { W_NONE, W_OPEN, W_READ, W_WRITE, W_FSYNC, W_MKDIR, W_WALK, W_REMOVE };

static void publish(void)
{
    uint32_t g = sh->gen;
    sh->snap[(g + 1) & 1] = cur;
    __asm__ volatile("" ::: "memory");
    sh->gen = g + 1;
}

__attribute__((noreturn)) static void child_fail(unsigned what, long err)
{
    sh->what = what;
    sh->err = (int32_t)(err < 0 ? err : -E_IO);
    for (;;)
        sys_pause(); /* until the parent's SIGKILL */
}

static long write_all(int fd, const unsigned char *p, size_t n)
{
    while (n) {
        long r = sys_write(fd, p, n);
        if (r == -E_INTR)
            continue;
        if (r <= 0)
            return r < 0 ? r : -E_IO;
        p += r;
        n -= (size_t)r;
        cur.bytes += (uint64_t)r;
        publish();
    }
    return 0;
}

/* io_load, io_other: write, fsync, unlink, repeat. */
__attribute__((noreturn)) static void loop_write(const struct agent_config *c, const char *path)
{
    for (uint32_t i = 0; i < LOAD_CHUNK; i++)
        iobuf[i] = (unsigned char)(i * 131u + 7u);
    for (;;) {
        long fd = sys_open(path, O_WRONLY_ | O_CREAT_ | O_TRUNC_ | O_LARGEFILE_, 0644);
        if (fd < 0)
            child_fail(W_OPEN, fd);
        for (uint64_t done = 0; done < c->load_size;) {
            uint64_t left = c->load_size - done;
            size_t n = left < LOAD_CHUNK ? (size_t)left : LOAD_CHUNK;
            long r = write_all((int)fd, iobuf, n);
            if (r < 0)
                child_fail(W_WRITE, r);
            done += n;
        }
        long r = sys_fsync((int)fd);
        if (r < 0)
            child_fail(W_FSYNC, r);
        sys_close((int)fd);
        sys_unlink(path);
        cur.units++;
        publish();
    }
}

/* read_load: whole passes over one file. */
__attribute__((noreturn)) static void loop_read(const char *path)
{
    for (;;) {
        long fd = sys_open(path, O_RDONLY_ | O_LARGEFILE_, 0);
        if (fd < 0)
            child_fail(W_OPEN, fd);
        sys_fadvise_dontneed((int)fd); /* ENOSYS on 2.4: the pass may hit the cache */
        for (;;) {
            long n = sys_read((int)fd, iobuf, LOAD_CHUNK);
            if (n == -E_INTR)
                continue;
            if (n < 0)
                child_fail(W_READ, n);
            if (n == 0)
                break;
            cur.bytes += (uint64_t)n;
            publish();
        }
        sys_close((int)fd);
        cur.units++;
        publish();
    }
}

/* copy: file by file, as cp -r does. */
struct copy_ctx {
    char dst[WALK_PATH_MAX];
    size_t dstlen;
};

static long copy_target(struct walk *w, char *out, size_t cap)
{
    struct copy_ctx *x = w->arg;
    return agent_path_join(out, cap, x->dst, w->path + w->rootlen);
}

static long copy_dir(struct walk *w)
{
    char to[WALK_PATH_MAX];
    if (copy_target(w, to, sizeof(to)) < 0)
        return -E_INVAL;
    long r = sys_mkdir(to, 0755);
    return r == -E_EXIST ? 0 : r;
}

static long copy_file(struct walk *w)
{
    char to[WALK_PATH_MAX];
    if (copy_target(w, to, sizeof(to)) < 0)
        return -E_INVAL;
    long in = sys_open(w->path, O_RDONLY_ | O_LARGEFILE_, 0);
    if (in < 0)
        return in;
    long out = sys_open(to, O_WRONLY_ | O_CREAT_ | O_TRUNC_ | O_LARGEFILE_, 0644);
    if (out < 0) {
        sys_close((int)in);
        return out;
    }
    long r = 0;
    for (;;) {
        long n = sys_read((int)in, iobuf, LOAD_CHUNK);
        if (n == -E_INTR)
            continue;
        if (n <= 0) {
            r = n;
            break;
        }
        r = write_all((int)out, iobuf, (size_t)n);
        if (r < 0)
            break;
    }
    sys_close((int)in);
    sys_close((int)out);
    return r;
}

__attribute__((noreturn)) static void loop_copy(const struct agent_config *c)
{
    char base[WALK_PATH_MAX];
    static struct copy_ctx x;
    static struct walk w;
    if (data_path(base, sizeof(base), c->load_dst) < 0)
        child_fail(W_MKDIR, -E_INVAL);
    long r = sys_mkdir(base, 0755);
    if (r < 0 && r != -E_EXIST)
        child_fail(W_MKDIR, r);
    for (;;) {
        const char *slot = (cur.units & 1) ? "1" : "0";
        if (agent_path_join(x.dst, sizeof(x.dst), base, slot) < 0)
            child_fail(W_MKDIR, -E_INVAL);
        r = remove_tree(x.dst);
        if (r < 0)
            child_fail(W_REMOVE, r);
        if (data_path(w.path, sizeof(w.path), c->load_src) < 0)
            child_fail(W_WALK, -E_INVAL);
        w.on_file = copy_file;
        w.on_dir = copy_dir;
        w.on_dir_done = NULL;
        w.arg = &x;
        r = walk_tree(&w);
        if (r < 0)
            child_fail(W_WALK, r);
        cur.units++;
        publish();
    }
}

__attribute__((noreturn)) static void child_main(const struct agent_config *c)
{
    char path[WALK_PATH_MAX];
    report_init(-1); /* the channel belongs to the parent */
    report_mirror(0);
    switch (c->load) {
    case AGENT_LOAD_COPY:
        loop_copy(c);
    case AGENT_LOAD_IO_LOAD:
        if (data_path(path, sizeof(path), "load_file") < 0)
            child_fail(W_OPEN, -E_INVAL);
        loop_write(c, path);
    case AGENT_LOAD_IO_OTHER:
        loop_write(c, "/mnt2/load_file");
    case AGENT_LOAD_READ_LOAD:
        if (data_path(path, sizeof(path), c->load_file) < 0)
            child_fail(W_OPEN, -E_INVAL);
        loop_read(path);
    default:
        child_fail(W_NONE, -E_INVAL);
    }
}

long bg_start(const struct agent_config *c, unsigned char *buf)
{
    last_load = AGENT_LOAD_NONE;
    last.units = last.bytes = 0;
    if (c->load == AGENT_LOAD_NONE)
        return 0;
    if (!sh) {
        sh = sys_alloc_shared(4096);
        if (!sh) {
            report_error("lab.load: no shared page (mmap MAP_SHARED|MAP_ANONYMOUS)", c->test, -1);
            return -E_NOMEM;
        }
    }
    sh->gen = 0;
    sh->err = 0;
    sh->what = 0;
    sh->snap[0].units = sh->snap[0].bytes = 0;
    sh->snap[1] = sh->snap[0];
    cur.units = cur.bytes = 0;
    iobuf = buf;
    long pid = sys_fork();
    if (pid == 0)
        child_main(c);
    if (pid < 0) {
        char m[80];
        size_t at = agent_cat(m, sizeof(m), 0, "lab.load: fork: errno ");
        agent_cat_i64(m, sizeof(m), at, -pid);
        report_error(m, c->test, -1);
        return pid;
    }
    child = pid;
    last_load = c->load;
    return 0;
}

void bg_peek(struct load_figures *f)
{
    if (!sh || child < 0) {
        *f = last; /* after bg_stop: the child's final figures */
        return;
    }
    *f = sh->snap[sh->gen & 1];
}

int bg_stop(void)
{
    if (child < 0)
        return 0;
    sys_kill(child, SIGKILL_);
    int st = 0;
    long r;
    do
        r = sys_wait4(child, &st, 0);
    while (r == -E_INTR);
    child = -1;
    last = sh->snap[sh->gen & 1];
    if (last_load == AGENT_LOAD_IO_LOAD) {
        char path[WALK_PATH_MAX];
        if (data_path(path, sizeof(path), "load_file") >= 0)
            sys_unlink(path); /* the killed pass's file */
    } else if (last_load == AGENT_LOAD_IO_OTHER) {
        sys_unlink("/mnt2/load_file");
    }
    if (sh->err) {
        char m[120];
        size_t at = agent_cat(m, sizeof(m), 0, "lab.load ");
        at = agent_cat(m, sizeof(m), at, agent_load_name(last_load));
        at = agent_cat(m, sizeof(m), at, " failed: ");
        at = agent_cat(m, sizeof(m), at, what_names[sh->what < 8 ? sh->what : 0]);
        at = agent_cat(m, sizeof(m), at, ": errno ");
        agent_cat_i64(m, sizeof(m), at, -(int64_t)sh->err);
        report_error(m, NULL, -1);
        return -1;
    }
    return 0;
}

void bg_keys(struct agent_line *l)
{
    if (last_load == AGENT_LOAD_NONE)
        return;
    agent_line_str(l, "load", agent_load_name(last_load));
    agent_line_u64(l, "load_units", last.units);
    agent_line_u64(l, "load_bytes", last.bytes);
}
