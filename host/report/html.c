/* The HTML report: a page of <figure>s, each an inline SVG chart from
 * host/report/svg.c with a caption saying what is drawn. Every number comes from
 * the run model (as the table's), the trace files and the bisection table. */
#include "host/report/html.h"
#include "host/bisect/bisect.h"
#include "host/bisect/store_bisect.h"
#include "host/report/seedhtml.h"
#include "host/report/table.h"
#include "host/stats/runmodel.h"
#include "host/store/store.h"
#include "host/report/svg.h"
#include "host/report/trace.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/str.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KERNELS 16
#define MAX_POINTS  20000 /* a timeline with more requests is thinned */

static const char css[] =
    "body{font:14px/1.4 sans-serif;margin:2em auto;max-width:1340px;padding:0 1em;color:#222}"
    "h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em}"
    "figure{display:inline-block;margin:.5em 1em 1em 0;vertical-align:top}"
    "figcaption{font-size:12px;color:#555;max-width:640px}"
    "pre{font-size:11px;background:#f6f6f6;padding:.5em;overflow-x:auto}"
    ".cmd{font-family:monospace;font-size:12px;color:#555}"
    "svg text{font:11px sans-serif;fill:#333}svg text.title{font-size:13px;font-weight:bold}"
    "svg .grid{stroke:#e4e4e4}svg .axis{stroke:#888}svg .ref{stroke:#777;stroke-dasharray:4 3}"
    "svg .line{stroke-width:2}svg .err{stroke-width:1.5;fill:none}"
    "table.seed{border-collapse:collapse;font-size:12px;margin:.5em 0}"
    "table.seed td,table.seed th{border:1px solid #ddd;padding:2px 6px;text-align:left}";

struct page {
    FILE *f;
    struct lab_store *st;
    int figures;
};

static void put_text(FILE *f, const char *s)
{
    char *e = lab_svg_escape(s);
    fputs(e, f);
    free(e);
}

static void figure(struct page *p, char *svg, const char *caption)
{
    fprintf(p->f, "<figure class=\"plot\">\n%s<figcaption>", svg);
    put_text(p->f, caption);
    fprintf(p->f, "</figcaption></figure>\n");
    free(svg);
    p->figures++;
}

/* Kernels in order of first appearance: each keeps one color everywhere. */
static int kernel_color(const struct lab_model *m, const char *kernel)
{
    int k = 0;
    for (size_t i = 0; i < m->nrows; i++) {
        size_t j = 0;
        while (j < i && strcmp(m->rows[j].kernel, m->rows[i].kernel) != 0)
            j++;
        if (j < i)
            continue; /* seen before */
        if (strcmp(m->rows[i].kernel, kernel) == 0)
            return k;
        k++;
    }
    return k;
}

/* Per row: each counted run as a small dot, spread across the row's slot,
 * and the mean with its 95% CI as a large dot with an error bar. */
static void distribution(struct page *p, const struct lab_model *m, const struct lab_column *col)
{
    size_t nr = m->nrows, total = 0;
    const char **cats = lab_xcalloc(nr, sizeof *cats);
    struct lab_series *s = lab_xcalloc(nr + 1, sizeof *s);
    double *mean = lab_xcalloc(nr, sizeof(double)), *lo = lab_xcalloc(nr, sizeof(double));
    double *hi = lab_xcalloc(nr, sizeof(double));
    for (size_t i = 0; i < nr; i++)
        total += m->rows[i].n;
    double *xs = lab_xcalloc(total + 1, sizeof(double)), *x = xs;
    for (size_t i = 0; i < nr; i++) {
        const struct lab_model_row *r = &m->rows[i];
        struct lab_summary sum;
        cats[i] = r->label;
        mean[i] = lo[i] = hi[i] = NAN;
        if (lab_model_summary(r, col->m, &sum) == 0) {
            mean[i] = sum.mean;
            lo[i] = sum.ci_lo;
            hi[i] = sum.ci_hi;
        }
        for (size_t k = 0; k < r->n; k++)
            x[k] = (double)i - 0.3 + 0.2 * ((double)k + 0.5) / (double)r->n;
        s[i] = (struct lab_series){.kind = LAB_SERIES_POINTS,
                                   .x = x,
                                   .y = r->v[col->m],
                                   .n = r->n,
                                   .color = kernel_color(m, r->kernel),
                                   .radius = 2};
        x += r->n;
    }
    s[nr] = (struct lab_series){.name = "mean, 95% CI",
                                .kind = LAB_SERIES_POINTS,
                                .y = mean,
                                .lo = lo,
                                .hi = hi,
                                .n = nr,
                                .color = 9,
                                .radius = 4.5};
    char title[160], ylabel[64], caption[320];
    snprintf(title, sizeof title, "run %lld: %s per row", (long long)m->run, col->title);
    if (strcmp(col->title, lab_fig_unit(col->m)) == 0) /* "MB/s (MB/s)" says it twice */
        snprintf(ylabel, sizeof ylabel, "%s", col->title);
    else
        snprintf(ylabel, sizeof ylabel, "%s (%s)", col->title, lab_fig_unit(col->m));
    snprintf(caption, sizeof caption,
             "%s of each counted run (small dots, left; warm-ups left out) and the mean with its "
             "95%% confidence interval (large dot and bar), per row of the table.",
             col->title);
    struct lab_chart c = {.title = title,
                          .ylabel = ylabel,
                          .categories = cats,
                          .ncategories = nr,
                          .width = nr > 6 ? 900 : 640};
    figure(p, lab_svg_chart(&c, s, nr + 1), caption);
    free(cats);
    free(s);
    free(mean);
    free(lo);
    free(hi);
    free(xs);
}

