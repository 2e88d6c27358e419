/* Pure parsers of the agent's list-valued keys, path joining, the checksum
 * (see opts.h). */
#include "opts.h"
#include "str.h"

int agent_parse_u64(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    size_t i = 0;
    if (n == 0)
        return -1;
    if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        if (n - 2 > 16)
            return -1;
        for (i = 2; i < n; i++) {
            char ch = s[i];
            unsigned d;
            if (ch >= '0' && ch <= '9')
                d = (unsigned)(ch - '0');
            else if (ch >= 'a' && ch <= 'f')
                d = (unsigned)(ch - 'a' + 10);
            else if (ch >= 'A' && ch <= 'F')
                d = (unsigned)(ch - 'A' + 10);
            else
                return -1;
            v = (v << 4) | d;
        }
        *out = v;
        return 0;
    }
    for (; i < n; i++) {
        char ch = s[i];
        if (ch < '0' || ch > '9')
            return -1;
        unsigned d = (unsigned)(ch - '0');
        /* UINT64_MAX = 18446744073709551615 */
        if (v > 1844674407370955161ULL || (v == 1844674407370955161ULL && d > 5))
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

int agent_ra_list_parse(const char *s, size_t n, uint64_t *out, size_t max)
{
    size_t count = 0, start = 0;
    if (n == 0)
        return -1;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && s[i] != ',')
            continue;
        uint64_t v;
        if (count >= max || agent_parse_u64(s + start, i - start, &v) < 0 || v > 0xffffffffULL)
            return -1;
        out[count++] = v;
        start = i + 1;
    }
    return (int)count;
}

static int name_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
}

int agent_sysfs_key_ok(const char *k, size_t n)
{
    static const char pre[] = "iosched/";
    const size_t pn = sizeof(pre) - 1;
    if (n > pn && agent_memeq(k, pre, pn)) {
        k += pn;
        n -= pn;
    }
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!name_char(k[i]))
            return 0;
    return 1;
}

int agent_sysfs_val_ok(const char *v, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char ch = v[i];
        if (!(name_char(ch) || (ch >= 'A' && ch <= 'Z') || ch == '.' || ch == '-'))
            return 0;
    }
    return 1;
}

int agent_sysfs_parse(const char *s, size_t n, struct agent_kv *out, size_t max)
{
    size_t count = 0, start = 0;
    if (n == 0)
        return -1;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && s[i] != ',')
            continue;
        const char *item = s + start;
        size_t len = i - start, colon = 0;
        while (colon < len && item[colon] != ':')
            colon++;
        if (count >= max || colon == len || !agent_sysfs_key_ok(item, colon) ||
            !agent_sysfs_val_ok(item + colon + 1, len - colon - 1) ||
            agent_strlcpy(out[count].key, item, colon, sizeof(out[count].key)) < 0 ||
            agent_strlcpy(out[count].val, item + colon + 1, len - colon - 1,
                          sizeof(out[count].val)) < 0)
            return -1;
        count++;
        start = i + 1;
    }
    return (int)count;
}

int agent_elvtune_parse(const char *s, size_t n, int32_t *r, int32_t *w)
{
    size_t comma = 0;
    while (comma < n && s[comma] != ',')
        comma++;
    uint64_t a, b;
    if (comma == n || agent_parse_u64(s, comma, &a) < 0 ||
        agent_parse_u64(s + comma + 1, n - comma - 1, &b) < 0 || a > 0x7fffffffULL ||
        b > 0x7fffffffULL)
        return -1;
    *r = (int32_t)a;
    *w = (int32_t)b;
    return 0;
}

const char *const agent_load_names[] = {"none", "copy", "io_load", "io_other", "read_load", NULL};
#define LOADS (sizeof(agent_load_names) / sizeof(agent_load_names[0]) - 1)

int agent_load_parse(const char *s, size_t n)
{
    for (size_t i = 0; i < LOADS; i++)
        if (agent_strlen(agent_load_names[i]) == n && agent_memeq(s, agent_load_names[i], n))
            return (int)i;
    return -1;
}

const char *agent_load_name(int load)
{
    if (load < 0 || (size_t)load >= LOADS)
        return "?";
    return agent_load_names[load];
}

long agent_path_join(char *out, size_t cap, const char *a, const char *b)
{
    size_t an = agent_strlen(a), bn;
    while (an > 1 && a[an - 1] == '/')
        an--;
    while (*b == '/')
        b++;
    bn = agent_strlen(b);
    size_t total = an + (bn ? 1 : 0) + bn;
    if (cap == 0)
        return -1;
    if (total + 1 > cap) {
        out[0] = 0;
        return -1;
    }
    agent_memcpy(out, a, an);
    size_t at = an;
    if (bn) {
        if (!(an == 1 && a[0] == '/'))
            out[at++] = '/';
        else
            total--;
        agent_memcpy(out + at, b, bn);
        at += bn;
    }
    out[at] = 0;
    return (long)at;
}

uint64_t agent_checksum(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i = 0;
    /* Whole little-endian words, then the tail byte by byte. */
    for (; i + 8 <= n; i += 8) {
        uint64_t w = (uint64_t)b[i] | (uint64_t)b[i + 1] << 8 | (uint64_t)b[i + 2] << 16 |
                     (uint64_t)b[i + 3] << 24 | (uint64_t)b[i + 4] << 32 |
                     (uint64_t)b[i + 5] << 40 | (uint64_t)b[i + 6] << 48 | (uint64_t)b[i + 7] << 56;
        h = (h ^ w) * 0x100000001b3ULL;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}
