/* Host side of the agent protocol (guest-agent/protocol.h, version 1): a
 * strict parser of agent records, a bounded line splitter for the channel's
 * byte stream and a checker of the record sequence.
 *
 * Everything that comes from the guest is untrusted: no input crashes these
 * functions, every buffer is bounded, and every refusal comes with a one-line
 * reason that quotes at most a short, sanitised piece of the input. */
#ifndef LAB_PROTO_H
#define LAB_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "guest-agent/protocol.h"

enum lab_rec_type {
    LAB_REC_HELLO,
    LAB_REC_LOG,
    LAB_REC_BEGIN,
    LAB_REC_END,
    LAB_REC_ERROR,
    LAB_REC_BYE,
    LAB_REC_KPROF /* the kernel's /proc/profile after a run: step, slots=slot:ticks,... */
};

/* One key=value field. value is percent-decoded and NUL-terminated. */
struct lab_kv {
    const char *key;
    const char *value;
};

struct lab_record {
    enum lab_rec_type type;
    uint64_t seq;
    size_t nkv;
    struct lab_kv kv[LAB_PROTO_MAX_KEYS];
    char buf[LAB_PROTO_MAX_LINE + 1]; /* storage the kv pointers point into */
};

/* Parses one line, given without or with its trailing '\n'. A line is at most
 * LAB_PROTO_MAX_LINE bytes including the '\n' (protocol.h). Returns 0 on
 * success; -1 with a one-line reason in err (e.g. "bad magic", "key 'x'
 * repeated", "bad percent escape at byte 17" (bytes count from 0), "unknown
 * record type 'foo'", "missing key 'bytes' in end", "value of 'bytes' is not
 * a number"). err may be NULL. rec is unspecified after a failure. */
int lab_record_parse(const char *line, size_t len, struct lab_record *rec, char *err,
                     size_t errlen);

/* The decoded value of key, NULL if absent. */
const char *lab_record_get(const struct lab_record *rec, const char *key);

/* The value of key as an unsigned decimal number (no sign, digits only).
 * -1 when absent, not a number, or beyond UINT64_MAX. */
int lab_record_get_u64(const struct lab_record *rec, const char *key, uint64_t *out);

/* "hello", "log", ...; "?" for a value outside the enum. */
const char *lab_rec_type_name(enum lab_rec_type t);

/* Line splitter for a byte stream: feed bytes, take complete lines. A line
 * longer than LAB_PROTO_MAX_LINE bytes including its '\n' is an error,
 * reported once by lab_linebuf_next; the reader then resyncs at the next
 * '\n'. */
struct lab_linebuf {
    char data[2 * LAB_PROTO_MAX_LINE];
    size_t len;   /* bytes in data */
    size_t taken; /* bytes of the line last returned by next(), dropped lazily */
    int overflow; /* discarding the rest of an overlong line */
};

void lab_linebuf_init(struct lab_linebuf *lb);

/* Returns the number of bytes consumed; it may be < n when the buffer is full:
 * the caller then takes lines with lab_linebuf_next and feeds the rest.
 * Feeding invalidates the line last returned by next(). */
int lab_linebuf_feed(struct lab_linebuf *lb, const char *bytes, size_t n);

/* Returns 1 and sets *line and *len to the next complete line (without '\n';
 * valid until the next call of feed or next), 0 if there is none yet, -1 if a
 * line overflowed (it is skipped: call again). */
int lab_linebuf_next(struct lab_linebuf *lb, const char **line, size_t *len);

/* Checks a record sequence: seq starts at 0 with hello and increments by 1;
 * one hello, nothing after bye. Zero-initialise (or lab_seqcheck_init).
 * Returns 0 if the record is in order, -1 with a reason in err otherwise.
 * After a gap the checker resyncs on the record's seq, so a lost line is
 * reported once, not on every later record. */
struct lab_seqcheck {
    uint64_t next;
    int saw_hello, saw_bye;
};

void lab_seqcheck_init(struct lab_seqcheck *sc);
int lab_seqcheck_accept(struct lab_seqcheck *sc, const struct lab_record *rec, char *err,
                        size_t errlen);

#endif