/* A readahead sweep: per kernel, the compared figure's mean (95% CI)
 * against the readahead setting. */
static void sweep(struct page *p, const struct lab_model *m)
{
    struct lab_series s[MAX_KERNELS];
    double x[MAX_KERNELS][LAB_MODEL_MAX_ROWS], y[MAX_KERNELS][LAB_MODEL_MAX_ROWS];
    double lo[MAX_KERNELS][LAB_MODEL_MAX_ROWS], hi[MAX_KERNELS][LAB_MODEL_MAX_ROWS];
    size_t ns = 0;
    enum lab_fig f = m->shape->compare;
    for (size_t i = 0; i < m->nrows; i++) {
        const struct lab_model_row *r = &m->rows[i];
        struct lab_summary sum;
        int k = kernel_color(m, r->kernel);
        if (k >= MAX_KERNELS || r->ra < 0 || lab_model_summary(r, f, &sum) < 0)
            continue;
        if ((size_t)k >= ns) {
            for (; ns <= (size_t)k; ns++)
                s[ns] = (struct lab_series){.kind = LAB_SERIES_LINE, .color = (int)ns};
            s[k].name = r->kernel;
        }
        size_t n = s[k].n++;
        x[k][n] = (double)r->ra;
        y[k][n] = sum.mean;
        lo[k][n] = sum.ci_lo;
        hi[k][n] = sum.ci_hi;
        s[k].x = x[k];
        s[k].y = y[k];
        s[k].lo = lo[k];
        s[k].hi = hi[k];
    }
    char title[128], ylabel[64];
    snprintf(title, sizeof title, "run %lld: readahead sweep", (long long)m->run);
    snprintf(ylabel, sizeof ylabel, "%s (mean, 95%% CI)", m->shape->compare_name);
    struct lab_chart c = {.title = title,
                          .xlabel = "readahead (sectors of 512 B, log scale)",
                          .ylabel = ylabel,
                          .x_log2 = 1,
                          .y_from_zero = 1};
    figure(p, lab_svg_chart(&c, s, ns),
           "Per kernel, the mean of the compared figure at each readahead setting with its 95% "
           "confidence interval.");
}

/* contest's Ratio: per load, one bar per kernel. */
static void ratio_bars(struct page *p, const struct lab_model *m)
{
    const char *loads[LAB_MODEL_MAX_ROWS];
    double y[MAX_KERNELS][LAB_MODEL_MAX_ROWS];
    struct lab_series s[MAX_KERNELS];
    size_t nl = 0, ns = 0;
    for (size_t i = 0; i < m->nrows; i++) {
        size_t l = 0;
        while (l < nl && strcmp(loads[l], m->rows[i].variant) != 0)
            l++;
        if (l == nl)
            loads[nl++] = m->rows[i].variant;
    }
    for (size_t k = 0; k < MAX_KERNELS; k++)
        for (size_t l = 0; l < nl; l++)
            y[k][l] = NAN;
    for (size_t i = 0; i < m->nrows; i++) {
        const struct lab_model_row *r = &m->rows[i];
        struct lab_summary sum;
        int k = kernel_color(m, r->kernel);
        size_t l = 0;
        while (strcmp(loads[l], r->variant) != 0)
            l++;
        if (k >= MAX_KERNELS)
            continue;
        for (; ns <= (size_t)k; ns++)
            s[ns] =
                (struct lab_series){.kind = LAB_SERIES_BARS, .y = y[ns], .n = nl, .color = (int)ns};
        s[k].name = r->kernel;
        if (lab_model_summary(r, LAB_FIG_RATIO, &sum) == 0)
            y[k][l] = sum.mean;
    }
    char title[128];
    snprintf(title, sizeof title, "run %lld: contest Ratio", (long long)m->run);
    struct lab_chart c = {.title = title,
                          .ylabel = "time under load / time with no load",
                          .categories = loads,
                          .ncategories = nl};
    figure(p, lab_svg_chart(&c, s, ns),
           "contest's Ratio: the foreground job's mean time under each load over the same "
           "kernel's mean time with no load.");
}

