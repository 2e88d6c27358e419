/* SQLite result store. See store.h. Every write is its own transaction
 * (autocommit) in WAL mode with synchronous=NORMAL: a committed row survives a
 * crash or Ctrl-C of lab; only a power loss may lose the last commits. */
#include "host/store/store.h"
#include "host/store/store_impl.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "common/clock.h"
#include "common/msg.h"
#include "common/proc.h"
#include "common/str.h"

#define BUSY_TIMEOUT_MS 10000

static const char schema_sql[] =
    "CREATE TABLE runs ("
    "  id INTEGER PRIMARY KEY,"
    "  command_line TEXT NOT NULL,"
    "  experiment TEXT,"
    "  profile TEXT,"
    "  status TEXT NOT NULL DEFAULT 'running',"
    "  started_wall_ns INTEGER NOT NULL,"
    "  ended_wall_ns INTEGER);"
    "CREATE TABLE cells ("
    "  id INTEGER PRIMARY KEY,"
    "  run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    "  kernel TEXT NOT NULL,"
    "  experiment TEXT,"
    "  params TEXT,"
    "  status TEXT NOT NULL DEFAULT 'running',"
    "  reason TEXT,"
    "  started_wall_ns INTEGER NOT NULL,"
    "  ended_wall_ns INTEGER);"
    "CREATE INDEX cells_run ON cells(run);"
    "CREATE TABLE cell_facts ("
    "  cell INTEGER NOT NULL REFERENCES cells(id) ON DELETE CASCADE,"
    "  key TEXT NOT NULL,"
    "  value TEXT NOT NULL,"
    "  PRIMARY KEY (cell, key));"
    "CREATE TABLE samples ("
    "  id INTEGER PRIMARY KEY,"
    "  cell INTEGER NOT NULL REFERENCES cells(id) ON DELETE CASCADE,"
    "  rep INTEGER NOT NULL,"
    "  test TEXT NOT NULL,"
    "  bytes INTEGER NOT NULL," /* uint64 stored as its int64 bit pattern */
    "  real_ns INTEGER NOT NULL,"
    "  user_ns INTEGER NOT NULL,"
    "  sys_ns INTEGER NOT NULL,"
    "  guest_begin_ns INTEGER,"
    "  guest_end_ns INTEGER,"
    "  host_begin_ns INTEGER,"
    "  host_end_ns INTEGER,"
    "  extra TEXT);"
    "CREATE INDEX samples_cell ON samples(cell);"
    "CREATE TABLE records ("
    "  id INTEGER PRIMARY KEY,"
    "  cell INTEGER NOT NULL REFERENCES cells(id) ON DELETE CASCADE,"
    "  host_ns INTEGER NOT NULL,"
    "  line TEXT NOT NULL);"
    "CREATE INDEX records_cell ON records(cell);";

/* Where a cell's time went (host/cell/timing.h): one row per phase, in order;
 * ns NULL where the phase could not be measured (note says why). Also made
 * on every open when missing: a file another branch of the lab took to
 * schema 3 with its own tables must still take the phases. */
#define CELL_PHASES_SQL                                                                            \
    "CREATE TABLE IF NOT EXISTS cell_phases ("                                                     \
    "  cell INTEGER NOT NULL REFERENCES cells(id) ON DELETE CASCADE,"                              \
    "  seq INTEGER NOT NULL,"                                                                      \
    "  phase TEXT NOT NULL,"                                                                       \
    "  ns INTEGER,"                                                                                \
    "  note TEXT,"                                                                                 \
    "  PRIMARY KEY (cell, phase));"

/* A cell's kernel failure (host/cell/oops.h), one row per cell. Also made on
 * every open when missing, as cell_phases: a file another branch took to a
 * later schema without it must still take it. */
#define CELL_FAILURES_SQL                                                                          \
    "CREATE TABLE IF NOT EXISTS cell_failures ("                                                   \
    "  cell INTEGER PRIMARY KEY REFERENCES cells(id) ON DELETE CASCADE,"                           \
    "  headline TEXT NOT NULL, function TEXT, offset TEXT, trace TEXT, bug_file TEXT,"             \
    "  bug_line INTEGER, panic TEXT, phase TEXT, avoid_key TEXT);"

/* migrations[v] takes a version-v file to v + 1; schema_sql is version 1.
 * Each is safe on a file that has some of it already (an older lab's
 * branch may have added a version's columns without its number): tables
 * and indexes are made IF NOT EXISTS, and a column only when missing. */
struct added_column {
    int version; /* the migration that adds it */
    const char *table, *column, *decl;
};
static const struct added_column added_columns[] = {
    {1, "runs", "pid", "INTEGER"},       /* whose lab process the run is */
    {1, "runs", "pid_start", "INTEGER"}, /* its start time, against reuse */
    /* A cell imported from a result bundle (host/run/bundle.h): its key and
     * attempt, imported once, and the host it ran on. */
    {4, "cells", "cell_key", "TEXT"},
    {4, "cells", "attempt", "INTEGER"},
    {4, "cells", "host", "TEXT"},
    /* The cell's CPU profile (host/plan/cpu.h); NULL: before profiles, fast. */
    {7, "cells", "cpu", "TEXT"},
};

