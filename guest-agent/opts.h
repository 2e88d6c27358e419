/* Pure parsers and helpers for the agent's list-valued keys (lab.ra_list,
 * lab.sysfs, lab.elvtune, lab.load) and paths, plus the contest stand-in's
 * checksum. No syscalls; compiled for the guest and, for the unit tests, for
 * the host. */
#ifndef LAB_AGENT_OPTS_H
#define LAB_AGENT_OPTS_H

#include <stddef.h>
#include <stdint.h>

#define AGENT_RA_LIST_MAX 8 /* lab.ra_list values */
#define AGENT_SYSFS_MAX   8 /* lab.sysfs KEY:VALUE pairs */
#define AGENT_SYSFS_KEY   48
#define AGENT_SYSFS_VAL   32

/* Parses a decimal (or 0x-hex) unsigned number spanning all of s[0..n).
 * Returns 0 and sets *out, or -1 (empty, non-digit, overflow). */
int agent_parse_u64(const char *s, size_t n, uint64_t *out);

/* lab.ra_list=256,128,64: 1..AGENT_RA_LIST_MAX readahead values in sectors
 * (0..0xffffffff each), comma-separated, no empty items. Returns the count
 * (and fills out[]), or -1. */
int agent_ra_list_parse(const char *s, size_t n, uint64_t *out, size_t max);

struct agent_kv {
    char key[AGENT_SYSFS_KEY]; /* relative to /sys/block/<dev>/queue/ */
    char val[AGENT_SYSFS_VAL];
};

/* A queue attribute name: NAME or iosched/NAME, NAME = [a-z0-9_]+ (so no
 * "..", no other '/', nothing outside queue/). Returns 1 if allowed. */
int agent_sysfs_key_ok(const char *k, size_t n);
/* A value: [A-Za-z0-9_.-]+ (no ':' ',' or '/'). */
int agent_sysfs_val_ok(const char *v, size_t n);
/* lab.sysfs=KEY:VALUE,KEY:VALUE: 1..max pairs. Returns the count or -1 (bad
 * key, bad value, empty item, too many, too long). */
int agent_sysfs_parse(const char *s, size_t n, struct agent_kv *out, size_t max);

/* lab.elvtune=R,W: 2.4's read_latency and write_latency, each 0..2^31-1.
 * Returns 0 or -1. */
int agent_elvtune_parse(const char *s, size_t n, int32_t *r, int32_t *w);

/* Background loads (lab.load). */
enum agent_load {
    AGENT_LOAD_NONE = 0,
    AGENT_LOAD_COPY,
    AGENT_LOAD_IO_LOAD,
    AGENT_LOAD_IO_OTHER,
    AGENT_LOAD_READ_LOAD,
};
/* The loads' names, by enum agent_load, NULL-terminated. */
extern const char *const agent_load_names[];
/* Returns the load for its name (none copy io_load io_other read_load), or -1. */
int agent_load_parse(const char *s, size_t n);
const char *agent_load_name(int load);

/* out = a "/" b (a without a trailing '/' and b without a leading one are
 * joined with one '/'; an empty b gives a). Returns the length, or -1 if it
 * does not fit in cap (with its NUL); out is then "". */
long agent_path_join(char *out, size_t cap, const char *a, const char *b);

/* The contest stand-in's CPU work: a 64-bit multiply-xor hash of p[0..n)
 * continuing from h (start at AGENT_SUM_INIT). Each call depends on the
 * previous result, so repeated passes cannot be folded away. */
#define AGENT_SUM_INIT 0xcbf29ce484222325ULL
uint64_t agent_checksum(uint64_t h, const void *p, size_t n);

#endif
