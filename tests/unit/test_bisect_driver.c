/* Unit tests of host/bisect/bisectdriver.c with fake ops: each commit of a fake
 * history builds or not and measures a scripted figure; the bisection is
 * stored in a real temporary store. Good, bad, skip (does not build, cell
 * fails), inconclusive (more runs up to max-reps; an endpoint that drifted,
 * measured again), endpoint refusal and failure, and a stop. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "host/bisect/bisectdriver.h"
#include "host/report/bisectreport.h"
#include "host/store/store.h"
#include "host/bisect/store_bisect.h"
#include "common/file.h"
#include "common/str.h"

#define MAX_COMMITS 16
#define MAX_CALLS   64

/* One commit of the fake history. */
struct fake_commit {
    int no_build;      /* the build fails: a skip */
    int cell_fails;    /* every cell of it fails: a skip */
    double mean;       /* its figure per run */
    unsigned drift_at; /* from this boot of it on (1..), drift instead; 0: never */
    double drift;
};

struct fake {
    struct fake_commit c[MAX_COMMITS];
    char hash[MAX_COMMITS][41];
    size_t n;
    struct lab_store *st;
    int64_t run;
    unsigned boots[MAX_COMMITS]; /* boots measured per commit */
    unsigned reps[MAX_CALLS];    /* reps asked, per measure call in order */
    size_t calls[MAX_CALLS];     /* whose call it was: commit index per call */
    size_t ncalls;
    size_t stop_after; /* the stop hook says stop once this many cells ran; 0: never */
    /* the queue op's announcements (commit, reps), each taken by a measure */
    size_t queued[MAX_CALLS];
    unsigned queued_reps[MAX_CALLS];
    int queued_taken[MAX_CALLS];
    size_t nqueued;
    int events[8]; /* reports per event kind */
};

static size_t index_of(const struct fake *f, const char *hash_or_kernel)
{
    for (size_t i = 0; i < f->n; i++)
        if (strcmp(f->hash[i], hash_or_kernel) == 0 ||
            (strncmp(hash_or_kernel, "k-", 2) == 0 && (size_t)atoi(hash_or_kernel + 2) == i))
            return i;
    fail_msg("no commit %s", hash_or_kernel);
    return 0;
}

static int fake_build(void *ctx, const char *commit, char *kernel, size_t len)
{
    struct fake *f = ctx;
    size_t i = index_of(f, commit);
    if (f->c[i].no_build)
        return -1;
    snprintf(kernel, len, "k-%zu", i);
    return 0;
}

/* reps values around the commit's figure (runs within 0.2%, boots within
 * 0.1% of it), in a real cell of the store. */
static int fake_measure(void *ctx, const char *kernel, unsigned reps, struct lab_bisect_values *out,
                        int64_t *cell, char *reason, size_t len)
{
    struct fake *f = ctx;
    size_t i = index_of(f, kernel);
    assert_true(f->ncalls < MAX_CALLS);
    f->reps[f->ncalls] = reps;
    f->calls[f->ncalls++] = i;
    if (f->nqueued) { /* with a queue op: every boot was announced, in order */
        size_t q = 0;
        while (q < f->nqueued &&
               (f->queued_taken[q] || f->queued[q] != i || f->queued_reps[q] != reps))
            q++;
        assert_true(q < f->nqueued);
        f->queued_taken[q] = 1;
    }
    *cell = lab_store_cell_begin(f->st, f->run, kernel, "seqread", NULL);
    assert_true(*cell > 0);
    if (f->c[i].cell_fails) {
        lab_store_cell_end(f->st, *cell, "failed", "fake: no agent");
        snprintf(reason, len, "cell failed: fake: no agent");
        return -1;
    }
    unsigned boot = ++f->boots[i];
    double m = f->c[i].drift_at && boot >= f->c[i].drift_at ? f->c[i].drift : f->c[i].mean;
    for (unsigned r = 0; r < reps; r++)
        lab_bisect_values_add(
            out, m * (1 + 0.002 * ((double)(r % 3) - 1) + 0.001 * ((double)(boot % 3) - 1)));
    lab_store_cell_end(f->st, *cell, "ok", NULL);
    return 0;
}

