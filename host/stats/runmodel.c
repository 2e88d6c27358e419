/* A stored run read into rows and comparisons. Each test has its own shape
 * (a table of columns, not code per test); every number comes from samples. */
#include "host/stats/runmodel.h"
#include "common/msg.h"
#include "common/str.h"

#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* A missing key counts as 0 where a figure adds it up. */
static double extra_or_0(const char *extra, const char *key)
{
    double v = lab_extra_num(extra, key);
    return v > 0 ? v : 0;
}

/* The CPU split of a run from /proc/stat's counters; zeros without them. */
static void cpu_shares(const char *extra, double out[4])
{
    double user = lab_extra_num(extra, "cpu_user") + extra_or_0(extra, "cpu_nice");
    double sys = lab_extra_num(extra, "cpu_system") + extra_or_0(extra, "cpu_irq") +
                 extra_or_0(extra, "cpu_softirq");
    double idle = lab_extra_num(extra, "cpu_idle"), iowait = extra_or_0(extra, "cpu_iowait");
    double total = user + sys + idle + iowait + extra_or_0(extra, "cpu_steal");
    if (isnan(total) || user < 0 || total <= 0) {
        out[0] = out[1] = out[2] = out[3] = 0;
        return;
    }
    out[0] = 100 * user / total;
    out[1] = 100 * sys / total;
    out[2] = 100 * idle / total;
    out[3] = iowait > 0 ? 100 * iowait / total : 0;
}

/* The row a sample belongs to: its kernel and variant's (the row of the
 * cell being read), or in a sweep theirs at its readahead (a new row the
 * first time a setting is seen). */
