/* The host self-test: `lab-agent --selftest DIR` runs the agent's own syscall
 * paths against the running kernel instead of setting up a guest. It writes
 * a file of lab content in DIR, times and verifies a sequential read of it
 * through the seqread code (open, sync, fadvise DONTNEED, blocks, verify,
 * rusage, clock), through the devread code (O_DIRECT, then buffered with
 * BLKFLSBUF and fadvise) and the randread code (pread64 at queue depth 1,
 * native AIO at 8: ENOSYS and queue depth 1 on 2.4), lists DIR with
 * getdents, overwrites random blocks of the data file (O_DIRECT pread64 and
 * pwrite64) under a forked read_load, reads a small tree it makes (treeread
 * under the copy load, contest) and runs each load in a child (fork, a
 * MAP_SHARED page, kill, wait4), parses /proc/partitions,
 * /proc/devices and the block statistics, and reports which era fallbacks it
 * took. Records go to fd 1; the exit status is 0 only if every check passed.
 * Run under tests/seccomp/era-seccomp, the same binary proves it needs no
 * system call newer than Linux 2.4.0.
 *
 * `lab-agent --selftest-probe` is the filter's negative control: it makes one
 * post-2.4 call (openat) with no fallback and exits with its errno (0 if it
 * worked, 38 = ENOSYS under the filter). */
#include "agent.h"
#include "parse.h"
#include "str.h"
#include "sys.h"

#define DATA_NAME  "lab-selftest.dat"
#define DATA_SIZE  ((3u << 20) + 4093u) /* not a multiple of 8 or of the block size */
#define READ_BS    100000u              /* neither: words straddle blocks */
#define EXTRA      40u                  /* empty files, so a listing takes several calls */
#define DENTS_BUF  1024u
#define AT_FDCWD_  (-100)
#define SEEK_END_  2
#define ALLOC_SIZE (1u << 20)
#define SELFTEST_RUNS                                                                              \
    9u /* seqread, devread and randread twice each; overwrite, treeread, contest */
#define TREE_NAME  "lab-selftest-tree"
#define COPY_NAME  "lab-selftest-copy"
#define TREE_DIRS  4u /* top-level subdirectories, each with one nested one */
#define TREE_FILES 6u /* files per directory (subdirectories and the root) */

static unsigned failures, checks;
static char big[65536]; /* /proc text */
static unsigned char wbuf[65536];
static char dents[DENTS_BUF] __attribute__((aligned(8)));

static void check(int ok, const char *what, long err)
{
    char m[240];
    checks++;
    size_t at = agent_cat(m, sizeof(m), 0, "check ");
    at = agent_cat(m, sizeof(m), at, what);
    if (ok) {
        agent_cat(m, sizeof(m), at, " ok");
        report_log(m);
        return;
    }
    failures++;
    at = agent_cat(m, sizeof(m), at, " FAILED");
    if (err) {
        at = agent_cat(m, sizeof(m), at, ": errno ");
        agent_cat_i64(m, sizeof(m), at, -err);
    }
    report_error(m, "selftest", -1);
}

static void path_in(char *out, size_t cap, const char *dir, const char *name)
{
    size_t at = agent_cat(out, cap, 0, dir);
    at = agent_cat(out, cap, at, "/");
    agent_cat(out, cap, at, name);
}

static void extra_name(char *out, size_t cap, unsigned i)
{
    size_t at = agent_cat(out, cap, 0, "lab-selftest-");
    if (i < 10)
        at = agent_cat(out, cap, at, "0");
    agent_cat_u64(out, cap, at, i);
}

static void test_clock(void)
{
    uint64_t t0 = sys_now_ns();
    sys_sleep_ms(20);
    uint64_t t1 = sys_now_ns();
    /* At least the sleep, at most a generous 10 s. */
    check(t1 >= t0 + 15000000ULL && t1 - t0 < 10000000000ULL, "clock around a 20 ms nanosleep", 0);
}

/* The test table is the agent_tests section (AGENT_TEST, agent.h): every
 * row the self-test runs is found by its name, and no unknown name is. */