static const char *const migrations[LAB_STORE_SCHEMA_VERSION] = {
    /* The bisection tables (host/bisect/store_bisect.c). A file of schema 2 may
     * hold them already: `lab bisect` used to create them itself. */
    [2] = "CREATE TABLE IF NOT EXISTS bisect ("
          " id INTEGER PRIMARY KEY, run INTEGER REFERENCES runs(id), command_line TEXT,"
          " repo TEXT, good TEXT, bad TEXT, experiment TEXT, metric TEXT, profile TEXT,"
          " threshold_pct REAL, reps INTEGER, max_reps INTEGER, status TEXT NOT NULL,"
          " first_bad TEXT, first_bad_subject TEXT, message TEXT,"
          " started_wall_ns INTEGER, ended_wall_ns INTEGER);"
          "CREATE TABLE IF NOT EXISTS bisect_steps ("
          " id INTEGER PRIMARY KEY, bisect INTEGER NOT NULL REFERENCES bisect(id),"
          " step INTEGER NOT NULL, role TEXT NOT NULL, commit_hash TEXT NOT NULL, subject TEXT,"
          " kernel TEXT, verdict TEXT NOT NULL, n INTEGER NOT NULL, mean REAL, ci_lo REAL,"
          " ci_hi REAL, stddev REAL, p_good REAL, p_bad REAL, d_good REAL, d_bad REAL,"
          " reason TEXT);"
          "CREATE TABLE IF NOT EXISTS bisect_step_cells ("
          " step INTEGER NOT NULL REFERENCES bisect_steps(id),"
          " cell INTEGER NOT NULL REFERENCES cells(id));",
    [3] = CELL_PHASES_SQL,
    [4] = "CREATE UNIQUE INDEX IF NOT EXISTS cells_key_attempt ON cells(cell_key, attempt);",
    /* What a run's kernels were patched with (kernels/byname.h). */
    [5] = "CREATE TABLE IF NOT EXISTS kernel_patches ("
          " run INTEGER NOT NULL REFERENCES runs(id), kernel TEXT NOT NULL,"
          " position INTEGER NOT NULL, source TEXT NOT NULL, sha256 TEXT NOT NULL, text TEXT,"
          " PRIMARY KEY (run, kernel, position));",
    /* A cell's kernel failure (host/cell/oops.h). */
    [6] = CELL_FAILURES_SQL,
};

enum {
    S_RUN_BEGIN,
    S_RUN_END,
    S_CELL_BEGIN,
    S_CELL_END,
    S_CELL_SET,
    S_CELL_CPU,
    S_CELL_GET,
    S_ADD_SAMPLE,
    S_ADD_RECORD,
    S_LAST_RUN,
    S_RUN_ABANDON,
    S_CELLS_ABANDON,
    S_ADD_PHASE,
    S_ADD_PATCH,
    S_COUNT
};

static const char *const stmt_sql[S_COUNT] = {
    [S_RUN_BEGIN] = "INSERT INTO runs (command_line, experiment, profile, started_wall_ns, pid, "
                    "pid_start) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    [S_RUN_END] = "UPDATE runs SET status = ?2, ended_wall_ns = ?3 WHERE id = ?1",
    [S_CELL_BEGIN] = "INSERT INTO cells (run, kernel, experiment, params, started_wall_ns) "
                     "VALUES (?1, ?2, ?3, ?4, ?5)",
    [S_CELL_END] = "UPDATE cells SET status = ?2, reason = ?3, ended_wall_ns = ?4 WHERE id = ?1",
    [S_CELL_SET] = "INSERT INTO cell_facts (cell, key, value) VALUES (?1, ?2, ?3) "
                   "ON CONFLICT (cell, key) DO UPDATE SET value = excluded.value",
    [S_CELL_CPU] = "UPDATE cells SET cpu = ?2 WHERE id = ?1",
    [S_CELL_GET] = "SELECT value FROM cell_facts WHERE cell = ?1 AND key = ?2",
    [S_ADD_SAMPLE] = "INSERT INTO samples (cell, rep, test, bytes, real_ns, user_ns, sys_ns, "
                     "guest_begin_ns, guest_end_ns, host_begin_ns, host_end_ns, extra) "
                     "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    [S_ADD_RECORD] = "INSERT INTO records (cell, host_ns, line) VALUES (?1, ?2, ?3)",
    [S_LAST_RUN] = "SELECT max(id) FROM runs",
    [S_RUN_ABANDON] = "UPDATE runs SET status = 'abandoned', ended_wall_ns = ?2 "
                      "WHERE id = ?1 AND status = 'running'",
    [S_CELLS_ABANDON] = "UPDATE cells SET status = 'abandoned', reason = ?2, ended_wall_ns = ?3 "
                        "WHERE run = ?1 AND status = 'running'",
    [S_ADD_PHASE] =
        "INSERT INTO cell_phases (cell, seq, phase, ns, note) VALUES (?1, ?2, ?3, ?4, ?5) "
        "ON CONFLICT (cell, phase) DO UPDATE SET seq = excluded.seq, ns = excluded.ns, "
        "note = excluded.note",
    [S_ADD_PATCH] = "INSERT OR REPLACE INTO kernel_patches (run, kernel, position, source, sha256, "
                    "text) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
};

struct lab_store {
    sqlite3 *db;
    char *path;
    char *failure; /* the first write that could not be done, with why */
    sqlite3_stmt *stmt[S_COUNT];
    pthread_mutex_t lock; /* recursive: callbacks may call back in */
    int quiet;            /* a read-only look at a running cell's store: errors unsaid */
};

static int db_error(struct lab_store *st, const char *what)
{
    if (st->quiet)
        return -1;
    return lab_error("result store %s: %s: %s", st->path, what, sqlite3_errmsg(st->db));
}

static int exec(struct lab_store *st, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        lab_error("result store %s: %s: %s", st->path, sql, msg ? msg : sqlite3_errmsg(st->db));
        sqlite3_free(msg);
        return -1;
    }
    return 0;
}

static int user_version(struct lab_store *st, int *out)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &s, NULL) != SQLITE_OK)
        return db_error(st, "PRAGMA user_version");
    int rc = sqlite3_step(s);
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(s);
        return db_error(st, "PRAGMA user_version");
    }
    *out = sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
    return 0;
}

static int has_column(struct lab_store *st, const char *table, const char *column, int *out)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM pragma_table_info(?1) WHERE name = ?2", -1,
                           &s, NULL) != SQLITE_OK)
        return db_error(st, "pragma_table_info");
    sqlite3_bind_text(s, 1, table, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 2, column, -1, SQLITE_STATIC);
    int rc = sqlite3_step(s);
    *out = rc == SQLITE_ROW && sqlite3_column_int(s, 0) > 0;
    sqlite3_finalize(s);
    return rc == SQLITE_ROW ? 0 : db_error(st, "pragma_table_info");
}

