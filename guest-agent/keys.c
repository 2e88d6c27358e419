/* The table of the agent's parameters and its typed parse, format and
 * compare (see keys.h). */
#include "keys.h"
#include "fmt.h"
#include "idemode.h"
#include "opts.h"
#include "str.h"

#define OFF(f)   offsetof(struct agent_config, f)
#define CAP(f)   sizeof(((struct agent_config *)0)->f)
#define U64_MAX_ (~(uint64_t)0)
#define NUM(f, l, h, d, text)                                                                      \
    .type = AGENT_KT_U64, .off = OFF(f), .lo = (l), .hi = (h), .def = (d), .help = (text)
#define STR(t, f, d, text) .type = (t), .off = OFF(f), .cap = CAP(f), .def = (d), .help = (text)

static const char *const chan_names[] = {"virtio", "ttyS1", NULL};
static const char *const drop_names[] = {"auto", "fadvise", "remount", "drop_caches", NULL};

const struct agent_key agent_keys[AGENT_KEY_COUNT] = {
    [AGENT_K_TEST] = {"test", STR(AGENT_KT_NAME, test, "seqread", "the test (driver.c's table)")},
    [AGENT_K_REPS] = {"reps", NUM(reps, 0, 1000000, "1", "runs (per lab.ra_list value)")},
    [AGENT_K_BS] = {"bs",
                    NUM(bs, 1, (uint64_t)1 << 40, "1048576",
                        "block size; randread, overwrite: 4096"),
                    .given = AGENT_GIVEN_BS},
    [AGENT_K_RA] = {"ra", NUM(ra, 0, 0xffffffffULL, "0", "readahead in sectors (0: the device's)")},
    [AGENT_K_SIZE] = {"size",
                      NUM(size, 0, U64_MAX_, "0", "bytes per run (0: the whole file or device)")},
    [AGENT_K_VERIFY] = {"verify", NUM(verify, 0, 1, "0", "check every word read")},
    [AGENT_K_DIRECT] = {"direct", NUM(direct, 0, 1, "0", "O_DIRECT; randread, overwrite: 1"),
                        .given = AGENT_GIVEN_DIRECT},
    [AGENT_K_QD] = {"qd", NUM(qd, 1, AGENT_QD_MAX, "1", "randread's queue depth")},
    [AGENT_K_COUNT] = {"count", NUM(count, 1, AGENT_COUNT_MAX, "2000", "requests per run")},
    [AGENT_K_SPAN] = {"span", NUM(span, 0, U64_MAX_, "0", "randread's region (0: to the end)")},
    [AGENT_K_OFFSET] = {"offset", NUM(offset, 0, U64_MAX_, "0", "randread's region starts here")},
    [AGENT_K_FS] = {"fs", STR(AGENT_KT_NAME, fs, "ext2", "the data disk's filesystem")},
    [AGENT_K_FILE] = {"file", STR(AGENT_KT_PATH, file, "big_file", "the file under /mnt")},
    [AGENT_K_RA_LIST] = {"ra_list", .type = AGENT_KT_RA_LIST, .off = OFF(ra_list),
                         .help = "readahead sweep: up to 8 values in sectors"},
    [AGENT_K_LOAD] = {"load", .type = AGENT_KT_ENUM, .off = OFF(load), .names = agent_load_names,
                      .def = "none", .help = "a background load during each run"},
    [AGENT_K_LOAD_SIZE] = {"load_size", NUM(load_size, 1048576, U64_MAX_, "268435456",
                                            "io_load, io_other: bytes per file")},
    [AGENT_K_SYSFS] = {"sysfs", .type = AGENT_KT_SYSFS, .off = OFF(sysfs),
                       .help = "queue tunables KEY:VALUE,..."},
    [AGENT_K_ELVTUNE] = {"elvtune", .type = AGENT_KT_ELVTUNE, .off = OFF(elv_read),
                         .help = "2.4's elevator latencies R,W"},
    [AGENT_K_WRITE_PCT] = {"write_pct",
                           NUM(write_pct, 0, 100, "50", "overwrite's share of writes")},
    [AGENT_K_CPU_ROUNDS] = {"cpu_rounds",
                            NUM(cpu_rounds, 0, 1000000, "8", "contest's checksum passes")},
    [AGENT_K_KPROFILE] = {"kprofile", NUM(kprofile, 0, 1, "0", "/proc/profile around each run")},
    [AGENT_K_WARMUP] = {"warmup", NUM(warmup, 0, 10, "0", "the first runs of lab.reps: warm-ups")},
    [AGENT_K_WARMUP_SIZE] = {"warmup_size", NUM(warmup_size, 0, U64_MAX_, "0",
                                                "bytes a warm-up reads (0: lab.size)")},
    [AGENT_K_SCHED] = {"sched", STR(AGENT_KT_NAME, sched, NULL, "the IO scheduler to switch to")},
    [AGENT_K_DEV] = {"dev", STR(AGENT_KT_NAME, dev, "sda", "the data disk")},
    [AGENT_K_DEV2] = {"dev2", STR(AGENT_KT_NAME, dev2, "sdb", "io_other's disk, on /mnt2")},
    [AGENT_K_CHAN] = {"chan", .type = AGENT_KT_ENUM, .off = OFF(chan), .names = chan_names,
                      .def = "virtio", .help = "the report channel"},
    [AGENT_K_RA_BLKFRA] = {"ra_blkfra", NUM(ra_blkfra, 0, 1, "0", "2.4: readahead by BLKFRASET")},
    [AGENT_K_SEED] = {"seed", NUM(seed, 0, U64_MAX_, "0x1ab5eed2004", "the lab content's seed")},
    [AGENT_K_TIMEOUT] = {"timeout", NUM(timeout, 1, 86400, "30", "seconds to wait for the disk")},
    [AGENT_K_DEVTMPFS] = {"devtmpfs",
                          NUM(devtmpfs, 0, 1, "1", "0: mknod the nodes (as before 2.6.32)")},
    [AGENT_K_TREE] = {"tree", STR(AGENT_KT_PATH, tree, "tree0", "treeread, contest: the tree")},
    [AGENT_K_LOAD_SRC] = {"load_src", STR(AGENT_KT_PATH, load_src, "tree1", "copy: its source")},
    [AGENT_K_LOAD_DST] = {"load_dst", STR(AGENT_KT_PATH, load_dst, "copy", "copy: its target")},
    [AGENT_K_LOAD_FILE] = {"load_file",
                           STR(AGENT_KT_PATH, load_file, "big_file", "read_load: the file")},
    [AGENT_K_RW] = {"rw", NUM(rw, 0, 1, NULL, "mount read-write (1 with a load or overwrite)"),
                    .given = AGENT_GIVEN_RW},
    [AGENT_K_DROP] = {"drop", .type = AGENT_KT_ENUM, .off = OFF(drop), .names = drop_names,
                      .def = "auto", .help = "how caches are dropped"},
    [AGENT_K_IDE_DMA] = {"ide_dma", .type = AGENT_KT_ENUM, .off = OFF(ide_dma),
                         .names = agent_ide_dma_names, .def = "auto",
                         .help = "the data disk's DMA, as hdparm -d (drivers/ide)"},
    [AGENT_K_IDE_XFER] = {"ide_xfer", .type = AGENT_KT_ENUM, .off = OFF(ide_xfer),
                          .names = agent_ide_xfer_names, .def = "auto",
                          .help = "the data disk's transfer mode, as hdparm -X (drivers/ide)"},
};