static void fake_describe(void *ctx, const char *commit, char *subject, size_t len)
{
    struct fake *f = ctx;
    snprintf(subject, len, "commit %zu", index_of(f, commit));
}

static const struct lab_bisect_ops fake_ops = {fake_build, fake_measure, fake_describe, NULL};

static void fake_queue(void *ctx, const char *kernel, unsigned reps)
{
    struct fake *f = ctx;
    assert_true(f->nqueued < MAX_CALLS);
    f->queued_reps[f->nqueued] = reps;
    f->queued[f->nqueued++] = index_of(f, kernel);
}

/* The ops of an engine that starts boots ahead (Slurm's). */
static const struct lab_bisect_ops queue_ops = {fake_build, fake_measure, fake_describe,
                                                fake_queue};
static const struct lab_bisect_ops *ops = &fake_ops;

static enum lab_bisect_stop fake_stop(void *ctx, char *why, size_t len)
{
    struct fake *f = ctx;
    if (f->stop_after && f->ncalls >= f->stop_after) {
        snprintf(why, len, "interrupted by signal 2");
        return LAB_BISECT_STOP_SIGNAL;
    }
    return LAB_BISECT_RUN_ON;
}

static void fake_report(void *ctx, const struct lab_bisect_event *ev)
{
    struct fake *f = ctx;
    assert_non_null(ev->set);
    f->events[ev->kind]++;
}

static char path[64], lines_path[80];

static int setup(void **state)
{
    struct fake *f = calloc(1, sizeof *f);
    snprintf(path, sizeof path, "/tmp/test_bisect_driver.XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    assert_int_equal(lab_store_open(path, &f->st), 0);
    f->run = lab_store_run_begin(f->st, "lab bisect (fake)", "seqread", "fast");
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fake *f = *state;
    lab_store_close(f->st);
    static const char *const ends[] = {"", "-wal", "-shm"};
    for (size_t i = 0; i < 3; i++) {
        char *p = lab_asprintf("%s%s", path, ends[i]);
        unlink(p);
        free(p);
    }
    free(f);
    return 0;
}

/* The history of figures (commit 0 is good, n-1 bad), driven with reps
 * runs per step and up to max_reps. */
static void (*report_hook)(void *, const struct lab_bisect_event *) = fake_report;

static int drive(struct fake *f, const double *means, size_t n, unsigned reps, unsigned max_reps,
                 struct lab_bisect_result *r)
{
    f->n = n;
    for (size_t i = 0; i < n; i++) {
        f->c[i].mean = means[i];
        snprintf(f->hash[i], sizeof f->hash[i], "c0ffee%02zx%032d", i, 0);
    }
    struct lab_bisect_setup set = {.commits = (const char(*)[41])f->hash,
                                   .ncommits = n,
                                   .row = {.run = f->run,
                                           .command_line = "lab bisect (fake)",
                                           .repo = "/fake",
                                           .good = f->hash[0],
                                           .bad = f->hash[n - 1],
                                           .experiment = "seqread",
                                           .metric = "mbps",
                                           .profile = "fast",
                                           .threshold_pct = 5,
                                           .reps = reps,
                                           .max_reps = max_reps},
                                   .ops = ops,
                                   .ops_ctx = f,
                                   .hooks = {.stop = fake_stop, .report = report_hook, .ctx = f}};
    int rc = lab_bisect_drive(&set, f->st, r);
    if (report_hook != fake_report) { /* the closing report too, as lab bisect prints it */
        FILE *out = fopen(lines_path, "a");
        assert_non_null(out);
        lab_bisect_print_result(out, &set, r);
        fclose(out);
    }
    return rc;
}

/* The stored bisection, checked against the result. */
static struct lab_bisect_step *load(struct fake *f, const struct lab_bisect_result *r,
                                    struct lab_bisect_info *info, size_t *n)
{
    struct lab_bisect_step *steps;
    assert_int_equal(lab_store_bisect_load(f->st, r->id, info, &steps, n), 0);
    assert_string_equal(info->status, r->status);
    assert_string_equal(info->message, r->message);
    assert_string_equal(info->first_bad, r->first_bad);
    return steps;
}

static int64_t stored_cells(const char *role_or_step, int64_t id)
{
    sqlite3 *db;
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db,
                                        "SELECT count(*) FROM bisect_step_cells c JOIN bisect_steps"
                                        " s ON s.id = c.step WHERE s.bisect = ?1 AND"
                                        " (s.role = ?2 OR s.step = ?2)",
                                        -1, &s, NULL),
                     SQLITE_OK);
    sqlite3_bind_int64(s, 1, id);
    sqlite3_bind_text(s, 2, role_or_step, -1, SQLITE_STATIC);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    int64_t n = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return n;
}