/* Migration v: its columns that are missing, then its statements. */
static int migrate(struct lab_store *st, int v)
{
    for (size_t i = 0; i < sizeof added_columns / sizeof added_columns[0]; i++) {
        const struct added_column *c = &added_columns[i];
        int present;
        if (c->version != v)
            continue;
        if (has_column(st, c->table, c->column, &present) < 0)
            return -1;
        char sql[160];
        snprintf(sql, sizeof sql, "ALTER TABLE %s ADD COLUMN %s %s", c->table, c->column, c->decl);
        if (!present && exec(st, sql) < 0)
            return -1;
    }
    return migrations[v] ? exec(st, migrations[v]) : 0;
}

static int setup_schema(struct lab_store *st)
{
    int v = 0;
    /* BEGIN IMMEDIATE: two labs creating the same file do not both create. */
    if (exec(st, "BEGIN IMMEDIATE") < 0)
        return -1;
    if (user_version(st, &v) < 0)
        goto fail;
    if (v > LAB_STORE_SCHEMA_VERSION) {
        lab_error("result store %s: schema version %d is newer than this lab's (%d)", st->path, v,
                  LAB_STORE_SCHEMA_VERSION);
        goto fail;
    }
    if (v == 0 && exec(st, schema_sql) < 0)
        goto fail;
    for (int i = v ? v : 1; i < LAB_STORE_SCHEMA_VERSION; i++)
        if (migrate(st, i) < 0)
            goto fail;
    if (exec(st, CELL_PHASES_SQL) < 0 || exec(st, CELL_FAILURES_SQL) < 0)
        goto fail;
    if (v != LAB_STORE_SCHEMA_VERSION) {
        char sql[64];
        snprintf(sql, sizeof sql, "PRAGMA user_version = %d", LAB_STORE_SCHEMA_VERSION);
        if (exec(st, sql) < 0)
            goto fail;
    }
    return exec(st, "COMMIT");
fail:
    sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

int lab_store_open(const char *path, struct lab_store **out)
{
    *out = NULL;
    struct lab_store *st = lab_xcalloc(1, sizeof *st);
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&st->lock, &attr);
    pthread_mutexattr_destroy(&attr);
    st->path = lab_xstrdup(path);

    int rc = sqlite3_open_v2(
        path, &st->db,
        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_URI, NULL);
    if (rc != SQLITE_OK) {
        if (st->db)
            db_error(st, "open");
        else
            lab_error("result store %s: open: %s", path, sqlite3_errstr(rc));
        lab_store_close(st);
        return -1;
    }
    sqlite3_busy_timeout(st->db, BUSY_TIMEOUT_MS);
    sqlite3_extended_result_codes(st->db, 1);
    if (exec(st, "PRAGMA journal_mode = WAL") < 0 || exec(st, "PRAGMA synchronous = NORMAL") < 0 ||
        exec(st, "PRAGMA foreign_keys = ON") < 0 || setup_schema(st) < 0) {
        lab_store_close(st);
        return -1;
    }
    for (int i = 0; i < S_COUNT; i++) {
        if (sqlite3_prepare_v3(st->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &st->stmt[i],
                               NULL) != SQLITE_OK) {
            db_error(st, stmt_sql[i]);
            lab_store_close(st);
            return -1;
        }
    }
    *out = st;
    return 0;
}

void lab_store_close(struct lab_store *st)
{
    if (!st)
        return;
    for (int i = 0; i < S_COUNT; i++)
        sqlite3_finalize(st->stmt[i]);
    if (st->db && sqlite3_close(st->db) != SQLITE_OK)
        db_error(st, "close");
    pthread_mutex_destroy(&st->lock);
    free(st->failure);
    free(st->path);
    free(st);
}

const char *lab_store_file(const struct lab_store *st)
{
    return st->path;
}

/* Takes the lock and a reset statement; put() gives both back. */
static sqlite3_stmt *get(struct lab_store *st, int which)
{
    pthread_mutex_lock(&st->lock);
    sqlite3_stmt *s = st->stmt[which];
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return s;
}

static void put(struct lab_store *st, sqlite3_stmt *s)
{
    sqlite3_reset(s);
    pthread_mutex_unlock(&st->lock);
}

static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
    if (v)
        sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(s, i);
}

/* Errors that mean the file itself cannot take writes any more (a full
 * disk, a read-only file or mount, an IO error, a lock held past the busy
 * timeout): unlike a constraint failure (an unknown id), nothing written
 * after one of these can be trusted to be kept. */
static const int fatal_codes[] = {SQLITE_READONLY, SQLITE_FULL,   SQLITE_IOERR, SQLITE_CORRUPT,
                                  SQLITE_CANTOPEN, SQLITE_NOTADB, SQLITE_BUSY,  SQLITE_LOCKED,
                                  SQLITE_NOMEM,    SQLITE_PERM};

static int is_fatal(int rc)
{
    for (size_t i = 0; i < sizeof fatal_codes / sizeof fatal_codes[0]; i++)
        if ((rc & 0xff) == fatal_codes[i])
            return 1;
    return 0;
}

/* Steps a write statement; -1 with a message on error. With must_change,
 * a statement that changed no row is an error too (unknown id). The first
 * fatal error is kept (lab_store_failure) and said once; later writes fail
 * quietly, so a full disk is one message, not one per sample. */
static int step_write(struct lab_store *st, sqlite3_stmt *s, const char *what, int64_t id,
                      int must_change)
{
    if (st->failure)
        return -1;
    int rc = sqlite3_step(s);
    if (rc != SQLITE_DONE && is_fatal(sqlite3_extended_errcode(st->db))) {
        st->failure =
            lab_asprintf("result store %s: cannot %s: %s", st->path, what, sqlite3_errmsg(st->db));
        return lab_error("%s", st->failure);
    }
    if (rc != SQLITE_DONE)
        return db_error(st, what);
    if (must_change && sqlite3_changes(st->db) == 0)
        return lab_error("result store %s: %s: no row with id %lld", st->path, what, (long long)id);
    return 0;
}

