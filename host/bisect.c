/* Statistical performance bisection; see bisect.h. */
#include "host/bisect.h"
#include "host/bootstats.h"

#include "host/store.h"
#include "common/clock.h"
#include "common/msg.h"
#include "common/str.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

/* ---- metrics (host/testdef.c) ---- */

const struct lab_metric *lab_metric_find(const char *name)
{
    return lab_test_metric(name);
}

const struct lab_metric *lab_metric_at(size_t i)
{
    return lab_test_metric_at(i);
}

/* ---- decisions ---- */

const char *lab_bisect_verdict_name(enum lab_bisect_verdict v)
{
    switch (v) {
    case LAB_BISECT_UNTESTED:
        return "untested";
    case LAB_BISECT_GOOD:
        return "good";
    case LAB_BISECT_BAD:
        return "bad";
    case LAB_BISECT_SKIP:
        return "skip";
    case LAB_BISECT_INCONCLUSIVE:
        return "inconclusive";
    }
    return "?";
}

static double mean_of(const double *x, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    return n ? s / (double)n : 0;
}

static int sign(double x)
{
    return x > 0 ? 1 : x < 0 ? -1 : 0;
}

/* b against a, with the boot as the unit when both sides know their boots
 * (host/bootstats.h); welch_p then holds the method's p, which is what the
 * decisions below test. */
static void compare_boots(const double *a, const unsigned *ba, size_t na, const double *b,
                          const unsigned *bb, size_t nb, struct lab_comparison *out)
{
    struct lab_boot_cmp bc;
    if (ba && bb && lab_boot_compare(a, ba, na, b, bb, nb, &bc) == 0) {
        *out = bc.c;
        out->welch_p = bc.p;
        return;
    }
    lab_compare(a, na, b, nb, out);
}

int lab_bisect_check_endpoints(const double *good, size_t ng, const double *bad, size_t nb,
                               double threshold_pct, double alpha, struct lab_bisect_endpoints *out)
{
    return lab_bisect_check_endpoints_boots(good, NULL, ng, bad, NULL, nb, threshold_pct, alpha,
                                            out);
}

int lab_bisect_check_endpoints_boots(const double *good, const unsigned *gboot, size_t ng,
                                     const double *bad, const unsigned *bboot, size_t nb,
                                     double threshold_pct, double alpha,
                                     struct lab_bisect_endpoints *out)
{
    memset(out, 0, sizeof *out);
    if (ng < 2 || nb < 2) {
        snprintf(out->reason, sizeof out->reason,
                 "too few samples to compare good and bad (n=%zu and %zu, need 2 each)", ng, nb);
        return 0;
    }
    compare_boots(good, gboot, ng, bad, bboot, nb, &out->cmp);
    out->direction = sign(mean_of(bad, nb) - mean_of(good, ng));
    const struct lab_comparison *c = &out->cmp;
    int significant = c->welch_p < alpha;
    int large = fabs(c->diff_pct) >= threshold_pct;
    out->differ = significant && large && out->direction != 0;
    char what[160];
    snprintf(what, sizeof what, "%+.1f%% (95%% CI %+.1f%% .. %+.1f%%), p=%.2g, d=%.2f", c->diff_pct,
             c->diff_ci_lo, c->diff_ci_hi, c->welch_p, c->cohen_d);
    if (out->differ)
        snprintf(out->reason, sizeof out->reason, "good and bad differ: %s", what);
    else if (!significant)
        snprintf(out->reason, sizeof out->reason, "good and bad do not differ: %s; p >= %.2g", what,
                 alpha);
    else
        snprintf(out->reason, sizeof out->reason,
                 "good and bad do not differ: %s; |change| < the %.1f%% threshold", what,
                 threshold_pct);
    return out->differ;
}

enum lab_bisect_verdict lab_bisect_decide(const double *good, size_t ng, const double *bad,
                                          size_t nb, const double *step, size_t ns,
                                          double threshold_pct, double alpha,
                                          struct lab_bisect_decision *out)
{
    return lab_bisect_decide_boots(good, NULL, ng, bad, NULL, nb, step, NULL, ns, threshold_pct,
                                   alpha, out);
}

