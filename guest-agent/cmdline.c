/* Pure parser of lab.* kernel command-line parameters (see cmdline.h). */
#include "cmdline.h"
#include "fmt.h"
#include "protocol.h"
#include "str.h"

void agent_config_defaults(struct agent_config *c)
{
    char *p = (char *)c;
    for (size_t i = 0; i < sizeof(*c); i++)
        p[i] = 0;
    agent_strlcpy(c->test, "seqread", 7, sizeof(c->test));
    c->reps = 1;
    c->bs = 1048576;
    c->ra = 0;
    agent_strlcpy(c->dev, "sda", 3, sizeof(c->dev));
    agent_strlcpy(c->fs, "ext2", 4, sizeof(c->fs));
    agent_strlcpy(c->file, "big_file", 8, sizeof(c->file));
    c->size = 0;
    c->verify = 0;
    c->seed = LAB_CONTENT_SEED_DEFAULT;
    c->chan = AGENT_CHAN_VIRTIO;
    c->timeout = 30;
    c->devtmpfs = 1;
    c->direct = 0;
    c->count = 2000;
    c->qd = 1;
    c->span = 0;
    c->offset = 0;
    agent_strlcpy(c->tree, "tree0", 5, sizeof(c->tree));
    c->load = AGENT_LOAD_NONE;
    agent_strlcpy(c->load_src, "tree1", 5, sizeof(c->load_src));
    agent_strlcpy(c->load_dst, "copy", 4, sizeof(c->load_dst));
    agent_strlcpy(c->load_file, "big_file", 8, sizeof(c->load_file));
    c->load_size = AGENT_LOAD_SIZE_DEFAULT;
    agent_strlcpy(c->dev2, "sdb", 3, sizeof(c->dev2));
    c->write_pct = 50;
    c->cpu_rounds = AGENT_CPU_ROUNDS_DEFAULT;
    c->given = 0;
}

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

static void reject(struct agent_config *c, const char *why, const char *k, size_t kn)
{
    if (c->errors++ == 0) {
        size_t at = agent_cat(c->err, sizeof(c->err), 0, why);
        at = agent_cat(c->err, sizeof(c->err), at, " lab.");
        char key[AGENT_CFG_NAME_MAX];
        agent_strlcpy(key, k, kn, sizeof(key));
        agent_cat(c->err, sizeof(c->err), at, key);
    }
}

static int key_is(const char *k, size_t kn, const char *name)
{
    return agent_strlen(name) == kn && agent_memeq(k, name, kn);
}

/* A device, filesystem or test name: [A-Za-z0-9_-]+ (no '/', so /dev/<x> stays in /dev). */
static int name_ok(const char *v, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char ch = v[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '_' || ch == '-' || ch == '.'))
            return 0;
    }
    return !(n == 1 && v[0] == '.') && !(n == 2 && v[0] == '.' && v[1] == '.');
}

/* A relative path under /mnt without ".." components. */
static int path_ok(const char *v, size_t n)
{
    if (n == 0 || v[0] == '/')
        return 0;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || v[i] == '/') {
            if (i - start == 2 && v[start] == '.' && v[start + 1] == '.')
                return 0;
            start = i + 1;
        } else if ((unsigned char)v[i] < 0x20) {
            return 0;
        }
    }
    return 1;
}

static void set_num(struct agent_config *c, const char *k, size_t kn, const char *v, size_t vn,
                    uint64_t *dst, uint64_t lo, uint64_t hi)
{
    uint64_t x;
    if (agent_parse_u64(v, vn, &x) < 0)
        reject(c, "not a number:", k, kn);
    else if (x < lo || x > hi)
        reject(c, "out of range:", k, kn);
    else
        *dst = x;
}

static void set_str(struct agent_config *c, const char *k, size_t kn, const char *v, size_t vn,
                    char *dst, size_t cap, int is_path)
{
    if (!(is_path ? path_ok(v, vn) : name_ok(v, vn)))
        reject(c, "bad value:", k, kn);
    else if (vn + 1 > cap)
        reject(c, "too long:", k, kn);
    else
        agent_strlcpy(dst, v, vn, cap);
}