static void test_table(void)
{
    const struct agent_test *const rows[] = {&test_devread, &test_randread, &test_treeread,
                                             &test_contest, &test_overwrite};
    int ok = agent_test_find("seqread") != NULL && agent_test_find("no-such-test") == NULL;
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        ok = ok && agent_test_find(rows[i]->name) == rows[i];
    check(ok, "the test table (AGENT_TEST rows)", 0);
}

static void test_alloc(void)
{
    unsigned char *p = sys_alloc(ALLOC_SIZE);
    int ok = p != NULL;
    if (ok) {
        for (size_t i = 0; i < ALLOC_SIZE; i += 4096)
            p[i] = (unsigned char)(i >> 12);
        for (size_t i = 0; i < ALLOC_SIZE; i += 4096)
            if (p[i] != (unsigned char)(i >> 12))
                ok = 0;
        sys_free(p, ALLOC_SIZE);
    }
    check(ok, "anonymous mmap and munmap", ok ? 0 : -E_NOMEM);
}

/* Writes DATA_SIZE bytes of lab content (seed) to path. */
static long write_data(const char *path, uint64_t seed)
{
    long fd = sys_open(path, O_WRONLY_ | O_CREAT_ | O_TRUNC_ | O_LARGEFILE_, 0644);
    if (fd < 0)
        return fd;
    uint32_t off = 0;
    while (off < DATA_SIZE) {
        /* Chunks start on a word boundary: fill whole words, write what is due. */
        for (uint32_t k = 0; k < sizeof(wbuf); k += 8) {
            uint64_t w = lab_content_word(seed, (uint64_t)((off + k) >> 3));
            for (unsigned b = 0; b < 8; b++)
                wbuf[k + b] = (unsigned char)(w >> (8 * b));
        }
        uint32_t n = DATA_SIZE - off < sizeof(wbuf) ? DATA_SIZE - off : (uint32_t)sizeof(wbuf);
        for (uint32_t done = 0; done < n;) {
            long r = sys_write((int)fd, wbuf + done, n - done);
            if (r == -E_INTR)
                continue;
            if (r <= 0) {
                sys_close((int)fd);
                return r < 0 ? r : -E_IO;
            }
            done += (uint32_t)r;
        }
        off += n;
    }
    return sys_close((int)fd);
}

/* Opens path read-only, syncs and drops its cached pages (fadvise DONTNEED;
 * its result, -ENOSYS on 2.4, goes to *fadv). Returns the fd or -errno. */
static long open_uncached(const char *path, long *fadv)
{
    long fd = sys_open(path, O_RDONLY_ | O_LARGEFILE_, 0);
    if (fd < 0)
        return fd;
    sys_sync();
    *fadv = sys_fadvise_dontneed((int)fd);
    return fd;
}

/* One sequential read of the data file through the engine, verified against
 * seed: an open, sync and fadvise, then the engine's reads. */
static void run_seqread(const char *path, uint64_t seed, uint64_t rep, int expect_clean)
{
    struct agent_config c;
    agent_config_defaults(&c);
    c.bs = READ_BS;
    c.verify = 1;
    c.seed = seed;
    long fadv = 0;
    long fd = open_uncached(path, &fadv);
    check(fd >= 0, "open data file", fd);
    if (fd < 0)
        return;
    if (rep == 0)
        check(fadv == 0 || fadv == -E_NOSYS, "fadvise DONTNEED (or ENOSYS, as on 2.4)", fadv);
    long end = sys_lseek((int)fd, 0, SEEK_END_);
    check(end == (long)DATA_SIZE, "lseek to the end gives the size", end < 0 ? end : 0);
    sys_lseek((int)fd, 0, 0);
    static struct agent_run r;
    run_init(&r, &c, "selftest", rep, path, NULL);
    r.cpu = 0;
    r.verifies = 1;
    long err = 0;
    if (run_begin(&r) == 0) {
        err = run_read_seq(&r, (int)fd);
        run_stop(&r);
    }
    sys_close((int)fd);
    check(err == 0, "read in blocks", err);
    check(r.bytes == DATA_SIZE, "read the whole file", 0);
    check(r.t1 >= r.t0, "clock did not go back over the run", 0);
    if (expect_clean)
        check(r.verify_errors == 0, "content matches lab_content_word", 0);
    else
        check(r.verify_errors > 0, "content check catches a wrong seed", 0);
    struct agent_line *l = run_end_start(&r);
    agent_line_u64(l, "bs", c.bs);
    run_end_send(&r, l);
}

