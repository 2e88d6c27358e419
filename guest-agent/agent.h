/* Shared declarations of the guest agent's syscall-using parts. */
#ifndef LAB_AGENT_AGENT_H
#define LAB_AGENT_AGENT_H

#include <stddef.h>
#include <stdint.h>

#include "cmdline.h"
#include "figures.h"
#include "fmt.h"
#include "parse.h"

#define LAB_AGENT_VERSION "0.1"

/* Largest read block size the agent accepts (its static buffer). */
#define LAB_AGENT_MAX_BS (4u << 20)

/* util.c */
void con_puts(const char *s); /* to the console (fd 2) */
/* "lab-agent: phase: WHAT" on the console, as PID 1 only: the host names
 * what the agent was doing when the kernel oopsed (the last such line). */
void agent_phase(const char *what);
long read_file(const char *path, char *buf, size_t cap); /* NUL-terminates; -errno */
void note(const char *msg); /* console now, log record once the channel is up */
size_t notes_count(void);
const char *notes_get(size_t i);
int is_pid1(void);
__attribute__((noreturn)) void finish(void); /* sync, power off (or exit if not PID 1) */

/* report.c: the protocol writer. */
void report_init(int fd);
void report_mirror(int on); /* copy records to the console (fd 2); on by default */
struct agent_line *report_start(const char *type);
int report_send(void);   /* one write() per record; 0 or -errno */
void report_hello(void); /* hello v= agent= uname= arch= [up_cs=] */
/* The kernel's clock when /init began (/proc/uptime, centiseconds; 0: not read). */
extern unsigned long agent_start_uptime_cs;
void report_drain(void); /* waits until a tty channel has sent everything */
void report_log(const char *msg);
void report_error(const char *msg, const char *test, int64_t rep);
/* An error outside any test: "WHAT: DETAIL[: errno N]" (err: -errno, 0 none). */
void report_failure(const char *what, const char *detail, long err);

/* kprof.c: the kernel's /proc/profile around each run (lab.kprofile=1). */
void kprof_enable(int on);
void kprof_reset(void);  /* as a run begins */
void kprof_report(void); /* after its end record: kprof records */

/* setup.c: PID 1 duties. */
void setup_proc(void);
void setup_mounts(const struct agent_config *c);
void setup_report(const struct agent_config *c); /* a log record of what this boot decided */
void calib_report(void);                         /* calib.c: the calibration loop's log record */
void setup_modules(const char *list_path);
int setup_channel(const struct agent_config *c, char *why, size_t whycap);
/* Waits for /dev/<lab.dev>; mounts it read-only on /mnt if `mount` (tests that
 * read a file; devread and randread read the raw device and do not). */
int setup_block_device(const struct agent_config *c, int mount, char *why, size_t whycap);
/* Waits for /dev/<lab.dev2> and mounts it read-write on /mnt2 (io_other). */
int setup_second_disk(const struct agent_config *c, char *why, size_t whycap);
/* io_other: waits for both disks and swaps lab.dev and lab.dev2 (with a log
 * record) when lab.dev is the one labelled LAB_SCRATCH_LABEL. 1 swapped,
 * 0 in order, -1 a disk did not appear (why says which). */
int setup_disk_order(struct agent_config *c, char *why, size_t whycap);
/* The data filesystem's directory: /mnt in a guest, the self-test's DIR. */
void data_root_set(const char *dir);
/* out = <data root>/rel; the length or -1 if too long. */
long data_path(char *out, size_t cap, const char *rel);
int data_mounted(void); /* the agent mounted the data disk on /mnt */
/* Unmounts /mnt, BLKFLSBUF on the device, mounts it again with the same
 * flags: drops every cached page, dentry and inode of the data fs. */
long remount_data(void);

/* ide.c: lab.ide_xfer and lab.ide_dma applied to lab.dev (drivers/ide), then
 * the transfer mode read back into a `log msg=ide transfer mode` record. */
