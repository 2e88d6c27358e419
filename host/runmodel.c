/* A stored run read into rows and comparisons. Each test has its own shape
 * (a table of columns, not code per test); every number comes from samples. */
#include "runmodel.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Names and units, indexed by figure: the JSON keys and the plots' axes. */
static const struct {
    const char *name, *unit;
} figs[LAB_FIG_COUNT] = {
    [LAB_FIG_SECS] = {"secs", "s"},
    [LAB_FIG_MBPS] = {"mbps", "MB/s"},
    [LAB_FIG_IOPS] = {"iops", "IOPS"},
    [LAB_FIG_USER] = {"user_secs", "s"},
    [LAB_FIG_SYS] = {"sys_secs", "s"},
    [LAB_FIG_LAT_MEAN] = {"lat_mean_ms", "ms"},
    [LAB_FIG_LAT_P50] = {"lat_p50_ms", "ms"},
    [LAB_FIG_LAT_P99] = {"lat_p99_ms", "ms"},
    [LAB_FIG_CPU_USER] = {"cpu_user_pct", "%"},
    [LAB_FIG_CPU_SYS] = {"cpu_sys_pct", "%"},
    [LAB_FIG_CPU_IDLE] = {"cpu_idle_pct", "%"},
    [LAB_FIG_CPU_IOWAIT] = {"cpu_iowait_pct", "%"},
    [LAB_FIG_HOST_SECS] = {"host_secs", "s"},
    [LAB_FIG_FILES] = {"files", "files"},
    [LAB_FIG_LOADS] = {"load_units", "units"},
    [LAB_FIG_FG_CPU] = {"fg_cpu_pct", "%"},
    [LAB_FIG_LOAD_CPU] = {"load_cpu_pct", "%"},
    [LAB_FIG_OPS] = {"ops_per_sec", "ops/s"},
    [LAB_FIG_RATIO] = {"ratio", "x"},
    [LAB_FIG_LOAD_MB] = {"load_mb", "MB"},
};

const char *lab_fig_name(enum lab_fig f)
{
    return f < LAB_FIG_COUNT ? figs[f].name : "?";
}

const char *lab_fig_unit(enum lab_fig f)
{
    return f < LAB_FIG_COUNT ? figs[f].unit : "?";
}

static const char *const verdict_names[] = {
    [LAB_VERDICT_TOO_FEW] = "too-few",
    [LAB_VERDICT_SAME] = "same",
    [LAB_VERDICT_SLOWER] = "slower",
    [LAB_VERDICT_FASTER] = "faster",
};

const char *lab_verdict_name(enum lab_verdict v)
{
    return verdict_names[v];
}

static const struct lab_shape shapes[] = {
    {"seqread",
     0,
     1,
     "time in s, guest clock; MB/s = 10^6 bytes/s",
     LAB_FIG_MBPS,
     "MB/s",
     {{LAB_FIG_SECS, "time", 3, 1},
      {LAB_FIG_MBPS, "MB/s", 1, 1},
      {LAB_FIG_USER, "user", 3, 0},
      {LAB_FIG_SYS, "sys", 3, 0}}},
    {"devread",
     0,
     1,
     "time in s; MB/s = 10^6 bytes/s; CPU % from /proc/stat over each run",
     LAB_FIG_MBPS,
     "MB/s",
     {{LAB_FIG_SECS, "time", 3, 1},
      {LAB_FIG_MBPS, "MB/s", 1, 1},
      {LAB_FIG_CPU_USER, "%user", 1, 0},
      {LAB_FIG_CPU_SYS, "%sys", 1, 0},
      {LAB_FIG_CPU_IOWAIT, "%iowait", 1, 0},
      {LAB_FIG_CPU_IDLE, "%idle", 1, 0}}},
    {"randread",
     0,
     0,
     "IOPS per run; latency per request in ms, in the guest",
     LAB_FIG_IOPS,
     "IOPS",
     {{LAB_FIG_IOPS, "IOPS", 1, 1},
      {LAB_FIG_LAT_MEAN, "lat mean", 3, 0},
      {LAB_FIG_LAT_P50, "p50", 3, 0},
      {LAB_FIG_LAT_P99, "p99", 3, 0},
      {LAB_FIG_CPU_SYS, "%sys", 1, 0},
      {LAB_FIG_CPU_IOWAIT, "%iowait", 1, 0}}},
    /* Seed 003: min, avg, max, stddev of the run time and the CPU split,
     * with the background copy's progress. */
    {"treeread",
     1,
     1,
     "time in s to read every file of a tree; CPU % from /proc/stat",
     LAB_FIG_SECS,
     "time",
     {{LAB_FIG_SECS, "time", 3, 1},
      {LAB_FIG_FILES, "files", 0, 0},
      {LAB_FIG_CPU_USER, "%user", 1, 0},
      {LAB_FIG_CPU_SYS, "%system", 1, 0},
      {LAB_FIG_CPU_IOWAIT, "%iowait", 1, 0},
      {LAB_FIG_LOAD_MB, "load MB", 1, 0}}},
    {"overwrite",
     0,
     0,
     "4 KiB O_DIRECT random reads and writes in the big file; latency in ms",
     LAB_FIG_OPS,
     "ops/s",
     {{LAB_FIG_SECS, "time", 3, 1},
      {LAB_FIG_OPS, "ops/s", 1, 0},
      {LAB_FIG_LAT_P50, "p50", 3, 0},
      {LAB_FIG_LAT_P99, "p99", 3, 0},
      {LAB_FIG_CPU_SYS, "%system", 1, 0},
      {LAB_FIG_CPU_IOWAIT, "%iowait", 1, 0},
      {LAB_FIG_LOAD_MB, "load MB", 1, 0}}},
    /* Seed 001, contest's columns: Time, CPU%, Loads, LCPU%, Ratio. */
    {"contest",
     1,
     0,
     "contest: the foreground job's time under each load, Ratio against no load",
     LAB_FIG_SECS,
     "time",
     {{LAB_FIG_SECS, "Time", 2, 1},
      {LAB_FIG_FG_CPU, "CPU%", 1, 0},
      {LAB_FIG_LOADS, "Loads", 1, 0},
      {LAB_FIG_LOAD_CPU, "LCPU%", 1, 0},
      {LAB_FIG_RATIO, "Ratio", 2, 0}}},
};