int64_t lab_store_run_begin(struct lab_store *st, const char *command_line, const char *experiment,
                            const char *profile)
{
    sqlite3_stmt *s = get(st, S_RUN_BEGIN);
    bind_text(s, 1, command_line ? command_line : "");
    bind_text(s, 2, experiment);
    bind_text(s, 3, profile);
    sqlite3_bind_int64(s, 4, lab_wall_ns());
    sqlite3_bind_int64(s, 5, (sqlite3_int64)getpid());
    sqlite3_bind_int64(s, 6, (sqlite3_int64)lab_proc_start(getpid()));
    int64_t id = -1;
    if (step_write(st, s, "begin run", 0, 0) == 0)
        id = sqlite3_last_insert_rowid(st->db);
    put(st, s);
    return id;
}

int lab_store_run_abandon(struct lab_store *st, int64_t run, const char *reason)
{
    sqlite3_stmt *s = get(st, S_RUN_ABANDON);
    sqlite3_bind_int64(s, 1, run);
    sqlite3_bind_int64(s, 2, lab_wall_ns());
    int rc = step_write(st, s, "mark a run abandoned", run, 0);
    put(st, s);
    if (rc < 0)
        return rc;
    s = get(st, S_CELLS_ABANDON);
    sqlite3_bind_int64(s, 1, run);
    bind_text(s, 2, reason);
    sqlite3_bind_int64(s, 3, lab_wall_ns());
    rc = step_write(st, s, "mark its cells abandoned", run, 0);
    put(st, s);
    return rc;
}

int lab_store_run_end(struct lab_store *st, int64_t run, const char *status)
{
    sqlite3_stmt *s = get(st, S_RUN_END);
    sqlite3_bind_int64(s, 1, run);
    bind_text(s, 2, status ? status : "failed");
    sqlite3_bind_int64(s, 3, lab_wall_ns());
    int rc = step_write(st, s, "end run", run, 1);
    put(st, s);
    return rc;
}

int64_t lab_store_cell_begin(struct lab_store *st, int64_t run, const char *kernel,
                             const char *experiment, const char *params)
{
    sqlite3_stmt *s = get(st, S_CELL_BEGIN);
    sqlite3_bind_int64(s, 1, run);
    bind_text(s, 2, kernel ? kernel : "");
    bind_text(s, 3, experiment);
    bind_text(s, 4, params);
    sqlite3_bind_int64(s, 5, lab_wall_ns());
    int64_t id = -1;
    if (step_write(st, s, "begin cell", 0, 0) == 0)
        id = sqlite3_last_insert_rowid(st->db);
    put(st, s);
    return id;
}

int lab_store_cell_end(struct lab_store *st, int64_t cell, const char *status, const char *reason)
{
    sqlite3_stmt *s = get(st, S_CELL_END);
    sqlite3_bind_int64(s, 1, cell);
    bind_text(s, 2, status ? status : "failed");
    bind_text(s, 3, reason);
    sqlite3_bind_int64(s, 4, lab_wall_ns());
    int rc = step_write(st, s, "end cell", cell, 1);
    put(st, s);
    return rc;
}

int lab_store_cell_set(struct lab_store *st, int64_t cell, const char *key, const char *value)
{
    if (!key)
        return lab_error("result store %s: cell fact without a key", st->path);
    sqlite3_stmt *s = get(st, S_CELL_SET);
    sqlite3_bind_int64(s, 1, cell);
    bind_text(s, 2, key);
    bind_text(s, 3, value ? value : "");
    int rc = step_write(st, s, "set cell fact", cell, 0);
    put(st, s);
    return rc;
}

int lab_store_cell_cpu(struct lab_store *st, int64_t cell, const char *cpu)
{
    sqlite3_stmt *s = get(st, S_CELL_CPU);
    sqlite3_bind_int64(s, 1, cell);
    bind_text(s, 2, cpu);
    int rc = step_write(st, s, "set cell cpu", cell, 0);
    put(st, s);
    return rc;
}

const char *lab_store_cell_get(struct lab_store *st, int64_t cell, const char *key, char *buf,
                               size_t buflen)
{
    const char *ret = NULL;
    if (!key || !buf || buflen == 0)
        return NULL;
    sqlite3_stmt *s = get(st, S_CELL_GET);
    sqlite3_bind_int64(s, 1, cell);
    bind_text(s, 2, key);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        const unsigned char *v = sqlite3_column_text(s, 0);
        size_t n = v ? (size_t)sqlite3_column_bytes(s, 0) : 0;
        if (n >= buflen)
            n = buflen - 1;
        if (n)
            memcpy(buf, v, n);
        buf[n] = '\0';
        ret = buf;
    } else if (rc != SQLITE_DONE) {
        db_error(st, "get cell fact");
    }
    put(st, s);
    return ret;
}

int lab_store_add_sample(struct lab_store *st, const struct lab_sample *x)
{
    sqlite3_stmt *s = get(st, S_ADD_SAMPLE);
    sqlite3_bind_int64(s, 1, x->cell);
    sqlite3_bind_int(s, 2, x->rep);
    bind_text(s, 3, x->test ? x->test : "");
    sqlite3_bind_int64(s, 4, (sqlite3_int64)x->bytes);
    sqlite3_bind_int64(s, 5, x->real_ns);
    sqlite3_bind_int64(s, 6, x->user_ns);
    sqlite3_bind_int64(s, 7, x->sys_ns);
    sqlite3_bind_int64(s, 8, x->guest_begin_ns);
    sqlite3_bind_int64(s, 9, x->guest_end_ns);
    sqlite3_bind_int64(s, 10, x->host_begin_ns);
    sqlite3_bind_int64(s, 11, x->host_end_ns);
    bind_text(s, 12, x->extra);
    int rc = step_write(st, s, "add sample", x->cell, 0);
    put(st, s);
    return rc;
}