void ide_apply(const struct agent_config *c);

/* tune.c: cache dropping, readahead, scheduler and queue tunables. */
enum drop_scope {
    DROP_FILE,   /* one file the test names */
    DROP_TREE,   /* a whole tree under the data root */
    DROP_DEVICE, /* the raw device (devread/randread buffered) */
};
/* Syncs, then drops the page cache the best way the kernel has:
 * /proc/sys/vm/drop_caches (2.6.16+, only as PID 1); else for a file,
 * fadvise DONTNEED on it plus BLKFLSBUF on lab.dev; for a tree (or where
 * fadvise is missing, 2.4), unmount and remount the data fs; for the
 * device, BLKFLSBUF and fadvise on it. Sends `log msg=... drop=METHOD` the
 * first time. Returns the method name ("proc" "fadvise" "remount" "blkflsbuf"
 * "none"). */
const char *drop_caches(const struct agent_config *c, enum drop_scope scope, const char *path);
/* Applies lab.ra (also 0 during a sweep) to /dev/<lab.dev> and reads it back
 * (BLKRAGET). Returns 0, or -errno with *what naming the failed step. */
long dev_readahead(const struct agent_config *c, unsigned long *ra, const char **what);
/* lab.sched, lab.sysfs, lab.elvtune: applied once before the tests, each
 * read back into a log record (an error record where it fails). */
void tune_apply(const struct agent_config *c);

/* walk.c: a recursive directory walk (the tree tests, the copy load, the
 * cache drop, remove_tree). */
#define WALK_PATH_MAX 1024
struct walk {
    char path[WALK_PATH_MAX]; /* the entry being visited */
    size_t rootlen;           /* path[rootlen..] is relative to the root */
    long (*on_file)(struct walk *w);
    long (*on_dir)(struct walk *w);      /* before its entries (the root too) */
    long (*on_dir_done)(struct walk *w); /* after them */
    void *arg;
    uint64_t files, dirs;
    const char *what; /* the failed step */
};
/* Walks the tree at w->path (getdents64, else getdents; d_type, else an
 * O_DIRECTORY open, tells directories from files; other types are skipped).
 * Returns 0 or the first -errno (w->what says where). */
long walk_tree(struct walk *w);
/* Removes a tree (files and directories, the root too); ENOENT is success. */
long remove_tree(const char *path);

/* load.c: background loads (lab.load) in a forked child. */
struct load_figures {
    uint64_t units; /* whole units done: trees copied, files written, passes read */
    uint64_t bytes; /* bytes copied, written or read, partial units included */
};
/* Forks the lab.load child (no-op for none), which works in buf (at least
 * 1 MiB; the child has its own copy); 0 or -errno (an error record is
 * sent). */
long bg_start(const struct agent_config *c, unsigned char *buf);
/* SIGKILL and wait4 the child; keeps its figures for bg_keys. 0, or -1 if
 * the child had failed (an error record is sent). */
int bg_stop(void);
/* The running child's figures so far (the self-test polls them); after
 * bg_stop, its final ones. */
void bg_peek(struct load_figures *f);
/* load=NAME load_units=N load_bytes=B after bg_stop, if a load ran. */
void bg_keys(struct agent_line *l);

/* engine.c: the measuring engine every test runs through. */

/* The agent's 4 MiB IO buffer, 4096-aligned for O_DIRECT, and the
 * per-request latencies of randread and overwrite. */
extern unsigned char agent_iobuf[LAB_AGENT_MAX_BS];
extern uint64_t agent_lat[AGENT_COUNT_MAX];

/* Sends an error record "what: errno N" (just "what" for err 0) for test/rep. */
void test_fail(const char *test, const char *what, long err, uint64_t rep);
/* Sends a log record "test: what: errno N" (a failure the run survives). */
void test_log_errno(const char *test, const char *what, long err);
/* /proc/stat's cpu line; 0 or -1 (then no cpu_* keys are sent). */
int cpu_read(struct agent_cpustat *s);
/* Adds cpu_user cpu_nice cpu_system cpu_idle cpu_iowait [cpu_irq cpu_softirq]
 * [cpu_steal] cpu_fields: the deltas b - a in USER_HZ ticks. */
