/* The store's bisection tables; see store_bisect.h. The schema is
 * store.c's (migration 2); this file holds the queries. */
#include "host/bisect/store_bisect.h"
#include "host/store/store.h"
#include "host/store/store_impl.h"

#include "common/clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void bind_real(sqlite3_stmt *s, int i, double v)
{
    if (isnan(v) || isinf(v))
        sqlite3_bind_null(s, i);
    else
        sqlite3_bind_double(s, i, v);
}

static void finish(struct lab_store *st, sqlite3_stmt *s)
{
    sqlite3_finalize(s);
    lab_store_unlock(st);
}

int64_t lab_store_bisect_begin(struct lab_store *st, const struct lab_bisect_row *r)
{
    sqlite3_stmt *s =
        lab_store_prepare(st, "INSERT INTO bisect (run, command_line, repo, good, bad,"
                              " experiment, metric, profile, threshold_pct, reps, max_reps,"
                              " status, started_wall_ns)"
                              " VALUES (?,?,?,?,?,?,?,?,?,?,?,'running',?)");
    if (!s)
        return -1;
    if (r->run > 0)
        sqlite3_bind_int64(s, 1, r->run);
    else
        sqlite3_bind_null(s, 1);
    lab_store_bind_text(s, 2, r->command_line);
    lab_store_bind_text(s, 3, r->repo);
    lab_store_bind_text(s, 4, r->good);
    lab_store_bind_text(s, 5, r->bad);
    lab_store_bind_text(s, 6, r->experiment);
    lab_store_bind_text(s, 7, r->metric);
    lab_store_bind_text(s, 8, r->profile);
    sqlite3_bind_double(s, 9, r->threshold_pct);
    sqlite3_bind_int(s, 10, (int)r->reps);
    sqlite3_bind_int(s, 11, (int)r->max_reps);
    sqlite3_bind_int64(s, 12, lab_wall_ns());
    int64_t id = -1;
    if (lab_store_step_write(st, s, "begin a bisection") == 0)
        id = sqlite3_last_insert_rowid(sqlite3_db_handle(s));
    finish(st, s);
    return id;
}

int lab_store_bisect_end(struct lab_store *st, int64_t id, const char *status,
                         const char *first_bad, const char *subject, const char *message)
{
    sqlite3_stmt *s =
        lab_store_prepare(st, "UPDATE bisect SET status=?, first_bad=?, first_bad_subject=?,"
                              " message=?, ended_wall_ns=? WHERE id=?");
    if (!s)
        return -1;
    lab_store_bind_text(s, 1, status);
    lab_store_bind_text(s, 2, first_bad);
    lab_store_bind_text(s, 3, subject);
    lab_store_bind_text(s, 4, message);
    sqlite3_bind_int64(s, 5, lab_wall_ns());
    sqlite3_bind_int64(s, 6, id);
    int rc = lab_store_step_write(st, s, "end a bisection");
    finish(st, s);
    return rc;
}

