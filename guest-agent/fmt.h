/* Pure formatting for the agent protocol: numbers, percent-encoding, records.
 * No syscalls; compiled for the guest and, for the unit tests, for the host. */
#ifndef LAB_AGENT_FMT_H
#define LAB_AGENT_FMT_H

#include <stddef.h>
#include <stdint.h>

#include "protocol.h"

/* Longest decimal u64 (20 digits) plus the terminating NUL. */
#define AGENT_U64_BUF 21

/* n / 10 and n % 10 without a libgcc call (i386 has no 64-bit divide). */
uint64_t agent_divmod10(uint64_t n, unsigned *rem);

/* Writes n in decimal plus a NUL into out (at least AGENT_U64_BUF bytes);
 * returns the number of digits. */
size_t agent_fmt_u64(char *out, uint64_t n);

/* 1 if byte c may appear unencoded in a protocol value. */
int agent_pct_plain(unsigned char c);

/* Percent-encodes in[0..n) into out (cap bytes, NUL-terminated). Returns the
 * encoded length, or -1 if it does not fit (out then holds nothing useful). */
long agent_pct_encode(char *out, size_t cap, const char *in, size_t n);

/* One protocol record being built. Any error (line too long, bad key, too
 * many keys) sticks: agent_line_end then refuses the record. */
struct agent_line {
    char buf[LAB_PROTO_MAX_LINE];
    size_t len;
    unsigned keys;
    int err;
};

void agent_line_start(struct agent_line *l, uint64_t seq, const char *type);
void agent_line_u64(struct agent_line *l, const char *key, uint64_t v);
void agent_line_str(struct agent_line *l, const char *key, const char *s);
void agent_line_strn(struct agent_line *l, const char *key, const char *s, size_t n);
/* Appends '\n'; returns the full length (<= LAB_PROTO_MAX_LINE) or -1. */
long agent_line_end(struct agent_line *l);

/* Packs a kernel profile's non-zero slots as "slot:ticks,slot:ticks" for
 * one kprof record's value; the buffer keeps the record under the line limit. */
struct agent_kprof_pack {
    char buf[3600];
    size_t len;
};
/* Appends one slot; 0, or -1 (nothing appended) when it would not fit. */
int agent_kprof_add(struct agent_kprof_pack *p, uint64_t slot, uint32_t ticks);

/* Builds "text" + decimal into a small message buffer; helpers for log text. */
size_t agent_cat(char *out, size_t cap, size_t at, const char *s);
size_t agent_cat_u64(char *out, size_t cap, size_t at, uint64_t v);
size_t agent_cat_i64(char *out, size_t cap, size_t at, int64_t v);

#endif
