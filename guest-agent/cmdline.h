/* Pure parser of the agent's parameters from the kernel command line
 * ("lab.key=value" words, as read from /proc/cmdline). */
#ifndef LAB_AGENT_CMDLINE_H
#define LAB_AGENT_CMDLINE_H

#include <stddef.h>
#include <stdint.h>

#include "opts.h"

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
#define AGENT_GIVEN_RW     0x4u
/* Not a key: set by the readahead sweep so lab.ra is applied even when 0. */
#define AGENT_GIVEN_RA_SET 0x8u

#define AGENT_LOAD_SIZE_DEFAULT  (256ULL << 20) /* lab.load_size */
#define AGENT_CPU_ROUNDS_DEFAULT 8u             /* lab.cpu_rounds */

/* lab.drop: auto picks the best the kernel has; the others force a method
 * (to compare them, or to try 2.4's path on a new kernel). */
enum agent_drop {
    AGENT_DROP_AUTO = 0,
    AGENT_DROP_FADVISE,
    AGENT_DROP_REMOUNT,
    AGENT_DROP_PROC, /* /proc/sys/vm/drop_caches, nothing else */
};

struct agent_config {
    char test[AGENT_CFG_NAME_MAX]; /* lab.test    (seqread) */
    uint64_t reps;                 /* lab.reps    (1) */
    uint64_t bs;                   /* lab.bs      (1048576) */
    uint64_t ra;                   /* lab.ra      (0 = leave the device's readahead) */
    char dev[AGENT_CFG_NAME_MAX];  /* lab.dev     (sda) */
    char fs[AGENT_CFG_NAME_MAX];   /* lab.fs      (ext2) */
    char file[AGENT_CFG_PATH_MAX]; /* lab.file    (big_file), under /mnt */
    uint64_t size;                 /* lab.size    (0 = whole file) */
    uint64_t warmup;               /* lab.warmup  (0): the first runs of each group are warm-ups */
    uint64_t warmup_size;          /* lab.warmup_size (0 = lab.size): bytes a warm-up reads */
    uint64_t skip;                 /* not a key: where a warm-up's read starts (driver.c) */
    uint64_t verify;               /* lab.verify  (0) */
    uint64_t seed;                 /* lab.seed    (LAB_CONTENT_SEED_DEFAULT) */
    int chan;                      /* lab.chan    (virtio): enum agent_chan */
    uint64_t timeout;              /* lab.timeout (30 seconds) */
    uint64_t devtmpfs;             /* lab.devtmpfs (1; 0 = mknod nodes as before 2.6.32, to test) */
    uint64_t direct;               /* lab.direct  (0; randread 1): O_DIRECT */
    uint64_t count;                /* lab.count   (2000): randread requests per rep, 1..65536 */
    uint64_t qd;                   /* lab.qd      (1): randread queue depth, 1..64 */
    uint64_t span;                 /* lab.span    (0 = to the end of the device) */
    uint64_t offset;               /* lab.offset  (0): randread's region starts here */
    uint64_t ra_list[AGENT_RA_LIST_MAX];    /* lab.ra_list (none): readahead sweep, sectors */
    uint64_t ra_count;                      /* values in ra_list (0: no sweep) */
    char tree[AGENT_CFG_PATH_MAX];          /* lab.tree     (tree0), under /mnt */
    int load;                               /* lab.load     (none): enum agent_load */
    char load_src[AGENT_CFG_PATH_MAX];      /* lab.load_src (tree1), under /mnt: copy's source */
    char load_dst[AGENT_CFG_PATH_MAX];      /* lab.load_dst (copy), under /mnt: copy's target */
    char load_file[AGENT_CFG_PATH_MAX];     /* lab.load_file (big_file), under /mnt: read_load */
    uint64_t load_size;                     /* lab.load_size (256 MiB): io_load/io_other file */
    char dev2[AGENT_CFG_NAME_MAX];          /* lab.dev2     (sdb): io_other's disk, on /mnt2 */
    uint64_t rw;                            /* lab.rw (1 with a load or overwrite, else 0) */
    uint64_t write_pct;                     /* lab.write_pct (50): overwrite's share of writes */
    uint64_t cpu_rounds;                    /* lab.cpu_rounds (8): contest's checksum passes */
    uint64_t kprofile;                      /* lab.kprofile (0): /proc/profile around each run */
    uint64_t ra_blkfra;                     /* lab.ra_blkfra (0; 2.4: 1): readahead by BLKFRASET */
    char sched[AGENT_CFG_NAME_MAX];         /* lab.sched    (none): I/O scheduler to switch to */
    struct agent_kv sysfs[AGENT_SYSFS_MAX]; /* lab.sysfs (none): queue/KEY:VALUE */
    uint64_t sysfs_count;
    int32_t elv_read, elv_write; /* lab.elvtune=R,W (2.4's elevator latencies) */
    int have_elvtune;
    int drop;         /* lab.drop (auto): enum agent_drop, how caches are dropped */
    int ide_dma;      /* lab.ide_dma (auto): enum agent_ide_dma (idemode.h), hdparm -d */
    int ide_xfer;     /* lab.ide_xfer (auto): index in agent_ide_xfer_names, hdparm -X */
    uint64_t rep0;    /* not a key: first rep number (the readahead sweep's groups) */
    unsigned given;   /* AGENT_GIVEN_* keys set on the command line */
    unsigned errors;  /* values and keys rejected while parsing */
    unsigned unknown; /* keys not in the key table (refused) */
    char unknown_key[AGENT_CFG_NAME_MAX]; /* the first of them, without "lab." */
    char err[AGENT_CFG_ERR_MAX];          /* the first rejection, as text */
};

/* The defaults: every key's default of the key table (keys.c), through the
 * same parser. */
void agent_config_defaults(struct agent_config *c);

/* Applies every lab.* word of buf[0..n) over c (set the defaults first),
 * each value parsed by its key's row of the key table (keys.c). Words are
 * separated by spaces, tabs or newlines; there is no quoting. A later
 * duplicate wins; words without "lab." (or without '=') are not ours and are
 * ignored. A rejected value leaves the previous one, counts in c->errors and
 * the first is described in c->err. A key the table does not have counts
 * there too, and in c->unknown (the first in c->unknown_key): the agent
 * refuses to run (main.c). Then the defaults that depend on the test are
 * settled: lab.test=randread or overwrite without lab.bs reads 4096-byte
 * blocks, and without lab.direct uses O_DIRECT; without lab.rw the data disk
 * is mounted read-write only for a load or overwrite. Returns c->errors. */
unsigned agent_config_parse(struct agent_config *c, const char *buf, size_t n);

/* The kernel command line's parameters for module `mod` ("libata": the
 * words "libata.dma=0"; '-' and '_' alike in the name), as init_module
 * takes them ("dma=0", space-separated) in out (cap bytes, NUL-terminated).
 * A kernel applies such words to built-in code itself; for a module loaded
 * later it is the loader's job (modprobe reads /proc/cmdline the same way).
 * Returns the length, or -1 when they do not fit (out then empty). */
long agent_module_params(const char *cmdline, size_t n, const char *mod, char *out, size_t cap);

#endif