static void apply(struct agent_config *c, const char *k, size_t kn, const char *v, size_t vn)
{
    if (key_is(k, kn, "test"))
        set_str(c, k, kn, v, vn, c->test, sizeof(c->test), 0);
    else if (key_is(k, kn, "reps"))
        set_num(c, k, kn, v, vn, &c->reps, 0, 1000000);
    else if (key_is(k, kn, "bs")) {
        unsigned e = c->errors;
        set_num(c, k, kn, v, vn, &c->bs, 1, (uint64_t)1 << 40);
        if (c->errors == e)
            c->given |= AGENT_GIVEN_BS;
    } else if (key_is(k, kn, "direct")) {
        unsigned e = c->errors;
        set_num(c, k, kn, v, vn, &c->direct, 0, 1);
        if (c->errors == e)
            c->given |= AGENT_GIVEN_DIRECT;
    } else if (key_is(k, kn, "count"))
        set_num(c, k, kn, v, vn, &c->count, 1, AGENT_COUNT_MAX);
    else if (key_is(k, kn, "qd"))
        set_num(c, k, kn, v, vn, &c->qd, 1, AGENT_QD_MAX);
    else if (key_is(k, kn, "span"))
        set_num(c, k, kn, v, vn, &c->span, 0, ~(uint64_t)0);
    else if (key_is(k, kn, "offset"))
        set_num(c, k, kn, v, vn, &c->offset, 0, ~(uint64_t)0);
    else if (key_is(k, kn, "ra"))
        set_num(c, k, kn, v, vn, &c->ra, 0, 0xffffffffULL);
    else if (key_is(k, kn, "dev"))
        set_str(c, k, kn, v, vn, c->dev, sizeof(c->dev), 0);
    else if (key_is(k, kn, "fs"))
        set_str(c, k, kn, v, vn, c->fs, sizeof(c->fs), 0);
    else if (key_is(k, kn, "file"))
        set_str(c, k, kn, v, vn, c->file, sizeof(c->file), 1);
    else if (key_is(k, kn, "size"))
        set_num(c, k, kn, v, vn, &c->size, 0, ~(uint64_t)0);
    else if (key_is(k, kn, "verify"))
        set_num(c, k, kn, v, vn, &c->verify, 0, 1);
    else if (key_is(k, kn, "seed"))
        set_num(c, k, kn, v, vn, &c->seed, 0, ~(uint64_t)0);
    else if (key_is(k, kn, "timeout"))
        set_num(c, k, kn, v, vn, &c->timeout, 1, 86400);
    else if (key_is(k, kn, "devtmpfs"))
        set_num(c, k, kn, v, vn, &c->devtmpfs, 0, 1);
    else if (key_is(k, kn, "chan")) {
        if (vn == 6 && agent_memeq(v, "virtio", 6))
            c->chan = AGENT_CHAN_VIRTIO;
        else if (vn == 5 && agent_memeq(v, "ttyS1", 5))
            c->chan = AGENT_CHAN_TTYS1;
        else
            reject(c, "bad value:", k, kn);
    } else if (key_is(k, kn, "ra_list")) {
        uint64_t ra[AGENT_RA_LIST_MAX];
        int got = agent_ra_list_parse(v, vn, ra, AGENT_RA_LIST_MAX);
        if (got < 0) {
            reject(c, "bad value:", k, kn);
        } else {
            for (int i = 0; i < got; i++)
                c->ra_list[i] = ra[i];
            c->ra_count = (uint64_t)got;
        }
    } else if (key_is(k, kn, "tree"))
        set_str(c, k, kn, v, vn, c->tree, sizeof(c->tree), 1);
    else if (key_is(k, kn, "load")) {
        int l = agent_load_parse(v, vn);
        if (l < 0)
            reject(c, "bad value:", k, kn);
        else
            c->load = l;
    } else if (key_is(k, kn, "load_src"))
        set_str(c, k, kn, v, vn, c->load_src, sizeof(c->load_src), 1);
    else if (key_is(k, kn, "load_dst"))
        set_str(c, k, kn, v, vn, c->load_dst, sizeof(c->load_dst), 1);
    else if (key_is(k, kn, "load_file"))
        set_str(c, k, kn, v, vn, c->load_file, sizeof(c->load_file), 1);
    else if (key_is(k, kn, "load_size"))
        set_num(c, k, kn, v, vn, &c->load_size, 1048576, ~(uint64_t)0);
    else if (key_is(k, kn, "dev2"))
        set_str(c, k, kn, v, vn, c->dev2, sizeof(c->dev2), 0);
    else if (key_is(k, kn, "rw")) {
        unsigned e = c->errors;
        set_num(c, k, kn, v, vn, &c->rw, 0, 1);
        if (c->errors == e)
            c->given |= AGENT_GIVEN_RW;
    } else if (key_is(k, kn, "write_pct"))
        set_num(c, k, kn, v, vn, &c->write_pct, 0, 100);
    else if (key_is(k, kn, "cpu_rounds"))
        set_num(c, k, kn, v, vn, &c->cpu_rounds, 0, 1000000);
    else if (key_is(k, kn, "ra_blkfra"))
        set_num(c, k, kn, v, vn, &c->ra_blkfra, 0, 1);
    else if (key_is(k, kn, "kprofile"))
        set_num(c, k, kn, v, vn, &c->kprofile, 0, 1);
    else if (key_is(k, kn, "sched"))
        set_str(c, k, kn, v, vn, c->sched, sizeof(c->sched), 0);
    else if (key_is(k, kn, "sysfs")) {
        struct agent_kv kv[AGENT_SYSFS_MAX];
        int got = agent_sysfs_parse(v, vn, kv, AGENT_SYSFS_MAX);
        if (got < 0) {
            reject(c, "bad value:", k, kn);
        } else {
            for (int i = 0; i < got; i++)
                c->sysfs[i] = kv[i];
            c->sysfs_count = (uint64_t)got;
        }
    } else if (key_is(k, kn, "elvtune")) {
        int32_t r, w;
        if (agent_elvtune_parse(v, vn, &r, &w) < 0) {
            reject(c, "bad value:", k, kn);
        } else {
            c->elv_read = r;
            c->elv_write = w;
            c->have_elvtune = 1;
        }
    } else if (key_is(k, kn, "drop")) {
        if (vn == 4 && agent_memeq(v, "auto", 4))
            c->drop = AGENT_DROP_AUTO;
        else if (vn == 7 && agent_memeq(v, "fadvise", 7))
            c->drop = AGENT_DROP_FADVISE;
        else if (vn == 7 && agent_memeq(v, "remount", 7))
            c->drop = AGENT_DROP_REMOUNT;
        else
            reject(c, "bad value:", k, kn);
    }
    /* anything else: a key of a newer host, ignored */
}