const struct agent_key *agent_key_find(const char *k, size_t n)
{
    for (size_t i = 0; i < AGENT_KEY_COUNT; i++)
        if (agent_strlen(agent_keys[i].name) == n && agent_memeq(k, agent_keys[i].name, n))
            return &agent_keys[i];
    return NULL;
}

/* A device, filesystem or test name: [A-Za-z0-9_.-]+ (no '/', so /dev/<x> stays in /dev). */
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

static void *field(struct agent_config *c, const struct agent_key *k)
{
    return (char *)c + k->off;
}

static const void *cfield(const struct agent_config *c, const struct agent_key *k)
{
    return (const char *)c + k->off;
}

static const char *set_list(const struct agent_key *k, struct agent_config *c, const char *v,
                            size_t n)
{
    if (k->type == AGENT_KT_RA_LIST) {
        uint64_t ra[AGENT_RA_LIST_MAX];
        int got = agent_ra_list_parse(v, n, ra, AGENT_RA_LIST_MAX);
        if (got < 0)
            return "bad value:";
        for (int i = 0; i < got; i++)
            c->ra_list[i] = ra[i];
        c->ra_count = (uint64_t)got;
    } else if (k->type == AGENT_KT_SYSFS) {
        struct agent_kv kv[AGENT_SYSFS_MAX];
        int got = agent_sysfs_parse(v, n, kv, AGENT_SYSFS_MAX);
        if (got < 0)
            return "bad value:";
        for (int i = 0; i < got; i++)
            c->sysfs[i] = kv[i];
        c->sysfs_count = (uint64_t)got;
    } else {
        int32_t r, w;
        if (agent_elvtune_parse(v, n, &r, &w) < 0)
            return "bad value:";
        c->elv_read = r;
        c->elv_write = w;
        c->have_elvtune = 1;
    }
    return NULL;
}

