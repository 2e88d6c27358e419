/* Summaries of the hdd filter's per-request traces. */
#include "host/report/trace.h"
#include "host/store/store.h"
#include "host/plan/warmup.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define req lab_trace_request

static const char *const op_names[] = {"read", "write", "flush"};
static const char *const outcome_names[] = {"hit", "partial", "miss"};

static int lookup(const char *word, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(word, names[i]) == 0)
            return i;
    return n;
}

struct window_ctx {
    struct lab_warmup warmup;
    struct lab_trace_window w;
};

static int widen(const struct lab_sample *s, void *arg)
{
    struct window_ctx *c = arg;
    if (lab_warmup_is(c->warmup, (uint64_t)s->rep) || !s->host_begin_ns)
        return 0;
    if (!c->w.from_ns || s->host_begin_ns < c->w.from_ns)
        c->w.from_ns = s->host_begin_ns;
    if (s->host_end_ns > c->w.to_ns)
        c->w.to_ns = s->host_end_ns;
    return 0;
}

struct lab_trace_window lab_trace_cell_window(struct lab_store *st, const struct lab_cell_info *ci)
{
    struct window_ctx c = {lab_warmup_of_cell(st, ci->id, ci->params), {0}};
    lab_store_foreach_sample(st, ci->id, widen, &c);
    return c.w;
}

uint64_t lab_trace_bucket_bytes(int i)
{
    return 512ULL << i;
}

static int bucket_of(uint64_t len)
{
    int b = 0;
    while (b < LAB_TRACE_SIZE_BUCKETS - 1 && len >= lab_trace_bucket_bytes(b + 1))
        b++;
    return b;
}

static int by_arrival(const void *a, const void *b)
{
    const struct req *x = a, *y = b;
    return (x->arrival > y->arrival) - (x->arrival < y->arrival);
}

/* Sums of ns over a whole trace: saturate rather than overflow. */
static void add_ns(int64_t *sum, int64_t v)
{
    if (__builtin_add_overflow(*sum, v, sum))
        *sum = INT64_MAX;
}

static void account(struct lab_trace_summary *s, const struct req *r, const struct req *prev,
                    int64_t *busy_until)
{
    s->requests++;
    if (r->op == 0 || r->op == 1) {
        s->size_hist[bucket_of(r->length)]++;
        if (prev && prev->offset + prev->length == r->offset)
            s->sequential++;
    }
    if (r->op == 0) {
        s->reads++;
        s->bytes_read += r->length;
        s->hits += r->outcome == 0;
        s->partial += r->outcome == 1;
        s->misses += r->outcome == 2;
    } else if (r->op == 1) {
        s->writes++;
        s->bytes_written += r->length;
    } else if (r->op == 2) {
        s->flushes++;
    }
    if (prev && r->arrival > *busy_until) {
        s->idle_gaps++;
        add_ns(&s->idle_ns, r->arrival - *busy_until);
    }
    if (r->finish > *busy_until)
        *busy_until = r->finish;
    add_ns(&s->service_ns, r->finish - r->start);
    add_ns(&s->wait_ns, r->start - r->arrival);
}

/* One request line. Times are ns after t0, never negative, and small
 * enough that t0 + finish and every difference fit in an int64_t (a trace
 * is the lab's own file, but one cut short or edited must not overflow). */
static int parse_request(const char *line, int64_t t0, struct req *r, char *op, char *outcome)
{
    if (sscanf(line, "%15s %" SCNu64 " %" SCNu64 " %" SCNd64 " %" SCNd64 " %" SCNd64 " %15s", op,
               &r->offset, &r->length, &r->arrival, &r->start, &r->finish, outcome) != 7)
        return -1;
    if (r->arrival < 0 || r->start < r->arrival || r->finish < r->start ||
        r->finish > INT64_MAX / 2 - t0 || r->length > (1ULL << 40) ||
        r->offset > UINT64_MAX - r->length)
        return -1;
    return 0;
}

