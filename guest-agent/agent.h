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
void con_puts(const char *s);                            /* to the console (fd 2) */
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
void report_drain(void); /* waits until a tty channel has sent everything */
void report_log(const char *msg);
void report_error(const char *msg, const char *test, int64_t rep);

/* kprof.c: the kernel's /proc/profile around each run (lab.kprofile=1). */
void kprof_enable(int on);
void kprof_reset(void);  /* as a run begins */
void kprof_report(void); /* after its end record: kprof records */

/* setup.c: PID 1 duties. */
void setup_proc(void);
void setup_mounts(const struct agent_config *c);
void setup_report(const struct agent_config *c); /* a log record of what this boot decided */
void setup_modules(const char *list_path);
int setup_channel(const struct agent_config *c, char *why, size_t whycap);
/* Waits for /dev/<lab.dev>; mounts it read-only on /mnt if `mount` (tests that
 * read a file; devread and randread read the raw device and do not). */
int setup_block_device(const struct agent_config *c, int mount, char *why, size_t whycap);
/* Waits for /dev/<lab.dev2> and mounts it read-write on /mnt2 (io_other). */
int setup_second_disk(const struct agent_config *c, char *why, size_t whycap);
/* The data filesystem's directory: /mnt in a guest, the self-test's DIR. */
void data_root_set(const char *dir);
/* out = <data root>/rel; the length or -1 if too long. */
long data_path(char *out, size_t cap, const char *rel);
int data_mounted(void); /* the agent mounted the data disk on /mnt */
/* Unmounts /mnt, BLKFLSBUF on the device, mounts it again with the same
 * flags: drops every cached page, dentry and inode of the data fs. */
long remount_data(void);

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
/* Adds keys to l only while the record stays within LAB_PROTO_MAX_KEYS. */
int line_room(const struct agent_line *l, unsigned keys);

/* load.c: background loads (lab.load) in a forked child. */
struct load_figures {
    uint64_t units; /* whole units done: trees copied, files written, passes read */
    uint64_t bytes; /* bytes copied, written or read, partial units included */
};
/* Forks the lab.load child (no-op for none); 0 or -errno (an error record
 * is sent). */
long bg_start(const struct agent_config *c);
/* SIGKILL and wait4 the child; keeps its figures for bg_keys. 0, or -1 if
 * the child had failed (an error record is sent). */
int bg_stop(void);
/* The running child's figures so far (the self-test polls them); after
 * bg_stop, its final ones. */
void bg_peek(struct load_figures *f);
/* load=NAME load_units=N load_bytes=B after bg_stop, if a load ran. */
void bg_keys(struct agent_line *l);
/* Removes a tree (files and directories, the root too); ENOENT is success. */
long remove_tree(const char *path);

/* tree.c: a recursive directory walk, treeread and contest. */
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
struct tree_out {
    uint64_t t0, t1, bytes, user_ns, sys_ns, files, dirs, checksum;
};
/* One treeread (rounds 0) or contest run over the tree at path. Sends begin
 * and end (or error). Returns 0 if it sent `end`. */
int tree_one(const struct agent_config *c, const char *path, const char *test, uint64_t rep,
             uint64_t rounds, struct tree_out *o);
uint64_t treeread_run(const struct agent_config *c);
uint64_t contest_run(const struct agent_config *c);

/* overwrite.c */
struct overwrite_out {
    uint64_t t0, t1, bytes_read, bytes_written, ops, reads, writes, verify_errors;
    struct agent_latsum lat;
};
int overwrite_one(const struct agent_config *c, const char *path, const char *test, uint64_t rep,
                  struct overwrite_out *o);
uint64_t overwrite_run(const struct agent_config *c);
/* randread.c: per-request latencies, shared with overwrite. */
extern uint64_t agent_lat[AGENT_COUNT_MAX];

/* seqread.c */
uint64_t seqread_run(const struct agent_config *c);

/* Sectors the kernel has read from block device `name` so far (sysfs, else
 * /proc/diskstats); -1 where neither exists (2.4). */
int64_t seqread_sectors(const char *name);