int lab_store_add_record(struct lab_store *st, int64_t cell, int64_t host_ns, const char *line)
{
    sqlite3_stmt *s = get(st, S_ADD_RECORD);
    sqlite3_bind_int64(s, 1, cell);
    sqlite3_bind_int64(s, 2, host_ns);
    bind_text(s, 3, line ? line : "");
    int rc = step_write(st, s, "add record", cell, 0);
    put(st, s);
    return rc;
}

const char *lab_store_failure(struct lab_store *st)
{
    pthread_mutex_lock(&st->lock);
    const char *f = st->failure;
    pthread_mutex_unlock(&st->lock);
    return f;
}

int64_t lab_store_last_run(struct lab_store *st)
{
    sqlite3_stmt *s = get(st, S_LAST_RUN);
    int64_t id = -1;
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        if (sqlite3_column_type(s, 0) != SQLITE_NULL)
            id = sqlite3_column_int64(s, 0);
    } else {
        db_error(st, "last run");
    }
    put(st, s);
    return id;
}

/* ---- iteration: a fresh statement per call, so callbacks may nest ---- */

static const char *col_text(sqlite3_stmt *s, int i)
{
    return (const char *)sqlite3_column_text(s, i);
}

sqlite3_stmt *lab_store_prepare(struct lab_store *st, const char *sql)
{
    sqlite3_stmt *s = NULL;
    pthread_mutex_lock(&st->lock);
    if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK) {
        db_error(st, sql);
        pthread_mutex_unlock(&st->lock);
        return NULL;
    }
    return s;
}

int lab_store_rows(struct lab_store *st, sqlite3_stmt *s, int (*row)(sqlite3_stmt *s, void *ctx),
                   void *ctx, const char *what)
{
    int rc, ret = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        if ((ret = row(s, ctx)) != 0)
            break;
    if (ret == 0 && rc != SQLITE_DONE)
        ret = db_error(st, what);
    sqlite3_finalize(s);
    pthread_mutex_unlock(&st->lock);
    return ret;
}

/* A caller's callback and context, for the row functions below. */
struct each {
    union {
        int (*cell)(const struct lab_cell_info *, void *);
        int (*fact)(const char *key, const char *value, void *);
        int (*phase)(int seq, const char *phase, int64_t ns, const char *note, void *);
        int (*record)(int64_t host_ns, const char *line, void *);
        int (*sample)(const struct lab_sample *, void *);
        int (*run)(const struct lab_run_info *, void *);
    } cb;
    void *ctx;
    int seen; /* rows seen */
};

/* A query with one number to bind (a run or a cell id), its rows to row. */
static int rows_of(struct lab_store *st, const char *sql, int64_t id,
                   int (*row)(sqlite3_stmt *, void *), struct each *e, const char *what)
{
    sqlite3_stmt *s = lab_store_prepare(st, sql);
    if (!s)
        return -1;
    sqlite3_bind_int64(s, 1, id);
    return lab_store_rows(st, s, row, e, what);
}

static int cell_row(sqlite3_stmt *s, void *p)
{
    struct each *e = p;
    struct lab_cell_info c = {
        .id = sqlite3_column_int64(s, 0),
        .run = sqlite3_column_int64(s, 1),
        .kernel = col_text(s, 2),
        .experiment = col_text(s, 3),
        .params = col_text(s, 4),
        .status = col_text(s, 5),
        .reason = col_text(s, 6),
        .cpu = col_text(s, 7),
    };
    return e->cb.cell(&c, e->ctx);
}

int lab_store_foreach_cell(struct lab_store *st, int64_t run,
                           int (*cb)(const struct lab_cell_info *, void *), void *ctx)
{
    /* A run id below 1 is a run that was never stored, not "every run". */
    if (run < 0 || (run == 0 && run != LAB_STORE_ALL_RUNS))
        return lab_error("result store %s: no run %lld", st->path, (long long)run);
    struct each e = {.cb.cell = cb, .ctx = ctx};
    return rows_of(st,
                   "SELECT id, run, kernel, experiment, params, status, "
                   "reason, cpu FROM cells WHERE ?1 = 0 OR run = ?1 "
                   "ORDER BY id",
                   run, cell_row, &e, "list cells");
}

static int fact_row(sqlite3_stmt *s, void *p)
{
    struct each *e = p;
    return e->cb.fact(col_text(s, 0), col_text(s, 1), e->ctx);
}

int lab_store_foreach_fact(struct lab_store *st, int64_t cell,
                           int (*cb)(const char *key, const char *value, void *), void *ctx)
{
    struct each e = {.cb.fact = cb, .ctx = ctx};
    return rows_of(st, "SELECT key, value FROM cell_facts WHERE cell = ?1 ORDER BY key", cell,
                   fact_row, &e, "list cell facts");
}

int lab_store_add_kernel_patch(struct lab_store *st, int64_t run, const char *kernel, int position,
                               const char *source, const char *sha256, const char *text)
{
    sqlite3_stmt *s = get(st, S_ADD_PATCH);
    sqlite3_bind_int64(s, 1, run);
    bind_text(s, 2, kernel);
    sqlite3_bind_int(s, 3, position);
    bind_text(s, 4, source);
    bind_text(s, 5, sha256);
    if (text)
        bind_text(s, 6, text);
    else
        sqlite3_bind_null(s, 6);
    int rc = step_write(st, s, "add a kernel patch", run, 0);
    put(st, s);
    return rc;
}

int lab_store_add_phase(struct lab_store *st, int64_t cell, int seq, const char *phase, int64_t ns,
                        const char *note)
{
    if (!phase)
        return lab_error("result store %s: cell phase without a name", st->path);
    sqlite3_stmt *s = get(st, S_ADD_PHASE);
    sqlite3_bind_int64(s, 1, cell);
    sqlite3_bind_int(s, 2, seq);
    bind_text(s, 3, phase);
    if (ns >= 0)
        sqlite3_bind_int64(s, 4, ns);
    else
        sqlite3_bind_null(s, 4);
    bind_text(s, 5, note);
    int rc = step_write(st, s, "add cell phase", cell, 0);
    put(st, s);
    return rc;
}