/* good, bad, and a skip that does not build: the first bad commit found. */
static void test_found_with_skip(void **state)
{
    struct fake *f = *state;
    static const double h[] = {100, 100, 100, 100, 100, 50, 50, 50};
    f->c[3].no_build = 1;
    struct lab_bisect_result r;
    assert_int_equal(drive(f, h, 8, 5, 20, &r), 0);
    assert_string_equal(r.status, "found");
    assert_string_equal(r.first_bad, f->hash[5]);
    assert_string_equal(r.first_bad_subject, "commit 5");
    assert_true(r.bisected);
    assert_true(r.ends.differ);
    /* good, bad, then 3 (no build: skip), 4 (good), 5 (bad). */
    assert_int_equal(r.nsteps, 5);
    struct lab_bisect_info info;
    size_t n;
    struct lab_bisect_step *s = load(f, &r, &info, &n);
    assert_int_equal(n, 5);
    assert_string_equal(s[0].role, "good");
    assert_int_equal(s[0].verdict, LAB_BISECT_GOOD);
    assert_string_equal(s[1].role, "bad");
    assert_int_equal(s[1].verdict, LAB_BISECT_BAD);
    assert_non_null(strstr(s[1].reason, "good and bad differ"));
    assert_string_equal(s[2].commit, f->hash[3]);
    assert_int_equal(s[2].verdict, LAB_BISECT_SKIP);
    assert_string_equal(s[2].reason, "build failed (skip, like git bisect's 125)");
    assert_int_equal(s[2].sum.n, 0);
    assert_string_equal(s[3].commit, f->hash[4]);
    assert_int_equal(s[3].verdict, LAB_BISECT_GOOD);
    assert_string_equal(s[4].commit, f->hash[5]);
    assert_int_equal(s[4].verdict, LAB_BISECT_BAD);
    assert_int_equal(s[4].step, 3);
    /* reps 5: two boots of 3 runs each, for the endpoints and every step */
    for (size_t i = 0; i < n; i++)
        if (s[i].verdict != LAB_BISECT_SKIP) {
            assert_int_equal(s[i].sum.n, 6);
            assert_false(isnan(s[i].p_good) && i > 0);
        }
    for (size_t i = 0; i < f->ncalls; i++)
        assert_int_equal(f->reps[i], 3);
    /* interleaved endpoints: good, bad, good, bad */
    assert_int_equal(f->calls[0], 0);
    assert_int_equal(f->calls[1], 7);
    assert_int_equal(f->calls[2], 0);
    assert_int_equal(f->calls[3], 7);
    assert_int_equal(stored_cells("good", r.id), 2);
    assert_int_equal(stored_cells("3", r.id), 2);
    assert_int_equal(f->events[LAB_BISECT_EV_BEGIN], 1);
    assert_int_equal(f->events[LAB_BISECT_EV_ENDPOINTS], 1);
    assert_int_equal(f->events[LAB_BISECT_EV_STEP], 3);
    assert_int_equal(f->events[LAB_BISECT_EV_DECIDED], 5);
    free(s);
    lab_bisect_result_free(&r);
}

/* A commit that does not build and one whose cells fail: skips, and the
 * first bad commit is one of the three left. */
