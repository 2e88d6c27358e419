/* Agent protocol v1, host side: strict record parser, line splitter, sequence
 * checker. See proto.h; the wire format is in guest-agent/protocol.h. */
#include "host/cell/proto.h"
#include "common/msg.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define KEY_MAX_LEN 31
#define QUOTE_MAX   32

/* The record types: name, required keys, and which of those are numbers. */
struct rec_def {
    const char *name;
    const char *required[8]; /* NULL-terminated */
    const char *numeric[8];  /* NULL-terminated; each also in required */
};

static const struct rec_def rec_defs[] = {
    [LAB_REC_HELLO] = {"hello", {"v", NULL}, {"v", NULL}},
    [LAB_REC_LOG] = {"log", {NULL}, {NULL}},
    [LAB_REC_BEGIN] = {"begin", {"test", "rep", "guest_ns", NULL}, {"rep", "guest_ns", NULL}},
    [LAB_REC_END] = {"end",
                     {"test", "rep", "guest_ns", "bytes", "real_ns", "user_ns", "sys_ns", NULL},
                     {"rep", "guest_ns", "bytes", "real_ns", "user_ns", "sys_ns", NULL}},
    [LAB_REC_ERROR] = {"error", {"msg", NULL}, {NULL}},
    [LAB_REC_BYE] = {"bye", {"runs", NULL}, {"runs", NULL}},
    [LAB_REC_KPROF] = {"kprof", {"step", "slots", NULL}, {"step", NULL}},
};
#define N_REC_DEFS (sizeof rec_defs / sizeof rec_defs[0])

const char *lab_rec_type_name(enum lab_rec_type t)
{
    if ((unsigned)t >= N_REC_DEFS)
        return "?";
    return rec_defs[t].name;
}

/* A short printable copy of untrusted bytes, for messages. */
static const char *quote(const char *s, size_t n, char *out, size_t outlen)
{
    size_t i, o = 0;
    for (i = 0; i < n && o + 4 < outlen && i < QUOTE_MAX; i++) {
        unsigned char c = (unsigned char)s[i];
        out[o++] = (c >= 0x20 && c < 0x7f && c != '\'') ? (char)c : '?';
    }
    if (i < n && o + 4 < outlen) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
    return out;
}