/* O_DIRECT where the filesystem takes it (tmpfs before 6.6 does not: EINVAL);
 * the self-test then reads buffered and says so. A guest never falls back. */
static int direct_ok(const char *path)
{
    long fd = sys_open(path, O_RDONLY_ | O_LARGEFILE_ | O_DIRECT_, 0);
    if (fd >= 0) {
        sys_close((int)fd);
        return 1;
    }
    char m[160];
    size_t at = agent_cat(m, sizeof(m), 0, "O_DIRECT refused here (errno ");
    at = agent_cat_i64(m, sizeof(m), at, -fd);
    agent_cat(m, sizeof(m), at, "); devread and randread self-tests read buffered");
    report_log(m);
    return 0;
}

/* The devread path on the data file: blocks to the end, O_DIRECT (rep 0) and
 * buffered with BLKFLSBUF (ENOTTY on a file) and fadvise DONTNEED (rep 1). */
static void run_devread(const char *path, int direct, uint64_t rep)
{
    struct agent_config c;
    agent_config_defaults(&c);
    c.bs = 65536;
    c.verify = 1;
    c.direct = (uint64_t)direct;
    static struct agent_run o;
    run_init(&o, &c, "selftest-devread", rep, path, NULL);
    int r = agent_run_once(&test_devread, &o);
    check(r == 0, direct ? "devread O_DIRECT run" : "devread buffered run", 0);
    if (r != 0)
        return;
    check(o.f.dev.devsize == DATA_SIZE, "devread: size of the file", 0);
    check(o.bytes == DATA_SIZE, "devread: read it all", 0);
    check(o.verify_errors == 0, "devread: content matches", 0);
}

/* The randread path on the data file: random bs-aligned reads inside the
 * region, each block's content checked at its offset (so pread64's and the
 * iocb's offsets are right), latencies ordered. At qd > 1 native AIO, or
 * qd 1 where io_setup is ENOSYS (the 2.4 filter). */
static void run_randread(const char *path, int direct, uint64_t rep, uint64_t qd, uint64_t offset,
                         uint64_t span)
{
    struct agent_config c;
    agent_config_defaults(&c);
    c.bs = 4096;
    c.count = 500;
    c.qd = qd;
    c.offset = offset;
    c.span = span;
    c.verify = 1;
    c.direct = (uint64_t)direct;
    static struct agent_run o;
    run_init(&o, &c, "selftest-randread", rep, path, NULL);
    int r = agent_run_once(&test_randread, &o);
    check(r == 0, qd > 1 ? "randread run at queue depth > 1" : "randread run at queue depth 1", 0);
    if (r != 0)
        return;
    check(o.bytes == c.count * c.bs, "randread: every request read a whole block", 0);
    check(o.verify_errors == 0, "randread: content matches at every offset", 0);
    check(o.lat.n == c.count && o.lat.min <= o.lat.p50 && o.lat.p50 <= o.lat.p99 &&
              o.lat.p99 <= o.lat.max && o.lat.max > 0 && o.lat.mean >= o.lat.min &&
              o.lat.mean <= o.lat.max,
          "randread: latencies ordered min <= p50 <= p99 <= max", 0);
    check(o.f.rr.qd == qd || (o.f.rr.qd == 1 && (sys_fallbacks() & SYS_FB_NO_AIO)),
          "randread: queue depth as asked (1 only without native AIO)", 0);
}

/* The overwrite path on the data file: random 4 KiB reads and writes (the
 * writes put back the lab content of their block, so every read still
 * verifies), with the read_load child reading the same file. */