static int phase_row(sqlite3_stmt *s, void *p)
{
    struct each *e = p;
    int64_t ns = sqlite3_column_type(s, 2) == SQLITE_NULL ? -1 : sqlite3_column_int64(s, 2);
    return e->cb.phase(sqlite3_column_int(s, 0), col_text(s, 1), ns, col_text(s, 3), e->ctx);
}

int lab_store_foreach_phase(struct lab_store *st, int64_t cell,
                            int (*cb)(int seq, const char *phase, int64_t ns, const char *note,
                                      void *),
                            void *ctx)
{
    struct each e = {.cb.phase = cb, .ctx = ctx};
    return rows_of(
        st, "SELECT seq, phase, ns, note FROM cell_phases WHERE cell = ?1 ORDER BY seq, phase",
        cell, phase_row, &e, "list cell phases");
}

static int record_row(sqlite3_stmt *s, void *p)
{
    struct each *e = p;
    return e->cb.record(sqlite3_column_int64(s, 0), col_text(s, 1), e->ctx);
}

int lab_store_foreach_record(struct lab_store *st, int64_t cell,
                             int (*cb)(int64_t host_ns, const char *line, void *), void *ctx)
{
    struct each e = {.cb.record = cb, .ctx = ctx};
    return rows_of(st, "SELECT host_ns, line FROM records WHERE cell = ?1 ORDER BY id", cell,
                   record_row, &e, "list records");
}

static int sample_row(sqlite3_stmt *s, void *p)
{
    struct each *e = p;
    struct lab_sample x = {
        .cell = sqlite3_column_int64(s, 0),
        .rep = sqlite3_column_int(s, 1),
        .test = col_text(s, 2),
        .bytes = (uint64_t)sqlite3_column_int64(s, 3),
        .real_ns = sqlite3_column_int64(s, 4),
        .user_ns = sqlite3_column_int64(s, 5),
        .sys_ns = sqlite3_column_int64(s, 6),
        .guest_begin_ns = sqlite3_column_int64(s, 7),
        .guest_end_ns = sqlite3_column_int64(s, 8),
        .host_begin_ns = sqlite3_column_int64(s, 9),
        .host_end_ns = sqlite3_column_int64(s, 10),
        .extra = col_text(s, 11),
    };
    return e->cb.sample(&x, e->ctx);
}

int lab_store_foreach_sample(struct lab_store *st, int64_t cell,
                             int (*cb)(const struct lab_sample *, void *), void *ctx)
{
    struct each e = {.cb.sample = cb, .ctx = ctx};
    return rows_of(st,
                   "SELECT cell, rep, test, bytes, real_ns, user_ns, "
                   "sys_ns, guest_begin_ns, guest_end_ns, "
                   "host_begin_ns, host_end_ns, extra FROM samples "
                   "WHERE cell = ?1 ORDER BY id",
                   cell, sample_row, &e, "list samples");
}

static int run_row(sqlite3_stmt *s, void *p)
{
    struct each *e = p;
    struct lab_run_info r = {
        .id = sqlite3_column_int64(s, 0),
        .command_line = col_text(s, 1),
        .experiment = col_text(s, 2),
        .profile = col_text(s, 3),
        .status = col_text(s, 4),
        .started_wall_ns = sqlite3_column_int64(s, 5),
        .ended_wall_ns = sqlite3_column_int64(s, 6),
        .pid = sqlite3_column_int64(s, 7),
        .pid_start = (uint64_t)sqlite3_column_int64(s, 8),
    };
    e->seen++;
    return e->cb.run(&r, e->ctx);
}

/* Runs with id `only`, or every run when only < 0. */
static int foreach_run(struct lab_store *st, int64_t only, struct each *e)
{
    return rows_of(st,
                   "SELECT id, command_line, experiment, profile, status, started_wall_ns, "
                   "ended_wall_ns, pid, pid_start FROM runs WHERE ?1 < 0 OR id = ?1 ORDER BY id",
                   only, run_row, e, "list runs");
}

int lab_store_foreach_run(struct lab_store *st, int (*cb)(const struct lab_run_info *, void *),
                          void *ctx)
{
    struct each e = {.cb.run = cb, .ctx = ctx};
    return foreach_run(st, -1, &e);
}

int lab_store_get_run(struct lab_store *st, int64_t run,
                      int (*cb)(const struct lab_run_info *, void *), void *ctx)
{
    struct each e = {.cb.run = cb, .ctx = ctx};
    int rc = foreach_run(st, run < 0 ? 0 : run, &e);
    return rc < 0 ? rc : e.seen ? rc : 1;
}

/* A query's one number (its first row's first column, when not NULL). */
static int int64_row(sqlite3_stmt *s, void *p)
{
    if (sqlite3_column_type(s, 0) != SQLITE_NULL)
        *(int64_t *)p = sqlite3_column_int64(s, 0);
    return 0;
}

int64_t lab_store_cell_history_ns(struct lab_store *st, const char *kernel, const char *params,
                                  const char *profile)
{
    /* avg() is a real; sqlite3_column_int64 truncates it as a C cast would. */
    sqlite3_stmt *s = lab_store_prepare(st, "SELECT avg(c.ended_wall_ns - c.started_wall_ns) "
                                            "FROM cells c JOIN cell_facts f ON f.cell = c.id "
                                            "AND f.key = 'profile' WHERE c.kernel = ?1 AND "
                                            "c.params = ?2 AND f.value = ?3 AND c.status = 'ok' "
                                            "AND c.ended_wall_ns IS NOT NULL");
    if (!s)
        return -1;
    bind_text(s, 1, kernel);
    bind_text(s, 2, params);
    bind_text(s, 3, profile);
    int64_t ns = -1;
    lab_store_rows(st, s, int64_row, &ns, "cell history");
    return ns;
}