static int is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == 0;
}

unsigned agent_config_parse(struct agent_config *c, const char *buf, size_t n)
{
    const size_t plen = sizeof(LAB_CMDLINE_PREFIX) - 1;
    size_t i = 0;
    while (i < n) {
        while (i < n && is_space(buf[i]))
            i++;
        size_t w = i;
        while (i < n && !is_space(buf[i]))
            i++;
        const char *word = buf + w;
        size_t wn = i - w;
        if (wn <= plen || !agent_memeq(word, LAB_CMDLINE_PREFIX, plen))
            continue;
        const char *k = word + plen;
        size_t rest = wn - plen, kn = 0;
        while (kn < rest && k[kn] != '=')
            kn++;
        if (kn == rest || kn == 0)
            continue; /* "lab.key" without '=': not ours to judge */
        apply(c, k, kn, k + kn + 1, rest - kn - 1);
    }
    if (agent_streq(c->test, "randread") || agent_streq(c->test, "overwrite")) {
        if (!(c->given & AGENT_GIVEN_BS))
            c->bs = AGENT_RANDREAD_BS_DEFAULT;
        if (!(c->given & AGENT_GIVEN_DIRECT))
            c->direct = 1;
    }
    if (!(c->given & AGENT_GIVEN_RW))
        c->rw = c->load != AGENT_LOAD_NONE || agent_streq(c->test, "overwrite");
    return c->errors;
}
