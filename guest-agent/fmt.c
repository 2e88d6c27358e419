/* Pure formatting for the agent protocol (see fmt.h). */
#include "fmt.h"
#include "str.h"

uint64_t agent_divmod10(uint64_t n, unsigned *rem)
{
    /* Hacker's Delight divu10 widened to 64 bits, with an exact correction. */
    uint64_t q = (n >> 1) + (n >> 2);
    q += q >> 4;
    q += q >> 8;
    q += q >> 16;
    q += q >> 32;
    q >>= 3;
    uint64_t r = n - ((q << 3) + (q << 1));
    while (r > 9) {
        q++;
        r -= 10;
    }
    if (rem)
        *rem = (unsigned)r;
    return q;
}

size_t agent_fmt_u64(char *out, uint64_t n)
{
    char tmp[AGENT_U64_BUF];
    size_t k = 0;
    do {
        unsigned d;
        n = agent_divmod10(n, &d);
        tmp[k++] = (char)('0' + d);
    } while (n);
    for (size_t i = 0; i < k; i++)
        out[i] = tmp[k - 1 - i];
    out[k] = 0;
    return k;
}

int agent_pct_plain(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '/' || c == ':' || c == ',' || c == '+' || c == '-';
}

long agent_pct_encode(char *out, size_t cap, const char *in, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)in[i];
        if (agent_pct_plain(c)) {
            if (o + 1 >= cap)
                return -1;
            out[o++] = (char)c;
        } else {
            if (o + 3 >= cap)
                return -1;
            out[o++] = '%';
            out[o++] = hex[c >> 4];
            out[o++] = hex[c & 15];
        }
    }
    if (o >= cap)
        return -1;
    out[o] = 0;
    return (long)o;
}

/* Room for the body: the final '\n' must still fit. */
#define LINE_BODY_MAX (LAB_PROTO_MAX_LINE - 1)

static void put(struct agent_line *l, const char *s, size_t n)
{
    if (l->err)
        return;
    if (l->len + n > LINE_BODY_MAX) {
        l->err = 1;
        return;
    }
    agent_memcpy(l->buf + l->len, s, n);
    l->len += n;
}

static int name_ok(const char *k, int allow_digits)
{
    if (!k || !*k)
        return 0;
    for (; *k; k++) {
        char c = *k;
        if (!((c >= 'a' && c <= 'z') || c == '_' || (allow_digits && c >= '0' && c <= '9')))
            return 0;
    }
    return 1;
}

void agent_line_start(struct agent_line *l, uint64_t seq, const char *type)
{
    char num[AGENT_U64_BUF];
    l->len = 0;
    l->keys = 0;
    l->err = 0;
    put(l, LAB_PROTO_MAGIC " ", sizeof(LAB_PROTO_MAGIC));
    put(l, num, agent_fmt_u64(num, seq));
    put(l, " ", 1);
    if (!name_ok(type, 0))
        l->err = 1;
    else
        put(l, type, agent_strlen(type));
}

static void key(struct agent_line *l, const char *k)
{
    if (!name_ok(k, 1) || ++l->keys > LAB_PROTO_MAX_KEYS) {
        l->err = 1;
        return;
    }
    put(l, " ", 1);
    put(l, k, agent_strlen(k));
    put(l, "=", 1);
}

void agent_line_u64(struct agent_line *l, const char *k, uint64_t v)
{
    char num[AGENT_U64_BUF];
    key(l, k);
    put(l, num, agent_fmt_u64(num, v));
}

void agent_line_strn(struct agent_line *l, const char *k, const char *s, size_t n)
{
    key(l, k);
    if (l->err)
        return;
    long e = agent_pct_encode(l->buf + l->len, LINE_BODY_MAX + 1 - l->len, s, n);
    if (e < 0)
        l->err = 1;
    else
        l->len += (size_t)e;
}

void agent_line_str(struct agent_line *l, const char *k, const char *s)
{
    agent_line_strn(l, k, s, agent_strlen(s));
}

long agent_line_end(struct agent_line *l)
{
    if (l->err)
        return -1;
    l->buf[l->len++] = '\n';
    return (long)l->len;
}

size_t agent_cat(char *out, size_t cap, size_t at, const char *s)
{
    while (*s && at + 1 < cap)
        out[at++] = *s++;
    if (at < cap)
        out[at] = 0;
    return at;
}

size_t agent_cat_u64(char *out, size_t cap, size_t at, uint64_t v)
{
    char num[AGENT_U64_BUF];
    agent_fmt_u64(num, v);
    return agent_cat(out, cap, at, num);
}

size_t agent_cat_i64(char *out, size_t cap, size_t at, int64_t v)
{
    if (v < 0) {
        at = agent_cat(out, cap, at, "-");
        return agent_cat_u64(out, cap, at, (uint64_t)0 - (uint64_t)v);
    }
    return agent_cat_u64(out, cap, at, (uint64_t)v);
}

int agent_kprof_add(struct agent_kprof_pack *p, uint64_t slot, uint32_t ticks)
{
    char item[48];
    size_t at = 0;
    if (p->len)
        item[at++] = ',';
    at = agent_cat_u64(item, sizeof(item), at, slot);
    at = agent_cat(item, sizeof(item), at, ":");
    at = agent_cat_u64(item, sizeof(item), at, ticks);
    if (p->len > sizeof(p->buf) || at > sizeof(p->buf) - p->len)
        return -1;
    char *dst = p->buf + p->len;
    for (size_t i = 0; i < at && i < sizeof(item); i++)
        dst[i] = item[i];
    p->len += at;
    return 0;
}