/* A number from the end record's extra keys ("k=v k=v"); -1 if absent. */
double lab_extra_num(const char *extra, const char *key)
{
    size_t klen = strlen(key);
    for (const char *p = extra; p && *p;) {
        if (strncmp(p, key, klen) == 0 && p[klen] == '=')
            return strtod(p + klen + 1, NULL);
        p = strchr(p, ' ');
        if (p)
            p++;
    }
    return -1;
}

static void cpu_shares(const char *extra, double out[4])
{
    double user = lab_extra_num(extra, "cpu_user"), nice = lab_extra_num(extra, "cpu_nice");
    double sys = lab_extra_num(extra, "cpu_system"), idle = lab_extra_num(extra, "cpu_idle");
    double iowait = lab_extra_num(extra, "cpu_iowait");
    double irq = lab_extra_num(extra, "cpu_irq"), softirq = lab_extra_num(extra, "cpu_softirq");
    double steal = lab_extra_num(extra, "cpu_steal");
    sys += (irq > 0 ? irq : 0) + (softirq > 0 ? softirq : 0);
    user += nice > 0 ? nice : 0;
    double total = user + sys + idle + (iowait > 0 ? iowait : 0) + (steal > 0 ? steal : 0);
    if (user < 0 || total <= 0) {
        out[0] = out[1] = out[2] = out[3] = 0;
        return;
    }
    out[0] = 100 * user / total;
    out[1] = 100 * sys / total;
    out[2] = 100 * idle / total;
    out[3] = iowait > 0 ? 100 * iowait / total : 0;
}

/* The row a sample belongs to: its cell's, or in a sweep its cell's at its
 * readahead (a new row the first time a setting is seen). */
static struct lab_model_row *row_for(struct lab_model *rep, const struct lab_sample *s)
{
    long ra = rep->sweep ? (long)lab_extra_num(s->extra, "ra_sectors") : -1;
    struct lab_model_row *base = NULL;
    for (size_t i = 0; i < rep->nrows; i++) {
        struct lab_model_row *r = &rep->rows[i];
        if (r->cell != s->cell)
            continue;
        if (r->ra == ra)
            return r;
        base = r;
    }
    if (!base || rep->nrows == LAB_MODEL_MAX_ROWS)
        return NULL;
    if (base->ra < 0 && base->n == 0) {
        base->ra = ra; /* the cell's first setting takes its empty row */
    } else {
        struct lab_model_row *r = &rep->rows[rep->nrows++];
        *r = *base;
        memset(r->v, 0, sizeof r->v);
        r->n = 0;
        r->seen = 0;
        r->ra = ra;
        base = r;
    }
    snprintf(base->label, sizeof base->label, "%s ra=%ld", base->kernel, ra);
    return base;
}

