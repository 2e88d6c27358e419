/* Two runs side by side. Rows are matched by label (kernel, readahead,
 * load), so a run with an extra kernel still compares the ones in common. */
#include "host/stats/runcompare.h"
#include "host/stats/runmodel.h"
#include "common/msg.h"
#include "common/str.h"

#include <string.h>

static const char *const verdict_text[] = {
    [LAB_VERDICT_TOO_FEW] = "too few samples",
    [LAB_VERDICT_SAME] = "no significant difference",
    [LAB_VERDICT_SLOWER] = "SLOWER (significant)",
    [LAB_VERDICT_FASTER] = "FASTER (significant)",
};

static const struct lab_model_row *find_row(const struct lab_model *m, const char *label)
{
    for (size_t i = 0; i < m->nrows; i++)
        if (strcmp(m->rows[i].label, label) == 0)
            return &m->rows[i];
    return NULL;
}

/* "55.16 (32.27 .. 78.04)", or the cell's status when it has no samples. */
static void cell_text(char *buf, size_t len, const struct lab_model_row *r, enum lab_fig f)
{
    struct lab_summary s;
    if (!r)
        snprintf(buf, len, "-");
    else if (lab_model_summary(r, f, &s) < 0)
        snprintf(buf, len, "(%s)", r->status);
    else
        snprintf(buf, len, "%.2f (%.2f .. %.2f)", s.mean, s.ci_lo, s.ci_hi);
}

/* Whether word (len bytes) is one of the words of line. */
static int has_word(const char *line, const char *word, size_t len)
{
    size_t n;
    for (const char *p = line, *w; (w = lab_next_word(&p, &n));)
        if (n == len && strncmp(w, word, len) == 0)
            return 1;
    return 0;
}

/* The words of `line` that `other` lacks, space-separated ("-": none). */
static void words_only_in(char *buf, size_t cap, const char *line, const char *other)
{
    size_t used = 0, n;
    buf[0] = '\0';
    for (const char *p = line, *w; (w = lab_next_word(&p, &n));)
        if (!has_word(other, w, n) && used < cap)
            used += (size_t)snprintf(buf + used, cap - used, "%s%.*s", used ? " " : "", (int)n, w);
    if (!buf[0])
        snprintf(buf, cap, "-");
}

/* The two rows measured with other settings (an experiment edited between
 * the runs, --set, boot_args): "[settings differ: B's words vs A's]". */
static void print_settings_flag(FILE *out, const struct lab_model_row *ra,
                                const struct lab_model_row *rb)
{
    if (!ra->settings[0] || !rb->settings[0] || strcmp(ra->settings, rb->settings) == 0)
        return;
    char only_a[sizeof ra->settings], only_b[sizeof rb->settings];
    words_only_in(only_a, sizeof only_a, ra->settings, rb->settings);
    words_only_in(only_b, sizeof only_b, rb->settings, ra->settings);
    fprintf(out, " [settings differ: %s vs %s]", only_b, only_a);
}

static void print_row(FILE *out, const struct lab_model *ma, const char *label,
                      const struct lab_model_row *ra, const struct lab_model_row *rb)
{
    enum lab_fig f = ma->shape->compare;
    char ta[64], tb[64];
    struct lab_comparison c;
    cell_text(ta, sizeof ta, ra, f);
    cell_text(tb, sizeof tb, rb, f);
    fprintf(out, "%-22s %3zu %-26s %3zu %-26s", label, ra ? ra->n : 0, ta, rb ? rb->n : 0, tb);
    if (!rb) {
        fprintf(out, " only in run %lld\n", (long long)ma->run);
        return;
    }
    if (lab_compare(ra->v[f], ra->n, rb->v[f], rb->n, &c) < 0) {
        fprintf(out, " %s\n", verdict_text[LAB_VERDICT_TOO_FEW]);
        return;
    }
    enum lab_verdict v = lab_verdict_of(&c, lab_shape_lower_is_better(ma->shape));
    fprintf(out, " %+6.1f%% (%+.1f%% .. %+.1f%%) p=%.3g: %s", c.diff_pct, c.diff_ci_lo,
            c.diff_ci_hi, c.welch_p, verdict_text[v]);
    /* Different CPU profiles (host/plan/cpu.h) measure different machines. */
    if (strcmp(ra->cpu, rb->cpu) != 0)
        fprintf(out, " [DIFFERENT CPUs: %s vs %s]", rb->cpu, ra->cpu);
    /* The IDE data disk in another transfer mode (docs/ide.md). */
    if (ra->xfer[0] && rb->xfer[0] && strcmp(ra->xfer, rb->xfer) != 0)
        fprintf(out, " [transfer modes differ: %s, %s]", ra->xfer, rb->xfer);
    /* One side ran without a real-time slot: a busy host could slow it. */
    if (ra->rt[0] && rb->rt[0] && strcmp(ra->rt, rb->rt) != 0)
        fprintf(out, " [real time differs: %s vs %s]", rb->rt, ra->rt);
    print_settings_flag(out, ra, rb);
    fputc('\n', out);
}

static void print_compare(FILE *out, const struct lab_model *ma, const struct lab_model *mb)
{
    fprintf(out, "run %lld (%s) against run %lld (%s): %s, mean (95%% CI), change of run %lld\n\n",
            (long long)mb->run, mb->experiment, (long long)ma->run, ma->experiment,
            ma->shape->compare_name, (long long)mb->run);
    char ha[32], hb[32];
    snprintf(ha, sizeof ha, "run %lld", (long long)ma->run);
    snprintf(hb, sizeof hb, "run %lld", (long long)mb->run);
    fprintf(out, "%-22s %3s %-26s %3s %-26s %s\n", "row", "n", ha, "n", hb, "change (95% CI)");
    for (size_t i = 0; i < ma->nrows; i++)
        print_row(out, ma, ma->rows[i].label, &ma->rows[i], find_row(mb, ma->rows[i].label));
    for (size_t i = 0; i < mb->nrows; i++)
        if (!find_row(ma, mb->rows[i].label)) {
            fprintf(out, "%-22s %3d %-26s %3zu ", mb->rows[i].label, 0, "-", mb->rows[i].n);
            char tb[64];
            cell_text(tb, sizeof tb, &mb->rows[i], ma->shape->compare);
            fprintf(out, "%-26s only in run %lld\n", tb, (long long)mb->run);
        }
}

int lab_compare_runs(FILE *out, struct lab_store *st, int64_t a, int64_t b)
{
    struct lab_model *ma = lab_model_load(st, a), *mb = ma ? lab_model_load(st, b) : NULL;
    int rc = 0;
    if (!ma || !mb) {
        rc = -1;
    } else if (strcmp(ma->test, mb->test) != 0) {
        lab_error("run %lld ran %s and run %lld %s: nothing to compare", (long long)a, ma->test,
                  (long long)b, mb->test);
        rc = 1;
    } else {
        print_compare(out, ma, mb);
    }
    lab_model_free(ma);
    lab_model_free(mb);
    return rc;
}