static void run_overwrite(const char *path, int direct)
{
    struct agent_config c;
    agent_config_defaults(&c);
    c.bs = 4096;
    c.count = 300;
    c.write_pct = 50;
    c.verify = 1;
    c.direct = (uint64_t)direct;
    c.load = AGENT_LOAD_READ_LOAD;
    agent_cat(c.load_file, sizeof(c.load_file), 0, DATA_NAME);
    static struct agent_run run;
    run_init(&run, &c, "selftest-overwrite", 0, path, NULL);
    int r = agent_run_once(&test_overwrite, &run);
    check(r == 0, "overwrite run under read_load", 0);
    if (r != 0)
        return;
    const struct overwrite_figs *o = &run.f.ow;
    check(o->ops == 300 && o->reads + o->writes == 300 && o->reads > 0 && o->writes > 0,
          "overwrite: every operation done, reads and writes mixed", 0);
    check(o->bytes_read == o->reads * 4096 && o->bytes_written == o->writes * 4096,
          "overwrite: whole blocks read and written", 0);
    check(run.verify_errors == 0, "overwrite: content still matches after the writes", 0);
    check(run.lat.min <= run.lat.p50 && run.lat.p50 <= run.lat.p99 && run.lat.p99 <= run.lat.max,
          "overwrite: latencies ordered", 0);
}

/* Writes n bytes of a pattern to path. */
static long write_small(const char *path, uint32_t n)
{
    long fd = sys_open(path, O_WRONLY_ | O_CREAT_ | O_TRUNC_, 0644);
    if (fd < 0)
        return fd;
    for (uint32_t i = 0; i < n && i < sizeof(wbuf); i++)
        wbuf[i] = (unsigned char)(i * 7u + n);
    long r = sys_write((int)fd, wbuf, n);
    sys_close((int)fd);
    return r == (long)n ? 0 : (r < 0 ? r : -E_IO);
}

/* DIR/TREE_NAME: TREE_FILES files in the root and in each of TREE_DIRS
 * directories and their one nested directory. Returns the bytes written, or 0. */
static uint64_t make_tree(const char *dir, uint64_t *files, uint64_t *dirs)
{
    char p[512], d1[512], name[32];
    uint64_t bytes = 0;
    *files = *dirs = 0;
    path_in(d1, sizeof(d1), dir, TREE_NAME);
    if (sys_mkdir(d1, 0755) < 0)
        return 0;
    for (unsigned i = 0; i <= 2 * TREE_DIRS; i++) {
        /* i == 0: the root; odd: a top-level dNN; even: its nested sub. */
        path_in(d1, sizeof(d1), dir, TREE_NAME);
        if (i > 0) {
            size_t at = agent_cat(name, sizeof(name), 0, "d");
            agent_cat_u64(name, sizeof(name), at, (i + 1) / 2);
            at = agent_cat(d1, sizeof(d1), agent_strlen(d1), "/");
            agent_cat(d1, sizeof(d1), at, name);
            if (i % 2 == 0)
                agent_cat(d1, sizeof(d1), agent_strlen(d1), "/sub");
            if (sys_mkdir(d1, 0755) < 0)
                return 0;
        }
        (*dirs)++;
        for (unsigned k = 0; k < TREE_FILES; k++) {
            size_t at = agent_cat(name, sizeof(name), 0, "f");
            agent_cat_u64(name, sizeof(name), at, k);
            path_in(p, sizeof(p), d1, name);
            uint32_t n = 1000u * k + 37u * i + 1u; /* 1 .. ~5300 bytes */
            if (write_small(p, n) < 0)
                return 0;
            bytes += n;
            (*files)++;
        }
    }
    return bytes;
}

static long count_file(struct walk *w)
{
    return 0;
}

/* Runs the load child alone until it has done `units` units (5 s at most);
 * returns the units it finished. */
static uint64_t run_load(const char *dir, int load, uint64_t units, const char *what)
{
    struct agent_config c;
    agent_config_defaults(&c);
    c.load = load;
    c.load_size = 1u << 20;
    agent_cat(c.load_src, sizeof(c.load_src), 0, TREE_NAME);
    agent_cat(c.load_dst, sizeof(c.load_dst), 0, COPY_NAME);
    agent_cat(c.load_file, sizeof(c.load_file), 0, DATA_NAME);
    long r = bg_start(&c, agent_iobuf);
    check(r == 0, what, r);
    if (r != 0)
        return 0;
    struct load_figures f = {0, 0};
    for (unsigned i = 0; i < 500 && f.units < units; i++) {
        sys_sleep_ms(10);
        bg_peek(&f);
    }
    int stopped = bg_stop() == 0;
    bg_peek(&f);
    check(stopped && f.units >= units && f.bytes > 0, "load child ran whole units", 0);
    char m[120];
    size_t at = agent_cat(m, sizeof(m), 0, "load ");
    at = agent_cat(m, sizeof(m), at, agent_load_name(load));
    at = agent_cat(m, sizeof(m), at, ": ");
    at = agent_cat_u64(m, sizeof(m), at, f.units);
    at = agent_cat(m, sizeof(m), at, " units, ");
    at = agent_cat_u64(m, sizeof(m), at, f.bytes);
    agent_cat(m, sizeof(m), at, " bytes");
    report_log(m);
    return f.units;
}