void cpu_keys(struct agent_line *l, const struct agent_cpustat *a, const struct agent_cpustat *b);
/* Sectors the kernel has read from block device `name` so far (sysfs, else
 * /proc/diskstats); -1 where neither exists (2.4). */
int64_t dev_sectors(const char *name);

/* The figures of the tests that have their own (the union in agent_run). */
struct devread_figs {
    uint64_t devsize; /* the device's (or file's) size */
};
struct randread_figs {
    uint64_t qd;     /* the queue depth used: 1 where there is no native AIO */
    uint64_t offset; /* the region read: [offset, offset + span) */
    uint64_t span;
    uint64_t count; /* requests done */
};
struct tree_figs {
    uint64_t rounds; /* contest's checksum passes (treeread: 0) */
    uint64_t files, dirs, checksum;
};
struct overwrite_figs {
    uint64_t bytes_read, bytes_written, ops, reads, writes;
};

/* One measured run: what run_init sets, the engine's counters, the test's
 * figures. */
struct agent_run {
    const struct agent_config *c;
    const char *test; /* its name in the records */
    uint64_t rep;
    const char *path; /* what the test works on: a file, a device, a tree */
    const char *dev;  /* the block device for dev_read_bytes; NULL: none */
    int cpu;          /* send /proc/stat's cpu_* keys (run_init: 1) */
    int verifies;     /* the end carries verify_errors when lab.verify=1 */
    /* The engine's counters (run_begin, run_stop). */
    uint64_t t0, t1, user_ns, sys_ns;
    uint64_t user0_ns, sys0_ns;
    struct agent_cpustat cpu0, cpu1;
    int have_cpu;
    int64_t sec0, sec1;
    int load_ok; /* the lab.load child did not fail (or there was none) */
    /* The test's work. */
    long fd; /* the file or device the test opened (-1: none); the driver's */
    uint64_t bytes, verify_errors;
    unsigned long ra; /* readahead in sectors after lab.ra, when have_ra */
    int have_ra;
    struct agent_latsum lat;
    const char *what;             /* the failed step; NULL: none, or already reported */
    long err;                     /* its -errno, or 0 */
    char why[WALK_PATH_MAX + 40]; /* a failure message the test composes */
    union {
        struct devread_figs dev;
        struct randread_figs rr;
        struct tree_figs tree;
        struct overwrite_figs ow;
    } f;
};
/* A run of test `test` (its name in records) on path, rep `rep`. */
void run_init(struct agent_run *r, const struct agent_config *c, const char *test, uint64_t rep,
              const char *path, const char *dev);
/* Records a failure for the driver to report: returns -1. */
int run_fail(struct agent_run *r, const char *what, long err);
/* Before the IO: the device's sectors read and /proc/stat, the lab.load
 * child, rusage, the clock, then the kernel profile's reset and the
 * `begin` record. -1 if the load did not start (its error was sent). */
int run_begin(struct agent_run *r);
/* After the IO, in the reverse order: the clock, rusage, the load's stop,
 * /proc/stat and the device's sectors. */
void run_stop(struct agent_run *r);
/* Reads fd to its end (or lab.size bytes) in lab.bs blocks into
 * agent_iobuf, checking the content if lab.verify: r->bytes and
 * r->verify_errors. 0 or the read's -errno. */
long run_read_seq(struct agent_run *r, int fd);
/* The `end` record: starts it with test rep guest_ns bytes real_ns user_ns
 * sys_ns; the test adds its keys; run_end_send adds [verify_errors]
 * [dev_read_bytes] [load keys] [cpu_* keys], sends it and then the kernel
 * profile's records. */
