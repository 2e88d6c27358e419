/* The text report's part on the seed's thread: its figures beside the
 * run's, and its findings against the run's comparisons (agreement.h). */
#include "host/report/seedreport.h"
#include "host/stats/agreement.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void print_maps(FILE *out, const struct lab_seed_view *v)
{
    static const char *const why[] = {
        [LAB_SEED_STAND_IN] = "stand_in in the experiment",
        [LAB_SEED_POSITION] = "by position: this run's kernels are not the thread's",
    };
    for (size_t i = 0; i < v->nmaps; i++) {
        const struct lab_seed_map *s = &v->maps[i];
        if (s->how == LAB_SEED_UNMAPPED)
            fprintf(out, "  the thread's %s: not run here\n", s->thread);
        else if (s->how != LAB_SEED_SAME)
            fprintf(out, "  %s stands in for the thread's %s (%s)\n", s->lab, s->thread,
                    why[s->how]);
    }
}

/* "11.427 11.963 11.291" or "min 201.6 mean 215.1 max 275.5 sd 22.8". */
void lab_seed_values_text(const struct lab_reported_fig *f, char *buf, size_t len)
{
    static const char *const names[] = {"min", "mean", "max", "sd"};
    const double stats[] = {f->min, f->mean, f->max, f->sd};
    buf[0] = '\0';
    for (size_t i = 0; !f->summary && i < f->nvalues; i++)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%.*f", i ? " " : "", f->decimals,
                 f->values[i]);
    for (size_t i = 0; f->summary && i < 4; i++)
        if (!isnan(stats[i]))
            snprintf(buf + strlen(buf), len - strlen(buf), "%s%s %g", buf[0] ? " " : "", names[i],
                     stats[i]);
}

static void row_label(const struct lab_reported_fig *f, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s", f->kernel, f->qualifier[0] ? " " : "", f->qualifier);
}

static void print_rows(FILE *out, const struct lab_seed_view *v)
{
    int lw = 16, vw = 20, labw = 16;
    char label[160], values[512];
    for (size_t i = 0; i < v->nrows; i++) {
        row_label(v->rows[i].fig, label, sizeof label);
        lab_seed_values_text(v->rows[i].fig, values, sizeof values);
        lw = (int)strlen(label) > lw ? (int)strlen(label) : lw;
        vw = (int)strlen(values) > vw ? (int)strlen(values) : vw;
        if (v->rows[i].lab && (int)strlen(v->rows[i].lab->label) > labw)
            labw = (int)strlen(v->rows[i].lab->label);
    }
    fprintf(out, "%-*s %-8s %-*s %4s %9s   %-*s %4s %9s %s\n", lw, "thread's row", "figure", vw,
            "the thread's runs", "n", "mean", labw, "lab row", "n", "mean", "(95% CI)");
    for (size_t i = 0; i < v->nrows; i++) {
        const struct lab_seed_row *r = &v->rows[i];
        row_label(r->fig, label, sizeof label);
        lab_seed_values_text(r->fig, values, sizeof values);
        fprintf(out, "%-*s %-8s %-*s %4u %9.*f %-4s", lw, label, r->fig->kind->title, vw, values,
                r->fig->runs, r->fig->decimals + 1, lab_reported_mean(r->fig), r->fig->kind->unit);
        struct lab_summary s;
        if (!r->lab)
            fprintf(out, "%-*s\n", labw, "(not run here)");
        else if (lab_model_summary(r->lab, r->fig->kind->fig, &s) < 0)
            fprintf(out, "%-*s %4d %9s (%s)\n", labw, r->lab->label, 0, "-", r->lab->status);
        else
            fprintf(out, "%-*s %4zu %9.4g (%.4g .. %.4g) %s\n", labw, r->lab->label, s.n, s.mean,
                    s.ci_lo, s.ci_hi, r->fig->kind->unit);
    }
}

static void print_finding(FILE *out, const struct lab_seed_finding *d)
{
    char a[160], b[160];
    row_label(d->fig, a, sizeof a);
    row_label(d->base, b, sizeof b);
    fprintf(out, "%s vs %s, %s: the thread %+.1f%% (%s", a, b, d->fig->kind->title, d->thread_pct,
            lab_seed_direction(d->fig->kind, d->thread_pct));
    if (d->thread_tested)
        fprintf(out, ", Welch p=%.3g%s", d->thread_p,
                d->thread_significant ? "" : ", not significant");
    else
        fprintf(out, ", untested: %s", d->fig->summary ? "means only" : "one run");
    fprintf(out, "); here ");
    if (d->lab_compared)
        fprintf(out, "%s vs %s %+.1f%% (95%% CI %+.1f%% .. %+.1f%%), p=%.3g: ", d->lab->label,
                d->lab_base->label, d->lab_c.diff_pct, d->lab_c.diff_ci_lo, d->lab_c.diff_ci_hi,
                d->lab_c.welch_p);
    fprintf(out, "%s\n", lab_agreement_text(d->agreement));
}

int lab_seed_report(FILE *out, const struct lab_model *m)
{
    struct lab_seed_view *v = lab_seed_view_load(m);
    if (!v)
        return 0;
    fprintf(out, "\nThe figures the seed's thread reported (the experiment's `reported` lines), "
                 "beside this run's:\n");
    print_maps(out, v);
    fputc('\n', out);
    print_rows(out, v);
    if (v->nfindings) {
        fprintf(out, "\nThe thread's findings (each kernel against its first), and whether this "
                     "run agrees:\n");
        for (size_t i = 0; i < v->nfindings; i++)
            print_finding(out, &v->findings[i]);
    }
    lab_seed_view_free(v);
    return 1;
}