enum lab_bisect_verdict lab_bisect_decide_boots(const double *good, const unsigned *gboot,
                                                size_t ng, const double *bad,
                                                const unsigned *bboot, size_t nb,
                                                const double *step, const unsigned *sboot,
                                                size_t ns, double threshold_pct, double alpha,
                                                struct lab_bisect_decision *out)
{
    memset(out, 0, sizeof *out);
    out->verdict = LAB_BISECT_INCONCLUSIVE;
    if (ns < 2 || ng < 2 || nb < 2) {
        snprintf(out->reason, sizeof out->reason, "%zu sample(s): never decided from fewer than 2",
                 ns);
        return out->verdict;
    }
    out->have_cmp = 1;
    compare_boots(good, gboot, ng, step, sboot, ns, &out->vs_good);
    compare_boots(bad, bboot, nb, step, sboot, ns, &out->vs_bad);
    double mg = mean_of(good, ng), mb = mean_of(bad, nb), ms = mean_of(step, ns);
    int dir = sign(mb - mg); /* the bad direction */
    /* Distances in percent of the good mean (the threshold's scale). */
    double scale = fabs(mg) > 0 ? fabs(mg) : 1;
    double to_good = (ms - mg) / scale * 100, to_bad = (ms - mb) / scale * 100;
    int sig_good = out->vs_good.welch_p < alpha, sig_bad = out->vs_bad.welch_p < alpha;
    /* Far from the other endpoint, on this endpoint's side of it. */
    int far_from_bad = dir != 0 && sig_bad && sign(to_bad) == -dir && fabs(to_bad) >= threshold_pct;
    int far_from_good = dir != 0 && sig_good && sign(to_good) == dir && fabs(to_good) >= threshold_pct;
    int near_good = fabs(to_good) < threshold_pct, near_bad = fabs(to_bad) < threshold_pct;
    /* Past an endpoint, away from the other one. */
    int beyond_good = dir != 0 && sign(to_good) == -dir;
    int beyond_bad = dir != 0 && sign(to_bad) == dir;
    if (far_from_bad && near_good) {
        out->verdict = LAB_BISECT_GOOD;
        snprintf(out->reason, sizeof out->reason,
                 "differs from bad (%+.1f%%, p=%.2g), like good (%+.1f%%, p=%.2g)", to_bad,
                 out->vs_bad.welch_p, to_good, out->vs_good.welch_p);
    } else if (far_from_good && near_bad) {
        out->verdict = LAB_BISECT_BAD;
        snprintf(out->reason, sizeof out->reason,
                 "differs from good (%+.1f%%, p=%.2g), like bad (%+.1f%%, p=%.2g)", to_good,
                 out->vs_good.welch_p, to_bad, out->vs_bad.welch_p);
    } else if (far_from_bad && beyond_good && sig_good) {
        /* Past good by at least the threshold: on good's side of the
         * regression, and a change of its own worth reporting. */
        out->verdict = LAB_BISECT_GOOD;
        out->finding = 1;
        snprintf(out->reason, sizeof out->reason,
                 "new finding: %+.1f%% beyond good (p=%.2g), so on good's side of bad (p=%.2g)",
                 to_good, out->vs_good.welch_p, out->vs_bad.welch_p);
    } else if (far_from_good && beyond_bad && sig_bad) {
        out->verdict = LAB_BISECT_BAD;
        out->finding = 1;
        snprintf(out->reason, sizeof out->reason,
                 "new finding: %+.1f%% beyond bad (p=%.2g), so on bad's side of good (p=%.2g)",
                 to_bad, out->vs_bad.welch_p, out->vs_good.welch_p);
    } else if (far_from_bad && far_from_good) {
        snprintf(out->reason, sizeof out->reason,
                 "between good (%+.1f%%, p=%.2g) and bad (%+.1f%%, p=%.2g): a partial change",
                 to_good, out->vs_good.welch_p, to_bad, out->vs_bad.welch_p);
    } else {
        snprintf(out->reason, sizeof out->reason,
                 "near neither endpoint yet (good %+.1f%% p=%.2g, bad %+.1f%% p=%.2g): samples "
                 "overlap or differences are below the threshold",
                 to_good, out->vs_good.welch_p, to_bad, out->vs_bad.welch_p);
    }
    return out->verdict;
}