const char *agent_key_set(const struct agent_key *k, struct agent_config *c, const char *v,
                          size_t n)
{
    uint64_t x;
    switch (k->type) {
    case AGENT_KT_U64:
        if (agent_parse_u64(v, n, &x) < 0)
            return "not a number:";
        if (x < k->lo || x > k->hi)
            return "out of range:";
        *(uint64_t *)field(c, k) = x;
        break;
    case AGENT_KT_NAME:
    case AGENT_KT_PATH:
        if (!(k->type == AGENT_KT_PATH ? path_ok(v, n) : name_ok(v, n)))
            return "bad value:";
        if (n + 1 > k->cap)
            return "too long:";
        agent_strlcpy(field(c, k), v, n, k->cap);
        break;
    case AGENT_KT_ENUM:
        for (int i = 0; k->names[i]; i++)
            if (agent_strlen(k->names[i]) == n && agent_memeq(v, k->names[i], n)) {
                *(int *)field(c, k) = i;
                c->given |= k->given;
                return NULL;
            }
        return "bad value:";
    default: {
        const char *why = set_list(k, c, v, n);
        if (why)
            return why;
    }
    }
    c->given |= k->given;
    return NULL;
}

/* out[at..] = s; the new length, or -1 if it does not fit with its NUL. */
static long put(char *out, size_t cap, long at, const char *s)
{
    size_t n = agent_strlen(s);
    if (at < 0 || (size_t)at + n + 1 > cap)
        return -1;
    agent_memcpy(out + at, s, n);
    out[at + (long)n] = 0;
    return at + (long)n;
}

static long put_u64(char *out, size_t cap, long at, uint64_t v)
{
    char num[AGENT_U64_BUF];
    agent_fmt_u64(num, v);
    return put(out, cap, at, num);
}

static long format_list(const struct agent_key *k, const struct agent_config *c, char *out,
                        size_t cap, long at)
{
    if (k->type == AGENT_KT_RA_LIST) {
        for (uint64_t i = 0; i < c->ra_count; i++) {
            if (i)
                at = put(out, cap, at, ",");
            at = put_u64(out, cap, at, c->ra_list[i]);
        }
    } else if (k->type == AGENT_KT_SYSFS) {
        for (uint64_t i = 0; i < c->sysfs_count; i++) {
            if (i)
                at = put(out, cap, at, ",");
            at = put(out, cap, at, c->sysfs[i].key);
            at = put(out, cap, at, ":");
            at = put(out, cap, at, c->sysfs[i].val);
        }
    } else {
        at = put_u64(out, cap, at, (uint64_t)(uint32_t)c->elv_read);
        at = put(out, cap, at, ",");
        at = put_u64(out, cap, at, (uint64_t)(uint32_t)c->elv_write);
    }
    return at;
}

long agent_key_format(const struct agent_key *k, const struct agent_config *c, char *out,
                      size_t cap, size_t at)
{
    switch (k->type) {
    case AGENT_KT_U64:
        return put_u64(out, cap, (long)at, *(const uint64_t *)cfield(c, k));
    case AGENT_KT_NAME:
    case AGENT_KT_PATH:
        return put(out, cap, (long)at, cfield(c, k));
    case AGENT_KT_ENUM: {
        int v = *(const int *)cfield(c, k), n = 0;
        while (k->names[n])
            n++;
        return v >= 0 && v < n ? put(out, cap, (long)at, k->names[v]) : -1;
    }
    default:
        return format_list(k, c, out, cap, (long)at);
    }
}

int agent_key_equal(const struct agent_key *k, const struct agent_config *a,
                    const struct agent_config *b)
{
    switch (k->type) {
    case AGENT_KT_U64:
        return *(const uint64_t *)cfield(a, k) == *(const uint64_t *)cfield(b, k);
    case AGENT_KT_NAME:
    case AGENT_KT_PATH:
        return agent_streq(cfield(a, k), cfield(b, k));
    case AGENT_KT_ENUM:
        return *(const int *)cfield(a, k) == *(const int *)cfield(b, k);
    case AGENT_KT_RA_LIST:
        if (a->ra_count != b->ra_count)
            return 0;
        for (uint64_t i = 0; i < a->ra_count; i++)
            if (a->ra_list[i] != b->ra_list[i])
                return 0;
        return 1;
    case AGENT_KT_SYSFS:
        if (a->sysfs_count != b->sysfs_count)
            return 0;
        for (uint64_t i = 0; i < a->sysfs_count; i++)
            if (!agent_streq(a->sysfs[i].key, b->sysfs[i].key) ||
                !agent_streq(a->sysfs[i].val, b->sysfs[i].val))
                return 0;
        return 1;
    default:
        return a->have_elvtune == b->have_elvtune &&
               (!a->have_elvtune || (a->elv_read == b->elv_read && a->elv_write == b->elv_write));
    }
}

long agent_params_format(const struct agent_config *c, uint64_t keys, char *out, size_t cap)
{
    long at = put(out, cap, 0, "");
    for (size_t i = 0; i < AGENT_KEY_COUNT && at >= 0; i++) {
        if (!(keys & AGENT_KEY(i)))
            continue;
        if (at > 0)
            at = put(out, cap, at, " ");
        at = put(out, cap, at, LAB_CMDLINE_PREFIX);
        at = put(out, cap, at, agent_keys[i].name);
        at = put(out, cap, at, "=");
        if (at >= 0)
            at = agent_key_format(&agent_keys[i], c, out, cap, (size_t)at);
    }
    return at;
}