/* Unsigned decimal: digits only, no sign, no overflow. */
static int parse_u64(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    if (n == 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        unsigned d = (unsigned char)s[i] - '0';
        if (d > 9)
            return -1;
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static int is_value_char(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '/' || c == ':' || c == ',' || c == '+' || c == '-';
}

static int is_key_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

static int hexval(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

const char *lab_record_get(const struct lab_record *rec, const char *key)
{
    for (size_t i = 0; i < rec->nkv; i++)
        if (strcmp(rec->kv[i].key, key) == 0)
            return rec->kv[i].value;
    return NULL;
}

int lab_record_get_u64(const struct lab_record *rec, const char *key, uint64_t *out)
{
    const char *v = lab_record_get(rec, key);
    if (!v)
        return -1;
    return parse_u64(v, strlen(v), out);
}

/* Parses buf[start, start+n) as key=value into rec->kv, decoding in place. */
static int parse_kv(struct lab_record *rec, size_t start, size_t n, char *err, size_t errlen)
{
    char *f = rec->buf + start;
    char q[QUOTE_MAX + 8];
    char *eq = memchr(f, '=', n);
    if (!eq)
        return lab_fail_into(err, errlen, "field '%s' at byte %zu is not key=value",
                             quote(f, n, q, sizeof q), start);
    size_t klen = (size_t)(eq - f);
    if (klen == 0)
        return lab_fail_into(err, errlen, "empty key at byte %zu", start);
    if (klen > KEY_MAX_LEN)
        return lab_fail_into(err, errlen, "key '%s' at byte %zu is longer than %d characters",
                             quote(f, klen, q, sizeof q), start, KEY_MAX_LEN);
    for (size_t i = 0; i < klen; i++)
        if (!is_key_char((unsigned char)f[i]))
            return lab_fail_into(err, errlen, "bad character in key '%s' at byte %zu",
                                 quote(f, klen, q, sizeof q), start + i);
    *eq = '\0';
    for (size_t i = 0; i < rec->nkv; i++)
        if (strcmp(rec->kv[i].key, f) == 0)
            return lab_fail_into(err, errlen, "key '%s' repeated", f);
    if (rec->nkv >= LAB_PROTO_MAX_KEYS)
        return lab_fail_into(err, errlen, "too many keys (limit %d)", LAB_PROTO_MAX_KEYS);

    char *val = eq + 1, *end = f + n, *w = val;
    for (char *r = val; r < end;) {
        unsigned char c = (unsigned char)*r;
        if (c == '%') {
            int hi = r + 1 < end ? hexval((unsigned char)r[1]) : -1;
            int lo = r + 2 < end ? hexval((unsigned char)r[2]) : -1;
            if (hi < 0 || lo < 0)
                return lab_fail_into(err, errlen, "bad percent escape at byte %zu",
                                     (size_t)(r - rec->buf));
            if (hi == 0 && lo == 0)
                return lab_fail_into(err, errlen, "value of '%s' contains NUL (byte %zu)", f,
                                     (size_t)(r - rec->buf));
            *w++ = (char)(hi * 16 + lo);
            r += 3;
        } else if (is_value_char(c)) {
            *w++ = (char)c;
            r++;
        } else {
            return lab_fail_into(err, errlen, "bad character 0x%02x in value of '%s' at byte %zu",
                                 c, f, (size_t)(r - rec->buf));
        }
    }
    *w = '\0';
    rec->kv[rec->nkv].key = f;
    rec->kv[rec->nkv].value = val;
    rec->nkv++;
    return 0;
}

int lab_record_parse(const char *line, size_t len, struct lab_record *rec, char *err, size_t errlen)
{
    char q[QUOTE_MAX + 8];

    if (err && errlen)
        err[0] = '\0';
    if (!line || !rec)
        return lab_fail_into(err, errlen, "no line");
    if (len > 0 && line[len - 1] == '\n')
        len--;
    if (len + 1 > LAB_PROTO_MAX_LINE)
        return lab_fail_into(err, errlen, "line too long (%zu bytes with newline, limit %d)",
                             len + 1, LAB_PROTO_MAX_LINE);
    if (len == 0)
        return lab_fail_into(err, errlen, "empty line");
    memcpy(rec->buf, line, len);
    rec->buf[len] = '\0';
    rec->nkv = 0;

    size_t pos = 0, idx = 0;
    for (;;) {
        size_t start = pos;
        while (pos < len && rec->buf[pos] != ' ')
            pos++;
        size_t n = pos - start;
        if (n == 0) {
            if (start == len)
                return lab_fail_into(err, errlen, "trailing space");
            return lab_fail_into(err, errlen, "extra space at byte %zu", start);
        }
        const char *f = rec->buf + start;
        if (idx == 0) {
            if (n != strlen(LAB_PROTO_MAGIC) || memcmp(f, LAB_PROTO_MAGIC, n) != 0)
                return lab_fail_into(err, errlen, "bad magic '%s'", quote(f, n, q, sizeof q));
        } else if (idx == 1) {
            if (parse_u64(f, n, &rec->seq) < 0)
                return lab_fail_into(err, errlen, "seq '%s' is not a number",
                                     quote(f, n, q, sizeof q));
            if (rec->seq > (UINT64_C(1) << 63))
                return lab_fail_into(err, errlen, "seq %llu out of range",
                                     (unsigned long long)rec->seq);
        } else if (idx == 2) {
            size_t t;
            for (t = 0; t < N_REC_DEFS; t++)
                if (strlen(rec_defs[t].name) == n && memcmp(rec_defs[t].name, f, n) == 0)
                    break;
            if (t == N_REC_DEFS)
                return lab_fail_into(err, errlen, "unknown record type '%s'",
                                     quote(f, n, q, sizeof q));
            rec->type = (enum lab_rec_type)t;
        } else if (parse_kv(rec, start, n, err, errlen) < 0) {
            return -1;
        }
        idx++;
        if (pos == len)
            break;
        rec->buf[pos++] = '\0';
    }
    if (idx < 2)
        return lab_fail_into(err, errlen, "missing seq");
    if (idx < 3)
        return lab_fail_into(err, errlen, "missing record type");

    const struct rec_def *d = &rec_defs[rec->type];
    for (size_t i = 0; d->required[i]; i++)
        if (!lab_record_get(rec, d->required[i]))
            return lab_fail_into(err, errlen, "missing key '%s' in %s", d->required[i], d->name);
    for (size_t i = 0; d->numeric[i]; i++) {
        uint64_t v;
        if (lab_record_get_u64(rec, d->numeric[i], &v) < 0)
            return lab_fail_into(err, errlen, "value of '%s' is not a number", d->numeric[i]);
    }
    if (rec->type == LAB_REC_HELLO) {
        uint64_t v = 0;
        lab_record_get_u64(rec, "v", &v);
        if (v != LAB_PROTO_VERSION)
            return lab_fail_into(err, errlen, "unsupported protocol version %llu (host speaks %d)",
                                 (unsigned long long)v, LAB_PROTO_VERSION);
    }
    return 0;
}

/* ---- line splitter ---- */

void lab_linebuf_init(struct lab_linebuf *lb)
{
    lb->len = 0;
    lb->taken = 0;
    lb->overflow = 0;
}

/* Drops the line returned last. */
static void linebuf_compact(struct lab_linebuf *lb)
{
    if (lb->taken == 0)
        return;
    if (lb->taken > lb->len)
        lb->taken = lb->len;
    memmove(lb->data, lb->data + lb->taken, lb->len - lb->taken);
    lb->len -= lb->taken;
    lb->taken = 0;
}

int lab_linebuf_feed(struct lab_linebuf *lb, const char *bytes, size_t n)
{
    size_t used = 0;

    if (n > INT_MAX)
        n = INT_MAX;
    linebuf_compact(lb);
    if (lb->overflow) {
        /* Discarding the tail of an overlong line, up to its '\n'. */
        const char *nl = memchr(bytes, '\n', n);
        if (!nl)
            return (int)n;
        used = (size_t)(nl - bytes) + 1;
        lb->overflow = 0;
    }
    size_t room = sizeof lb->data - lb->len;
    size_t k = n - used < room ? n - used : room;
    memcpy(lb->data + lb->len, bytes + used, k);
    lb->len += k;
    return (int)(used + k);
}

int lab_linebuf_next(struct lab_linebuf *lb, const char **line, size_t *len)
{
    linebuf_compact(lb);
    if (lb->overflow)
        return 0;
    char *nl = memchr(lb->data, '\n', lb->len);
    if (nl) {
        size_t l = (size_t)(nl - lb->data);
        lb->taken = l + 1;
        if (l + 1 > LAB_PROTO_MAX_LINE)
            return -1;
        *line = lb->data;
        *len = l;
        return 1;
    }
    if (lb->len >= LAB_PROTO_MAX_LINE) {
        /* No '\n' within the limit: report now, drop the rest as it comes. */
        lb->len = 0;
        lb->overflow = 1;
        return -1;
    }
    return 0;
}

/* ---- sequence ---- */

void lab_seqcheck_init(struct lab_seqcheck *sc)
{
    sc->next = 0;
    sc->saw_hello = 0;
    sc->saw_bye = 0;
}

int lab_seqcheck_accept(struct lab_seqcheck *sc, const struct lab_record *rec, char *err,
                        size_t errlen)
{
    const char *name = lab_rec_type_name(rec->type);

    if (err && errlen)
        err[0] = '\0';
    if (sc->saw_bye)
        return lab_fail_into(err, errlen, "%s record (seq %llu) after bye", name,
                             (unsigned long long)rec->seq);
    if (!sc->saw_hello && rec->type != LAB_REC_HELLO)
        return lab_fail_into(err, errlen, "%s record (seq %llu) before hello", name,
                             (unsigned long long)rec->seq);
    if (sc->saw_hello && rec->type == LAB_REC_HELLO)
        return lab_fail_into(err, errlen, "second hello (seq %llu)", (unsigned long long)rec->seq);

    uint64_t expected = sc->next;
    sc->saw_hello = 1;
    if (rec->type == LAB_REC_BYE)
        sc->saw_bye = 1;
    sc->next = rec->seq + 1;
    if (rec->seq != expected)
        return lab_fail_into(err, errlen, "seq gap: expected %llu, got %llu (%s)",
                             (unsigned long long)expected, (unsigned long long)rec->seq, name);
    return 0;
}
