/* Statistics that know about boots: see bootstats.h. */
#include "host/stats/bootstats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *lab_boot_method_name(enum lab_boot_method m)
{
    switch (m) {
    case LAB_BOOT_RUNS:
        return "runs";
    case LAB_BOOT_MEANS:
        return "boot-means";
    case LAB_BOOT_BOOTSTRAP:
        return "bootstrap";
    }
    return "?";
}

int lab_boot_variation(const double *x, const unsigned *boot, size_t n, struct lab_boot_var *v)
{
    memset(v, 0, sizeof *v);
    v->within_sd = v->between_sd = NAN;
    if (n == 0)
        return -1;
    double sum[LAB_BOOTS_MAX] = {0};
    for (size_t i = 0; i < n; i++) {
        unsigned k = 0;
        while (k < v->nboots && v->boot[k] != boot[i])
            k++;
        if (k == v->nboots) {
            if (v->nboots == LAB_BOOTS_MAX)
                return -1;
            v->boot[v->nboots++] = boot[i];
        }
        v->runs[k]++;
        sum[k] += x[i];
    }
    v->n = n;
    double gm = 0;
    for (unsigned k = 0; k < v->nboots; k++) {
        v->mean[k] = sum[k] / (double)v->runs[k];
        gm += v->mean[k];
    }
    v->grand_mean = gm / v->nboots;
    double ss = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned k = 0;
        while (v->boot[k] != boot[i])
            k++;
        ss += (x[i] - v->mean[k]) * (x[i] - v->mean[k]);
    }
    if (n > v->nboots)
        v->within_sd = sqrt(ss / (double)(n - v->nboots));
    if (v->nboots >= 2) {
        double sb = 0;
        for (unsigned k = 0; k < v->nboots; k++)
            sb += (v->mean[k] - v->grand_mean) * (v->mean[k] - v->grand_mean);
        v->between_sd = sqrt(sb / (v->nboots - 1));
    }
    return 0;
}

/* splitmix64: small, fast, and the same on every machine. */
static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static size_t below(uint64_t *s, size_t n)
{
    return (size_t)(next_u64(s) % n);
}

/* The runs of each boot, grouped: idx[off[k] .. off[k] + runs[k]). */
struct grouped {
    const struct lab_boot_var *v;
    double *vals;
    size_t off[LAB_BOOTS_MAX];
};

static void group(const double *x, const unsigned *boot, size_t n, const struct lab_boot_var *v,
                  struct grouped *g)
{
    size_t fill[LAB_BOOTS_MAX] = {0};
    g->v = v;
    g->vals = malloc(n * sizeof *g->vals);
    if (!g->vals)
        abort();
    for (unsigned k = 0, o = 0; k < v->nboots; o += (unsigned)v->runs[k], k++)
        g->off[k] = o;
    for (size_t i = 0; i < n; i++) {
        unsigned k = 0;
        while (v->boot[k] != boot[i])
            k++;
        g->vals[g->off[k] + fill[k]++] = x[i];
    }
}

/* One two-level resample: the mean of the means of nboots drawn boots,
 * each the mean of its runs drawn with replacement. */
static double resample(const struct grouped *g, uint64_t *s)
{
    const struct lab_boot_var *v = g->v;
    double total = 0;
    for (unsigned j = 0; j < v->nboots; j++) {
        size_t k = below(s, v->nboots), r = v->runs[k];
        double sum = 0;
        for (size_t i = 0; i < r; i++)
            sum += g->vals[g->off[k] + below(s, r)];
        total += sum / (double)r;
    }
    return total / v->nboots;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int lab_boot_compare(const double *a, const unsigned *boot_a, size_t na, const double *b,
                     const unsigned *boot_b, size_t nb, struct lab_boot_cmp *out)
{
    struct lab_boot_var va, vb;
    memset(out, 0, sizeof *out);
    if (lab_compare(a, na, b, nb, &out->c) < 0 || lab_boot_variation(a, boot_a, na, &va) < 0 ||
        lab_boot_variation(b, boot_b, nb, &vb) < 0)
        return -1;
    out->runs_p = out->p = out->c.welch_p;
    out->boots_a = va.nboots;
    out->boots_b = vb.nboots;
    out->method = LAB_BOOT_RUNS;
    if (va.nboots < 2 || vb.nboots < 2)
        return 0;
    if (va.nboots >= LAB_BOOT_MIN_MEANS && vb.nboots >= LAB_BOOT_MIN_MEANS) {
        struct lab_comparison m;
        if (lab_compare(va.mean, va.nboots, vb.mean, vb.nboots, &m) < 0)
            return 0;
        out->method = LAB_BOOT_MEANS;
        out->c.diff_pct = m.diff_pct;
        out->c.diff_ci_lo = m.diff_ci_lo;
        out->c.diff_ci_hi = m.diff_ci_hi;
        out->p = m.welch_p;
        out->c.significant = m.significant;
        return 0;
    }
    /* Two-level bootstrap of the relative change of the mean of boot means. */
    struct grouped ga, gb;
    group(a, boot_a, na, &va, &ga);
    group(b, boot_b, nb, &vb, &gb);
    double *d = malloc(LAB_BOOTSTRAP_ROUNDS * sizeof *d);
    if (!d)
        abort();
    uint64_t seed = 0x6c61622d626f6f74ULL; /* "lab-boot" */
    size_t below0 = 0, above0 = 0;
    for (size_t i = 0; i < LAB_BOOTSTRAP_ROUNDS; i++) {
        double ma = resample(&ga, &seed), mb = resample(&gb, &seed);
        d[i] = ma != 0 ? (mb - ma) / fabs(ma) * 100 : 0;
        below0 += d[i] <= 0;
        above0 += d[i] >= 0;
    }
    qsort(d, LAB_BOOTSTRAP_ROUNDS, sizeof *d, cmp_double);
    out->method = LAB_BOOT_BOOTSTRAP;
    out->c.diff_pct =
        va.grand_mean != 0 ? (vb.grand_mean - va.grand_mean) / fabs(va.grand_mean) * 100 : 0;
    out->c.diff_ci_lo = d[(size_t)(0.025 * LAB_BOOTSTRAP_ROUNDS)];
    out->c.diff_ci_hi = d[(size_t)(0.975 * LAB_BOOTSTRAP_ROUNDS) - 1];
    size_t tail = below0 < above0 ? below0 : above0;
    out->p = fmin(1.0, 2.0 * (double)(tail + 1) / (LAB_BOOTSTRAP_ROUNDS + 1));
    out->c.significant = out->p < LAB_STATS_ALPHA;
    free(d);
    free(ga.vals);
    free(gb.vals);
    return 0;
}