/* ---- bundles (host/run/bundle.h): a cell's private store, sealed, imported ---- */

int lab_store_open_readonly(const char *path, struct lab_store **out)
{
    *out = NULL;
    struct lab_store *st = lab_xcalloc(1, sizeof *st);
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&st->lock, &attr);
    pthread_mutexattr_destroy(&attr);
    st->path = lab_xstrdup(path);
    st->quiet = 1;
    int v = 0;
    if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX, NULL) !=
            SQLITE_OK ||
        (sqlite3_busy_timeout(st->db, BUSY_TIMEOUT_MS), user_version(st, &v) < 0) ||
        v != LAB_STORE_SCHEMA_VERSION) {
        sqlite3_close(st->db);
        st->db = NULL;
        lab_store_close(st);
        return -1;
    }
    for (int i = 0; i < S_COUNT; i++)
        if (sqlite3_prepare_v2(st->db, stmt_sql[i], -1, &st->stmt[i], NULL) != SQLITE_OK) {
            lab_store_close(st);
            return -1;
        }
    *out = st;
    return 0;
}

int lab_store_seal(struct lab_store *st, const char *dest)
{
    sqlite3_stmt *s;
    pthread_mutex_lock(&st->lock);
    int rc = sqlite3_prepare_v2(st->db, "VACUUM INTO ?1", -1, &s, NULL);
    if (rc == SQLITE_OK) {
        bind_text(s, 1, dest);
        rc = sqlite3_step(s) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
        if (rc != SQLITE_OK)
            db_error(st, "seal (VACUUM INTO)");
        sqlite3_finalize(s);
    } else {
        db_error(st, "seal (VACUUM INTO)");
    }
    pthread_mutex_unlock(&st->lock);
    if (rc != SQLITE_OK)
        return -1;
    /* One self-contained file: no -wal or -shm beside it. */
    sqlite3 *db;
    if (sqlite3_open_v2(dest, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
        sqlite3_exec(db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL) != SQLITE_OK) {
        lab_error("result store %s: cannot seal: %s", dest, sqlite3_errmsg(db));
        sqlite3_close(db);
        return -1;
    }
    return sqlite3_close(db) == SQLITE_OK ? 0 : -1;
}

int64_t lab_store_cell_dispatch(struct lab_store *st, int64_t run, const char *key,
                                const char *kernel, const char *experiment, const char *params)
{
    int64_t cell = lab_store_cell_begin(st, run, kernel, experiment, params);
    if (cell < 0)
        return -1;
    sqlite3_stmt *s =
        lab_store_prepare(st, "UPDATE cells SET cell_key = ?2, attempt = 0 WHERE id = ?1");
    if (!s)
        return -1;
    sqlite3_bind_int64(s, 1, cell);
    bind_text(s, 2, key);
    int rc = step_write(st, s, "dispatch a cell", cell, 1);
    sqlite3_finalize(s);
    pthread_mutex_unlock(&st->lock);
    return rc < 0 ? -1 : cell;
}

/* A cell's import rows, oldest attempt first: the one with the wanted
 * attempt, and the newest ok attempt. */
struct import_find {
    unsigned attempt, ok_attempt;
    int64_t found;
};

static int import_row(sqlite3_stmt *s, void *p)
{
    struct import_find *f = p;
    if ((unsigned)sqlite3_column_int(s, 1) == f->attempt)
        f->found = sqlite3_column_int64(s, 0);
    if (strcmp(col_text(s, 2), "ok") == 0)
        f->ok_attempt = (unsigned)sqlite3_column_int(s, 1);
    return 0;
}

int64_t lab_store_find_import(struct lab_store *st, const char *key, unsigned attempt,
                              unsigned *ok_attempt)
{
    *ok_attempt = 0;
    sqlite3_stmt *s = lab_store_prepare(st, "SELECT id, attempt, status FROM cells "
                                            "WHERE cell_key = ?1 AND attempt > 0 "
                                            "ORDER BY attempt");
    if (!s)
        return -1;
    bind_text(s, 1, key);
    struct import_find f = {.attempt = attempt};
    if (lab_store_rows(st, s, import_row, &f, "find an imported cell") < 0)
        return -1;
    *ok_attempt = f.ok_attempt;
    return f.found;
}

int lab_store_run_has_key(struct lab_store *st, int64_t run, const char *key)
{
    sqlite3_stmt *s =
        lab_store_prepare(st, "SELECT count(*) FROM cells WHERE run = ?1 AND cell_key = ?2");
    if (!s)
        return -1;
    sqlite3_bind_int64(s, 1, run);
    bind_text(s, 2, key);
    int64_t n = 0;
    return lab_store_rows(st, s, int64_row, &n, "find a cell by its key") < 0 ? -1 : n > 0;
}

/* The bundle's one cell, its facts, samples, records and phases, copied under a
 * new cell id of `run`; the statements run inside the caller's transaction. */
static const char *const import_sql[] = {
    "DELETE FROM cells WHERE cell_key = ?2 AND attempt = 0 AND run = ?1", /* the dispatch row */
    "INSERT INTO cells (run, kernel, experiment, params, status, reason, started_wall_ns, "
    "ended_wall_ns, cell_key, attempt, host) SELECT ?1, kernel, experiment, params, status, "
    "replace(reason, ?5, ?6), started_wall_ns, ended_wall_ns, ?2, ?3, ?4 FROM b.cells",
    "INSERT INTO cell_facts (cell, key, value) SELECT ?7, key, "
    "CASE WHEN key = 'trace' THEN replace(value, ?5, ?6) ELSE value END FROM b.cell_facts",
    /* its CPU profile, from the fact (none: fast, or a bundle of an older lab) */
    "UPDATE cells SET cpu = coalesce((SELECT value FROM cell_facts WHERE cell = ?7 AND "
    "key = 'cpu'), 'fast') WHERE id = ?7",
    "INSERT INTO samples (cell, rep, test, bytes, real_ns, user_ns, sys_ns, guest_begin_ns, "
    "guest_end_ns, host_begin_ns, host_end_ns, extra) SELECT ?7, rep, test, bytes, real_ns, "
    "user_ns, sys_ns, guest_begin_ns, guest_end_ns, host_begin_ns, host_end_ns, extra "
    "FROM b.samples ORDER BY id",
    "INSERT INTO records (cell, host_ns, line) SELECT ?7, host_ns, line FROM b.records "
    "ORDER BY id",
    /* where the cell's time went (host/cell/timing.h) */
    "INSERT INTO cell_phases (cell, seq, phase, ns, note) SELECT ?7, seq, phase, ns, note "
    "FROM b.cell_phases",
};

/* The cell's kernel failure, from a bundle sealed by a lab of schema 7 or
 * later (an older one has no cell_failures table). */
static int import_failure(struct lab_store *st, int64_t cell)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(st->db,
                           "SELECT 1 FROM b.sqlite_master WHERE type = 'table' AND "
                           "name = 'cell_failures'",
                           -1, &s, NULL) != SQLITE_OK)
        return db_error(st, "import a bundle");
    int has = sqlite3_step(s) == SQLITE_ROW;
    sqlite3_finalize(s);
    if (!has)
        return 0;
    if (sqlite3_prepare_v2(st->db,
                           "INSERT INTO cell_failures (cell, headline, function, offset, trace, "
                           "bug_file, bug_line, panic, phase, avoid_key) SELECT ?1, headline, "
                           "function, offset, trace, bug_file, bug_line, panic, phase, avoid_key "
                           "FROM b.cell_failures",
                           -1, &s, NULL) != SQLITE_OK)
        return db_error(st, "import a bundle");
    sqlite3_bind_int64(s, 1, cell);
    int rc = sqlite3_step(s);
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : db_error(st, "import a bundle");
}