struct agent_line *run_end_start(const struct agent_run *r);
void run_end_send(const struct agent_run *r, struct agent_line *l);

/* blk.c: the raw block device (or the self-test's file) devread and
 * randread read. Opens r->path read-only (O_DIRECT if direct) into r->fd,
 * applies lab.ra (r->ra, r->have_ra), reads the size and logical sector size
 * (512 where unknown); when buffered, syncs and drops the device's cached
 * pages (BLKFLSBUF, then fadvise DONTNEED on the fd; failures other than
 * ENOTTY on a file or ENOSYS on 2.4 are sent as log records). 0, or -1 via
 * run_fail. */
int blk_open(struct agent_run *r, int direct, uint64_t *size, unsigned *ssz);
/* The target of devread and randread: /dev/<lab.dev>, dev_read_bytes of it. */
int blk_target(struct agent_run *r, char *buf, size_t cap);

/* driver.c: the tests, one table (AGENT_TEST), and the loop over sweeps and reps. */
struct agent_test {
    const char *name;
    int mount;    /* reads files of the data disk: mount it on /mnt */
    int verifies; /* its end carries verify_errors with lab.verify=1 */
    /* What the test works on (r->path from lab.file, lab.tree or lab.dev,
     * into buf) and the device for dev_read_bytes (r->dev); 0, or -1 via
     * run_fail. Once, before the first run. */
    int (*target)(struct agent_run *r, char *buf, size_t cap);
    /* Before the clock: open, check, drop caches. 0, or -1 via run_fail (or
     * with the error already sent). */
    int (*prepare)(struct agent_run *r);
    /* The measured work, between run_begin and run_stop: 0 or -1 via run_fail. */
    int (*io)(struct agent_run *r);
    /* After the counters, also after a failed prepare: close, free. */
    void (*cleanup)(struct agent_run *r);
    /* Its own keys of the `end` record, after the common ones. */
    void (*end_keys)(const struct agent_run *r, struct agent_line *l);
};
/* A test registers itself: AGENT_TEST(test_NAME) after its row, in its own
 * file, puts a pointer to the row in the agent_tests section; driver.c
 * walks that section (__start_agent_tests .. __stop_agent_tests, which the
 * linker makes for a section named like a C identifier, and keeps under
 * --gc-sections because they are referenced). So adding a test touches no
 * list: not this header, not driver.c, not agent.mk. */
#define AGENT_TEST(row)                                                                            \
    __attribute__((used, section("agent_tests"),                                                   \
                   aligned(sizeof(void *)))) static const struct agent_test *const row##_entry =   \
        &row
/* The rows the self-test runs by themselves (selftest.c). */
extern const struct agent_test test_devread, test_randread, test_treeread, test_contest,
    test_overwrite;
/* The test named `name`, or NULL. */
const struct agent_test *agent_test_find(const char *name);
/* One run of t: prepare, run_begin, io, run_stop, cleanup, then the `end`
 * record (or the failure's error record). 0 if it sent `end`. */
int agent_run_once(const struct agent_test *t, struct agent_run *r);
/* Every run of the experiment: lab.reps runs, or lab.reps per lab.ra_list
 * value (BLKRASET before each group; reps numbered on across groups).
 * Returns the runs that ended with `end`. */
uint64_t agent_run_test(const struct agent_test *t, const struct agent_config *c);

/* seqread.c's steps that every whole-file read of the data disk shares
 * (seqread, reread): lab.file as the target, one lab.bs read of the open
 * file to its end, and the end record's ra_sectors and bs. */
int seqread_target(struct agent_run *r, char *buf, size_t cap);
int seqread_io(struct agent_run *r);
void seqread_end_keys(const struct agent_run *r, struct agent_line *l);

/* selftest.c: the host self-test (`lab-agent --selftest DIR`, never as PID 1). */
__attribute__((noreturn)) void selftest_main(int argc, char **argv);
__attribute__((noreturn)) void selftest_probe(void);

#endif
