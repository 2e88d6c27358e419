/* Shared declarations of the guest agent's syscall-using parts. */
#ifndef LAB_AGENT_AGENT_H
#define LAB_AGENT_AGENT_H

#include <stddef.h>
#include <stdint.h>

#include "cmdline.h"
#include "fmt.h"

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
int report_send(void); /* one write() per record; 0 or -errno */
void report_log(const char *msg);
void report_error(const char *msg, const char *test, int64_t rep);

/* setup.c: PID 1 duties. */
void setup_proc(void);
void setup_mounts(const struct agent_config *c);
void setup_modules(const char *list_path);
int setup_channel(const struct agent_config *c, char *why, size_t whycap);
int setup_block_device(const struct agent_config *c, char *why, size_t whycap);

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
};
/* Opens path read-only, syncs, drops its cached pages (fadvise DONTNEED; its
 * result, -ENOSYS on 2.4, goes to *fadv). Returns the fd or -errno. */
long seqread_open(const char *path, long *fadv);
/* Reads fd to its end (or c->size bytes) in c->bs blocks, checking the content
 * if c->verify, between two clock and rusage readings; sends the `begin`
 * record just before the first read. */
void seqread_measure(int fd, const struct agent_config *c, const char *test, uint64_t rep,
                     struct seqread_result *res);
/* Starts the `end` record with the keys every run has; the caller adds its
 * own and sends it. */
struct agent_line *seqread_end(const char *test, uint64_t rep, const struct seqread_result *res);

/* selftest.c: the host self-test (`lab-agent --selftest DIR`, never as PID 1). */
__attribute__((noreturn)) void selftest_main(int argc, char **argv);
__attribute__((noreturn)) void selftest_probe(void);

#endif