/* treeread (under the copy load) and contest on a small tree, the loads on
 * their own, then the copies removed. */
static void test_tree(const char *dir)
{
    uint64_t files, dirs, bytes = make_tree(dir, &files, &dirs);
    check(bytes > 0, "make the tree", 0);
    if (bytes == 0)
        return;
    char tree[512], copy[512];
    path_in(tree, sizeof(tree), dir, TREE_NAME);
    path_in(copy, sizeof(copy), dir, COPY_NAME);

    struct agent_config c;
    agent_config_defaults(&c);
    c.bs = 4096;
    c.load = AGENT_LOAD_COPY;
    agent_cat(c.load_src, sizeof(c.load_src), 0, TREE_NAME);
    agent_cat(c.load_dst, sizeof(c.load_dst), 0, COPY_NAME);
    static struct agent_run o;
    run_init(&o, &c, "selftest-treeread", 0, tree, NULL);
    int r = agent_run_once(&test_treeread, &o);
    check(r == 0, "treeread run under the copy load", 0);
    if (r == 0)
        check(o.f.tree.files == files && o.f.tree.dirs == dirs && o.bytes == bytes,
              "treeread: every file and directory read", 0);

    c.load = AGENT_LOAD_NONE;
    c.bs = 1000; /* blocks that do not divide the files */
    c.cpu_rounds = 3;
    run_init(&o, &c, "selftest-contest", 0, tree, NULL);
    r = agent_run_once(&test_contest, &o);
    check(r == 0, "contest run", 0);
    uint64_t sum = o.f.tree.checksum;
    if (r == 0)
        check(o.f.tree.files == files && o.bytes == bytes && sum != AGENT_SUM_INIT,
              "contest: every file read and summed", 0);

    uint64_t units = run_load(dir, AGENT_LOAD_COPY, 3, "copy load started (fork)");
    /* The copy alternates between COPY/0 and COPY/1: the last one finished
     * is a whole tree (the other may be cut short). */
    static struct walk w;
    path_in(w.path, sizeof(w.path), copy, ((units - 1) & 1) ? "1" : "0");
    w.on_file = count_file;
    w.on_dir = w.on_dir_done = NULL;
    long wr = walk_tree(&w);
    check(wr == 0 && w.files == files && w.dirs == dirs, "copy load: a whole copy of the tree", wr);
    run_load(dir, AGENT_LOAD_READ_LOAD, 2, "read_load started (fork)");
    run_load(dir, AGENT_LOAD_IO_LOAD, 2, "io_load started (fork)");
    path_in(w.path, sizeof(w.path), dir, "load_file");
    check(sys_open(w.path, O_RDONLY_, 0) == -E_NOENT, "io_load: its file removed at the stop", 0);

    long a = remove_tree(copy), b = remove_tree(tree);
    check(a == 0 && b == 0, "remove the trees", a ? a : b);
    check(sys_open(tree, O_RDONLY_, 0) == -E_NOENT && sys_open(copy, O_RDONLY_, 0) == -E_NOENT,
          "trees gone", 0);
}

/* Lists dir with sys_getdents in a small buffer: ".", "..", the data file and
 * the EXTRA files must each be seen once, and the entries must be sane. */