static struct lab_model_row *row_for(struct lab_model *rep, const struct lab_sample *s)
{
    double ra_sectors = lab_extra_num(s->extra, "ra_sectors");
    long ra = rep->sweep && !isnan(ra_sectors) ? (long)ra_sectors : -1;
    const struct lab_model_row *cur = rep->cur;
    struct lab_model_row *base = NULL;
    if (!cur)
        return NULL;
    for (size_t i = 0; i < rep->nrows; i++) {
        struct lab_model_row *r = &rep->rows[i];
        if (strcmp(r->kernel, cur->kernel) != 0 || strcmp(r->variant, cur->variant) != 0)
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
        r->boot = NULL;
        r->flag = NULL;
        r->nboots = 0;
        r->flagged = 0;
        r->contended = 0;
        r->n = 0;
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
    if (!r)
        return 0;
    if (lab_warmup_is(rep->cur_warmup, (uint64_t)s->rep))
        return 0;
    int flagged = lab_extra_num(s->extra, "host_flag") > 0;
    r->flagged += flagged; /* too much contention: left out once the row has enough others */
    cpu_shares(s->extra, cpu);
    double count = extra_or_0(s->extra, "count");
    double values[LAB_FIG_COUNT] = {
        [LAB_FIG_SECS] = secs,
        [LAB_FIG_MBPS] = secs > 0 ? (double)s->bytes / secs / 1e6 : 0,
        [LAB_FIG_IOPS] = secs > 0 && count > 0 ? count / secs : 0,
        [LAB_FIG_USER] = (double)s->user_ns / 1e9,
        [LAB_FIG_SYS] = (double)s->sys_ns / 1e9,
        [LAB_FIG_LAT_MEAN] = extra_or_0(s->extra, "lat_mean_ns") / 1e6,
        [LAB_FIG_LAT_P50] = extra_or_0(s->extra, "lat_p50_ns") / 1e6,
        [LAB_FIG_LAT_P99] = extra_or_0(s->extra, "lat_p99_ns") / 1e6,
        [LAB_FIG_CPU_USER] = cpu[0],
        [LAB_FIG_CPU_SYS] = cpu[1],
        [LAB_FIG_CPU_IDLE] = cpu[2],
        [LAB_FIG_CPU_IOWAIT] = cpu[3],
        [LAB_FIG_HOST_SECS] = (double)(s->host_end_ns - s->host_begin_ns) / 1e9,
        [LAB_FIG_FILES] = extra_or_0(s->extra, "files"),
        [LAB_FIG_LOADS] = extra_or_0(s->extra, "load_units"),
        [LAB_FIG_FG_CPU] = secs > 0 ? 100.0 * (double)(s->user_ns + s->sys_ns) / 1e9 / secs : 0,
        [LAB_FIG_OPS] = secs > 0 ? extra_or_0(s->extra, "ops") / secs : 0,
        [LAB_FIG_LOAD_MB] = extra_or_0(s->extra, "load_bytes") / 1e6,
    };
    /* The load's CPU: what /proc/stat saw busy beyond the foreground's own. */
    values[LAB_FIG_LOAD_CPU] = cpu[0] + cpu[1] - values[LAB_FIG_FG_CPU];
    if (values[LAB_FIG_LOAD_CPU] < 0)
        values[LAB_FIG_LOAD_CPU] = 0;
    r->n++;
    r->boot = realloc(r->boot, r->n * sizeof *r->boot);
    if (!r->boot)
        abort();
    r->boot[r->n - 1] = rep->cur_boot;
    r->flag = realloc(r->flag, r->n * sizeof *r->flag);
    if (!r->flag)
        abort();
    r->flag[r->n - 1] = (unsigned char)flagged;
    int new_boot = 1;
    for (size_t k = 0; k + 1 < r->n; k++)
        new_boot &= r->boot[k] != rep->cur_boot;
    r->nboots += new_boot; /* recounted by drop_flagged */
    for (int m = 0; m < LAB_FIG_COUNT; m++) {
        r->v[m] = realloc(r->v[m], r->n * sizeof *r->v[m]);
        if (!r->v[m])
            abort();
        r->v[m][r->n - 1] = values[m];
    }
    r->bytes = s->bytes;
    return 0;
}

/* The cell's calibration loop (host/cell/cpucheck.h), into its row's range. */
static void note_mips(struct lab_store *st, int64_t cell, struct lab_model_row *r)
{
    char buf[32];
    if (!lab_store_cell_get(st, cell, "cpu_mips", buf, sizeof buf))
        return;
    double m = atof(buf);
    if (!r->nmips || m < r->mips_min)
        r->mips_min = m;
    if (!r->nmips || m > r->mips_max)
        r->mips_max = m;
    r->nmips++;
}

/* The cell's IDE transfer mode (the agent's ide_* facts, host/cell) joins
 * its row's: the same mode, or "mixed". */
static void note_xfer(struct lab_store *st, struct lab_model_row *r, int64_t cell)
{
    char mode[24], dma[8], capable[8], stack[16];
    if (!lab_store_cell_get(st, cell, "ide_mode", mode, sizeof mode))
        return;
    if (!r->xfer[0])
        snprintf(r->xfer, sizeof r->xfer, "%s", mode);
    else if (strcmp(r->xfer, mode) != 0)
        snprintf(r->xfer, sizeof r->xfer, "mixed");
    if (lab_store_cell_get(st, cell, "ide_dma", dma, sizeof dma) && strcmp(dma, "0") == 0) {
        r->xfer_pio = 1;
        r->xfer_pio_dma_capable |=
            lab_store_cell_get(st, cell, "ide_dma_capable", capable, sizeof capable) &&
            strcmp(capable, "1") == 0 &&
            lab_store_cell_get(st, cell, "ide_stack", stack, sizeof stack) &&
            strcmp(stack, "ide") == 0;
    }
}

/* Whether the cell ran in a real-time slot (its "rt" fact: "off: why", or
 * the priorities it ran at) joins its row's: a busy host slows a cell
 * without one, so two rows that differ in it say so in their verdict. */
static void note_rt(struct lab_store *st, struct lab_model_row *r, int64_t cell)
{
    char note[64];
    if (!lab_store_cell_get(st, cell, "rt", note, sizeof note))
        return;
    const char *rt = strncmp(note, "off", 3) == 0 ? "off" : "on";
    if (!r->rt[0])
        snprintf(r->rt, sizeof r->rt, "%s", rt);
    else if (strcmp(r->rt, rt) != 0)
        snprintf(r->rt, sizeof r->rt, "mixed");
}

/* Words of params that do not change what a cell measures: how many runs,
 * which of them warm up, how long to wait, and names that follow the bus
 * (a bus that differs is flagged on its own, host/stats/runcontext.h). */
static int settings_word_ignored(const char *word, size_t len)
{
    static const char *const ignored[] = {
        "lab.reps=", "lab.warmup=", "lab.timeout=", "lab.dev=", "lab.dev2=", "lab.chan="};
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
        if (len >= strlen(ignored[i]) && strncmp(word, ignored[i], strlen(ignored[i])) == 0)
            return 1;
    return 0;
}

/* The cell's settings (see struct lab_model_row) join its row's. */
static void note_settings(struct lab_store *st, struct lab_model_row *r,
                          const struct lab_cell_info *ci)
{
    char mine[sizeof r->settings] = "", args[512];
    size_t used = 0, len;
    for (const char *p = ci->params ? ci->params : "", *w; (w = lab_next_word(&p, &len));)
        if (!settings_word_ignored(w, len) && used < sizeof mine)
            used += (size_t)snprintf(mine + used, sizeof mine - used, "%s%.*s", used ? " " : "",
                                     (int)len, w);
    if (lab_store_cell_get(st, ci->id, "boot_args", args, sizeof args) && used < sizeof mine)
        snprintf(mine + used, sizeof mine - used, "%s%s", used ? " " : "", args);
    if (!r->settings[0])
        snprintf(r->settings, sizeof r->settings, "%s", mine);
    else if (strcmp(r->settings, mine) != 0)
        snprintf(r->settings, sizeof r->settings, "mixed");
}

static int collect_cell(const struct lab_cell_info *ci, void *ctx)
{
    struct lab_model *rep = ctx;
    char buf[64];
    struct lab_model_row nr; /* what the cell's row would be */
    memset(&nr, 0, sizeof nr);
    nr.cell = ci->id;
    nr.ra = -1;
    snprintf(nr.kernel, sizeof nr.kernel, "%s", ci->kernel);
    const char *load = ci->params ? strstr(ci->params, "lab.load=") : NULL;
    if (load)
        snprintf(nr.load, sizeof nr.load, "%.*s", (int)strcspn(load + 9, " "), load + 9);
    else if (ci->params && strstr(ci->params, "lab.test=contest"))
        snprintf(nr.load, sizeof nr.load, "no_load");
    /* A chosen scheduler is part of the variant: rows compare across kernels
     * only with the same one. */
    lab_store_cell_get(rep->st, ci->id, "scheduler", nr.scheduler, sizeof nr.scheduler);
    char variant[sizeof nr.load + sizeof nr.scheduler + 8];
    snprintf(variant, sizeof variant, "%s%s%s%s", nr.load, nr.load[0] && nr.scheduler[0] ? " " : "",
             nr.scheduler[0] ? "sched=" : "", nr.scheduler);
    snprintf(nr.variant, sizeof nr.variant, "%.*s", (int)sizeof nr.variant - 1, variant);
    snprintf(nr.label, sizeof nr.label, "%s%s%s", ci->kernel, nr.variant[0] ? " " : "", nr.variant);
    snprintf(nr.status, sizeof nr.status, "%s", ci->status ? ci->status : "running");
    snprintf(nr.cpu, sizeof nr.cpu, "%s", ci->cpu ? ci->cpu : "fast");
    snprintf(nr.reason, sizeof nr.reason, "%s", ci->reason ? ci->reason : "");
    snprintf(rep->experiment, sizeof rep->experiment, "%s", ci->experiment);
    rep->cur_warmup = lab_warmup_of_cell(rep->st, ci->id, ci->params);
    nr.warmup = (int)rep->cur_warmup.warmup;
    const char *t = ci->params ? strstr(ci->params, "lab.test=") : NULL;
    if (t && !rep->test[0])
        snprintf(rep->test, sizeof rep->test, "%.*s", (int)strcspn(t + 9, " "), t + 9);
    rep->sweep |= ci->params && strstr(ci->params, "lab.ra_list=") != NULL;

    /* Another boot of a kernel and variant already read joins its row(s). */
    struct lab_model_row *r = NULL;
    for (size_t i = 0; i < rep->nrows && !r; i++)
        if (strcmp(rep->rows[i].kernel, nr.kernel) == 0 &&
            strcmp(rep->rows[i].variant, nr.variant) == 0)
            r = &rep->rows[i];
    if (!r) {
        if (rep->nrows == LAB_MODEL_MAX_ROWS)
            return 0;
        r = &rep->rows[rep->nrows++];
        *r = nr;
    }
    size_t position = 0;
    for (size_t i = 0; i < rep->nrows; i++) {
        struct lab_model_row *o = &rep->rows[i];
        if (strcmp(o->kernel, nr.kernel) != 0 || strcmp(o->variant, nr.variant) != 0)
            continue;
        if (o != r || o->ncells == 0 || o->cells[o->ncells - 1] != ci->id) {
            if (o->ncells < LAB_MODEL_MAX_BOOTS)
                o->cells[o->ncells++] = ci->id;
        }
        position = o->ncells;
        /* A boot that did not finish makes the row's status its own. */
        if (strcmp(o->status, "ok") == 0 && strcmp(nr.status, "ok") != 0) {
            snprintf(o->status, sizeof o->status, "%s", nr.status);
            snprintf(o->reason, sizeof o->reason, "%s", nr.reason);
        }
    }
    note_mips(rep->st, ci->id, r);
    note_xfer(rep->st, r, ci->id);
    note_rt(rep->st, r, ci->id);
    note_settings(rep->st, r, ci);
    rep->cur = r;
    rep->cur_boot = (unsigned)position;
    if (lab_store_cell_get(rep->st, ci->id, "boot", buf, sizeof buf) && atoi(buf) > 0)
        rep->cur_boot = (unsigned)atoi(buf);
    int rc = lab_store_foreach_sample(rep->st, ci->id, collect_sample, rep);
    rep->cur = NULL;
    return rc;
}

/* Runs flagged for contention leave a row that keeps at least 2 others;
 * a row contended throughout keeps them all and says so (contended). */
static void drop_flagged(struct lab_model_row *r)
{
    size_t keep = 0;
    for (size_t i = 0; i < r->n; i++)
        keep += !r->flag[i];
    if (r->flagged == 0)
        return;
    if (keep < 2) {
        r->contended = 1;
        return;
    }
    size_t j = 0;
    for (size_t i = 0; i < r->n; i++) {
        if (r->flag[i])
            continue;
        for (int m = 0; m < LAB_FIG_COUNT; m++)
            r->v[m][j] = r->v[m][i];
        r->boot[j] = r->boot[i];
        r->flag[j] = 0;
        j++;
    }
    r->n = j;
    r->nboots = 0;
    for (size_t i = 0; i < r->n; i++) {
        int seen = 0;
        for (size_t k = 0; k < i; k++)
            seen |= r->boot[k] == r->boot[i];
        r->nboots += !seen;
    }
}

/* The run's test's shape; seqread's for a test this lab does not know. */
static const struct lab_shape *shape_of(const char *test)
{
    const struct lab_testdef *t = lab_test_find(test);
    return &(t ? t : lab_test_at(0))->shape;
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
        struct lab_boot_cmp bc;
        if (lab_boot_compare(b->v[f], b->boot, b->n, r->v[f], r->boot, r->n, &bc) < 0) {
            c->verdict = LAB_VERDICT_TOO_FEW;
        } else {
            c->c = bc.c;
            c->method = bc.method;
            c->boots_a = bc.boots_a;
            c->boots_b = bc.boots_b;
            c->p = bc.p;
            c->runs_p = bc.runs_p;
            c->verdict = lab_verdict_of(&c->c, lab_shape_lower_is_better(m->shape));
        }
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
    for (size_t i = 0; i < m->nrows; i++)
        drop_flagged(&m->rows[i]);
    fill_ratios(m);
    fill_comparisons(m);
    return m;
}

void lab_model_free(struct lab_model *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nrows; i++) {
        for (int f = 0; f < LAB_FIG_COUNT; f++)
            free(m->rows[i].v[f]);
        free(m->rows[i].boot);
        free(m->rows[i].flag);
    }
    free(m);
}

