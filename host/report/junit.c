/* JUnit XML, written with libxml2's writer. Testcases are gathered first
 * (the <testsuite> counts come before them), then written in one pass. */
#include "host/report/junit.h"
#include "host/stats/runmodel.h"
#include "common/msg.h"

#include <libxml/xmlwriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define X(s) ((const xmlChar *)(s))

enum outcome { PASS, FAILURE, ERROR, SKIPPED };

/* The element an outcome is written as, and the counter it goes to. */
static const char *const outcome_elem[] = {NULL, "failure", "error", "skipped"};
static const char *const outcome_count[] = {NULL, "failures", "errors", "skipped"};

struct testcase {
    char classname[64];
    char name[256];
    enum outcome outcome;
    char message[1024];
    char out[512]; /* <system-out>: the figures, so a pass says what passed */
};

struct suite {
    char name[256];
    struct testcase *cases;
    size_t n, cap;
};

static struct testcase *add_case(struct suite *s, const char *classname, enum outcome o)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->cases = realloc(s->cases, s->cap * sizeof *s->cases);
        if (!s->cases)
            abort();
    }
    struct testcase *t = &s->cases[s->n++];
    memset(t, 0, sizeof *t);
    snprintf(t->classname, sizeof t->classname, "%s", classname);
    t->outcome = o;
    return t;
}

static int count(const struct suite *s, enum outcome o)
{
    int n = 0;
    for (size_t i = 0; i < s->n; i++)
        n += s->cases[i].outcome == o;
    return n;
}

static int write_counts(xmlTextWriterPtr w, const struct suite *s)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%zu", s->n);
    if (xmlTextWriterWriteAttribute(w, X("tests"), X(buf)) < 0)
        return -1;
    for (enum outcome o = FAILURE; o <= SKIPPED; o++) {
        snprintf(buf, sizeof buf, "%d", count(s, o));
        if (xmlTextWriterWriteAttribute(w, X(outcome_count[o]), X(buf)) < 0)
            return -1;
    }
    return 0;
}

static int write_case(xmlTextWriterPtr w, const struct testcase *t)
{
    if (xmlTextWriterStartElement(w, X("testcase")) < 0 ||
        xmlTextWriterWriteAttribute(w, X("classname"), X(t->classname)) < 0 ||
        xmlTextWriterWriteAttribute(w, X("name"), X(t->name)) < 0)
        return -1;
    if (t->outcome != PASS) {
        if (xmlTextWriterStartElement(w, X(outcome_elem[t->outcome])) < 0 ||
            xmlTextWriterWriteAttribute(w, X("message"), X(t->message)) < 0 ||
            xmlTextWriterEndElement(w) < 0)
            return -1;
    }
    if (t->out[0] && xmlTextWriterWriteElement(w, X("system-out"), X(t->out)) < 0)
        return -1;
    return xmlTextWriterEndElement(w);
}

static int write_suite(const struct suite *s, const char *path)
{
    xmlTextWriterPtr w = xmlNewTextWriterFilename(path, 0);
    int rc = -1;
    if (!w)
        return lab_error("cannot write %s", path);
    xmlTextWriterSetIndent(w, 1);
    xmlTextWriterSetIndentString(w, X("  "));
    if (xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) < 0 ||
        xmlTextWriterStartElement(w, X("testsuites")) < 0 || write_counts(w, s) < 0 ||
        xmlTextWriterStartElement(w, X("testsuite")) < 0 ||
        xmlTextWriterWriteAttribute(w, X("name"), X(s->name)) < 0 || write_counts(w, s) < 0)
        goto out;
    for (size_t i = 0; i < s->n; i++)
        if (write_case(w, &s->cases[i]) < 0)
            goto out;
    if (xmlTextWriterEndDocument(w) < 0)
        goto out;
    rc = 0;
out:
    xmlFreeTextWriter(w); /* flushes and closes */
    if (rc < 0)
        lab_error("cannot write %s", path);
    return rc;
}

/* ---- lab run ---- */

/* A cell's outcome from its stored status: only "ok" passes. */
static enum outcome cell_outcome(const char *status)
{
    static const struct {
        const char *status;
        enum outcome o;
    } map[] = {{"ok", PASS}, {"skipped", SKIPPED}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(status, map[i].status) == 0)
            return map[i].o;
    return ERROR; /* failed, interrupted, running (a lab that died) */
}

static void add_cells(struct suite *s, const struct lab_model *m, const char *classname)
{
    const struct lab_shape *sh = m->shape;
    for (size_t i = 0; i < m->nrows; i++) {
        const struct lab_model_row *r = &m->rows[i];
        struct testcase *t = add_case(s, classname, cell_outcome(r->status));
        struct lab_summary sum;
        snprintf(t->name, sizeof t->name, "%s", r->label);
        if (t->outcome != PASS)
            snprintf(t->message, sizeof t->message, "%s%s%s", r->status, r->reason[0] ? ": " : "",
                     r->reason);
        if (lab_model_summary(r, sh->compare, &sum) == 0)
            snprintf(t->out, sizeof t->out, "n=%zu %s mean %.6g (95%% CI %.6g .. %.6g)", sum.n,
                     sh->compare_name, sum.mean, sum.ci_lo, sum.ci_hi);
    }
}