unsigned lab_bisect_more_reps(unsigned n, unsigned max_reps)
{
    if (n >= max_reps)
        return 0;
    unsigned add = n ? n : 2;
    return add > max_reps - n ? max_reps - n : add;
}

struct lab_bisect_pick lab_bisect_pick_next(const enum lab_bisect_verdict *states, size_t n)
{
    struct lab_bisect_pick p = {.status = LAB_BISECT_INVALID};
    size_t lo = n, hi = n;
    for (size_t i = 0; i < n; i++)
        if (states[i] == LAB_BISECT_GOOD)
            lo = i;
    if (lo == n)
        return p;
    for (size_t i = lo + 1; i < n && hi == n; i++)
        if (states[i] == LAB_BISECT_BAD)
            hi = i;
    if (hi == n)
        return p;
    p.lo = lo;
    p.hi = hi;
    double mid = ((double)lo + (double)hi) / 2;
    size_t best = n;
    double best_dist = 0;
    for (size_t i = lo + 1; i < hi; i++) {
        if (states[i] != LAB_BISECT_UNTESTED)
            continue; /* skipped, or inconclusive (treated as skipped) */
        double dist = fabs((double)i - mid);
        if (best == n || dist < best_dist) {
            best = i;
            best_dist = dist;
        }
    }
    if (best != n) {
        p.status = LAB_BISECT_NEXT;
        p.index = best;
    } else if (hi == lo + 1) {
        p.status = LAB_BISECT_FOUND;
        p.index = hi;
    } else {
        p.status = LAB_BISECT_AMBIGUOUS;
        p.index = hi;
    }
    return p;
}

/* ---- the evidence table ---- */

static void fmt_p(char *buf, size_t len, double p)
{
    if (isnan(p))
        snprintf(buf, len, "-");
    else if (p < 0.001)
        snprintf(buf, len, "<0.001");
    else
        snprintf(buf, len, "%.3f", p);
}

void lab_bisect_print_table(FILE *out, const struct lab_bisect_step *steps, size_t n,
                            const char *unit)
{
    fprintf(out, "%-5s %-12s %-34s %3s %9s %21s %-12s %7s %7s %6s\n", "step", "commit", "subject",
            "n", unit, "95% CI of the mean", "verdict", "p good", "p bad", "d good");
    for (size_t i = 0; i < n; i++) {
        const struct lab_bisect_step *s = &steps[i];
        char step[8], ci[48], pg[16], pb[16], dg[16], mean[16];
        if (strcmp(s->role, "step") == 0)
            snprintf(step, sizeof step, "%d", s->step);
        else
            snprintf(step, sizeof step, "%s", s->role);
        if (s->sum.n) {
            snprintf(mean, sizeof mean, "%.2f", s->sum.mean);
            snprintf(ci, sizeof ci, "%.2f .. %.2f", s->sum.ci_lo, s->sum.ci_hi);
        } else {
            snprintf(mean, sizeof mean, "-");
            snprintf(ci, sizeof ci, "-");
        }
        fmt_p(pg, sizeof pg, s->p_good);
        fmt_p(pb, sizeof pb, s->p_bad);
        if (isnan(s->d_good))
            snprintf(dg, sizeof dg, "-");
        else
            snprintf(dg, sizeof dg, "%.2f", s->d_good);
        fprintf(out, "%-5s %-12.12s %-34.34s %3zu %9s %21s %-12s %7s %7s %6s\n", step, s->commit,
                s->subject, s->sum.n, mean, ci, lab_bisect_verdict_name(s->verdict), pg, pb, dg);
    }
}

/* ---- the store's tables ---- */

