/* A seed thread's kernels and figures: the kernels, reported and stand_in
 * keys of an experiment file (the syntax is in reported.h). */
#include "host/plan/reported.h"
#include "common/msg.h"
#include "common/str.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct lab_reported_kind kinds[] = {
    {"time", "s", LAB_FIG_SECS, -1, 1, "time"},
    {"throughput", "MB/s", LAB_FIG_MBPS, 1, 1, "MB/s"},
    {"iops", "IOPS", LAB_FIG_IOPS, 1, 1, "IOPS"},
    {"user", "s", LAB_FIG_USER, 0, 0, "user"},
    {"sys", "s", LAB_FIG_SYS, 0, 0, "sys"},
    {"cpu", "%", LAB_FIG_FG_CPU, 0, 0, "CPU%"},
    {"loads", "units", LAB_FIG_LOADS, 0, 1, "Loads"},
    {"lcpu", "%", LAB_FIG_LOAD_CPU, 0, 0, "LCPU%"},
    {"ratio", "x", LAB_FIG_RATIO, -1, 1, "Ratio"},
    {"%user", "%", LAB_FIG_CPU_USER, 0, 0, "%user"},
    {"%system", "%", LAB_FIG_CPU_SYS, 0, 0, "%system"},
    {"%iowait", "%", LAB_FIG_CPU_IOWAIT, 0, 0, "%iowait"},
    {"%idle", "%", LAB_FIG_CPU_IDLE, 0, 0, "%idle"},
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

const struct lab_reported_kind *lab_reported_kind(const char *word)
{
    for (size_t i = 0; i < NKINDS; i++)
        if (strcmp(kinds[i].word, word) == 0)
            return &kinds[i];
    return NULL;
}

static const struct lab_reported_kind *kind_of_unit(const char *unit)
{
    for (size_t i = 0; i < NKINDS; i++)
        if (kinds[i].unit_default && strcmp(kinds[i].unit, unit) == 0)
            return &kinds[i];
    return NULL;
}

static char *known_kinds(void)
{
    char *s = lab_xstrdup("");
    for (size_t i = 0; i < NKINDS; i++) {
        char *t = lab_asprintf("%s%s%s (%s)", s, i ? ", " : "", kinds[i].word, kinds[i].unit);
        free(s);
        s = t;
    }
    return s;
}

/* A kernel name as the thread or the lab spells it: no spaces, commas or
 * colons, at most LAB_REPORTED_NAME - 1 bytes. */
static int name_ok(const char *s, size_t len)
{
    if (len == 0 || len >= LAB_REPORTED_NAME)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (isspace((unsigned char)s[i]) || s[i] == ',' || s[i] == ':' || s[i] == '=' ||
            !isprint((unsigned char)s[i]))
            return 0;
    return 1;
}

int lab_reported_kernels(struct lab_reported *r, const char *where, const char *value)
{
    r->nkernels = 0; /* like any key given again, the last wins */
    for (const char *p = value;;) {
        p += strspn(p, " \t");
        size_t len = strcspn(p, ",");
        while (len && isspace((unsigned char)p[len - 1]))
            len--;
        if (!name_ok(p, len) || r->nkernels == LAB_REPORTED_MAX_KERNELS)
            return lab_error("%s: kernels = %s: want up to %d kernel names separated by commas",
                             where, value, LAB_REPORTED_MAX_KERNELS);
        for (size_t i = 0; i < r->nkernels; i++)
            if (strlen(r->kernels[i]) == len && strncmp(r->kernels[i], p, len) == 0)
                return lab_error("%s: kernels = %s names %.*s twice", where, value, (int)len, p);
        snprintf(r->kernels[r->nkernels++], LAB_REPORTED_NAME, "%.*s", (int)len, p);
        p = strchr(p, ',');
        if (!p)
            return 0;
        p++;
    }
}

char *lab_reported_kernel_list(const struct lab_reported *r)
{
    if (!r || !r->nkernels)
        return NULL;
    char *s = lab_xstrdup(r->kernels[0]);
    for (size_t i = 1; i < r->nkernels; i++) {
        char *t = lab_asprintf("%s,%s", s, r->kernels[i]);
        free(s);
        s = t;
    }
    return s;
}

/* "11.427": a finite number >= 0. */
static int number(const char *word, double *out)
{
    char *end;
    if (!isdigit((unsigned char)*word) && *word != '.')
        return -1;
    errno = 0;
    double v = strtod(word, &end);
    if (errno || *end || !isfinite(v) || v < 0)
        return -1;
    *out = v;
    return 0;
}

static double *stat_slot(struct lab_reported_fig *f, const char *word)
{
    static const char *const names[] = {"min", "mean", "max", "sd"};
    double *slots[] = {&f->min, &f->mean, &f->max, &f->sd};
    for (size_t i = 0; i < 4; i++)
        if (strcmp(word, names[i]) == 0)
            return slots[i];
    return NULL;
}