static void test_listing(const char *dir)
{
    char seen[EXTRA + 3]; /* extras, data, ".", ".." */
    for (unsigned i = 0; i < sizeof(seen); i++)
        seen[i] = 0;
    long fd = sys_open(dir, O_RDONLY_ | O_DIRECTORY_ | O_LARGEFILE_, 0);
    check(fd >= 0, "open the directory", fd);
    if (fd < 0)
        return;
    int sane = 1, dup = 0;
    unsigned calls = 0, entries = 0;
    long n;
    while ((n = sys_getdents((int)fd, dents, sizeof(dents))) > 0) {
        calls++;
        for (long i = 0; i < n;) {
            struct k_dirent64 *d = (struct k_dirent64 *)(dents + i);
            size_t hdr = offsetof(struct k_dirent64, d_name);
            if (d->d_reclen < hdr + 2 || (long)d->d_reclen > n - i ||
                hdr + agent_strlen(d->d_name) >= d->d_reclen) {
                sane = 0;
                break;
            }
            i += d->d_reclen;
            entries++;
            int slot = -1;
            char name[32];
            if (agent_streq(d->d_name, "."))
                slot = EXTRA + 1;
            else if (agent_streq(d->d_name, ".."))
                slot = EXTRA + 2;
            else if (agent_streq(d->d_name, DATA_NAME))
                slot = EXTRA;
            else
                for (unsigned k = 0; k < EXTRA && slot < 0; k++) {
                    extra_name(name, sizeof(name), k);
                    if (agent_streq(d->d_name, name))
                        slot = (int)k;
                }
            if (slot >= 0 && seen[slot]++)
                dup = 1;
        }
        if (!sane)
            break;
    }
    sys_close((int)fd);
    check(n == 0, "getdents to the end of the directory", n);
    check(sane, "directory entries well formed", 0);
    check(!dup, "no entry listed twice", 0);
    int all = 1;
    for (unsigned i = 0; i < sizeof(seen); i++)
        if (!seen[i])
            all = 0;
    check(all, "every file listed", 0);
    check(calls > 1, "listing took several getdents calls", 0);
    char m[120];
    size_t at = agent_cat(m, sizeof(m), 0, "listed ");
    at = agent_cat_u64(m, sizeof(m), at, entries);
    at = agent_cat(m, sizeof(m), at, " entries in ");
    at = agent_cat_u64(m, sizeof(m), at, calls);
    agent_cat(m, sizeof(m), at, " getdents calls");
    report_log(m);
}

struct first_part {
    char name[32];
    unsigned maj, min, count;
};

static void part_cb(const char *name, unsigned maj, unsigned min, void *arg)
{
    struct first_part *f = arg;
    if (f->count++ == 0 && agent_strlcpy(f->name, name, agent_strlen(name), sizeof(f->name)) == 0) {
        f->maj = maj;
        f->min = min;
    }
}

static void test_proc(void)
{
    struct agent_config c;
    agent_config_defaults(&c);
    long n = read_file("/proc/cmdline", big, sizeof(big));
    check(n >= 0, "read /proc/cmdline", n);
    if (n >= 0)
        agent_config_parse(&c, big, (size_t)n);

    n = read_file("/proc/devices", big, sizeof(big));
    check(n > 0, "read /proc/devices", n);
    if (n > 0)
        check(agent_devices_char_major(big, (size_t)n, "mem") == 1,
              "/proc/devices: character major of mem is 1", 0);

    struct first_part f = {{0}, 0, 0, 0};
    n = read_file("/proc/partitions", big, sizeof(big));
    check(n > 0, "read /proc/partitions", n);
    if (n <= 0)
        return;
    agent_partitions_each(big, (size_t)n, part_cb, &f);
    char m[120];
    size_t at = agent_cat(m, sizeof(m), 0, "/proc/partitions: ");
    at = agent_cat_u64(m, sizeof(m), at, f.count);
    agent_cat(m, sizeof(m), at, " block devices");
    report_log(m);
    if (f.count == 0 || !f.name[0])
        return; /* a container may show none */
    unsigned maj = 0, min = 0;
    check(agent_partitions_find(big, (size_t)n, f.name, &maj, &min) == 0 && maj == f.maj &&
              min == f.min,
          "/proc/partitions: find the first device again", 0);
    /* Block statistics: /sys/block/NAME/stat or /proc/diskstats (2.6+). */
    int64_t s = dev_sectors(f.name);
    long dsf = read_file("/proc/diskstats", big, sizeof(big));
    if (s >= 0 || dsf >= 0)
        check(s >= 0, "sectors read of the first device (sysfs or /proc/diskstats)", 0);
}