static int import_rows(struct lab_store *st, int64_t run, const struct lab_store_import *im,
                       int64_t *cell)
{
    for (size_t i = 0; i < sizeof import_sql / sizeof import_sql[0]; i++) {
        sqlite3_stmt *s;
        if (sqlite3_prepare_v2(st->db, import_sql[i], -1, &s, NULL) != SQLITE_OK)
            return db_error(st, "import a bundle");
        sqlite3_bind_int64(s, 1, run);
        bind_text(s, 2, im->key);
        sqlite3_bind_int(s, 3, (int)im->attempt);
        bind_text(s, 4, im->host);
        bind_text(s, 5, im->from_dir ? im->from_dir : ""); /* replace() of NULL is NULL */
        bind_text(s, 6, im->to_dir ? im->to_dir : "");
        sqlite3_bind_int64(s, 7, *cell);
        int rc = sqlite3_step(s);
        sqlite3_finalize(s);
        if (rc != SQLITE_DONE)
            return db_error(st, "import a bundle");
        if (i == 1) {
            if (sqlite3_changes(st->db) != 1)
                return lab_error("bundle store %s holds %d cells, not one", im->db,
                                 sqlite3_changes(st->db));
            *cell = sqlite3_last_insert_rowid(st->db);
        }
    }
    return import_failure(st, *cell);
}

/* file:PATH?mode=ro&immutable=1, with the URI's own characters escaped. */
static char *uri_of(const char *path)
{
    char *out = lab_xcalloc(1, strlen(path) * 3 + 40), *o = out;
    o += sprintf(o, "file:");
    for (const char *p = path; *p; p++)
        o += strchr("?#%", *p) ? sprintf(o, "%%%02X", (unsigned char)*p) : sprintf(o, "%c", *p);
    strcpy(o, "?mode=ro&immutable=1");
    return out;
}

int lab_store_import(struct lab_store *st, int64_t run, const struct lab_store_import *im,
                     int64_t *cell)
{
    if (st->failure)
        return -1;
    /* Read-only and immutable: importing never changes the bundle. */
    char *uri = uri_of(im->db);
    sqlite3_stmt *s;
    int rc = -1;
    *cell = 0;
    pthread_mutex_lock(&st->lock);
    if (sqlite3_prepare_v2(st->db, "ATTACH DATABASE ?1 AS b", -1, &s, NULL) != SQLITE_OK) {
        db_error(st, "attach a bundle");
        goto out;
    }
    bind_text(s, 1, uri);
    int step = sqlite3_step(s);
    sqlite3_finalize(s);
    if (step != SQLITE_DONE) {
        db_error(st, im->db);
        goto out;
    }
    /* One transaction: the whole cell or nothing. */
    if (exec(st, "BEGIN IMMEDIATE") == 0) {
        if (import_rows(st, run, im, cell) == 0 && exec(st, "COMMIT") == 0) {
            rc = 0;
        } else {
            /* A full disk or a read-only store is the store's failure, like
             * any other write's: the run stops before its next cell. */
            int err = sqlite3_extended_errcode(st->db);
            sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
            if (is_fatal(err) && !st->failure)
                st->failure = lab_asprintf("result store %s: cannot import a cell: %s", st->path,
                                           sqlite3_errstr(err));
        }
    }
    sqlite3_exec(st->db, "DETACH DATABASE b", NULL, NULL, NULL);
out:
    pthread_mutex_unlock(&st->lock);
    free(uri);
    return rc;
}

/* ---- for the tables kept in other files (host/store/store_impl.h) ---- */

sqlite3 *lab_store_lock(struct lab_store *st)
{
    pthread_mutex_lock(&st->lock);
    return st->db;
}

void lab_store_unlock(struct lab_store *st)
{
    pthread_mutex_unlock(&st->lock);
}

int lab_store_step_write(struct lab_store *st, sqlite3_stmt *s, const char *what)
{
    return step_write(st, s, what, 0, 0);
}

void lab_store_bind_text(sqlite3_stmt *s, int i, const char *v)
{
    bind_text(s, i, v);
}

int lab_store_sql_error(struct lab_store *st, const char *what)
{
    return db_error(st, what);
}