/* The words between the figure and the unit: each run's value, or
 * "STAT VALUE" pairs. */
static int parse_values(struct lab_reported_fig *f, const char *where, char **w, size_t n)
{
    f->mean = f->min = f->max = f->sd = NAN;
    if (n == 0)
        return lab_error("%s: no figures before the unit", where);
    f->summary = stat_slot(f, w[0]) != NULL;
    for (size_t i = 0; i < n; i++) {
        double v, *slot = f->summary ? stat_slot(f, w[i]) : NULL;
        if (f->summary && (!slot || i + 1 == n || !isnan(*slot)))
            return lab_error("%s: '%s': a summary is min, mean, max or sd, each once and each "
                             "followed by its value",
                             where, w[i]);
        if (f->summary)
            i++;
        if (number(w[i], &v) < 0)
            return lab_error("%s: '%s' is not a figure (a number >= 0 like 11.43)", where, w[i]);
        const char *dot = strchr(w[i], '.');
        if (dot && (int)strlen(dot + 1) > f->decimals)
            f->decimals = (int)strlen(dot + 1) > 6 ? 6 : (int)strlen(dot + 1);
        if (slot)
            *slot = v;
        else if (f->nvalues == LAB_REPORTED_MAX_VALUES)
            return lab_error("%s: more than %d runs on one line", where, LAB_REPORTED_MAX_VALUES);
        else
            f->values[f->nvalues++] = v;
    }
    if (f->summary && isnan(f->mean))
        return lab_error("%s: a summary needs its mean", where);
    return 0;
}

/* ", 5 runs" after the unit: required with a summary, refused without. */
static int parse_runs(struct lab_reported_fig *f, const char *where, const char *tail)
{
    if (!tail) {
        if (f->summary)
            return lab_error("%s: a summary needs its run count: '..., N runs'", where);
        f->runs = (unsigned)f->nvalues;
        return 0;
    }
    char *end;
    tail += strspn(tail, " \t");
    unsigned long n = strtoul(tail, &end, 10);
    while (isspace((unsigned char)*end))
        end++;
    if (!f->summary)
        return lab_error("%s: ', N runs' goes with a summary (mean ...); listed runs count "
                         "themselves",
                         where);
    if (end == tail || !isdigit((unsigned char)*tail) || n < 1 || n > 100000 ||
        (strcmp(end, "runs") != 0 && !(n == 1 && strcmp(end, "run") == 0)))
        return lab_error("%s: after the unit, want ', N runs', got ', %s'", where, tail);
    f->runs = (unsigned)n;
    return 0;
}