static void test_ambiguous(void **state)
{
    struct fake *f = *state;
    static const double h[] = {100, 100, 100, 100, 100, 50, 50, 50};
    f->c[3].no_build = 1;
    f->c[4].cell_fails = 1;
    struct lab_bisect_result r;
    assert_int_equal(drive(f, h, 8, 5, 20, &r), 1);
    assert_string_equal(r.status, "ambiguous");
    assert_string_equal(r.first_bad, "");
    char want[128];
    snprintf(want, sizeof want, "the first bad commit is one of 3: %.12s..%.12s", f->hash[3],
             f->hash[5]);
    assert_memory_equal(r.message, want, strlen(want));
    struct lab_bisect_info info;
    size_t n;
    struct lab_bisect_step *s = load(f, &r, &info, &n);
    /* good, bad, 3 (skip), 4 (cell fails: skip), 2 (good), 5 (bad) */
    assert_int_equal(n, 6);
    assert_string_equal(s[3].commit, f->hash[4]);
    assert_int_equal(s[3].verdict, LAB_BISECT_SKIP);
    assert_string_equal(s[3].reason, "cell failed: fake: no agent (skip)");
    assert_int_equal(stored_cells("2", r.id), 1); /* the failed cell is on record */
    assert_string_equal(s[4].commit, f->hash[2]);
    assert_int_equal(s[4].verdict, LAB_BISECT_GOOD);
    assert_string_equal(s[5].commit, f->hash[5]);
    assert_int_equal(s[5].verdict, LAB_BISECT_BAD);
    free(s);
    lab_bisect_result_free(&r);
}

/* A partial change, between the endpoints: more runs, doubling up to
 * max-reps, the nearer endpoint (bad) measured again beside it each time,
 * then a skip. */
static void test_inconclusive_to_max_reps(void **state)
{
    struct fake *f = *state;
    static const double h[] = {100, 70, 50};
    struct lab_bisect_result r;
    assert_int_equal(drive(f, h, 3, 5, 20, &r), 1);
    assert_string_equal(r.status, "ambiguous");
    /* endpoints 3+3+3+3; the step 3, 3; bad 3 beside it, step 6; bad 3, step 8 */
    static const unsigned want[] = {3, 3, 3, 3, 3, 3, 3, 6, 3, 8};
    static const size_t whose[] = {0, 2, 0, 2, 1, 1, 2, 1, 2, 1};
    assert_int_equal(f->ncalls, 10);
    for (size_t i = 0; i < 10; i++) {
        assert_int_equal(f->reps[i], want[i]);
        assert_int_equal(f->calls[i], whose[i]);
    }
    assert_int_equal(f->events[LAB_BISECT_EV_REMEASURE], 2);
    assert_int_equal(f->events[LAB_BISECT_EV_MORE], 2);
    struct lab_bisect_info info;
    size_t n;
    struct lab_bisect_step *s = load(f, &r, &info, &n);
    assert_int_equal(n, 3);
    assert_int_equal(s[2].verdict, LAB_BISECT_INCONCLUSIVE);
    assert_int_equal(s[2].sum.n, 20);
    assert_non_null(strstr(s[2].reason, "a partial change; still at n=20 (skip)"));
    assert_int_equal(stored_cells("1", r.id), 4);
    /* the result's bad endpoint has its extra boots; the stored row not */
    assert_int_equal(r.steps[1].sum.n, 12);
    assert_int_equal(r.steps[1].ncells, 4);
    assert_int_equal(s[1].sum.n, 6);
    free(s);
    lab_bisect_result_free(&r);
}

/* The good endpoint drifted: the step looks 6% off at first; measured
 * again beside it, good moves, and the step is decided good. */
static void test_inconclusive_then_decided(void **state)
{
    struct fake *f = *state;
    static const double h[] = {100, 94, 50};
    f->c[0].drift_at = 3;
    f->c[0].drift = 94;
    struct lab_bisect_result r;
    assert_int_equal(drive(f, h, 3, 5, 20, &r), 0);
    assert_string_equal(r.status, "found");
    assert_string_equal(r.first_bad, f->hash[2]);
    assert_int_equal(f->events[LAB_BISECT_EV_REMEASURE], 1);
    assert_int_equal(f->boots[0], 3);
    assert_int_equal(f->boots[1], 3);
    struct lab_bisect_info info;
    size_t n;
    struct lab_bisect_step *s = load(f, &r, &info, &n);
    assert_int_equal(n, 3);
    assert_int_equal(s[2].verdict, LAB_BISECT_GOOD);
    assert_int_equal(s[2].sum.n, 12);
    assert_non_null(strstr(s[2].reason, "like good"));
    assert_int_equal(r.steps[0].sum.n, 9);
    free(s);
    lab_bisect_result_free(&r);
}

