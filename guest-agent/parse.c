/* Pure parsers of /proc and /sys text (see parse.h). */
#include "parse.h"
#include "str.h"

const char *agent_next_line(const char *buf, size_t n, size_t *pos, size_t *len)
{
    size_t i = *pos;
    if (i >= n)
        return NULL;
    size_t s = i;
    while (i < n && buf[i] != '\n')
        i++;
    *pos = i < n ? i + 1 : i;
    size_t e = i;
    while (s < e && (buf[s] == ' ' || buf[s] == '\t'))
        s++;
    while (e > s && (buf[e - 1] == ' ' || buf[e - 1] == '\t' || buf[e - 1] == '\r'))
        e--;
    *len = e - s;
    return buf + s;
}

/* Splits a line into up to `max` blank-separated fields. */
static int fields(const char *l, size_t n, const char **f, size_t *fl, int max)
{
    int k = 0;
    size_t i = 0;
    while (i < n && k < max) {
        while (i < n && (l[i] == ' ' || l[i] == '\t'))
            i++;
        if (i >= n)
            break;
        f[k] = l + i;
        while (i < n && l[i] != ' ' && l[i] != '\t')
            i++;
        fl[k] = (size_t)(l + i - f[k]);
        k++;
    }
    return k;
}

static int small_uint(const char *s, size_t n, unsigned *out)
{
    unsigned v = 0;
    if (n == 0 || n > 9)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    *out = v;
    return 0;
}

void agent_partitions_each(const char *buf, size_t n,
                           void (*fn)(const char *name, unsigned maj, unsigned min, void *arg),
                           void *arg)
{
    size_t pos = 0, len;
    const char *l;
    while ((l = agent_next_line(buf, n, &pos, &len))) {
        const char *f[4];
        size_t fl[4];
        unsigned maj, min;
        char name[64];
        if (fields(l, len, f, fl, 4) != 4)
            continue;
        if (small_uint(f[0], fl[0], &maj) < 0 || small_uint(f[1], fl[1], &min) < 0)
            continue; /* the header line */
        if (agent_strlcpy(name, f[3], fl[3], sizeof(name)) < 0)
            continue;
        fn(name, maj, min, arg);
    }
}

struct find_arg {
    const char *name;
    unsigned maj, min;
    int found;
};

static void find_cb(const char *name, unsigned maj, unsigned min, void *arg)
{
    struct find_arg *a = arg;
    if (!a->found && agent_streq(name, a->name)) {
        a->maj = maj;
        a->min = min;
        a->found = 1;
    }
}

int agent_partitions_find(const char *buf, size_t n, const char *name, unsigned *maj, unsigned *min)
{
    struct find_arg a = {name, 0, 0, 0};
    agent_partitions_each(buf, n, find_cb, &a);
    if (!a.found)
        return -1;
    *maj = a.maj;
    *min = a.min;
    return 0;
}

int agent_devices_char_major(const char *buf, size_t n, const char *name)
{
    size_t pos = 0, len, nl = agent_strlen(name);
    const char *l;
    int in_char = 0;
    while ((l = agent_next_line(buf, n, &pos, &len))) {
        if (len == 18 && agent_memeq(l, "Character devices:", 18)) {
            in_char = 1;
            continue;
        }
        if (len >= 14 && agent_memeq(l, "Block devices:", 14)) {
            in_char = 0;
            continue;
        }
        const char *f[2];
        size_t fl[2];
        unsigned maj;
        if (!in_char || fields(l, len, f, fl, 2) != 2)
            continue;
        if (small_uint(f[0], fl[0], &maj) == 0 && fl[1] == nl && agent_memeq(f[1], name, nl))
            return (int)maj;
    }
    return -1;
}

int agent_parse_majmin(const char *buf, size_t n, unsigned *maj, unsigned *min)
{
    size_t c = 0;
    while (c < n && buf[c] != ':')
        c++;
    if (c == n)
        return -1;
    size_t e = c + 1;
    while (e < n && buf[e] >= '0' && buf[e] <= '9')
        e++;
    if (small_uint(buf, c, maj) < 0 || small_uint(buf + c + 1, e - c - 1, min) < 0)
        return -1;
    return 0;
}

static int dec_u64(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    if (n == 0 || n > 19)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return 0;
}

int agent_blockstat_sectors_read(const char *buf, size_t n, const char *name, uint64_t *sectors)
{
    size_t pos = 0, len, nl = name ? agent_strlen(name) : 0;
    const char *l;
    while ((l = agent_next_line(buf, n, &pos, &len))) {
        const char *f[6];
        size_t fl[6];
        int k = fields(l, len, f, fl, 6);
        if (!name) {
            if (k >= 3)
                return dec_u64(f[2], fl[2], sectors);
            continue;
        }
        if (k == 6 && fl[2] == nl && agent_memeq(f[2], name, nl))
            return dec_u64(f[5], fl[5], sectors);
    }
    return -1;
}

int agent_procstat_cpu(const char *buf, size_t n, struct agent_cpustat *out)
{
    size_t pos = 0, len;
    const char *l;
    while ((l = agent_next_line(buf, n, &pos, &len))) {
        const char *f[AGENT_CPUSTAT_MAX + 1];
        size_t fl[AGENT_CPUSTAT_MAX + 1];
        int k = fields(l, len, f, fl, AGENT_CPUSTAT_MAX + 1);
        if (k < 1 || fl[0] != 3 || !agent_memeq(f[0], "cpu", 3))
            continue; /* "cpu0", "intr", ... */
        if (k < 5)
            return -1; /* every era has at least user nice system idle */
        for (int i = 0; i < AGENT_CPUSTAT_MAX; i++)
            out->v[i] = 0;
        for (int i = 1; i < k; i++)
            if (dec_u64(f[i], fl[i], &out->v[i - 1]) < 0)
                return -1;
        out->fields = (unsigned)(k - 1);
        return 0;
    }
    return -1;
}

void agent_cpustat_delta(const struct agent_cpustat *a, const struct agent_cpustat *b,
                         struct agent_cpustat *d)
{
    /* Some NO_HZ kernels let idle and iowait step back: clamp at 0. */
    for (int i = 0; i < AGENT_CPUSTAT_MAX; i++)
        d->v[i] = b->v[i] >= a->v[i] ? b->v[i] - a->v[i] : 0;
    d->fields = a->fields < b->fields ? a->fields : b->fields;
}
