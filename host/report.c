/* Reports from the result store. */
#include "report.h"
#include "stats.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define MAX_CELLS 64

struct kernel_rows {
    int warmup; /* samples with rep < warmup are left out */
    char kernel[128];
    char status[32];
    char reason[1024];
    size_t n;
    double *secs, *mbps, *user, *sys, *host_secs;
    uint64_t bytes;
};

struct report {
    struct lab_store *st;
    struct kernel_rows rows[MAX_CELLS];
    size_t nrows;
    char experiment[128];
};

static int collect_sample(const struct lab_sample *s, void *ctx)
{
    struct kernel_rows *r = ctx;
    if (s->rep < r->warmup)
        return 0;
    size_t i = r->n++;
    r->secs = realloc(r->secs, r->n * sizeof *r->secs);
    r->mbps = realloc(r->mbps, r->n * sizeof *r->mbps);
    r->user = realloc(r->user, r->n * sizeof *r->user);
    r->sys = realloc(r->sys, r->n * sizeof *r->sys);
    r->host_secs = realloc(r->host_secs, r->n * sizeof *r->host_secs);
    if (!r->secs || !r->mbps || !r->user || !r->sys || !r->host_secs)
        abort();
    r->secs[i] = (double)s->real_ns / 1e9;
    r->mbps[i] = s->real_ns > 0 ? (double)s->bytes / ((double)s->real_ns / 1e9) / 1e6 : 0;
    r->user[i] = (double)s->user_ns / 1e9;
    r->sys[i] = (double)s->sys_ns / 1e9;
    r->host_secs[i] = (double)(s->host_end_ns - s->host_begin_ns) / 1e9;
    r->bytes = s->bytes;
    return 0;
}

static int collect_cell(const struct lab_cell_info *ci, void *ctx)
{
    struct report *rep = ctx;
    if (rep->nrows == MAX_CELLS)
        return 0;
    struct kernel_rows *r = &rep->rows[rep->nrows++];
    memset(r, 0, sizeof *r);
    snprintf(r->kernel, sizeof r->kernel, "%s", ci->kernel);
    snprintf(r->status, sizeof r->status, "%s", ci->status ? ci->status : "running");
    snprintf(r->reason, sizeof r->reason, "%s", ci->reason ? ci->reason : "");
    snprintf(rep->experiment, sizeof rep->experiment, "%s", ci->experiment);
    char buf[32];
    if (lab_store_cell_get(rep->st, ci->id, "warmup", buf, sizeof buf))
        r->warmup = atoi(buf);
    return lab_store_foreach_sample(rep->st, ci->id, collect_sample, r);
}

static double mean_of(const double *x, size_t n)
{
    struct lab_summary s;
    return lab_summarize(x, n, &s) == 0 ? s.mean : 0;
}

static void print_table(FILE *out, struct report *rep)
{
    fprintf(out, "%-22s %3s  %8s %8s %8s %7s  %8s %8s %8s %7s  %7s %7s\n", "kernel", "n",
            "time min", "mean", "max", "stddev", "MB/s min", "mean", "max", "stddev", "user",
            "sys");
    for (size_t i = 0; i < rep->nrows; i++) {
        struct kernel_rows *r = &rep->rows[i];
        struct lab_summary t, m;
        if (r->n == 0 || lab_summarize(r->secs, r->n, &t) < 0 ||
            lab_summarize(r->mbps, r->n, &m) < 0) {
            fprintf(out, "%-22s %3zu  (no samples)\n", r->kernel, r->n);
            continue;
        }
        fprintf(out, "%-22s %3zu  %8.3f %8.3f %8.3f %7.3f  %8.1f %8.1f %8.1f %7.2f  %7.3f %7.3f\n",
                r->kernel, r->n, t.min, t.mean, t.max, t.stddev, m.min, m.mean, m.max, m.stddev,
                mean_of(r->user, r->n), mean_of(r->sys, r->n));
    }
}

static void print_comparisons(FILE *out, struct report *rep)
{
    struct kernel_rows *base = &rep->rows[0];
    for (size_t i = 1; i < rep->nrows; i++) {
        struct kernel_rows *r = &rep->rows[i];
        struct lab_comparison c;
        if (lab_compare(base->mbps, base->n, r->mbps, r->n, &c) < 0) {
            fprintf(out, "%s vs %s: too few samples to compare (need 2 each)\n", r->kernel,
                    base->kernel);
            continue;
        }
        fprintf(out,
                "%s vs %s: MB/s %+.1f%% (95%% CI %+.1f%% .. %+.1f%%), Welch p=%.3g, "
                "Mann-Whitney p=%.3g, d=%.2f: %s\n",
                r->kernel, base->kernel, c.diff_pct, c.diff_ci_lo, c.diff_ci_hi, c.welch_p,
                c.mwu_p, c.cohen_d,
                c.significant ? (c.diff_pct < 0 ? "SLOWER (significant)" : "FASTER (significant)")
                              : "no significant difference");
    }
}

/* The guest's clock can lose ticks under emulation; the host's is the
 * reference. Say so when they disagree. */
static void check_clocks(FILE *out, struct report *rep)
{
    for (size_t i = 0; i < rep->nrows; i++) {
        struct kernel_rows *r = &rep->rows[i];
        double g = mean_of(r->secs, r->n), h = mean_of(r->host_secs, r->n);
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
    fprintf(out, "run %lld: %s", (long long)run, rep->experiment);
    if (rep->rows[0].bytes)
        fprintf(out, ", %.0f MiB per run", (double)rep->rows[0].bytes / (1 << 20));
    fprintf(out, " (time in s, guest clock; MB/s = 10^6 bytes/s)\n\n");
    print_table(out, rep);
    fputc('\n', out);
    print_comparisons(out, rep);
    check_clocks(out, rep);
    for (size_t i = 0; i < rep->nrows; i++)
        if (strcmp(rep->rows[i].status, "ok") != 0)
            fprintf(out, "%s: %s%s%s\n", rep->rows[i].kernel, rep->rows[i].status,
                    rep->rows[i].reason[0] ? ": " : "", rep->rows[i].reason);
out:
    for (size_t i = 0; i < rep->nrows; i++) {
        free(rep->rows[i].secs);
        free(rep->rows[i].mbps);
        free(rep->rows[i].user);
        free(rep->rows[i].sys);
        free(rep->rows[i].host_secs);
    }
    free(rep);
    return rc;
}
