/* Pure parser of the agent's parameters from the kernel command line
 * ("lab.key=value" words, as read from /proc/cmdline). */
#ifndef LAB_AGENT_CMDLINE_H
#define LAB_AGENT_CMDLINE_H

#include <stddef.h>
#include <stdint.h>

enum agent_chan { AGENT_CHAN_VIRTIO = 0, AGENT_CHAN_TTYS1 = 1 };

#define AGENT_CFG_NAME_MAX 32
#define AGENT_CFG_PATH_MAX 256
#define AGENT_CFG_ERR_MAX  160

#define AGENT_COUNT_MAX           65536u /* lab.count: the latencies randread keeps */
#define AGENT_QD_MAX              64u    /* lab.qd */
#define AGENT_RANDREAD_BS_DEFAULT 4096u

/* Bits of agent_config.given: keys whose default depends on lab.test. */
#define AGENT_GIVEN_BS     0x1u
#define AGENT_GIVEN_DIRECT 0x2u

struct agent_config {
    char test[AGENT_CFG_NAME_MAX]; /* lab.test    (seqread) */
    uint64_t reps;                 /* lab.reps    (1) */
    uint64_t bs;                   /* lab.bs      (1048576) */
    uint64_t ra;                   /* lab.ra      (0 = leave the device's readahead) */
    char dev[AGENT_CFG_NAME_MAX];  /* lab.dev     (sda) */
    char fs[AGENT_CFG_NAME_MAX];   /* lab.fs      (ext2) */
    char file[AGENT_CFG_PATH_MAX]; /* lab.file    (big_file), under /mnt */
    uint64_t size;                 /* lab.size    (0 = whole file) */
    uint64_t verify;               /* lab.verify  (0) */
    uint64_t seed;                 /* lab.seed    (LAB_CONTENT_SEED_DEFAULT) */
    enum agent_chan chan;          /* lab.chan    (virtio) */
    uint64_t timeout;              /* lab.timeout (30 seconds) */
    uint64_t devtmpfs;             /* lab.devtmpfs (1; 0 = mknod nodes as before 2.6.32, to test) */
    uint64_t direct;               /* lab.direct  (0; randread 1): O_DIRECT */
    uint64_t count;                /* lab.count   (2000): randread requests per rep, 1..65536 */
    uint64_t qd;                   /* lab.qd      (1): randread queue depth, 1..64 */
    uint64_t span;                 /* lab.span    (0 = to the end of the device) */
    uint64_t offset;               /* lab.offset  (0): randread's region starts here */
    unsigned given;                /* AGENT_GIVEN_* keys set on the command line */
    unsigned errors;               /* values rejected while parsing */
    char err[AGENT_CFG_ERR_MAX];   /* the first rejection, as text */
};

void agent_config_defaults(struct agent_config *c);

/* Parses a decimal (or 0x-hex) unsigned number spanning all of s[0..n).
 * Returns 0 and sets *out, or -1 (empty, non-digit, overflow). */
int agent_parse_u64(const char *s, size_t n, uint64_t *out);

/* Applies every lab.* word of buf[0..n) over c (set the defaults first).
 * Words are separated by spaces, tabs or newlines; there is no quoting. A
 * later duplicate wins; unknown lab.* keys and other words are ignored. A
 * rejected value leaves the previous one, counts in c->errors and the first
 * is described in c->err. Then the defaults that depend on the test are
 * settled: lab.test=randread without lab.bs reads 4096-byte blocks, and
 * without lab.direct uses O_DIRECT. Returns c->errors. */
unsigned agent_config_parse(struct agent_config *c, const char *buf, size_t n);

#endif