int lab_model_summary(const struct lab_model_row *r, enum lab_fig f, struct lab_summary *out)
{
    return lab_summarize(r->v[f], r->n, out);
}

int lab_model_boot_variation(const struct lab_model_row *r, enum lab_fig f,
                             struct lab_boot_var *out)
{
    return lab_boot_variation(r->v[f], r->boot, r->n, out);
}

static const struct {
    const char *name;
    enum lab_gate gate;
} gates[] = {{"slower", LAB_GATE_SLOWER}, {"faster", LAB_GATE_FASTER}, {"change", LAB_GATE_CHANGE}};

int lab_gate_parse(const char *name, enum lab_gate *out)
{
    for (size_t i = 0; i < sizeof gates / sizeof gates[0]; i++)
        if (strcmp(name, gates[i].name) == 0)
            return *out = gates[i].gate, 0;
    return -1;
}

int lab_model_gate_trips(const struct lab_model_cmp *c, enum lab_gate g, double threshold_pct)
{
    int big = c->c.diff_pct >= threshold_pct || c->c.diff_pct <= -threshold_pct;
    switch (g) {
    case LAB_GATE_SLOWER:
        return big && c->verdict == LAB_VERDICT_SLOWER;
    case LAB_GATE_FASTER:
        return big && c->verdict == LAB_VERDICT_FASTER;
    case LAB_GATE_CHANGE:
        return big && (c->verdict == LAB_VERDICT_SLOWER || c->verdict == LAB_VERDICT_FASTER);
    case LAB_GATE_NONE:
        break;
    }
    return 0;
}

int lab_model_regressed(const struct lab_model_cmp *c, double threshold_pct)
{
    return c->verdict == LAB_VERDICT_SLOWER &&
           (c->c.diff_pct >= threshold_pct || c->c.diff_pct <= -threshold_pct);
}