/* ---- the era disk's traces ---- */

struct traced {
    char kernel[128];
    struct lab_trace_request *reqs;
    size_t n;
};

static int read_trace(struct page *p, const struct lab_cell_info *ci, struct traced *t)
{
    char path[4096], err[128];
    if (!lab_store_cell_get(p->st, ci->id, "trace", path, sizeof path))
        return 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        lab_warn("cannot open the trace %s; its plots are left out", path);
        return 0;
    }
    int rc =
        lab_trace_read(f, lab_trace_cell_window(p->st, ci), &t->reqs, &t->n, err, sizeof err);
    fclose(f);
    if (rc < 0) {
        lab_warn("%s:%s; its plots are left out", path, err);
        return 0;
    }
    /* Times are on the host's monotonic clock: a trace written by another
     * run (a log directory reused) has none inside this cell's window. */
    if (t->n == 0) {
        free(t->reqs);
        lab_warn("%s has no request during the counted runs of cell %lld; its plots are left out",
                 path, (long long)ci->id);
        return 0;
    }
    snprintf(t->kernel, sizeof t->kernel, "%s", ci->kernel);
    return 1;
}

struct trace_ctx {
    struct page *p;
    struct traced cells[MAX_KERNELS];
    size_t n;
};

static int collect_trace(const struct lab_cell_info *ci, void *arg)
{
    struct trace_ctx *t = arg;
    if (t->n < MAX_KERNELS && read_trace(t->p, ci, &t->cells[t->n]))
        t->n++;
    return 0;
}

static void size_label(char *buf, size_t len, uint64_t bytes)
{
    if (bytes >= 1024)
        snprintf(buf, len, "%llu KiB", (unsigned long long)(bytes >> 10));
    else
        snprintf(buf, len, "%llu B", (unsigned long long)bytes);
}

/* Share of requests per size bucket, one bar per traced cell; buckets no
 * cell used are left out. */
static void size_histogram(struct page *p, int64_t run, const struct trace_ctx *t)
{
    uint64_t hist[MAX_KERNELS][LAB_TRACE_SIZE_BUCKETS] = {{0}}, total[MAX_KERNELS] = {0};
    double y[MAX_KERNELS][LAB_TRACE_SIZE_BUCKETS];
    char labels[LAB_TRACE_SIZE_BUCKETS][32];
    const char *cats[LAB_TRACE_SIZE_BUCKETS];
    int used[LAB_TRACE_SIZE_BUCKETS] = {0};
    struct lab_series s[MAX_KERNELS];
    size_t nb = 0;
    for (size_t k = 0; k < t->n; k++)
        for (size_t i = 0; i < t->cells[k].n; i++) {
            const struct lab_trace_request *r = &t->cells[k].reqs[i];
            int b = 0;
            if (r->op > 1)
                continue; /* flushes carry no size */
            while (b < LAB_TRACE_SIZE_BUCKETS - 1 && r->length >= lab_trace_bucket_bytes(b + 1))
                b++;
            hist[k][b]++;
            total[k]++;
            used[b] = 1;
        }
    for (int b = 0; b < LAB_TRACE_SIZE_BUCKETS; b++) {
        if (!used[b])
            continue;
        size_label(labels[nb], sizeof labels[nb], lab_trace_bucket_bytes(b));
        cats[nb] = labels[nb];
        for (size_t k = 0; k < t->n; k++)
            y[k][nb] = total[k] ? 100.0 * (double)hist[k][b] / (double)total[k] : 0;
        nb++;
    }
    for (size_t k = 0; k < t->n; k++)
        s[k] = (struct lab_series){.name = t->cells[k].kernel,
                                   .kind = LAB_SERIES_BARS,
                                   .y = y[k],
                                   .n = nb,
                                   .color = (int)k};
    char title[128];
    snprintf(title, sizeof title, "run %lld: request sizes at the era disk", (long long)run);
    struct lab_chart c = {.title = title,
                          .xlabel = "request size (at least)",
                          .ylabel = "% of reads and writes",
                          .categories = cats,
                          .ncategories = nb};
    figure(p, lab_svg_chart(&c, s, t->n),
           "Requests the guest kernel sent to the era disk during the counted runs, by size, "
           "from the hdd filter's trace.");
}