struct lab_bisect_db {
    sqlite3 *db;
};

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS bisect ("
    " id INTEGER PRIMARY KEY, run INTEGER REFERENCES runs(id), command_line TEXT,"
    " repo TEXT, good TEXT, bad TEXT, experiment TEXT, metric TEXT, profile TEXT,"
    " threshold_pct REAL, reps INTEGER, max_reps INTEGER, status TEXT NOT NULL,"
    " first_bad TEXT, first_bad_subject TEXT, message TEXT,"
    " started_wall_ns INTEGER, ended_wall_ns INTEGER);"
    "CREATE TABLE IF NOT EXISTS bisect_steps ("
    " id INTEGER PRIMARY KEY, bisect INTEGER NOT NULL REFERENCES bisect(id),"
    " step INTEGER NOT NULL, role TEXT NOT NULL, commit_hash TEXT NOT NULL, subject TEXT,"
    " kernel TEXT, verdict TEXT NOT NULL, n INTEGER NOT NULL, mean REAL, ci_lo REAL,"
    " ci_hi REAL, stddev REAL, p_good REAL, p_bad REAL, d_good REAL, d_bad REAL, reason TEXT);"
    "CREATE TABLE IF NOT EXISTS bisect_step_cells ("
    " step INTEGER NOT NULL REFERENCES bisect_steps(id),"
    " cell INTEGER NOT NULL REFERENCES cells(id));";

static int db_err(struct lab_bisect_db *db, const char *what)
{
    return lab_error("bisect store: %s: %s", what, sqlite3_errmsg(db->db));
}

int lab_bisect_db_open(const char *store_path, struct lab_bisect_db **out)
{
    struct lab_bisect_db *db = lab_xcalloc(1, sizeof *db);
    *out = NULL;
    if (sqlite3_open_v2(store_path, &db->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
        SQLITE_OK) {
        db_err(db, store_path);
        lab_bisect_db_close(db);
        return -1;
    }
    sqlite3_busy_timeout(db->db, 10000);
    char *msg = NULL;
    if (sqlite3_exec(db->db, "PRAGMA foreign_keys=ON;", NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(db->db, schema, NULL, NULL, &msg) != SQLITE_OK) {
        lab_error("bisect store: %s: %s", store_path, msg ? msg : "?");
        sqlite3_free(msg);
        lab_bisect_db_close(db);
        return -1;
    }
    *out = db;
    return 0;
}

void lab_bisect_db_close(struct lab_bisect_db *db)
{
    if (!db)
        return;
    sqlite3_close(db->db);
    free(db);
}

static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
    if (v)
        sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(s, i);
}

static void bind_real(sqlite3_stmt *s, int i, double v)
{
    if (isnan(v) || isinf(v))
        sqlite3_bind_null(s, i);
    else
        sqlite3_bind_double(s, i, v);
}

int64_t lab_bisect_db_begin(struct lab_bisect_db *db, const struct lab_bisect_row *r)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db->db,
                           "INSERT INTO bisect (run, command_line, repo, good, bad, experiment,"
                           " metric, profile, threshold_pct, reps, max_reps, status,"
                           " started_wall_ns) VALUES (?,?,?,?,?,?,?,?,?,?,?,'running',?)",
                           -1, &s, NULL) != SQLITE_OK)
        return db_err(db, "prepare");
    if (r->run > 0)
        sqlite3_bind_int64(s, 1, r->run);
    else
        sqlite3_bind_null(s, 1);
    bind_text(s, 2, r->command_line);
    bind_text(s, 3, r->repo);
    bind_text(s, 4, r->good);
    bind_text(s, 5, r->bad);
    bind_text(s, 6, r->experiment);
    bind_text(s, 7, r->metric);
    bind_text(s, 8, r->profile);
    sqlite3_bind_double(s, 9, r->threshold_pct);
    sqlite3_bind_int(s, 10, (int)r->reps);
    sqlite3_bind_int(s, 11, (int)r->max_reps);
    sqlite3_bind_int64(s, 12, lab_wall_ns());
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return db_err(db, "insert bisect");
    return sqlite3_last_insert_rowid(db->db);
}

int lab_bisect_db_end(struct lab_bisect_db *db, int64_t id, const char *status,
                      const char *first_bad, const char *subject, const char *message)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db->db,
                           "UPDATE bisect SET status=?, first_bad=?, first_bad_subject=?,"
                           " message=?, ended_wall_ns=? WHERE id=?",
                           -1, &s, NULL) != SQLITE_OK)
        return db_err(db, "prepare");
    bind_text(s, 1, status);
    bind_text(s, 2, first_bad);
    bind_text(s, 3, subject);
    bind_text(s, 4, message);
    sqlite3_bind_int64(s, 5, lab_wall_ns());
    sqlite3_bind_int64(s, 6, id);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : db_err(db, "update bisect");
}