/* The step's row; its id, -1 on error. The lock is held by the caller. */
static int64_t insert_step(struct lab_store *st, int64_t id, const struct lab_bisect_step *x)
{
    sqlite3_stmt *s =
        lab_store_prepare(st, "INSERT INTO bisect_steps (bisect, step, role, commit_hash,"
                              " subject, kernel, verdict, n, mean, ci_lo, ci_hi, stddev,"
                              " p_good, p_bad, d_good, d_bad, reason)"
                              " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    if (!s)
        return -1;
    sqlite3_bind_int64(s, 1, id);
    sqlite3_bind_int(s, 2, x->step);
    lab_store_bind_text(s, 3, x->role);
    lab_store_bind_text(s, 4, x->commit);
    lab_store_bind_text(s, 5, x->subject);
    lab_store_bind_text(s, 6, x->kernel[0] ? x->kernel : NULL);
    lab_store_bind_text(s, 7, lab_bisect_verdict_name(x->verdict));
    sqlite3_bind_int64(s, 8, (int64_t)x->sum.n);
    bind_real(s, 9, x->sum.n ? x->sum.mean : NAN);
    bind_real(s, 10, x->sum.n ? x->sum.ci_lo : NAN);
    bind_real(s, 11, x->sum.n ? x->sum.ci_hi : NAN);
    bind_real(s, 12, x->sum.n ? x->sum.stddev : NAN);
    bind_real(s, 13, x->p_good);
    bind_real(s, 14, x->p_bad);
    bind_real(s, 15, x->d_good);
    bind_real(s, 16, x->d_bad);
    lab_store_bind_text(s, 17, x->reason[0] ? x->reason : NULL);
    int64_t step_id = -1;
    if (lab_store_step_write(st, s, "add a bisection step") == 0)
        step_id = sqlite3_last_insert_rowid(sqlite3_db_handle(s));
    finish(st, s);
    return step_id;
}

static int insert_cell(struct lab_store *st, int64_t step_id, int64_t cell)
{
    sqlite3_stmt *s =
        lab_store_prepare(st, "INSERT INTO bisect_step_cells (step, cell) VALUES (?,?)");
    if (!s)
        return -1;
    sqlite3_bind_int64(s, 1, step_id);
    sqlite3_bind_int64(s, 2, cell);
    int rc = lab_store_step_write(st, s, "add a bisection step's cell");
    finish(st, s);
    return rc;
}

int lab_store_bisect_add_step(struct lab_store *st, int64_t id, const struct lab_bisect_step *x)
{
    sqlite3 *db = lab_store_lock(st);
    if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
        lab_store_sql_error(st, "begin a bisection step");
        lab_store_unlock(st);
        return -1;
    }
    int64_t step_id = insert_step(st, id, x);
    int rc = step_id > 0 ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < x->ncells; i++)
        rc = insert_cell(st, step_id, x->cells[i]);
    if (rc == 0 && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        rc = lab_store_sql_error(st, "commit a bisection step");
    if (rc != 0)
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    lab_store_unlock(st);
    return rc;
}

/* ---- reading back ---- */

static void col_text(sqlite3_stmt *s, int i, char *buf, size_t len)
{
    const unsigned char *t = sqlite3_column_text(s, i);
    snprintf(buf, len, "%s", t ? (const char *)t : "");
}

static double col_real(sqlite3_stmt *s, int i)
{
    return sqlite3_column_type(s, i) == SQLITE_NULL ? NAN : sqlite3_column_double(s, i);
}

/* The bisection's row into info; 1: stop, it is the one. */
static int info_row(sqlite3_stmt *s, void *p)
{
    struct lab_bisect_info *info = p;
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
    return 1;
}

/* 0, 1 if there is no such bisection, -1 on error. */
static int load_info(struct lab_store *st, int64_t id, struct lab_bisect_info *info)
{
    sqlite3_stmt *s =
        lab_store_prepare(st, "SELECT id, run, command_line, repo, good, bad, experiment,"
                              " metric, profile, status, first_bad, first_bad_subject,"
                              " message, threshold_pct, reps, max_reps FROM bisect"
                              " WHERE id = ? OR (? < 0 AND id = (SELECT max(id) FROM bisect))");
    if (!s)
        return -1;
    sqlite3_bind_int64(s, 1, id);
    sqlite3_bind_int64(s, 2, id);
    int rc = lab_store_rows(st, s, info_row, info, "read a bisection");
    return rc < 0 ? -1 : rc == 1 ? 0 : 1;
}