/* Service time of each request (the drive's, queueing excluded) against
 * its arrival: seeks and cache misses stand out as the upper band. */
static void timeline(struct page *p, int64_t run, const struct traced *tc, int color)
{
    size_t step = tc->n > MAX_POINTS ? (tc->n + MAX_POINTS - 1) / MAX_POINTS : 1;
    size_t n = tc->n / step;
    double *x = lab_xcalloc(n + 1, sizeof(double)), *y = lab_xcalloc(n + 1, sizeof(double));
    int64_t t0 = tc->n ? tc->reqs[0].arrival : 0;
    for (size_t i = 0; i < n; i++) {
        const struct lab_trace_request *r = &tc->reqs[i * step];
        x[i] = (double)(r->arrival - t0) / 1e9;
        y[i] = (double)(r->finish - r->start) / 1e6;
    }
    struct lab_series s = {.name = tc->kernel,
                           .kind = LAB_SERIES_POINTS,
                           .x = x,
                           .y = y,
                           .n = n,
                           .color = color,
                           .radius = 1.5};
    char title[192], caption[256];
    snprintf(title, sizeof title, "run %lld, %s: service time per request", (long long)run,
             tc->kernel);
    snprintf(caption, sizeof caption,
             "Each of %zu requests%s of %s during the counted runs: the drive's service time "
             "against its arrival.",
             tc->n, step > 1 ? " (thinned)" : "", tc->kernel);
    struct lab_chart c = {.title = title,
                          .xlabel = "arrival (s after the first counted request)",
                          .ylabel = "service time (ms)",
                          .y_from_zero = 1};
    figure(p, lab_svg_chart(&c, &s, 1), caption);
    free(x);
    free(y);
}

static void traces(struct page *p, int64_t run)
{
    struct trace_ctx t = {.p = p};
    lab_store_foreach_cell(p->st, run, collect_trace, &t);
    if (t.n)
        size_histogram(p, run, &t);
    for (size_t k = 0; k < t.n; k++) {
        timeline(p, run, &t.cells[k], (int)k);
        free(t.cells[k].reqs);
    }
}

/* ---- a bisection's steps ---- */

/* The bisection recorded in this run, or 1 if none. */
static int find_bisection(struct lab_store *st, int64_t run, struct lab_bisect_info *info,
                          struct lab_bisect_step **steps, size_t *n)
{
    struct lab_bisect_info newest;
    struct lab_bisect_step *s;
    size_t ns;
    if (lab_store_bisect_load(st, -1, &newest, &s, &ns) != 0)
        return 1;
    free(s);
    for (int64_t id = newest.id; id > 0; id--) {
        if (lab_store_bisect_load(st, id, info, steps, n) != 0)
            continue;
        if (info->run == run)
            return 0;
        free(*steps);
    }
    return 1;
}

static int verdict_color(enum lab_bisect_verdict v)
{
    return v == LAB_BISECT_GOOD ? 4 : v == LAB_BISECT_BAD ? 2 : 9;
}

