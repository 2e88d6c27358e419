/* Profile parser: fills struct hdd_params; strict about keys, numbers,
 * ranges and source comments. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/hdd/profile.h"
#include "common/kv.h"

/* A profile's line is at most this long (a key, its value, a short note). */
#define HDD_PROFILE_MAX_LINE 1023

enum kind { K_DBL, K_INT, K_U64KIB, K_U64, K_STR, K_BUS, K_SEEK, K_BOOL };

struct key {
    const char *name;
    enum kind kind;
    size_t off;
    double lo, hi;
    int required;
};

#define F(field) offsetof(struct hdd_params, field)
static const struct key keys[] = {
    {"description", K_STR, F(description), 0, 0, 1},
    {"bus", K_BUS, F(bus), 0, 0, 1},
    {"queue_depth", K_INT, F(queue_depth), 1, HDD_MAX_QUEUE, 1},
    {"memory_mib", K_INT, F(memory_mib), 16, 65536, 1},
    {"cpu", K_STR, F(cpu), 0, 0, 0},
    {"capacity_bytes", K_U64, F(capacity_bytes), 1048576, 1e15, 1},
    {"rpm", K_DBL, F(rpm), 1000, 20000, 1},
    {"heads", K_INT, F(heads), 1, 64, 1},
    {"zones", K_INT, F(zones), 1, HDD_MAX_ZONES, 1},
    {"media_outer_mbs", K_DBL, F(media_outer_mbs), 0.1, 2000, 1},
    {"media_inner_mbs", K_DBL, F(media_inner_mbs), 0.1, 2000, 1},
    {"head_switch_ms", K_DBL, F(head_switch_ms), 0, 20, 1},
    {"cyl_switch_ms", K_DBL, F(cyl_switch_ms), 0, 20, 1},
    {"seek", K_SEEK, F(seek_type), 0, 0, 1},
    {"seek_t2t_ms", K_DBL, F(seek_t2t_ms), 0.01, 20, 0},
    {"seek_avg_ms", K_DBL, F(seek_avg_ms), 0.1, 50, 0},
    {"seek_full_ms", K_DBL, F(seek_full_ms), 0.1, 100, 0},
    {"lee_a", K_DBL, F(lee_a), 0, 100, 0},
    {"lee_b", K_DBL, F(lee_b), -100, 100, 0},
    {"hpl_v1", K_DBL, F(hpl[0]), 1, 1e7, 0},
    {"hpl_v2", K_DBL, F(hpl[1]), 0, 100, 0},
    {"hpl_v3", K_DBL, F(hpl[2]), 0, 100, 0},
    {"hpl_v4", K_DBL, F(hpl[3]), 0, 100, 0},
    {"hpl_v5", K_DBL, F(hpl[4]), 0, 100, 0},
    {"hpl_v6", K_DBL, F(hpl[5]), -1, 100, 0},
    {"write_settle_ms", K_DBL, F(write_settle_ms), 0, 10, 1},
    {"overhead_read_miss_ms", K_DBL, F(overhead_read_miss_ms), 0, 10, 1},
    {"overhead_read_hit_ms", K_DBL, F(overhead_read_hit_ms), 0, 10, 1},
    {"overhead_write_ms", K_DBL, F(overhead_write_ms), 0, 10, 1},
    {"interface_mbs", K_DBL, F(interface_mbs), 1, 10000, 1},
    {"cache_kib", K_U64KIB, F(cache_bytes), 0, 1048576, 1},
    {"cache_segments", K_INT, F(cache_segments), 1, HDD_MAX_SEGMENTS, 1},
    {"readahead_kib", K_U64KIB, F(readahead_bytes), 0, 1048576, 0},
    {"write_cache", K_BOOL, F(write_cache), 0, 1, 1},
    {"write_cache_kib", K_U64KIB, F(write_cache_bytes), 0, 1048576, 0},
    {"max_wait_ms", K_DBL, F(max_wait_ms), 0, 100000, 0},
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

const char *hdd_bus_name(int bus)
{
    return bus == HDD_BUS_SATA ? "sata" : bus == HDD_BUS_SCSI ? "scsi" : "ide";
}

static int set_value(const struct key *k, const char *v, struct hdd_params *p, const char **why)
{
    char *base = (char *)p + k->off, *end;
    double d;
    /* every string field is as long as description */
    _Static_assert(sizeof(p->cpu) == sizeof(p->description), "string fields differ");
    errno = 0;
    switch (k->kind) {
    case K_STR:
        if (!*v || strlen(v) >= sizeof(p->description))
            return *why = "empty or too long", -1;
        strcpy(base, v);
        return 0;
    case K_BUS:
        if (!strcmp(v, "ide"))
            *(int *)base = HDD_BUS_IDE;
        else if (!strcmp(v, "sata"))
            *(int *)base = HDD_BUS_SATA;
        else if (!strcmp(v, "scsi"))
            *(int *)base = HDD_BUS_SCSI;
        else
            return *why = "bus must be ide, sata or scsi", -1;
        return 0;
    case K_SEEK:
        if (!strcmp(v, "lee"))
            *(int *)base = HDD_SEEK_LEE;
        else if (!strcmp(v, "hpl"))
            *(int *)base = HDD_SEEK_HPL;
        else
            return *why = "seek must be lee or hpl", -1;
        return 0;
    default:
        break;
    }
    d = strtod(v, &end);
    if (end == v || *end || errno || !isfinite(d))
        return *why = "malformed number", -1;
    if (d < k->lo || d > k->hi)
        return *why = "value out of range", -1;
    if ((k->kind == K_INT || k->kind == K_BOOL || k->kind == K_U64 || k->kind == K_U64KIB) &&
        d != floor(d))
        return *why = "integer expected", -1;
    if (k->kind == K_DBL)
        *(double *)base = d;
    else if (k->kind == K_INT || k->kind == K_BOOL)
        *(int *)base = (int)d;
    else if (k->kind == K_U64)
        *(uint64_t *)base = (uint64_t)d;
    else
        *(uint64_t *)base = (uint64_t)d * 1024;
    return 0;
}

/* The parse so far: the keys seen, the error said into err. */
struct parse {
    const char *name;
    struct hdd_params *p;
    int seen[NKEYS];
    char *err;
    size_t errlen;
};

/* One "key = value" line of a profile: 0, or -1 with the error in err. */
static int profile_line(const struct lab_kv_line *l, void *ctx)
{
    struct parse *ps = ctx;
    const char *name = ps->name;
    int lineno = l->lineno;
    if (l->too_long)
        return snprintf(ps->err, ps->errlen, "%s:%d: line too long", name, lineno), -1;
    if (!l->key)
        return snprintf(ps->err, ps->errlen, "%s:%d: expected 'key = value'", name, lineno), -1;
    size_t i;
    for (i = 0; i < NKEYS && strcmp(keys[i].name, l->key); i++)
        ;
    const char *why = NULL;
    if (i == NKEYS)
        snprintf(ps->err, ps->errlen, "%s:%d: unknown key '%s'", name, lineno, l->key);
    else if (ps->seen[i])
        snprintf(ps->err, ps->errlen, "%s:%d: duplicate key '%s'", name, lineno, l->key);
    else if (!*l->value)
        snprintf(ps->err, ps->errlen, "%s:%d: missing value for '%s'", name, lineno, l->key);
    else if (!l->commented)
        snprintf(ps->err, ps->errlen, "%s:%d: '%s' has no source comment (above or at the end)",
                 name, lineno, l->key);
    else if (set_value(&keys[i], l->value, ps->p, &why) < 0)
        snprintf(ps->err, ps->errlen, "%s:%d: %s: %s '%s'", name, lineno, l->key, why, l->value);
    else
        return ps->seen[i] = 1, 0;
    return -1;
}

int hdd_profile_parse(const char *name, const char *text, struct hdd_params *p, char *err,
                      size_t errlen)
{
    struct parse ps = {.name = name, .p = p, .err = err, .errlen = errlen};
    int *seen = ps.seen;
    hdd_params_defaults(p);
    if (lab_kv_walk(text, HDD_PROFILE_MAX_LINE, profile_line, &ps) != 0)
        return -1;
    int lineno = 0; /* the errors below name the profile's last line */
    for (const char *s = text; *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : s + strlen(s))
        lineno++;
    for (size_t i = 0; i < NKEYS; i++) {
        const char *k = keys[i].name;
        int need = keys[i].required;
        if (p->seek_type == HDD_SEEK_LEE && !strncmp(k, "seek_", 5))
            need = 1;
        if (p->seek_type == HDD_SEEK_HPL && !strncmp(k, "hpl_v", 5) && strcmp(k, "hpl_v6"))
            need = 1;
        if (need && !seen[i]) {
            snprintf(err, errlen, "%s:%d: missing required key '%s'", name, lineno, k);
            return -1;
        }
    }
    /* Cross-key consistency, through the model's own check. */
    struct hdd_model *m = hdd_model_new(p, 0, err, errlen);
    if (!m) {
        char why[200];
        snprintf(why, sizeof(why), "%s", err);
        snprintf(err, errlen, "%s:%d: %s", name, lineno, why);
        return -1;
    }
    hdd_model_free(m);
    return 0;
}

int hdd_profile_load(const char *path, struct hdd_params *p, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    /* Bounded (a profile is a page of text), and whole: a NUL byte would
     * hide the rest of the file from the parser. */
    char *buf = malloc(HDD_PROFILE_MAX_BYTES + 2);
    size_t len = buf ? fread(buf, 1, HDD_PROFILE_MAX_BYTES + 1, f) : 0;
    int bad_read = ferror(f);
    fclose(f);
    if (!buf || bad_read || len > HDD_PROFILE_MAX_BYTES || memchr(buf, '\0', len)) {
        snprintf(err, errlen, "%s: %s", path,
                 !buf                          ? "out of memory"
                 : bad_read                    ? "read error"
                 : len > HDD_PROFILE_MAX_BYTES ? "larger than a profile can be (64 KiB)"
                                               : "a NUL byte: not a text file");
        free(buf);
        return -1;
    }
    buf[len] = 0;
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    int r = hdd_profile_parse(name, buf, p, err, errlen);
    free(buf);
    return r;
}

int hdd_profile_summary(const struct hdd_params *p, char *buf, size_t len)
{
    double inner = hdd_expect_seq_rate(p, p->capacity_bytes - 1);
    return snprintf(buf, len,
                    "%.0f rpm, seek %.1f ms avg, %.1f->%.1f MB/s, cache %llu KiB/%d seg %s, "
                    "%s %.0f MB/s, qd %d, rand-4K %.1f ms",
                    p->rpm, hdd_expect_avg_seek_ms(p, p->capacity_bytes),
                    hdd_expect_seq_rate(p, 0) / 1e6, inner / 1e6,
                    (unsigned long long)(p->cache_bytes / 1024), p->cache_segments,
                    p->write_cache ? "WB" : "WT", hdd_bus_name(p->bus), p->interface_mbs,
                    p->queue_depth, hdd_expect_random_ms(p, p->capacity_bytes, 4096));
}