int lab_trace_read(FILE *in, struct lab_trace_window window, struct lab_trace_request **out,
                   size_t *nout, char *err, size_t errlen)
{
    char line[512], op[16], outcome[16];
    size_t n = 0, cap = 0;
    struct req *reqs = NULL;
    int lineno = 0;
    int64_t t0 = 0;

    while (fgets(line, sizeof line, in)) {
        struct req r;
        lineno++;
        if (line[0] == '#') {
            if (sscanf(line, "# t0_ns=%" SCNd64, &t0) == 1 && (t0 < 0 || t0 > INT64_MAX / 2)) {
                snprintf(err, errlen, "%d: t0_ns out of range", lineno);
                free(reqs);
                return -1;
            }
            continue;
        }
        if (parse_request(line, t0, &r, op, outcome) < 0) {
            snprintf(err, errlen, "%d: malformed trace line", lineno);
            free(reqs);
            return -1;
        }
        if (window.to_ns && (t0 + r.arrival < window.from_ns || t0 + r.arrival > window.to_ns))
            continue;
        r.op = lookup(op, op_names, 3);
        r.outcome = lookup(outcome, outcome_names, 3);
        if (n == cap) {
            cap = cap ? cap * 2 : 1024;
            reqs = realloc(reqs, cap * sizeof *reqs);
            if (!reqs)
                abort();
        }
        reqs[n++] = r;
    }
    /* Lines are written at completion; the request pattern is in arrival order. */
    if (n)
        qsort(reqs, n, sizeof *reqs, by_arrival);
    *out = reqs;
    *nout = n;
    return 0;
}

int lab_trace_summarize(FILE *in, struct lab_trace_window window, struct lab_trace_summary *out,
                        char *err, size_t errlen)
{
    struct req *reqs;
    size_t n;
    memset(out, 0, sizeof *out);
    if (lab_trace_read(in, window, &reqs, &n, err, errlen) < 0)
        return -1;
    int64_t busy_until = 0;
    for (size_t i = 0; i < n; i++)
        account(out, &reqs[i], i ? &reqs[i - 1] : NULL, &busy_until);
    if (n)
        out->span_ns = busy_until - reqs[0].arrival;
    free(reqs);
    return 0;
}

static double pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

void lab_trace_print(FILE *out, const struct lab_trace_summary *s)
{
    uint64_t rw = s->reads + s->writes;
    fprintf(out,
            "%" PRIu64 " requests: %" PRIu64 " reads (%.1f MiB), %" PRIu64
            " writes (%.1f MiB), %" PRIu64 " flushes, over %.3f s\n",
            s->requests, s->reads, (double)s->bytes_read / (1 << 20), s->writes,
            (double)s->bytes_written / (1 << 20), s->flushes, (double)s->span_ns / 1e9);
    fprintf(out, "  request size      count   share\n");
    for (int i = 0; i < LAB_TRACE_SIZE_BUCKETS; i++) {
        uint64_t b = lab_trace_bucket_bytes(i);
        if (!s->size_hist[i])
            continue;
        fprintf(out, "  %s%6" PRIu64 " %s  %8" PRIu64 "  %5.1f%%\n",
                i == LAB_TRACE_SIZE_BUCKETS - 1 ? ">=" : "  ", b >= 1024 ? b >> 10 : b,
                b >= 1024 ? "KiB" : "B  ", s->size_hist[i], pct(s->size_hist[i], rw));
    }
    fprintf(out, "  sequential        %5.1f%% of reads and writes start where the previous ended\n",
            pct(s->sequential, rw));
    fprintf(out, "  drive cache       %5.1f%% hit, %.1f%% partial, %.1f%% miss (reads)\n",
            pct(s->hits, s->reads), pct(s->partial, s->reads), pct(s->misses, s->reads));
    fprintf(out,
            "  idle gaps         %" PRIu64
            ", mean %.2f ms, %.1f%% of the span: the drive waited for "
            "the kernel\n",
            s->idle_gaps, s->idle_gaps ? (double)s->idle_ns / (double)s->idle_gaps / 1e6 : 0.0,
            s->span_ns ? 100.0 * (double)s->idle_ns / (double)s->span_ns : 0.0);
    fprintf(out, "  per request       %.3f ms service, %.3f ms queued\n",
            s->requests ? (double)s->service_ns / (double)s->requests / 1e6 : 0.0,
            s->requests ? (double)s->wait_ns / (double)s->requests / 1e6 : 0.0);
}
