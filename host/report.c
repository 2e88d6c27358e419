/* Reports from the result store. Each test has its own table shape (a
 * table of columns, not code per test); every number comes from samples. */
#include "report.h"

#include "kprof.h"
#include "stats.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define MAX_CELLS 64

/* Per-sample figures a table can show. */
enum metric {
    M_SECS,
    M_MBPS,
    M_IOPS,
    M_USER,
    M_SYS,
    M_LAT_MEAN,
    M_LAT_P50,
    M_LAT_P99,
    M_CPU_USER,
    M_CPU_SYS,
    M_CPU_IDLE,
    M_CPU_IOWAIT,
    M_HOST_SECS,
    M_FILES,
    M_LOADS,    /* background load units completed during the run */
    M_FG_CPU,   /* the foreground's CPU share of the run, % (rusage) */
    M_LOAD_CPU, /* the rest of the busy CPU, % (/proc/stat minus rusage) */
    M_OPS,      /* overwrite: operations per second */
    M_RATIO,    /* time against the same kernel's run without load */
    M_LOAD_MB,  /* MB the background load moved during the run */
    M_COUNT
};

struct column {
    enum metric m;
    const char *title;
    int decimals;
    int stats; /* 1: min mean max stddev; 0: mean only */
};

struct shape {
    const char *test;
    int lower_is_better; /* the compared metric is a time */
    int bytes_per_run;   /* the header says how much each run read */
    const char *unit_note;
    enum metric compare; /* the metric kernels are compared on */
    const char *compare_name;
    struct column cols[8];
};

static const struct shape shapes[] = {
    {"seqread",
     0,
     1,
     "time in s, guest clock; MB/s = 10^6 bytes/s",
     M_MBPS,
     "MB/s",
     {{M_SECS, "time", 3, 1},
      {M_MBPS, "MB/s", 1, 1},
      {M_USER, "user", 3, 0},
      {M_SYS, "sys", 3, 0}}},
    {"devread",
     0,
     1,
     "time in s; MB/s = 10^6 bytes/s; CPU % from /proc/stat over each run",
     M_MBPS,
     "MB/s",
     {{M_SECS, "time", 3, 1},
      {M_MBPS, "MB/s", 1, 1},
      {M_CPU_USER, "%user", 1, 0},
      {M_CPU_SYS, "%sys", 1, 0},
      {M_CPU_IOWAIT, "%iowait", 1, 0},
      {M_CPU_IDLE, "%idle", 1, 0}}},
    {"randread",
     0,
     0,
     "IOPS per run; latency per request in ms, in the guest",
     M_IOPS,
     "IOPS",
     {{M_IOPS, "IOPS", 1, 1},
      {M_LAT_MEAN, "lat mean", 3, 0},
      {M_LAT_P50, "p50", 3, 0},
      {M_LAT_P99, "p99", 3, 0},
      {M_CPU_SYS, "%sys", 1, 0},
      {M_CPU_IOWAIT, "%iowait", 1, 0}}},
    /* Seed 003: min, avg, max, stddev of the run time and the CPU split,
     * with the background copy's progress. */
    {"treeread",
     1,
     1,
     "time in s to read every file of a tree; CPU % from /proc/stat",
     M_SECS,
     "time",
     {{M_SECS, "time", 3, 1},
      {M_FILES, "files", 0, 0},
      {M_CPU_USER, "%user", 1, 0},
      {M_CPU_SYS, "%system", 1, 0},
      {M_CPU_IOWAIT, "%iowait", 1, 0},
      {M_LOAD_MB, "load MB", 1, 0}}},
    {"overwrite",
     0,
     0,
     "4 KiB O_DIRECT random reads and writes in the big file; latency in ms",
     M_OPS,
     "ops/s",
     {{M_SECS, "time", 3, 1},
      {M_OPS, "ops/s", 1, 0},
      {M_LAT_P50, "p50", 3, 0},
      {M_LAT_P99, "p99", 3, 0},
      {M_CPU_SYS, "%system", 1, 0},
      {M_CPU_IOWAIT, "%iowait", 1, 0},
      {M_LOAD_MB, "load MB", 1, 0}}},
    /* Seed 001, contest's columns: Time, CPU%, Loads, LCPU%, Ratio. */
    {"contest",
     1,
     0,
     "contest: the foreground job's time under each load, Ratio against no load",
     M_SECS,
     "time",
     {{M_SECS, "Time", 2, 1},
      {M_FG_CPU, "CPU%", 1, 0},
      {M_LOADS, "Loads", 1, 0},
      {M_LOAD_CPU, "LCPU%", 1, 0},
      {M_RATIO, "Ratio", 2, 0}}},
};