static void bisection(struct page *p, int64_t run)
{
    struct lab_bisect_info info;
    struct lab_bisect_step *st;
    size_t n;
    if (find_bisection(p->st, run, &info, &st, &n) != 0)
        return;
    char(*labels)[48] = lab_xcalloc(n + 1, sizeof *labels);
    const char **cats = lab_xcalloc(n + 1, sizeof *cats);
    struct lab_series *s = lab_xcalloc(n + 1, sizeof *s);
    double *x = lab_xcalloc(n + 1, sizeof(double)), *y = lab_xcalloc(n + 1, sizeof(double));
    double *lo = lab_xcalloc(n + 1, sizeof(double)), *hi = lab_xcalloc(n + 1, sizeof(double));
    double refs[2] = {NAN, NAN};
    for (size_t i = 0; i < n; i++) {
        if (st[i].step)
            snprintf(labels[i], sizeof labels[i], "%d %.8s", st[i].step, st[i].commit);
        else
            snprintf(labels[i], sizeof labels[i], "%s %.8s", st[i].role, st[i].commit);
        cats[i] = labels[i];
        x[i] = (double)i;
        y[i] = st[i].sum.n ? st[i].sum.mean : NAN;
        lo[i] = st[i].sum.ci_lo;
        hi[i] = st[i].sum.ci_hi;
        if (!st[i].step)
            refs[strcmp(st[i].role, "bad") == 0] = y[i];
        s[i] = (struct lab_series){.name = lab_bisect_verdict_name(st[i].verdict),
                                   .kind = LAB_SERIES_POINTS,
                                   .x = &x[i],
                                   .y = &y[i],
                                   .lo = &lo[i],
                                   .hi = &hi[i],
                                   .n = 1,
                                   .color = verdict_color(st[i].verdict),
                                   .radius = 4.5};
    }
    static const char *const ref_labels[] = {"good", "bad"};
    char title[160], ylabel[64];
    snprintf(title, sizeof title, "bisection %lld: %s %s, %s", (long long)info.id, info.experiment,
             info.metric, info.status);
    const struct lab_metric *met = lab_metric_find(info.metric);
    snprintf(ylabel, sizeof ylabel, "%s (mean, 95%% CI)", met ? met->unit : info.metric);
    struct lab_chart c = {.title = title,
                          .ylabel = ylabel,
                          .categories = cats,
                          .ncategories = n,
                          .hlines = refs,
                          .hline_labels = ref_labels,
                          .nhlines = 2,
                          .width = n > 5 ? 900 : 640};
    figure(p, lab_svg_chart(&c, s, n),
           "Each step's mean with its 95% confidence interval, colored by its verdict, against "
           "the good and bad endpoints' means (dashed).");
    free(labels);
    free(cats);
    free(s);
    free(x);
    free(y);
    free(lo);
    free(hi);
    free(st);
}

/* ---- the page ---- */

static int run_header(const struct lab_run_info *r, void *arg)
{
    struct page *p = arg;
    fprintf(p->f, "<h2>Run %lld: ", (long long)r->id);
    put_text(p->f, r->experiment ? r->experiment : "?");
    fprintf(p->f, " on ");
    put_text(p->f, r->profile ? r->profile : "?");
    fprintf(p->f, " (%s)</h2>\n<p class=\"cmd\">", r->status ? r->status : "running");
    put_text(p->f, r->command_line);
    fprintf(p->f, "</p>\n");
    return 0;
}

static void table(struct page *p, int64_t run)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    lab_report_run(f, p->st, run);
    fclose(f);
    fprintf(p->f, "<details open><summary>The table (lab show %lld)</summary><pre>",
            (long long)run);
    put_text(p->f, text);
    fprintf(p->f, "</pre></details>\n");
    free(text);
}

static int write_run(struct page *p, int64_t run)
{
    struct lab_model *m = lab_model_load(p->st, run);
    if (!m)
        return -1;
    fprintf(p->f, "<section class=\"run\" id=\"run-%lld\">\n", (long long)run);
    lab_store_get_run(p->st, run, run_header, p);
    /* The headline first (a sweep's curves, contest's Ratio, the compared
     * figure), then the era disk's view, then the table's other figures. */
    if (m->sweep)
        sweep(p, m);
    if (strcmp(m->test, "contest") == 0)
        ratio_bars(p, m);
    for (const struct lab_column *c = m->shape->cols; c->title; c++)
        if (c->m == m->shape->compare)
            distribution(p, m, c);
    traces(p, run);
    for (const struct lab_column *c = m->shape->cols; c->title; c++)
        if (c->m != m->shape->compare)
            distribution(p, m, c);
    bisection(p, run);
    lab_seed_html(p->f, m);
    table(p, run);
    fprintf(p->f, "</section>\n");
    lab_model_free(m);
    return 0;
}

int lab_html_report(const char *store_path, const int64_t *runs, size_t nruns, const char *dir)
{
    struct page p = {0};
    char *path = lab_asprintf("%s/index.html", dir);
    int rc = -1;
    if (lab_mkdir_p(dir, 0755) < 0 || lab_store_open(store_path, &p.st) < 0)
        goto out;
    if (!(p.f = fopen(path, "w"))) {
        lab_error("cannot write %s", path);
        goto out;
    }
    fprintf(p.f,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            "<title>lab report</title>\n<style>%s</style></head><body>\n<h1>lab report: run",
            css);
    for (size_t i = 0; i < nruns; i++)
        fprintf(p.f, "%s %lld", i ? "," : nruns > 1 ? "s" : "", (long long)runs[i]);
    fprintf(p.f, "</h1>\n");
    for (size_t i = 0; i < nruns; i++)
        if (write_run(&p, runs[i]) < 0)
            goto out;
    fprintf(p.f, "</body></html>\n");
    rc = p.figures;
out:
    if (p.f && fclose(p.f) != 0 && rc >= 0)
        rc = lab_error("cannot write %s", path);
    lab_store_close(p.st);
    free(path);
    return rc;
}