static int collect_sample(const struct lab_sample *s, void *ctx)
{
    struct lab_model *rep = ctx;
    struct lab_model_row *r = row_for(rep, s);
    double secs = (double)s->real_ns / 1e9, cpu[4];
    if (!r || r->seen++ < r->warmup)
        return 0;
    cpu_shares(s->extra, cpu);
    double count = lab_extra_num(s->extra, "count");
    double values[LAB_FIG_COUNT] = {
        [LAB_FIG_SECS] = secs,
        [LAB_FIG_MBPS] = secs > 0 ? (double)s->bytes / secs / 1e6 : 0,
        [LAB_FIG_IOPS] = secs > 0 && count > 0 ? count / secs : 0,
        [LAB_FIG_USER] = (double)s->user_ns / 1e9,
        [LAB_FIG_SYS] = (double)s->sys_ns / 1e9,
        [LAB_FIG_LAT_MEAN] = lab_extra_num(s->extra, "lat_mean_ns") / 1e6,
        [LAB_FIG_LAT_P50] = lab_extra_num(s->extra, "lat_p50_ns") / 1e6,
        [LAB_FIG_LAT_P99] = lab_extra_num(s->extra, "lat_p99_ns") / 1e6,
        [LAB_FIG_CPU_USER] = cpu[0],
        [LAB_FIG_CPU_SYS] = cpu[1],
        [LAB_FIG_CPU_IDLE] = cpu[2],
        [LAB_FIG_CPU_IOWAIT] = cpu[3],
        [LAB_FIG_HOST_SECS] = (double)(s->host_end_ns - s->host_begin_ns) / 1e9,
        [LAB_FIG_FILES] = lab_extra_num(s->extra, "files"),
        [LAB_FIG_LOADS] =
            lab_extra_num(s->extra, "load_units") > 0 ? lab_extra_num(s->extra, "load_units") : 0,
        [LAB_FIG_FG_CPU] = secs > 0 ? 100.0 * (double)(s->user_ns + s->sys_ns) / 1e9 / secs : 0,
        [LAB_FIG_OPS] = secs > 0 ? lab_extra_num(s->extra, "ops") / secs : 0,
        [LAB_FIG_LOAD_MB] = lab_extra_num(s->extra, "load_bytes") > 0
                                ? lab_extra_num(s->extra, "load_bytes") / 1e6
                                : 0,
    };
    /* The load's CPU: what /proc/stat saw busy beyond the foreground's own. */
    values[LAB_FIG_LOAD_CPU] = cpu[0] + cpu[1] - values[LAB_FIG_FG_CPU];
    if (values[LAB_FIG_LOAD_CPU] < 0)
        values[LAB_FIG_LOAD_CPU] = 0;
    r->n++;
    for (int m = 0; m < LAB_FIG_COUNT; m++) {
        r->v[m] = realloc(r->v[m], r->n * sizeof *r->v[m]);
        if (!r->v[m])
            abort();
        r->v[m][r->n - 1] = values[m];
    }
    r->bytes = s->bytes;
    return 0;
}

static int collect_cell(const struct lab_cell_info *ci, void *ctx)
{
    struct lab_model *rep = ctx;
    char buf[64];
    if (rep->nrows == LAB_MODEL_MAX_ROWS)
        return 0;
    struct lab_model_row *r = &rep->rows[rep->nrows++];
    memset(r, 0, sizeof *r);
    r->cell = ci->id;
    r->ra = -1;
    snprintf(r->kernel, sizeof r->kernel, "%s", ci->kernel);
    const char *load = ci->params ? strstr(ci->params, "lab.load=") : NULL;
    if (load)
        snprintf(r->load, sizeof r->load, "%.*s", (int)strcspn(load + 9, " "), load + 9);
    else if (ci->params && strstr(ci->params, "lab.test=contest"))
        snprintf(r->load, sizeof r->load, "no_load");
    /* A chosen scheduler is part of the variant: rows compare across kernels
     * only with the same one. */
    lab_store_cell_get(rep->st, ci->id, "scheduler", r->scheduler, sizeof r->scheduler);
    char variant[sizeof r->variant]; /* built aside: GCC sees overlap in one struct */
    snprintf(variant, sizeof variant, "%s%s%s%s", r->load, r->load[0] && r->scheduler[0] ? " " : "",
             r->scheduler[0] ? "sched=" : "", r->scheduler);
    memcpy(r->variant, variant, sizeof variant);
    snprintf(r->label, sizeof r->label, "%s%s%s", ci->kernel, variant[0] ? " " : "", variant);
    snprintf(r->status, sizeof r->status, "%s", ci->status ? ci->status : "running");
    snprintf(r->reason, sizeof r->reason, "%s", ci->reason ? ci->reason : "");
    snprintf(rep->experiment, sizeof rep->experiment, "%s", ci->experiment);
    if (lab_store_cell_get(rep->st, ci->id, "warmup", buf, sizeof buf))
        r->warmup = atoi(buf);
    const char *t = ci->params ? strstr(ci->params, "lab.test=") : NULL;
    if (t && !rep->test[0])
        snprintf(rep->test, sizeof rep->test, "%.*s", (int)strcspn(t + 9, " "), t + 9);
    rep->sweep |= ci->params && strstr(ci->params, "lab.ra_list=") != NULL;
    return lab_store_foreach_sample(rep->st, ci->id, collect_sample, rep);
}