/* One table row: a cell, or in a readahead sweep a cell at one setting. */
struct kernel_rows {
    int64_t cell;
    long ra;    /* readahead of the row's samples in a sweep; -1 otherwise */
    int warmup; /* samples with rep < warmup (in each sweep group) are left out */
    char kernel[128];
    char label[160];  /* what the row is called in the table */
    char variant[64]; /* the background load and scheduler, for rows compared across kernels */
    char status[32];
    char reason[1024];
    size_t n;
    double *v[M_COUNT];
    uint64_t bytes;
    int seen; /* samples routed here, warm-up included */
};

struct report {
    struct lab_store *st;
    int sweep; /* rows per readahead setting */
    struct kernel_rows rows[MAX_CELLS];
    size_t nrows;
    char experiment[128];
    char test[32];
};

/* A number from the end record's extra keys ("k=v k=v"); -1 if absent. */
static double extra_num(const char *extra, const char *key)
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
    double user = extra_num(extra, "cpu_user"), nice = extra_num(extra, "cpu_nice");
    double sys = extra_num(extra, "cpu_system"), idle = extra_num(extra, "cpu_idle");
    double iowait = extra_num(extra, "cpu_iowait");
    double irq = extra_num(extra, "cpu_irq"), softirq = extra_num(extra, "cpu_softirq");
    double steal = extra_num(extra, "cpu_steal");
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
static struct kernel_rows *row_for(struct report *rep, const struct lab_sample *s)
{
    long ra = rep->sweep ? (long)extra_num(s->extra, "ra_sectors") : -1;
    struct kernel_rows *base = NULL;
    for (size_t i = 0; i < rep->nrows; i++) {
        struct kernel_rows *r = &rep->rows[i];
        if (r->cell != s->cell)
            continue;
        if (r->ra == ra)
            return r;
        base = r;
    }
    if (!base || rep->nrows == MAX_CELLS)
        return NULL;
    if (base->ra < 0 && base->n == 0) {
        base->ra = ra; /* the cell's first setting takes its empty row */
    } else {
        struct kernel_rows *r = &rep->rows[rep->nrows++];
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
    struct report *rep = ctx;
    struct kernel_rows *r = row_for(rep, s);
    double secs = (double)s->real_ns / 1e9, cpu[4];
    if (!r || r->seen++ < r->warmup)
        return 0;
    cpu_shares(s->extra, cpu);
    double count = extra_num(s->extra, "count");
    double values[M_COUNT] = {
        [M_SECS] = secs,
        [M_MBPS] = secs > 0 ? (double)s->bytes / secs / 1e6 : 0,
        [M_IOPS] = secs > 0 && count > 0 ? count / secs : 0,
        [M_USER] = (double)s->user_ns / 1e9,
        [M_SYS] = (double)s->sys_ns / 1e9,
        [M_LAT_MEAN] = extra_num(s->extra, "lat_mean_ns") / 1e6,
        [M_LAT_P50] = extra_num(s->extra, "lat_p50_ns") / 1e6,
        [M_LAT_P99] = extra_num(s->extra, "lat_p99_ns") / 1e6,
        [M_CPU_USER] = cpu[0],
        [M_CPU_SYS] = cpu[1],
        [M_CPU_IDLE] = cpu[2],
        [M_CPU_IOWAIT] = cpu[3],
        [M_HOST_SECS] = (double)(s->host_end_ns - s->host_begin_ns) / 1e9,
        [M_FILES] = extra_num(s->extra, "files"),
        [M_LOADS] = extra_num(s->extra, "load_units") > 0 ? extra_num(s->extra, "load_units") : 0,
        [M_FG_CPU] = secs > 0 ? 100.0 * (double)(s->user_ns + s->sys_ns) / 1e9 / secs : 0,
        [M_OPS] = secs > 0 ? extra_num(s->extra, "ops") / secs : 0,
        [M_LOAD_MB] =
            extra_num(s->extra, "load_bytes") > 0 ? extra_num(s->extra, "load_bytes") / 1e6 : 0,
    };
    /* The load's CPU: what /proc/stat saw busy beyond the foreground's own. */
    values[M_LOAD_CPU] = cpu[0] + cpu[1] - values[M_FG_CPU];
    if (values[M_LOAD_CPU] < 0)
        values[M_LOAD_CPU] = 0;
    r->n++;
    for (int m = 0; m < M_COUNT; m++) {
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
    struct report *rep = ctx;
    char buf[64];
    if (rep->nrows == MAX_CELLS)
        return 0;
    struct kernel_rows *r = &rep->rows[rep->nrows++];
    memset(r, 0, sizeof *r);
    r->cell = ci->id;
    r->ra = -1;
    snprintf(r->kernel, sizeof r->kernel, "%s", ci->kernel);
    const char *load = ci->params ? strstr(ci->params, "lab.load=") : NULL;
    if (load)
        snprintf(r->variant, sizeof r->variant, "%.*s", (int)strcspn(load + 9, " "), load + 9);
    else if (ci->params && strstr(ci->params, "lab.test=contest"))
        snprintf(r->variant, sizeof r->variant, "no_load");
    /* A chosen scheduler is part of the variant: rows compare across kernels
     * only with the same one. */
    char sched[32];
    if (lab_store_cell_get(rep->st, ci->id, "scheduler", sched, sizeof sched)) {
        size_t len = strlen(r->variant);
        snprintf(r->variant + len, sizeof r->variant - len, "%ssched=%s", len ? " " : "", sched);
    }
    char variant[sizeof r->variant];
    memcpy(variant, r->variant, sizeof variant); /* a copy: GCC sees overlap in one struct */
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

static const struct shape *shape_of(const char *test)
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

static void print_header(FILE *out, const struct shape *sh, int lw)
{
    fprintf(out, "%-*s %3s", lw, "kernel", "n");
    for (const struct column *c = sh->cols; c->title; c++) {
        if (c->stats)
            fprintf(out, "  %-35s", c->title);
        else
            fprintf(out, " %8s", c->title);
    }
    fprintf(out, "\n%-*s %3s", lw, "", "");
    for (const struct column *c = sh->cols; c->title; c++) {
        if (c->stats)
            fprintf(out, "  %8s %8s %8s %7s", "min", "mean", "max", "stddev");
        else
            fprintf(out, " %8s", "mean");
    }
    fputc('\n', out);
}

static void print_cell(FILE *out, int decimals, int width, double v)
{
    fprintf(out, " %*.*f", width, decimals, v);
}

/* contest's Ratio: each run's time over the mean time of the same kernel
 * with no load. */
static void fill_ratios(struct report *rep)
{
    for (size_t i = 0; i < rep->nrows; i++) {
        struct kernel_rows *r = &rep->rows[i];
        for (size_t j = 0; j < rep->nrows; j++) {
            struct kernel_rows *b = &rep->rows[j];
            if (strcmp(b->kernel, r->kernel) != 0 || strcmp(b->variant, "no_load") != 0)
                continue;
            double base = mean_of(b->v[M_SECS], b->n);
            for (size_t k = 0; k < r->n && base > 0; k++)
                r->v[M_RATIO][k] = r->v[M_SECS][k] / base;
        }
    }
}

static void print_table(FILE *out, struct report *rep, const struct shape *sh)
{
    /* The label column: 22 wide, or the longest label (a load and a
     * scheduler make long ones). */
    int lw = 22;
    for (size_t i = 0; i < rep->nrows; i++)
        if ((int)strlen(rep->rows[i].label) > lw)
            lw = (int)strlen(rep->rows[i].label);
    fill_ratios(rep);
    print_header(out, sh, lw);
    for (size_t i = 0; i < rep->nrows; i++) {
        struct kernel_rows *r = &rep->rows[i];
        fprintf(out, "%-*s %3zu", lw, r->label, r->n);
        if (r->n == 0) {
            fprintf(out, "  (no samples)\n");
            continue;
        }
        for (const struct column *c = sh->cols; c->title; c++) {
            struct lab_summary s;
            lab_summarize(r->v[c->m], r->n, &s);
            if (c->stats) {
                fputc(' ', out);
                print_cell(out, c->decimals, 8, s.min);
                print_cell(out, c->decimals, 8, s.mean);
                print_cell(out, c->decimals, 8, s.max);
                print_cell(out, c->decimals, 7, s.stddev);
            } else {
                print_cell(out, c->decimals, 8, s.mean);
            }
        }
        fputc('\n', out);
    }
}

static void print_comparisons(FILE *out, struct report *rep, const struct shape *sh)
{
    for (size_t i = 1; i < rep->nrows; i++) {
        struct kernel_rows *r = &rep->rows[i], *base = NULL;
        struct lab_comparison c;
        /* Against the first kernel's row at the same setting. */
        for (size_t j = 0; j < i && !base; j++)
            if (rep->rows[j].ra == r->ra && strcmp(rep->rows[j].variant, r->variant) == 0 &&
                strcmp(rep->rows[j].kernel, r->kernel) != 0)
                base = &rep->rows[j];
        if (!base || strcmp(rep->rows[0].kernel, base->kernel) != 0)
            continue;
        if (strcmp(r->status, "ok") != 0 || strcmp(base->status, "ok") != 0)
            continue; /* the failure is reported below */
        if (lab_compare(base->v[sh->compare], base->n, r->v[sh->compare], r->n, &c) < 0) {
            fprintf(out, "%s vs %s: too few samples to compare (need 2 each)\n", r->label,
                    base->label);
            continue;
        }
        fprintf(out,
                "%s vs %s: %s %+.1f%% (95%% CI %+.1f%% .. %+.1f%%), Welch p=%.3g, "
                "Mann-Whitney p=%.3g, d=%.2f: %s\n",
                r->label, base->label, sh->compare_name, c.diff_pct, c.diff_ci_lo, c.diff_ci_hi,
                c.welch_p, c.mwu_p, c.cohen_d,
                !c.significant                            ? "no significant difference"
                : (c.diff_pct < 0) != sh->lower_is_better ? "SLOWER (significant)"
                                                          : "FASTER (significant)");
    }
}

/* The guest's clock can lose ticks under emulation; the host's is the
 * reference. Say so when they disagree. */
static void check_clocks(FILE *out, struct report *rep)
{
    for (size_t i = 0; i < rep->nrows; i++) {
        struct kernel_rows *r = &rep->rows[i];
        /* With a background load the host's span also covers starting and
         * stopping it, so the two clocks measure different things. */
        if (r->variant[0] && strcmp(r->variant, "no_load") != 0)
            continue;
        double g = mean_of(r->v[M_SECS], r->n), h = mean_of(r->v[M_HOST_SECS], r->n);
        if (r->n && g > 0.05 && (h / g > 1.10 || h / g < 0.90))
            fprintf(out,
                    "warning: %s: guest clock says %.3f s per run, host clock %.3f s: "
                    "the guest may be losing timer ticks\n",
                    r->kernel, g, h);
    }
}

int lab_report_run(FILE *out, struct lab_store *st, int64_t run)
{
    struct report *rep = lab_xcalloc(1, sizeof *rep);
    int rc = 0;
    rep->st = st;
    lab_store_foreach_cell(st, run, collect_cell, rep);
    if (rep->nrows == 0) {
        rc = lab_error("run %lld has no cells", (long long)run);
        goto out;
    }
    const struct shape *sh = shape_of(rep->test);
    fprintf(out, "run %lld: %s", (long long)run, rep->experiment);
    if (rep->rows[0].bytes && sh->bytes_per_run)
        fprintf(out, ", %.1f MiB per run", (double)rep->rows[0].bytes / (1 << 20));
    fprintf(out, " (%s)\n\n", sh->unit_note);
    print_table(out, rep, sh);
    fputc('\n', out);
    print_comparisons(out, rep, sh);
    check_clocks(out, rep);
    for (size_t i = 0; i < rep->nrows; i++)
        if (strcmp(rep->rows[i].status, "ok") != 0)
            fprintf(out, "%s: %s%s%s\n", rep->rows[i].kernel, rep->rows[i].status,
                    rep->rows[i].reason[0] ? ": " : "", rep->rows[i].reason);
    if (lab_kprof_report(out, st, run, LAB_KPROF_TOP) < 0)
        rc = -1;
out:
    for (size_t i = 0; i < rep->nrows; i++)
        for (int m = 0; m < M_COUNT; m++)
            free(rep->rows[i].v[m]);
    free(rep);
    return rc;
}
