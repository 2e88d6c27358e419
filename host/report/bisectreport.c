/* `lab bisect`'s words; see bisectreport.h. */
#include "host/report/bisectreport.h"
#include "host/report/junit.h"
#include "host/bisect/store_bisect.h"

#include "common/msg.h"

#include <stdlib.h>
#include <string.h>

static const char *unit_of(const struct lab_bisect_setup *set)
{
    const struct lab_metric *m = lab_metric_find(set->row.metric);
    return m ? m->unit : set->row.metric;
}

static void step_line(FILE *f, const struct lab_bisect_step *s, const char *unit)
{
    char what[64];
    if (strcmp(s->role, "step") == 0)
        snprintf(what, sizeof what, "step %d", s->step);
    else
        snprintf(what, sizeof what, "%s", s->role);
    fprintf(f, "lab: bisect: %s %.12s \"%.50s\": ", what, s->commit, s->subject);
    if (s->sum.n)
        fprintf(f, "n=%zu mean %.2f %s (95%% CI %.2f .. %.2f) ", s->sum.n, s->sum.mean, unit,
                s->sum.ci_lo, s->sum.ci_hi);
    fprintf(f, "-> %s", lab_bisect_verdict_name(s->verdict));
    if (s->reason[0])
        fprintf(f, " (%s)", s->reason);
    fprintf(f, "\n");
}

static void begin_line(FILE *f, const struct lab_bisect_event *ev)
{
    const struct lab_bisect_setup *set = ev->set;
    const struct lab_bisect_row *r = &set->row;
    fprintf(f,
            "lab: bisect %lld (run %lld): %zu commit(s) from %.12s (good) to %.12s (bad), %s %s on "
            "%s, %u run(s) per step (up to %u), threshold %.1f%%\n",
            (long long)ev->id, (long long)r->run, set->ncommits, r->good, r->bad, r->experiment,
            r->metric, r->profile, r->reps, r->max_reps, r->threshold_pct);
}

static void endpoints_line(FILE *f, const struct lab_bisect_event *ev)
{
    const struct lab_metric *m = lab_metric_find(ev->set->row.metric);
    int higher_is_better = m ? m->higher_is_better : 1;
    const char *better =
        (ev->ends->direction > 0) == (higher_is_better != 0) ? "an improvement" : "a regression";
    fprintf(f, "lab: bisect: %s (%s for %s)\n", ev->ends->reason, better, ev->set->row.metric);
}

void lab_bisect_report_line(void *ctx, const struct lab_bisect_event *ev)
{
    FILE *f = stderr;
    const struct lab_bisect_step *s = ev->step;
    switch (ev->kind) {
    case LAB_BISECT_EV_BEGIN:
        begin_line(f, ev);
        break;
    case LAB_BISECT_EV_DECIDED:
        step_line(f, s, unit_of(ev->set));
        break;
    case LAB_BISECT_EV_ENDPOINTS:
        endpoints_line(f, ev);
        break;
    case LAB_BISECT_EV_STEP:
        fprintf(f, "lab: bisect: step %d: %.12s \"%s\" (%zu commit(s) left between)\n", s->step,
                s->commit, s->subject, ev->left);
        break;
    case LAB_BISECT_EV_REMEASURE:
        fprintf(f, "lab: bisect: step %d: re-measuring %s beside it\n", s->step,
                ev->endpoint->role);
        break;
    case LAB_BISECT_EV_MORE:
        fprintf(f, "lab: bisect: step %d: inconclusive at n=%zu (%s): %u more run(s)\n", s->step,
                ev->n, ev->reason, ev->more);
        break;
    }
}

void lab_bisect_print_result(FILE *out, const struct lab_bisect_setup *set,
                             const struct lab_bisect_result *r)
{
    const char *unit = unit_of(set);
    long long id = (long long)r->id;
    if (strcmp(r->status, "refused") == 0) {
        fprintf(out, "\n");
        lab_bisect_print_table(out, r->steps, r->nsteps, unit);
        fprintf(out, "\nlab: refusing to bisect: %s\n", r->ends.reason);
        return;
    }
    if (!r->bisected) {
        lab_error("bisect %lld %s: %s", id, r->status, r->message);
        return;
    }
    fprintf(out, "\n");
    if (r->stop != LAB_BISECT_RUN_ON)
        lab_error("bisect %lld %s after %zu step(s): %s (lab bisect --show %lld)", id, r->status,
                  r->nsteps, r->message, id);
    else if (r->first_bad[0])
        fprintf(out, "first bad commit: %s %s\n", r->first_bad, r->first_bad_subject);
    else
        fprintf(out, "%s\n", r->message);
    fprintf(out, "%s %s: %s\n\n", set->row.experiment, set->row.metric, r->ends.reason);
    for (size_t i = 0; i < r->nsteps; i++) {
        const struct lab_bisect_step *s = &r->steps[i];
        if (strncmp(s->reason, "new finding", 11) == 0)
            fprintf(out, "new finding at step %d %.12s \"%s\": %s\n", s->step, s->commit,
                    s->subject, s->reason);
    }
    lab_bisect_print_table(out, r->steps, r->nsteps, unit);
    fprintf(stderr, "lab: bisect %lld took %.0f s (lab bisect --show %lld)\n", id,
            (double)r->elapsed_ns / 1e9, id);
}

int lab_bisect_show(FILE *out, struct lab_store *st, int64_t id, const char *junit)
{
    struct lab_bisect_info info;
    struct lab_bisect_step *steps;
    size_t n;
    int rc = lab_store_bisect_load(st, id, &info, &steps, &n);
    if (rc == 1)
        lab_error("no bisection %s", id < 0 ? "stored" : "with that id");
    if (rc != 0)
        return rc;
    const struct lab_metric *m = lab_metric_find(info.metric);
    fprintf(out, "bisection %lld (run %lld): %s\n", (long long)info.id, (long long)info.run,
            info.command_line);
    fprintf(out, "status: %s%s%s\n", info.status, info.message[0] ? ": " : "", info.message);
    if (info.first_bad[0])
        fprintf(out, "first bad commit: %s %s\n", info.first_bad, info.first_bad_subject);
    fprintf(out, "\n");
    lab_bisect_print_table(out, steps, n, m ? m->unit : info.metric);
    free(steps);
    return junit ? lab_bisect_junit_stored(st, info.id, junit) : 0;
}

int lab_bisect_junit_stored(struct lab_store *st, int64_t id, const char *path)
{
    struct lab_bisect_info info;
    struct lab_bisect_step *steps;
    size_t n;
    if (lab_store_bisect_load(st, id, &info, &steps, &n) != 0)
        return lab_error("cannot read bisection %lld back for --junit", (long long)id);
    int rc = lab_junit_write_bisect(&info, steps, n, path);
    free(steps);
    return rc;
}
