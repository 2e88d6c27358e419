/* The agent's parameters as data: one table of every lab.KEY the agent
 * takes, with its type, range, default and field of struct agent_config
 * (fio's options table). The agent's parser (cmdline.c) reads it, and the
 * host generates the parameters it sends from it (host/plan/experiment.c), so
 * both sides agree on every key. Pure: built for the guest and the host. */
#ifndef LAB_AGENT_KEYS_H
#define LAB_AGENT_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "cmdline.h"

/* Every key, in the order agent_params_format writes them (the host's
 * experiment keys first, then the cell's, then those only a hand-made boot
 * or a test sets). */
enum agent_key_id {
    AGENT_K_TEST,
    AGENT_K_REPS,
    AGENT_K_BS,
    AGENT_K_RA,
    AGENT_K_SIZE,
    AGENT_K_VERIFY,
    AGENT_K_DIRECT,
    AGENT_K_QD,
    AGENT_K_COUNT,
    AGENT_K_SPAN,
    AGENT_K_OFFSET,
    AGENT_K_FS,
    AGENT_K_FILE,
    AGENT_K_RA_LIST,
    AGENT_K_LOAD,
    AGENT_K_LOAD_SIZE,
    AGENT_K_SYSFS,
    AGENT_K_ELVTUNE,
    AGENT_K_WRITE_PCT,
    AGENT_K_CPU_ROUNDS,
    AGENT_K_KPROFILE,
    AGENT_K_WARMUP,
    AGENT_K_WARMUP_SIZE,
    AGENT_K_SCHED,
    AGENT_K_DEV,
    AGENT_K_DEV2,
    AGENT_K_CHAN,
    AGENT_K_RA_BLKFRA,
    AGENT_K_SEED,
    AGENT_K_TIMEOUT,
    AGENT_K_DEVTMPFS,
    AGENT_K_TREE,
    AGENT_K_LOAD_SRC,
    AGENT_K_LOAD_DST,
    AGENT_K_LOAD_FILE,
    AGENT_K_RW,
    AGENT_K_DROP,
    AGENT_K_IDE_DMA,
    AGENT_K_IDE_XFER,
    AGENT_KEY_COUNT
};
#define AGENT_KEY(id)  ((uint64_t)1 << (id))
#define AGENT_KEYS_ALL (AGENT_KEY(AGENT_KEY_COUNT) - 1)

enum agent_key_type {
    AGENT_KT_U64,     /* decimal or 0x-hex in lo..hi: a uint64_t */
    AGENT_KT_NAME,    /* [A-Za-z0-9_.-]+, not . or ..: a char[cap] */
    AGENT_KT_PATH,    /* relative, no .. component: a char[cap] under the data root */
    AGENT_KT_ENUM,    /* one of names[]: an int, the name's index */
    AGENT_KT_RA_LIST, /* ra_list and ra_count (opts.h) */
    AGENT_KT_SYSFS,   /* sysfs and sysfs_count (opts.h) */
    AGENT_KT_ELVTUNE, /* elv_read, elv_write and have_elvtune (opts.h) */
};

struct agent_key {
    const char *name; /* after "lab." */
    enum agent_key_type type;
    size_t off;               /* the field in struct agent_config */
    size_t cap;               /* NAME, PATH: the field's size */
    uint64_t lo, hi;          /* U64: the range */
    const char *const *names; /* ENUM: the values, NULL-terminated */
    unsigned given;           /* the AGENT_GIVEN_* bit a good value sets (0: none) */
    const char *def;          /* the default, through the same parser; NULL: none */
    const char *help;
};

extern const struct agent_key agent_keys[AGENT_KEY_COUNT];

/* The row of key k[0..n) (without "lab."), or NULL: an unknown key. */
const struct agent_key *agent_key_find(const char *k, size_t n);
/* Parses v[0..n) into k's field of c. NULL, or why it was refused ("not a
 * number:" "out of range:" "bad value:" "too long:"); c is then unchanged. */
const char *agent_key_set(const struct agent_key *k, struct agent_config *c, const char *v,
                          size_t n);
/* Writes k's value in c at out[at..], as agent_key_set reads it back.
 * Returns the new length, or -1 if it does not fit in cap (with its NUL). */
long agent_key_format(const struct agent_key *k, const struct agent_config *c, char *out,
                      size_t cap, size_t at);
/* 1 if a and b hold the same value of key k. */
int agent_key_equal(const struct agent_key *k, const struct agent_config *a,
                    const struct agent_config *b);
/* The words "lab.KEY=VALUE" of every key in `keys` (AGENT_KEY bits), in the
 * table's order, separated by one space. Returns the length, or -1 if it
 * does not fit in cap (with its NUL). */
long agent_params_format(const struct agent_config *c, uint64_t keys, char *out, size_t cap);

#endif