/* With a queue op, every boot the driver measures was announced before,
 * right after its build (two per commit) or beside an endpoint measured
 * again, and none is left over once the bisection decided. */
static void test_queue_announces_boots(void **state)
{
    struct fake *f = *state;
    static const double h[] = {100, 94, 50};
    f->c[0].drift_at = 3;
    f->c[0].drift = 94;
    ops = &queue_ops;
    struct lab_bisect_result r;
    int rc = drive(f, h, 3, 5, 20, &r);
    ops = &fake_ops;
    assert_int_equal(rc, 0);
    assert_string_equal(r.first_bad, f->hash[2]);
    assert_int_equal(f->nqueued, f->ncalls); /* good 3, bad 2, step 3 */
    assert_int_equal(f->ncalls, 8);
    for (size_t q = 0; q < f->nqueued; q++)
        assert_true(f->queued_taken[q]);
    lab_bisect_result_free(&r);
}

/* Endpoints that do not differ by the threshold: refused, both stored. */
static void test_refused(void **state)
{
    struct fake *f = *state;
    static const double h[] = {100, 99, 98};
    struct lab_bisect_result r;
    assert_int_equal(drive(f, h, 3, 5, 20, &r), 2);
    assert_string_equal(r.status, "refused");
    assert_false(r.bisected);
    assert_false(r.ends.differ);
    assert_non_null(strstr(r.message, "good and bad do not differ"));
    assert_non_null(strstr(r.message, "threshold"));
    struct lab_bisect_info info;
    size_t n;
    struct lab_bisect_step *s = load(f, &r, &info, &n);
    assert_int_equal(n, 2);
    assert_int_equal(s[0].sum.n, 6);
    assert_int_equal(s[1].sum.n, 6);
    assert_int_equal(f->ncalls, 4); /* no step measured */
    free(s);
    lab_bisect_result_free(&r);
}

/* Equal endpoints (good no better than bad): refused, not significant. */
static void test_refused_equal(void **state)
{
    struct fake *f = *state;
    static const double h[] = {100, 100, 100};
    struct lab_bisect_result r;
    assert_int_equal(drive(f, h, 3, 5, 20, &r), 2);
    assert_string_equal(r.status, "refused");
    assert_non_null(strstr(r.message, "good and bad do not differ"));
    lab_bisect_result_free(&r);
}

/* An endpoint that does not build, or whose cell fails: failed, what was
 * measured stored. */
static void test_endpoint_fails(void **state)
{
    struct fake *f = *state;
    static const double h[] = {100, 50, 50};
    f->c[0].no_build = 1;
    struct lab_bisect_result r;
    assert_int_equal(drive(f, h, 3, 5, 20, &r), 1);
    assert_string_equal(r.status, "failed");
    char want[128];
    snprintf(want, sizeof want, "the good endpoint %.12s does not build", f->hash[0]);
    assert_string_equal(r.message, want);
    assert_int_equal(f->ncalls, 0);
    struct lab_bisect_info info;
    size_t n;
    struct lab_bisect_step *s = load(f, &r, &info, &n);
    assert_int_equal(n, 1);
    assert_int_equal(s[0].verdict, LAB_BISECT_SKIP);
    assert_string_equal(s[0].reason, "build failed");
    free(s);
    lab_bisect_result_free(&r);

    f->c[0].no_build = 0;
    f->c[2].cell_fails = 1;
    assert_int_equal(drive(f, h, 3, 5, 20, &r), 1);
    snprintf(want, sizeof want, "the bad endpoint %.12s: cell failed: fake: no agent", f->hash[2]);
    assert_string_equal(r.message, want);
    s = load(f, &r, &info, &n);
    assert_int_equal(n, 2);
    assert_int_equal(s[1].verdict, LAB_BISECT_SKIP);
    free(s);
    lab_bisect_result_free(&r);
}