static const struct lab_shape *shape_of(const char *test)
{
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (strcmp(shapes[i].test, test) == 0)
            return &shapes[i];
    return &shapes[0];
}

static double mean_of(const double *x, size_t n)
{
    struct lab_summary s;
    return lab_summarize(x, n, &s) == 0 ? s.mean : 0;
}

/* contest's Ratio: each run's time over the mean time of the same kernel
 * (and scheduler) with no load. */
static void fill_ratios(struct lab_model *m)
{
    for (size_t i = 0; i < m->nrows; i++) {
        struct lab_model_row *r = &m->rows[i];
        for (size_t j = 0; j < m->nrows; j++) {
            struct lab_model_row *b = &m->rows[j];
            if (strcmp(b->kernel, r->kernel) != 0 || strcmp(b->load, "no_load") != 0 ||
                strcmp(b->scheduler, r->scheduler) != 0)
                continue;
            double base = mean_of(b->v[LAB_FIG_SECS], b->n);
            for (size_t k = 0; k < r->n && base > 0; k++)
                r->v[LAB_FIG_RATIO][k] = r->v[LAB_FIG_SECS][k] / base;
        }
    }
}

/* The first kernel's row at the same setting and load, or NULL. Rows of
 * the first kernel itself, and rows whose base is another kernel (a third
 * kernel's row with no match in the first), are not compared. */
static const struct lab_model_row *base_of(const struct lab_model *m, size_t i)
{
    const struct lab_model_row *r = &m->rows[i];
    for (size_t j = 0; j < i; j++) {
        const struct lab_model_row *b = &m->rows[j];
        if (b->ra == r->ra && strcmp(b->variant, r->variant) == 0 &&
            strcmp(b->kernel, r->kernel) != 0)
            return strcmp(m->rows[0].kernel, b->kernel) == 0 ? b : NULL;
    }
    return NULL;
}

enum lab_verdict lab_verdict_of(const struct lab_comparison *c, int lower_is_better)
{
    if (!c->significant)
        return LAB_VERDICT_SAME;
    return (c->diff_pct < 0) != lower_is_better ? LAB_VERDICT_SLOWER : LAB_VERDICT_FASTER;
}

/* Failed cells are not compared: their failure is reported instead. */
static void fill_comparisons(struct lab_model *m)
{
    enum lab_fig f = m->shape->compare;
    for (size_t i = 1; i < m->nrows; i++) {
        const struct lab_model_row *r = &m->rows[i], *b = base_of(m, i);
        if (!b || strcmp(r->status, "ok") != 0 || strcmp(b->status, "ok") != 0)
            continue;
        struct lab_model_cmp *c = &m->cmps[m->ncmps++];
        c->row = i;
        c->base = (size_t)(b - m->rows);
        if (lab_compare(b->v[f], b->n, r->v[f], r->n, &c->c) < 0)
            c->verdict = LAB_VERDICT_TOO_FEW;
        else
            c->verdict = lab_verdict_of(&c->c, m->shape->lower_is_better);
    }
}

struct lab_model *lab_model_load(struct lab_store *st, int64_t run)
{
    struct lab_model *m = lab_xcalloc(1, sizeof *m);
    m->st = st;
    m->run = run;
    lab_store_foreach_cell(st, run, collect_cell, m);
    if (m->nrows == 0) {
        lab_error("run %lld has no cells", (long long)run);
        lab_model_free(m);
        return NULL;
    }
    m->shape = shape_of(m->test);
    fill_ratios(m);
    fill_comparisons(m);
    return m;
}

void lab_model_free(struct lab_model *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nrows; i++)
        for (int f = 0; f < LAB_FIG_COUNT; f++)
            free(m->rows[i].v[f]);
    free(m);
}

int lab_model_summary(const struct lab_model_row *r, enum lab_fig f, struct lab_summary *out)
{
    return lab_summarize(r->v[f], r->n, out);
}

int lab_model_regressed(const struct lab_model_cmp *c, double threshold_pct)
{
    return c->verdict == LAB_VERDICT_SLOWER &&
           (c->c.diff_pct >= threshold_pct || c->c.diff_pct <= -threshold_pct);
}