static void report_fallbacks(void)
{
    static const struct {
        unsigned bit;
        const char *what;
    } fb[] = {
        {SYS_FB_CLOCK, "fallback clock_gettime->gettimeofday"},
        {SYS_FB_GETDENTS, "fallback getdents64->getdents"},
        {SYS_FB_FADVISE64_64, "fallback fadvise64_64->fadvise64"},
        {SYS_FB_NO_FADVISE, "fallback fadvise->none (no DONTNEED)"},
        {SYS_FB_NO_AIO, "fallback io_setup->pread64 (queue depth 1)"},
        {SYS_FB_NO_SIZE64, "fallback BLKGETSIZE64->BLKGETSIZE"},
    };
    unsigned got = sys_fallbacks();
    if (!got)
        report_log("fallback none");
    for (unsigned i = 0; i < sizeof(fb) / sizeof(fb[0]); i++)
        if (got & fb[i].bit)
            report_log(fb[i].what);
}

void selftest_main(int argc, char **argv)
{
    report_init(1);
    report_mirror(0);
    report_hello();
    if (argc < 3 || !argv[2][0]) {
        report_error("usage: lab-agent --selftest DIR", "selftest", -1);
        sys_exit(2);
    }
    const char *dir = argv[2];
    char path[512], name[32];
    if (agent_strlen(dir) + 40 > sizeof(path)) {
        report_error("directory name too long", "selftest", -1);
        sys_exit(2);
    }

    data_root_set(dir); /* the loads' and tests' paths are relative to DIR */
    test_clock();
    test_table();
    test_alloc();

    path_in(path, sizeof(path), dir, DATA_NAME);
    long r = write_data(path, LAB_CONTENT_SEED_DEFAULT);
    check(r == 0, "write the data file", r);
    if (r == 0) {
        run_seqread(path, LAB_CONTENT_SEED_DEFAULT, 0, 1);
        run_seqread(path, LAB_CONTENT_SEED_DEFAULT + 1, 1, 0);
        int direct = direct_ok(path);
        run_devread(path, direct, 0);
        run_devread(path, 0, 1);
        /* An unaligned start: the first block is the next multiple of bs. */
        run_randread(path, direct, 0, 1, 3 * 4096 + 100, 1u << 20);
        run_randread(path, direct, 1, 8, 0, 0);
        run_overwrite(path, direct);
        test_tree(dir);
    }

    int made = 1;
    for (unsigned i = 0; i < EXTRA; i++) {
        extra_name(name, sizeof(name), i);
        path_in(path, sizeof(path), dir, name);
        long fd = sys_open(path, O_WRONLY_ | O_CREAT_ | O_TRUNC_, 0644);
        if (fd < 0)
            made = 0;
        else
            sys_close((int)fd);
    }
    check(made, "create the listing's files", 0);
    test_listing(dir);

    int gone = 1;
    for (unsigned i = 0; i < EXTRA; i++) {
        extra_name(name, sizeof(name), i);
        path_in(path, sizeof(path), dir, name);
        if (sys_unlink(path) < 0)
            gone = 0;
    }
    path_in(path, sizeof(path), dir, DATA_NAME);
    if (sys_unlink(path) < 0)
        gone = 0;
    check(gone, "unlink the files", 0);

    test_proc();
    report_fallbacks();

    char m[80];
    size_t at = agent_cat_u64(m, sizeof(m), 0, checks - failures);
    at = agent_cat(m, sizeof(m), at, " of ");
    at = agent_cat_u64(m, sizeof(m), at, checks);
    agent_cat(m, sizeof(m), at, " checks passed");
    report_log(m);
    struct agent_line *l = report_start("bye");
    agent_line_u64(l, "runs", SELFTEST_RUNS);
    report_send();
    sys_exit(failures ? 1 : 0);
}

void selftest_probe(void)
{
    report_init(1);
    report_mirror(0);
    long r = sc4(NR_openat, AT_FDCWD_, (long)"/", O_RDONLY_ | O_DIRECTORY_, 0);
    char m[80];
    size_t at = agent_cat(m, sizeof(m), 0, "probe openat ");
    agent_cat_i64(m, sizeof(m), at, r);
    report_log(m);
    if (r >= 0) {
        sys_close((int)r);
        sys_exit(0);
    }
    sys_exit((int)(-r & 0xff));
}