static void step_from_row(sqlite3_stmt *s, struct lab_bisect_step *x)
{
    memset(x, 0, sizeof *x);
    x->step = sqlite3_column_int(s, 1);
    col_text(s, 2, x->role, sizeof x->role);
    col_text(s, 3, x->commit, sizeof x->commit);
    col_text(s, 4, x->subject, sizeof x->subject);
    col_text(s, 5, x->kernel, sizeof x->kernel);
    char verdict[16];
    col_text(s, 6, verdict, sizeof verdict);
    for (int v = LAB_BISECT_UNTESTED; v <= LAB_BISECT_INCONCLUSIVE; v++)
        if (strcmp(verdict, lab_bisect_verdict_name(v)) == 0)
            x->verdict = v;
    x->sum.n = (size_t)sqlite3_column_int64(s, 7);
    x->sum.mean = col_real(s, 8);
    x->sum.ci_lo = col_real(s, 9);
    x->sum.ci_hi = col_real(s, 10);
    x->sum.stddev = col_real(s, 11);
    x->p_good = col_real(s, 12);
    x->p_bad = col_real(s, 13);
    x->d_good = col_real(s, 14);
    x->d_bad = col_real(s, 15);
    col_text(s, 16, x->reason, sizeof x->reason);
}

/* The steps read so far, in an array grown as rows come. */
struct steps_read {
    struct lab_bisect_step **steps;
    size_t *n, cap;
};

static int step_row(sqlite3_stmt *s, void *p)
{
    struct steps_read *r = p;
    if (*r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 16;
        *r->steps = realloc(*r->steps, r->cap * sizeof **r->steps);
        if (!*r->steps)
            abort();
    }
    step_from_row(s, &(*r->steps)[(*r->n)++]);
    return 0;
}

static int load_steps(struct lab_store *st, int64_t id, struct lab_bisect_step **steps,
                      size_t *nsteps)
{
    sqlite3_stmt *s =
        lab_store_prepare(st, "SELECT id, step, role, commit_hash, subject, kernel, verdict,"
                              " n, mean, ci_lo, ci_hi, stddev, p_good, p_bad, d_good, d_bad,"
                              " reason FROM bisect_steps WHERE bisect = ? ORDER BY id");
    if (!s)
        return -1;
    sqlite3_bind_int64(s, 1, id);
    struct steps_read r = {.steps = steps, .n = nsteps};
    return lab_store_rows(st, s, step_row, &r, "read a bisection's steps");
}

int lab_store_bisect_load(struct lab_store *st, int64_t id, struct lab_bisect_info *info,
                          struct lab_bisect_step **steps, size_t *nsteps)
{
    memset(info, 0, sizeof *info);
    *steps = NULL;
    *nsteps = 0;
    int rc = load_info(st, id, info);
    if (rc != 0)
        return rc;
    if (load_steps(st, info->id, steps, nsteps) < 0) {
        free(*steps);
        *steps = NULL;
        *nsteps = 0;
        return -1;
    }
    return 0;
}

static int list_row(sqlite3_stmt *s, void *out)
{
    fprintf(out, "%4lld %4lld %-10s %-6s %-12s %-12s %-12s %-12s %s\n",
            (long long)sqlite3_column_int64(s, 0), (long long)sqlite3_column_int64(s, 1),
            sqlite3_column_text(s, 2), sqlite3_column_text(s, 3), sqlite3_column_text(s, 4),
            sqlite3_column_text(s, 5), sqlite3_column_text(s, 6), sqlite3_column_text(s, 7),
            sqlite3_column_text(s, 8));
    return 0;
}

int lab_store_bisect_list(struct lab_store *st, FILE *out)
{
    sqlite3_stmt *s =
        lab_store_prepare(st, "SELECT id, run, status, metric, experiment, substr(good,1,12),"
                              " substr(bad,1,12), substr(coalesce(first_bad,''),1,12),"
                              " coalesce(first_bad_subject,'') FROM bisect ORDER BY id");
    if (!s)
        return -1;
    fprintf(out, "%4s %4s %-10s %-6s %-12s %-12s %-12s %-12s %s\n", "id", "run", "status", "metric",
            "experiment", "good", "bad", "first bad", "subject");
    return lab_store_rows(st, s, list_row, out, "list the bisections");
}