int lab_bisect_db_add_step(struct lab_bisect_db *db, int64_t id, const struct lab_bisect_step *st)
{
    sqlite3_stmt *s;
    if (sqlite3_exec(db->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        return db_err(db, "begin");
    if (sqlite3_prepare_v2(db->db,
                           "INSERT INTO bisect_steps (bisect, step, role, commit_hash, subject,"
                           " kernel, verdict, n, mean, ci_lo, ci_hi, stddev, p_good, p_bad,"
                           " d_good, d_bad, reason) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                           -1, &s, NULL) != SQLITE_OK)
        goto fail;
    sqlite3_bind_int64(s, 1, id);
    sqlite3_bind_int(s, 2, st->step);
    bind_text(s, 3, st->role);
    bind_text(s, 4, st->commit);
    bind_text(s, 5, st->subject);
    bind_text(s, 6, st->kernel[0] ? st->kernel : NULL);
    bind_text(s, 7, lab_bisect_verdict_name(st->verdict));
    sqlite3_bind_int64(s, 8, (int64_t)st->sum.n);
    bind_real(s, 9, st->sum.n ? st->sum.mean : NAN);
    bind_real(s, 10, st->sum.n ? st->sum.ci_lo : NAN);
    bind_real(s, 11, st->sum.n ? st->sum.ci_hi : NAN);
    bind_real(s, 12, st->sum.n ? st->sum.stddev : NAN);
    bind_real(s, 13, st->p_good);
    bind_real(s, 14, st->p_bad);
    bind_real(s, 15, st->d_good);
    bind_real(s, 16, st->d_bad);
    bind_text(s, 17, st->reason[0] ? st->reason : NULL);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        goto fail;
    int64_t step_id = sqlite3_last_insert_rowid(db->db);
    for (size_t i = 0; i < st->ncells; i++) {
        if (sqlite3_prepare_v2(db->db, "INSERT INTO bisect_step_cells (step, cell) VALUES (?,?)",
                               -1, &s, NULL) != SQLITE_OK)
            goto fail;
        sqlite3_bind_int64(s, 1, step_id);
        sqlite3_bind_int64(s, 2, st->cells[i]);
        rc = sqlite3_step(s);
        sqlite3_finalize(s);
        if (rc != SQLITE_DONE)
            goto fail;
    }
    if (sqlite3_exec(db->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        goto fail;
    return 0;
fail:
    db_err(db, "insert step");
    sqlite3_exec(db->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

static void col_text(sqlite3_stmt *s, int i, char *buf, size_t len)
{
    const unsigned char *t = sqlite3_column_text(s, i);
    snprintf(buf, len, "%s", t ? (const char *)t : "");
}

static double col_real(sqlite3_stmt *s, int i)
{
    return sqlite3_column_type(s, i) == SQLITE_NULL ? NAN : sqlite3_column_double(s, i);
}

int lab_bisect_db_load(struct lab_bisect_db *db, int64_t id, struct lab_bisect_info *info,
                       struct lab_bisect_step **steps, size_t *nsteps)
{
    sqlite3_stmt *s;
    memset(info, 0, sizeof *info);
    *steps = NULL;
    *nsteps = 0;
    if (sqlite3_prepare_v2(db->db,
                           "SELECT id, run, command_line, repo, good, bad, experiment, metric,"
                           " profile, status, first_bad, first_bad_subject, message,"
                           " threshold_pct, reps, max_reps FROM bisect"
                           " WHERE id = ? OR (? < 0 AND id = (SELECT max(id) FROM bisect))",
                           -1, &s, NULL) != SQLITE_OK)
        return db_err(db, "prepare");
    sqlite3_bind_int64(s, 1, id);
    sqlite3_bind_int64(s, 2, id);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        info->id = sqlite3_column_int64(s, 0);
        info->run = sqlite3_column_int64(s, 1);
        col_text(s, 2, info->command_line, sizeof info->command_line);
        col_text(s, 3, info->repo, sizeof info->repo);
        col_text(s, 4, info->good, sizeof info->good);
        col_text(s, 5, info->bad, sizeof info->bad);
        col_text(s, 6, info->experiment, sizeof info->experiment);
        col_text(s, 7, info->metric, sizeof info->metric);
        col_text(s, 8, info->profile, sizeof info->profile);
        col_text(s, 9, info->status, sizeof info->status);
        col_text(s, 10, info->first_bad, sizeof info->first_bad);
        col_text(s, 11, info->first_bad_subject, sizeof info->first_bad_subject);
        col_text(s, 12, info->message, sizeof info->message);
        info->threshold_pct = sqlite3_column_double(s, 13);
        info->reps = (unsigned)sqlite3_column_int(s, 14);
        info->max_reps = (unsigned)sqlite3_column_int(s, 15);
    }
    sqlite3_finalize(s);
    if (rc == SQLITE_DONE)
        return 1;
    if (rc != SQLITE_ROW)
        return db_err(db, "select bisect");

    if (sqlite3_prepare_v2(db->db,
                           "SELECT id, step, role, commit_hash, subject, kernel, verdict, n, mean,"
                           " ci_lo, ci_hi, stddev, p_good, p_bad, d_good, d_bad, reason"
                           " FROM bisect_steps WHERE bisect = ? ORDER BY id",
                           -1, &s, NULL) != SQLITE_OK)
        return db_err(db, "prepare");
    sqlite3_bind_int64(s, 1, info->id);
    size_t cap = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (*nsteps == cap) {
            cap = cap ? 2 * cap : 16;
            *steps = realloc(*steps, cap * sizeof **steps);
            if (!*steps)
                abort();
        }
        struct lab_bisect_step *st = &(*steps)[(*nsteps)++];
        memset(st, 0, sizeof *st);
        st->step = sqlite3_column_int(s, 1);
        col_text(s, 2, st->role, sizeof st->role);
        col_text(s, 3, st->commit, sizeof st->commit);
        col_text(s, 4, st->subject, sizeof st->subject);
        col_text(s, 5, st->kernel, sizeof st->kernel);
        char verdict[16];
        col_text(s, 6, verdict, sizeof verdict);
        for (int v = LAB_BISECT_UNTESTED; v <= LAB_BISECT_INCONCLUSIVE; v++)
            if (strcmp(verdict, lab_bisect_verdict_name(v)) == 0)
                st->verdict = v;
        st->sum.n = (size_t)sqlite3_column_int64(s, 7);
        st->sum.mean = col_real(s, 8);
        st->sum.ci_lo = col_real(s, 9);
        st->sum.ci_hi = col_real(s, 10);
        st->sum.stddev = col_real(s, 11);
        st->p_good = col_real(s, 12);
        st->p_bad = col_real(s, 13);
        st->d_good = col_real(s, 14);
        st->d_bad = col_real(s, 15);
        col_text(s, 16, st->reason, sizeof st->reason);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE) {
        free(*steps);
        *steps = NULL;
        *nsteps = 0;
        return db_err(db, "select steps");
    }
    return 0;
}

int lab_bisect_db_list(struct lab_bisect_db *db, FILE *out)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db->db,
                           "SELECT id, run, status, metric, experiment, substr(good,1,12),"
                           " substr(bad,1,12), substr(coalesce(first_bad,''),1,12),"
                           " coalesce(first_bad_subject,'') FROM bisect ORDER BY id",
                           -1, &s, NULL) != SQLITE_OK)
        return db_err(db, "prepare");
    fprintf(out, "%4s %4s %-10s %-6s %-12s %-12s %-12s %-12s %s\n", "id", "run", "status", "metric",
            "experiment", "good", "bad", "first bad", "subject");
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        fprintf(out, "%4lld %4lld %-10s %-6s %-12s %-12s %-12s %-12s %s\n",
                (long long)sqlite3_column_int64(s, 0), (long long)sqlite3_column_int64(s, 1),
                sqlite3_column_text(s, 2), sqlite3_column_text(s, 3), sqlite3_column_text(s, 4),
                sqlite3_column_text(s, 5), sqlite3_column_text(s, 6), sqlite3_column_text(s, 7),
                sqlite3_column_text(s, 8));
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : db_err(db, "list");
}