static void add_comparisons(struct suite *s, const struct lab_model *m, const char *classname,
                            double threshold_pct)
{
    for (size_t i = 0; i < m->ncmps; i++) {
        const struct lab_model_cmp *mc = &m->cmps[i];
        const struct lab_comparison *c = &mc->c;
        int regressed = lab_model_regressed(mc, threshold_pct);
        struct testcase *t = add_case(s, classname, regressed ? FAILURE : PASS);
        snprintf(t->name, sizeof t->name, "%s vs %s: %s", m->rows[mc->row].label,
                 m->rows[mc->base].label, m->shape->compare_name);
        if (mc->verdict == LAB_VERDICT_TOO_FEW) {
            snprintf(t->out, sizeof t->out, "too few samples to compare (need 2 each)");
            continue;
        }
        snprintf(t->out, sizeof t->out,
                 "%s %+.1f%% (95%% CI %+.1f%% .. %+.1f%%), Welch p=%.3g, Mann-Whitney p=%.3g, "
                 "d=%.2f: %s",
                 m->shape->compare_name, c->diff_pct, c->diff_ci_lo, c->diff_ci_hi, c->welch_p,
                 c->mwu_p, c->cohen_d, lab_verdict_name(mc->verdict));
        if (regressed)
            snprintf(t->message, sizeof t->message, "slower beyond the %.1f%% threshold: %.500s",
                     threshold_pct, t->out);
    }
}

int lab_junit_write_run(struct lab_store *st, int64_t run, double threshold_pct, const char *path)
{
    struct lab_model *m = lab_model_load(st, run);
    struct suite s = {0};
    char cls[2][64];
    if (!m)
        return -1;
    snprintf(s.name, sizeof s.name, "lab run %lld: %s", (long long)run, m->experiment);
    snprintf(cls[0], sizeof cls[0], "lab.%.40s.cells", m->experiment);
    snprintf(cls[1], sizeof cls[1], "lab.%.40s.comparisons", m->experiment);
    add_cells(&s, m, cls[0]);
    add_comparisons(&s, m, cls[1], threshold_pct);
    int rc = write_suite(&s, path);
    free(s.cases);
    lab_model_free(m);
    return rc;
}

/* ---- lab bisect ---- */

static enum outcome step_outcome(enum lab_bisect_verdict v)
{
    return v == LAB_BISECT_BAD ? FAILURE : v == LAB_BISECT_SKIP ? ERROR : PASS;
}

/* The bisection's result: what CI should see on the whole. */
static enum outcome result_outcome(const char *status)
{
    static const struct {
        const char *status;
        enum outcome o;
    } map[] = {{"found", FAILURE}, {"refused", PASS}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(status, map[i].status) == 0)
            return map[i].o;
    return ERROR; /* failed, ambiguous, interrupted */
}

int lab_junit_write_bisect(const struct lab_bisect_info *info, const struct lab_bisect_step *steps,
                           size_t nsteps, const char *path)
{
    struct suite s = {0};
    snprintf(s.name, sizeof s.name, "lab bisect %lld: %s %s", (long long)info->id, info->experiment,
             info->metric);
    for (size_t i = 0; i < nsteps; i++) {
        const struct lab_bisect_step *st = &steps[i];
        /* The bad endpoint is the regression being bisected: a failure only
         * when the endpoints differ, which its verdict alone does not say. */
        enum outcome o = step_outcome(st->verdict);
        if (strcmp(st->role, "bad") == 0 && o == FAILURE && strcmp(info->status, "refused") == 0)
            o = PASS;
        struct testcase *t = add_case(&s, "lab.bisect.steps", o);
        if (st->step)
            snprintf(t->name, sizeof t->name, "step %d %.12s %s", st->step, st->commit,
                     st->subject);
        else
            snprintf(t->name, sizeof t->name, "%s %.12s %s", st->role, st->commit, st->subject);
        snprintf(t->out, sizeof t->out, "n=%zu mean %.6g (95%% CI %.6g .. %.6g): %s; %s", st->sum.n,
                 st->sum.mean, st->sum.ci_lo, st->sum.ci_hi, lab_bisect_verdict_name(st->verdict),
                 st->reason);
        if (o != PASS)
            snprintf(t->message, sizeof t->message, "%s: %s", lab_bisect_verdict_name(st->verdict),
                     st->reason);
    }
    struct testcase *t = add_case(&s, "lab.bisect", result_outcome(info->status));
    snprintf(t->name, sizeof t->name, "result");
    if (info->first_bad[0])
        snprintf(t->message, sizeof t->message, "first bad commit: %s %s (%.500s)", info->first_bad,
                 info->first_bad_subject, info->message);
    else
        snprintf(t->message, sizeof t->message, "%s: %s", info->status, info->message);
    snprintf(t->out, sizeof t->out, "%.500s", t->message);
    if (t->outcome == PASS)
        t->message[0] = '\0';
    int rc = write_suite(&s, path);
    free(s.cases);
    return rc;
}
