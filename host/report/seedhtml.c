/* The seed thread's section of the HTML report (seedhtml.h). */
#include "host/report/seedhtml.h"
#include "host/report/seedreport.h"
#include "host/report/svg.h"
#include "host/stats/agreement.h"

#include <stdlib.h>
#include <string.h>

static void text(FILE *f, const char *s)
{
    char *e = lab_svg_escape(s);
    fputs(e, f);
    free(e);
}

static void cell(FILE *f, const char *s)
{
    fputs("<td>", f);
    text(f, s);
    fputs("</td>", f);
}

static void figures(FILE *f, const struct lab_seed_view *v)
{
    char buf[512];
    fputs("<table class=\"seed\"><tr><th>thread's row</th><th>figure</th><th>the thread's "
          "runs</th><th>mean</th><th>lab row</th><th>lab mean (95% CI)</th></tr>\n",
          f);
    for (size_t i = 0; i < v->nrows; i++) {
        const struct lab_seed_row *r = &v->rows[i];
        struct lab_summary s;
        fputs("<tr>", f);
        snprintf(buf, sizeof buf, "%s %s", r->fig->kernel, r->fig->qualifier);
        cell(f, buf);
        cell(f, r->fig->kind->title);
        lab_seed_values_text(r->fig, buf, sizeof buf);
        cell(f, buf);
        snprintf(buf, sizeof buf, "%.4g %s", lab_reported_mean(r->fig), r->fig->kind->unit);
        cell(f, buf);
        cell(f, r->lab ? r->lab->label : "(not run here)");
        if (r->lab && lab_model_summary(r->lab, r->fig->kind->fig, &s) == 0)
            snprintf(buf, sizeof buf, "%.4g (%.4g .. %.4g) %s, %zu runs", s.mean, s.ci_lo, s.ci_hi,
                     r->fig->kind->unit, s.n);
        else
            snprintf(buf, sizeof buf, "-");
        cell(f, buf);
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void findings(FILE *f, const struct lab_seed_view *v)
{
    char buf[512];
    fputs("<table class=\"seed\"><tr><th>finding</th><th>figure</th><th>the thread</th><th>this "
          "run</th><th>agreement</th></tr>\n",
          f);
    for (size_t i = 0; i < v->nfindings; i++) {
        const struct lab_seed_finding *d = &v->findings[i];
        fputs("<tr>", f);
        snprintf(buf, sizeof buf, "%s vs %s %s", d->fig->kernel, d->base->kernel,
                 d->fig->qualifier);
        cell(f, buf);
        cell(f, d->fig->kind->title);
        snprintf(buf, sizeof buf, "%+.1f%% (%s)", d->thread_pct,
                 lab_seed_direction(d->fig->kind, d->thread_pct));
        cell(f, buf);
        if (d->lab_compared)
            snprintf(buf, sizeof buf, "%s vs %s: %+.1f%% (%s), p=%.3g", d->lab->label,
                     d->lab_base->label, d->lab_c.diff_pct,
                     lab_seed_direction(d->fig->kind, d->lab_c.diff_pct), d->lab_c.welch_p);
        else
            snprintf(buf, sizeof buf, "-");
        cell(f, buf);
        cell(f, lab_agreement_text(d->agreement));
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

int lab_seed_html(FILE *f, const struct lab_model *m)
{
    struct lab_seed_view *v = lab_seed_view_load(m);
    if (!v)
        return 0;
    fputs("<h3>What the seed's thread reported, beside this run</h3>\n<ul>", f);
    for (size_t i = 0; i < v->nmaps; i++) {
        const struct lab_seed_map *s = &v->maps[i];
        fputs("<li>the thread's ", f);
        text(f, s->thread);
        fputs(s->how == LAB_SEED_UNMAPPED ? ": not run here" : ": run here as ", f);
        if (s->how != LAB_SEED_UNMAPPED) {
            text(f, s->lab);
            fprintf(f, " (%s)", lab_seed_how_name(s->how));
        }
        fputs("</li>", f);
    }
    fputs("</ul>\n", f);
    figures(f, v);
    if (v->nfindings)
        findings(f, v);
    lab_seed_view_free(v);
    return 1;
}