/* "time mean 164.9 s, 5 runs" / "11.427 11.963 s": the words of the figure. */
static int parse_figure(struct lab_reported_fig *f, const char *where, char *text)
{
    char *tail = strchr(text, ','), *w[LAB_REPORTED_MAX_VALUES * 2 + 4], *save = NULL;
    size_t n = 0;
    if (tail)
        *tail++ = '\0';
    for (char *t = strtok_r(text, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
        if (n < sizeof w / sizeof w[0])
            w[n++] = t;
        else
            return lab_error("%s: too many words in one figure", where);
    if (n < 2)
        return lab_error("%s: want a figure, its values and its unit after the ':'", where);
    const char *unit = w[n - 1];
    size_t first = 0;
    if (!strchr("0123456789.-+", w[0][0]) && !stat_slot(f, w[0])) {
        f->kind = lab_reported_kind(w[0]);
        first = 1;
        if (!f->kind) {
            char *known = known_kinds();
            lab_error("%s: unknown figure '%s' (known: %s)", where, w[0], known);
            free(known);
            return -1;
        }
        if (strcmp(f->kind->unit, unit) != 0)
            return lab_error("%s: %s is in %s, not '%s'", where, f->kind->word, f->kind->unit,
                             unit);
    } else if (!(f->kind = kind_of_unit(unit))) {
        return lab_error("%s: '%s' names no figure by itself: put the figure first (time, "
                         "user, sys, cpu ...) and end with its unit",
                         where, unit);
    }
    if (parse_values(f, where, w + first, n - 1 - first) < 0)
        return -1;
    return parse_runs(f, where, tail);
}

int lab_reported_add(struct lab_reported *r, const char *where, const char *value)
{
    const char *colon = strchr(value, ':');
    if (!colon)
        return lab_error("%s: reported = %s: want 'KERNEL [ROW]: [FIGURE] VALUES UNIT', like "
                         "'2.6.0 ra=256: 11.43 11.96 11.29 s'",
                         where, value);
    if (r->nfigs == LAB_REPORTED_MAX_FIGS)
        return lab_error("%s: more than %d reported figures", where, LAB_REPORTED_MAX_FIGS);
    struct lab_reported_fig *f = &r->figs[r->nfigs];
    memset(f, 0, sizeof *f);
    const char *p = value + strspn(value, " \t");
    size_t klen = strcspn(p, " \t:");
    if (!name_ok(p, klen))
        return lab_error("%s: reported = %s: no kernel name before the ':'", where, value);
    snprintf(f->kernel, sizeof f->kernel, "%.*s", (int)klen, p);
    /* The rest of the row, words joined by one space as in the lab's labels. */
    char *row = lab_asprintf("%.*s", (int)(colon - p - (ptrdiff_t)klen), p + klen), *save = NULL;
    for (char *t = strtok_r(row, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
        snprintf(f->qualifier + strlen(f->qualifier), sizeof f->qualifier - strlen(f->qualifier),
                 "%s%s", f->qualifier[0] ? " " : "", t);
    free(row);
    char *fig = lab_xstrdup(colon + 1);
    int rc = parse_figure(f, where, fig);
    free(fig);
    for (size_t i = 0; rc == 0 && i < r->nfigs; i++)
        if (strcmp(r->figs[i].kernel, f->kernel) == 0 &&
            strcmp(r->figs[i].qualifier, f->qualifier) == 0 && r->figs[i].kind == f->kind)
            rc = lab_error("%s: %s%s%s's %s is reported twice", where, f->kernel,
                           f->qualifier[0] ? " " : "", f->qualifier, f->kind->word);
    if (rc == 0)
        r->nfigs++;
    return rc;
}

int lab_reported_stand_in(struct lab_reported *r, const char *where, const char *value)
{
    const char *colon = strchr(value, ':');
    const char *t = value + strspn(value, " \t");
    size_t tlen = colon ? (size_t)(colon - t) : 0;
    while (tlen && isspace((unsigned char)t[tlen - 1]))
        tlen--;
    const char *l = colon ? colon + 1 + strspn(colon + 1, " \t") : "";
    size_t llen = strlen(l);
    while (llen && isspace((unsigned char)l[llen - 1]))
        llen--;
    if (!colon || !name_ok(t, tlen) || !name_ok(l, llen) || llen >= sizeof r->stand_ins[0].lab)
        return lab_error("%s: stand_in = %s: want 'THREAD_KERNEL: LAB_KERNEL', like "
                         "'2.6.0: 2.6.11'",
                         where, value);
    for (size_t i = 0; i < r->nstand_ins; i++)
        if (strlen(r->stand_ins[i].thread) == tlen && strncmp(r->stand_ins[i].thread, t, tlen) == 0)
            return lab_error("%s: %.*s already has a stand-in (%s)", where, (int)tlen, t,
                             r->stand_ins[i].lab);
    if (r->nstand_ins == LAB_REPORTED_MAX_KERNELS)
        return lab_error("%s: more than %d stand-ins", where, LAB_REPORTED_MAX_KERNELS);
    struct lab_stand_in *s = &r->stand_ins[r->nstand_ins++];
    snprintf(s->thread, sizeof s->thread, "%.*s", (int)tlen, t);
    snprintf(s->lab, sizeof s->lab, "%.*s", (int)llen, l);
    return 0;
}

int lab_reported_parse(const char *where, const char *text, struct lab_reported *out)
{
    static const struct {
        const char *key;
        int (*set)(struct lab_reported *, const char *, const char *);
    } keys[] = {{"kernels", lab_reported_kernels},
                {"reported", lab_reported_add},
                {"stand_in", lab_reported_stand_in}};
    memset(out, 0, sizeof *out);
    char *copy = lab_xstrdup(text), *save = NULL;
    int rc = 0;
    for (char *line = strtok_r(copy, "\n", &save); line && rc == 0;
         line = strtok_r(NULL, "\n", &save)) {
        char *eq = strchr(line, '=');
        size_t klen = eq ? (size_t)(eq - line) : 0;
        while (klen && line[klen - 1] == ' ')
            klen--;
        size_t i = 0;
        while (i < sizeof keys / sizeof keys[0] &&
               (strlen(keys[i].key) != klen || strncmp(keys[i].key, line, klen) != 0))
            i++;
        if (i == sizeof keys / sizeof keys[0])
            rc = lab_error("%s: not a kernels, reported or stand_in line: '%s'", where, line);
        else
            rc = keys[i].set(out, where, eq + 1);
    }
    free(copy);
    return rc;
}

double lab_reported_mean(const struct lab_reported_fig *f)
{
    if (f->summary)
        return f->mean;
    double sum = 0;
    for (size_t i = 0; i < f->nvalues; i++)
        sum += f->values[i];
    return f->nvalues ? sum / (double)f->nvalues : NAN;
}