/* The parts of a run, shared with the self-test. */
struct seqread_result {
    uint64_t t0, t1;          /* sys_now_ns() around the reads */
    uint64_t bytes;           /* read */
    uint64_t verify_errors;   /* when c->verify */
    uint64_t user_ns, sys_ns; /* getrusage deltas */
    long err;                 /* 0, or the read's -errno */
    int load_failed;          /* the lab.load child failed (an error was sent) */
};
/* Opens path read-only, syncs, drops its cached pages (fadvise DONTNEED; its
 * result, -ENOSYS on 2.4, goes to *fadv). Returns the fd or -errno. */
long seqread_open(const char *path, long *fadv);
/* Reads fd to its end (or c->size bytes) in c->bs blocks, checking the content
 * if c->verify, between two clock and rusage readings, with lab.load running
 * in the background (bg_start/bg_stop); sends the `begin` record just before
 * the first read. */
void seqread_measure(int fd, const struct agent_config *c, const char *test, uint64_t rep,
                     struct seqread_result *res);
/* Starts the `end` record with the keys every run has; the caller adds its
 * own and sends it. */
struct agent_line *seqread_end(const char *test, uint64_t rep, const struct seqread_result *res);

/* The agent's 4 MiB read buffer (seqread.c), 4096-aligned for O_DIRECT. */
extern unsigned char agent_iobuf[LAB_AGENT_MAX_BS];

/* devread.c: shared by devread and randread. */
struct blk_dev {
    long fd;          /* the open device (or the self-test's file) */
    uint64_t size;    /* bytes (BLKGETSIZE64, BLKGETSIZE, or the file's end) */
    unsigned ssz;     /* logical sector size (BLKSSZGET; 512 where unknown) */
    unsigned long ra; /* readahead in sectors after lab.ra (BLKRAGET) */
    int have_ra;      /* BLKRAGET worked (not on a regular file) */
};
/* Opens path read-only (O_DIRECT if direct), applies lab.ra, reads the size
 * and sector size; when buffered, syncs and drops the device's cached pages
 * (BLKFLSBUF, then fadvise DONTNEED on the fd; failures other than ENOTTY on a
 * file or ENOSYS on 2.4 are sent as log records). Sends an error record and
 * returns -1 on failure. */
int blk_open(const struct agent_config *c, const char *path, int direct, const char *test,
             uint64_t rep, struct blk_dev *d);
/* /proc/stat's cpu line; 0 or -1 (then no cpu_* keys are sent). */
int cpu_read(struct agent_cpustat *s);
/* Adds cpu_user cpu_nice cpu_system cpu_idle cpu_iowait [cpu_irq cpu_softirq]
 * [cpu_steal] cpu_fields: the deltas b - a in USER_HZ ticks. */
void cpu_keys(struct agent_line *l, const struct agent_cpustat *a, const struct agent_cpustat *b);
/* Sends an error record "what: errno N" for test/rep. */
void test_fail(const char *test, const char *what, long err, uint64_t rep);

struct devread_out {
    struct seqread_result res;
    uint64_t devsize;
};
/* One devread run of path in c->bs blocks (c->size bytes, 0 = all of it),
 * with O_DIRECT if c->direct; sends begin and end (or error). `name` is the
 * device for dev_read_bytes (NULL: none). Returns 0 if it sent `end`. */
int devread_one(const struct agent_config *c, const char *path, const char *name, const char *test,
                uint64_t rep, struct devread_out *o);
uint64_t devread_run(const struct agent_config *c);

/* randread.c */
struct randread_out {
    uint64_t t0, t1, bytes, user_ns, sys_ns;
    uint64_t qd;     /* the queue depth used: 1 where there is no native AIO */
    uint64_t offset; /* the region read: [offset, offset + span) */
    uint64_t span;
    uint64_t verify_errors;
    struct agent_latsum lat;
};
/* One randread run of path: c->count reads of c->bs bytes at random
 * bs-aligned offsets in [c->offset, c->offset + c->span), c->qd in flight
 * (native AIO; pread64 at qd 1 or without AIO), O_DIRECT if c->direct. Sends
 * begin and end (or error). Returns 0 if it sent `end`. */
int randread_one(const struct agent_config *c, const char *path, const char *name, const char *test,
                 uint64_t rep, struct randread_out *o);
uint64_t randread_run(const struct agent_config *c);

/* selftest.c: the host self-test (`lab-agent --selftest DIR`, never as PID 1). */
__attribute__((noreturn)) void selftest_main(int argc, char **argv);
__attribute__((noreturn)) void selftest_probe(void);

#endif