/* A stop while a step is measured: interrupted, the step not stored. */
static void test_stopped(void **state)
{
    struct fake *f = *state;
    static const double h[] = {100, 100, 50, 50};
    f->stop_after = 5; /* the endpoints' four cells, then the first step's first */
    struct lab_bisect_result r;
    assert_int_equal(drive(f, h, 4, 5, 20, &r), 130);
    assert_string_equal(r.status, "interrupted");
    assert_int_equal(r.stop, LAB_BISECT_STOP_SIGNAL);
    assert_string_equal(r.run_status, "interrupted");
    assert_string_equal(r.message, "interrupted by signal 2");
    assert_int_equal(r.nsteps, 2);
    struct lab_bisect_info info;
    size_t n;
    struct lab_bisect_step *s = load(f, &r, &info, &n);
    assert_int_equal(n, 2);
    free(s);
    lab_bisect_result_free(&r);
}

static int has_line(const char *text, const char *line)
{
    const char *p = strstr(text, line);
    return p && (p == text || p[-1] == '\n');
}

/* The progress lines lab bisect prints (its report hook, on stderr, with
 * the stop hook's ctx) and its closing report. */
static void test_report_lines(void **state)
{
    struct fake *f = *state;
    static const double h[] = {100, 100, 100, 100, 100, 50, 50, 50};
    f->c[3].no_build = 1;
    snprintf(lines_path, sizeof lines_path, "%s.lines", path);
    fflush(stderr);
    int saved = dup(2), fd = open(lines_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(saved >= 0 && fd >= 0);
    dup2(fd, 2);
    close(fd);
    report_hook = lab_bisect_report_line;
    struct lab_bisect_result r;
    int rc = drive(f, h, 8, 5, 20, &r);
    report_hook = fake_report;
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    assert_int_equal(rc, 0);
    char *text = lab_read_text(lines_path, 1 << 20, NULL);
    assert_non_null(text);
    unlink(lines_path);
    if (getenv("SHOW_LINES"))
        fputs(text, stdout);
    char want[512];
    snprintf(want, sizeof want,
             "lab: bisect 1 (run 1): 8 commit(s) from %.12s (good) to %.12s (bad), seqread mbps on "
             "fast, 5 run(s) per step (up to 20), threshold 5.0%%\n",
             f->hash[0], f->hash[7]);
    assert_true(has_line(text, want));
    snprintf(want, sizeof want, "lab: bisect: good %.12s \"commit 0\": n=6 mean 100.05 MB/s",
             f->hash[0]);
    assert_true(has_line(text, want));
    assert_true(has_line(text, "lab: bisect: good and bad differ: "));
    assert_non_null(strstr(text, " (a regression for mbps)\n"));
    snprintf(want, sizeof want,
             "lab: bisect: step 1: %.12s \"commit 3\" (6 commit(s) left between)\n", f->hash[3]);
    assert_true(has_line(text, want));
    snprintf(want, sizeof want,
             "lab: bisect: step 1 %.12s \"commit 3\": -> skip (build failed (skip, like git "
             "bisect's 125))\n",
             f->hash[3]);
    assert_true(has_line(text, want));
    snprintf(want, sizeof want, "first bad commit: %s commit 5\n", f->hash[5]);
    assert_true(has_line(text, want));
    assert_true(has_line(text, "seqread mbps: good and bad differ: "));
    assert_true(has_line(text, "step  commit       subject"));
    assert_true(has_line(text, "lab: bisect 1 took 0 s (lab bisect --show 1)\n"));
    free(text);
    lab_bisect_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_found_with_skip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ambiguous, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inconclusive_to_max_reps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_inconclusive_then_decided, setup, teardown),
        cmocka_unit_test_setup_teardown(test_queue_announces_boots, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refused_equal, setup, teardown),
        cmocka_unit_test_setup_teardown(test_endpoint_fails, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stopped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_report_lines, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
