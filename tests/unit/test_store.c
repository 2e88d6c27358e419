/* Unit tests of host/store/store.c: a round trip through a temporary SQLite file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <signal.h>
#include <sys/resource.h>
#include <sqlite3.h>

#include "host/store/store.h"
#include "common/clock.h"
#include "common/file.h"

static char dir[64];
static char path[128];

static int setup(void **state)
{
    strcpy(dir, "/tmp/lab-test-store-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof path, "%s/results.db", dir);
    return 0;
}

static int teardown(void **state)
{
    lab_rm_rf(dir);
    return 0;
}

/* ---- collectors ---- */

struct cells {
    int n;
    int64_t id[16], run[16];
    char kernel[16][32], status[16][32], reason[16][64], params[16][64];
};

static int collect_cell(const struct lab_cell_info *c, void *ctx)
{
    struct cells *cs = ctx;
    assert_true(cs->n < 16);
    cs->id[cs->n] = c->id;
    cs->run[cs->n] = c->run;
    snprintf(cs->kernel[cs->n], 32, "%s", c->kernel);
    snprintf(cs->status[cs->n], 32, "%s", c->status);
    snprintf(cs->reason[cs->n], 64, "%s", c->reason ? c->reason : "(null)");
    snprintf(cs->params[cs->n], 64, "%s", c->params ? c->params : "(null)");
    cs->n++;
    return 0;
}

struct samples {
    int n;
    struct lab_sample s[16];
    char test[16][32], extra[16][64];
};

static int collect_sample(const struct lab_sample *s, void *ctx)
{
    struct samples *ss = ctx;
    assert_true(ss->n < 16);
    ss->s[ss->n] = *s;
    snprintf(ss->test[ss->n], 32, "%s", s->test);
    snprintf(ss->extra[ss->n], 64, "%s", s->extra ? s->extra : "(null)");
    ss->n++;
    return 0;
}

struct runs {
    int n;
    int64_t id[8], started[8];
    char cmd[8][64], status[8][32], experiment[8][32], profile[8][32];
};

static int collect_run(const struct lab_run_info *r, void *ctx)
{
    struct runs *rs = ctx;
    assert_true(rs->n < 8);
    rs->id[rs->n] = r->id;
    rs->started[rs->n] = r->started_wall_ns;
    snprintf(rs->cmd[rs->n], 64, "%s", r->command_line);
    snprintf(rs->status[rs->n], 32, "%s", r->status);
    snprintf(rs->experiment[rs->n], 32, "%s", r->experiment ? r->experiment : "(null)");
    snprintf(rs->profile[rs->n], 32, "%s", r->profile ? r->profile : "(null)");
    rs->n++;
    return 0;
}

static int stop_at_first(const struct lab_cell_info *c, void *ctx)
{
    (*(int *)ctx)++;
    return 7;
}

static int64_t count_rows(const char *table)
{
    sqlite3 *db;
    sqlite3_stmt *s;
    char sql[128];
    int64_t n = -1;
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &s, NULL), SQLITE_OK);
    if (sqlite3_step(s) == SQLITE_ROW)
        n = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return n;
}

/* Callbacks may call back into the store (a nested iteration). */
struct nested {
    struct lab_store *st;
    int samples;
};
static int count_samples(const struct lab_sample *s, void *ctx)
{
    ((struct nested *)ctx)->samples++;
    return 0;
}
static int nested_cell(const struct lab_cell_info *c, void *ctx)
{
    struct nested *n = ctx;
    char buf[32];
    lab_store_cell_get(n->st, c->id, "accel", buf, sizeof buf);
    return lab_store_foreach_sample(n->st, c->id, count_samples, ctx);
}

static void test_round_trip(void **state)
{
    struct lab_store *st;
    char buf[64];

    assert_int_equal(lab_store_open(path, &st), 0);
    assert_int_equal(lab_store_last_run(st), -1);

    int64_t t0 = lab_wall_ns();
    int64_t run = lab_store_run_begin(st, "lab run --kernels a,b", "seqread", "pata-2003");
    assert_true(run > 0);
    assert_int_equal(lab_store_last_run(st), run);

    int64_t c1 = lab_store_cell_begin(st, run, "2.6.0", "seqread", "ra=64");
    int64_t c2 = lab_store_cell_begin(st, run, "2.6.1-rc1", "seqread", NULL);
    assert_true(c1 > 0 && c2 > c1);

    /* Facts: set, replace, get, absent, truncation. */
    assert_int_equal(lab_store_cell_set(st, c1, "uname", "2.6.0"), 0);
    assert_int_equal(lab_store_cell_set(st, c1, "accel", "kvm"), 0);
    assert_int_equal(lab_store_cell_set(st, c1, "accel", "tcg"), 0);
    assert_string_equal(lab_store_cell_get(st, c1, "accel", buf, sizeof buf), "tcg");
    assert_string_equal(lab_store_cell_get(st, c1, "uname", buf, sizeof buf), "2.6.0");
    assert_null(lab_store_cell_get(st, c1, "nope", buf, sizeof buf));
    assert_null(lab_store_cell_get(st, c2, "uname", buf, sizeof buf));
    char small[4];
    assert_string_equal(lab_store_cell_get(st, c1, "uname", small, sizeof small), "2.6");

    /* Samples, with values past 2^32 and the largest byte count. */
    for (int rep = 0; rep < 3; rep++) {
        struct lab_sample s = {
            .cell = c1,
            .rep = rep,
            .test = "seqread",
            .bytes = rep == 2 ? UINT64_MAX : UINT64_C(67108864) * (rep + 1),
            .real_ns = INT64_C(5000000000) + rep,
            .user_ns = 1000 + rep,
            .sys_ns = 2000 + rep,
            .guest_begin_ns = 10 + rep,
            .guest_end_ns = 20 + rep,
            .host_begin_ns = 30 + rep,
            .host_end_ns = 40 + rep,
            .extra = rep == 1 ? NULL : "ra_sectors=64 bs=4096",
        };
        assert_int_equal(lab_store_add_sample(st, &s), 0);
    }
    struct lab_sample s2 = {.cell = c2, .rep = 0, .test = "seqread", .bytes = 1, .real_ns = 9};
    assert_int_equal(lab_store_add_sample(st, &s2), 0);

    assert_int_equal(lab_store_add_record(st, c1, 111, "LAB1 0 hello v=1"), 0);
    assert_int_equal(lab_store_add_record(st, c1, 222, "LAB1 1 bye runs=3"), 0);

    /* Status updates. */
    assert_int_equal(lab_store_cell_end(st, c1, "ok", NULL), 0);
    assert_int_equal(lab_store_cell_end(st, c2, "failed", "kernel panic"), 0);
    assert_int_equal(lab_store_run_end(st, run, "interrupted"), 0);

    /* A second run. */
    int64_t run2 = lab_store_run_begin(st, "lab run again", NULL, NULL);
    assert_true(run2 > run);
    int64_t c3 = lab_store_cell_begin(st, run2, "6.1.0", "seqread", "{}");
    assert_true(c3 > c2);
    assert_int_equal(lab_store_last_run(st), run2);

    /* Nested callbacks work. */
    struct nested nest = {.st = st};
    assert_int_equal(lab_store_foreach_cell(st, run, nested_cell, &nest), 0);
    assert_int_equal(nest.samples, 4);

    lab_store_close(st);

    /* ---- reopen: everything is still there ---- */
    assert_int_equal(lab_store_open(path, &st), 0);
    assert_int_equal(lab_store_last_run(st), run2);

    struct runs rs = {0};
    assert_int_equal(lab_store_foreach_run(st, collect_run, &rs), 0);
    assert_int_equal(rs.n, 2);
    assert_int_equal(rs.id[0], run);
    assert_int_equal(rs.id[1], run2);
    assert_string_equal(rs.cmd[0], "lab run --kernels a,b");
    assert_string_equal(rs.experiment[0], "seqread");
    assert_string_equal(rs.profile[0], "pata-2003");
    assert_string_equal(rs.status[0], "interrupted");
    assert_string_equal(rs.status[1], "running");
    assert_string_equal(rs.profile[1], "(null)");
    assert_true(rs.started[0] >= t0 && rs.started[0] <= lab_wall_ns());

    struct cells cs = {0};
    assert_int_equal(lab_store_foreach_cell(st, run, collect_cell, &cs), 0);
    assert_int_equal(cs.n, 2);
    assert_int_equal(cs.id[0], c1);
    assert_int_equal(cs.id[1], c2);
    assert_int_equal(cs.run[0], run);
    assert_string_equal(cs.kernel[0], "2.6.0");
    assert_string_equal(cs.kernel[1], "2.6.1-rc1");
    assert_string_equal(cs.params[0], "ra=64");
    assert_string_equal(cs.params[1], "(null)");
    assert_string_equal(cs.status[0], "ok");
    assert_string_equal(cs.reason[0], "(null)");
    assert_string_equal(cs.status[1], "failed");
    assert_string_equal(cs.reason[1], "kernel panic");

    memset(&cs, 0, sizeof cs);
    assert_int_equal(lab_store_foreach_cell(st, run2, collect_cell, &cs), 0);
    assert_int_equal(cs.n, 1);
    assert_string_equal(cs.status[0], "running");
    memset(&cs, 0, sizeof cs);
    assert_int_equal(lab_store_foreach_cell(st, LAB_STORE_ALL_RUNS, collect_cell, &cs), 0);
    assert_int_equal(cs.n, 3);
    assert_int_equal(cs.id[2], c3);

    int calls = 0;
    assert_int_equal(lab_store_foreach_cell(st, LAB_STORE_ALL_RUNS, stop_at_first, &calls), 7);
    assert_int_equal(calls, 1);

    struct samples ss = {0};
    assert_int_equal(lab_store_foreach_sample(st, c1, collect_sample, &ss), 0);
    assert_int_equal(ss.n, 3);
    for (int rep = 0; rep < 3; rep++) {
        assert_int_equal(ss.s[rep].cell, c1);
        assert_int_equal(ss.s[rep].rep, rep);
        assert_string_equal(ss.test[rep], "seqread");
        assert_int_equal(ss.s[rep].real_ns, INT64_C(5000000000) + rep);
        assert_int_equal(ss.s[rep].user_ns, 1000 + rep);
        assert_int_equal(ss.s[rep].sys_ns, 2000 + rep);
        assert_int_equal(ss.s[rep].guest_begin_ns, 10 + rep);
        assert_int_equal(ss.s[rep].guest_end_ns, 20 + rep);
        assert_int_equal(ss.s[rep].host_begin_ns, 30 + rep);
        assert_int_equal(ss.s[rep].host_end_ns, 40 + rep);
    }
    assert_true(ss.s[0].bytes == UINT64_C(67108864));
    assert_true(ss.s[2].bytes == UINT64_MAX);
    assert_string_equal(ss.extra[0], "ra_sectors=64 bs=4096");
    assert_string_equal(ss.extra[1], "(null)");

    memset(&ss, 0, sizeof ss);
    assert_int_equal(lab_store_foreach_sample(st, c2, collect_sample, &ss), 0);
    assert_int_equal(ss.n, 1);
    memset(&ss, 0, sizeof ss);
    assert_int_equal(lab_store_foreach_sample(st, c3, collect_sample, &ss), 0);
    assert_int_equal(ss.n, 0);

    assert_string_equal(lab_store_cell_get(st, c1, "accel", buf, sizeof buf), "tcg");

    /* Status updates after reopening. */
    assert_int_equal(lab_store_cell_end(st, c3, "skipped", "no kvm"), 0);
    assert_int_equal(lab_store_run_end(st, run2, "ok"), 0);
    memset(&rs, 0, sizeof rs);
    assert_int_equal(lab_store_foreach_run(st, collect_run, &rs), 0);
    assert_string_equal(rs.status[1], "ok");
    memset(&cs, 0, sizeof cs);
    assert_int_equal(lab_store_foreach_cell(st, run2, collect_cell, &cs), 0);
    assert_string_equal(cs.status[0], "skipped");
    assert_string_equal(cs.reason[0], "no kvm");

    /* Errors: unknown ids (foreign keys on, updates of nothing). */
    assert_int_equal(lab_store_cell_end(st, 9999, "ok", NULL), -1);
    assert_int_equal(lab_store_run_end(st, 9999, "ok"), -1);
    assert_int_equal(lab_store_cell_begin(st, 9999, "k", "e", NULL), -1);
    struct lab_sample bad = {.cell = 9999, .test = "t"};
    assert_int_equal(lab_store_add_sample(st, &bad), -1);
    assert_int_equal(lab_store_add_record(st, 9999, 1, "x"), -1);
    assert_int_equal(lab_store_cell_set(st, 9999, "k", "v"), -1);

    lab_store_close(st);

    /* Committed as they came: a separate reader sees the rows. */
    assert_int_equal(count_rows("records"), 2);
    assert_int_equal(count_rows("samples"), 4);
    assert_int_equal(count_rows("cell_facts"), 2);
}

static void test_uncommitted_writer_visible(void **state)
{
    /* Every call commits: another connection sees a sample while the store is
     * still open (as after a Ctrl-C that never reaches close). */
    struct lab_store *st;
    assert_int_equal(lab_store_open(path, &st), 0);
    int64_t run = lab_store_run_begin(st, "lab", "e", "p");
    int64_t cell = lab_store_cell_begin(st, run, "k", "e", NULL);
    struct lab_sample s = {.cell = cell, .test = "t", .bytes = 5};
    assert_int_equal(lab_store_add_sample(st, &s), 0);
    assert_int_equal(count_rows("samples"), 1);
    assert_int_equal(count_rows("runs"), 1);
    lab_store_close(st);
}

static void test_schema_version(void **state)
{
    struct lab_store *st;
    sqlite3 *db;

    assert_int_equal(lab_store_open(path, &st), 0);
    lab_store_close(st);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(s, 0), LAB_STORE_SCHEMA_VERSION);
    sqlite3_finalize(s);
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &s, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(s, 0), "wal");
    sqlite3_finalize(s);
    /* A file from a newer lab is refused. */
    assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    assert_int_equal(lab_store_open(path, &st), -1);
    assert_null(st);

    /* Not a database, and a place that cannot be created. */
    char junk[160];
    snprintf(junk, sizeof junk, "%s/junk.db", dir);
    assert_int_equal(
        lab_write_file(junk, "this is not sqlite, just some text padding it out.....", 54), 0);
    assert_int_equal(lab_store_open(junk, &st), -1);
    assert_int_equal(lab_store_open("/nonexistent-dir/x/results.db", &st), -1);
    lab_store_close(NULL);
}

/* Migration 6: a run's kernels' patches, in order, text or none. */
static void test_kernel_patches(void **state)
{
    struct lab_store *st;
    sqlite3 *db;
    sqlite3_stmt *s;
    assert_int_equal(lab_store_open(path, &st), 0);
    int64_t run = lab_store_run_begin(st, "lab run", "seqread", "fast");
    assert_true(run > 0);
    assert_int_equal(lab_store_add_kernel_patch(st, run, "2.6.11+x.diff", 1, "/tmp/x.diff", "ab12",
                                                "+one line\n"),
                     0);
    assert_int_equal(lab_store_add_kernel_patch(st, run, "2.6.12-rc2", 1,
                                                "file:///m/v2.6/testing/patch-2.6.12-rc2.xz",
                                                "e06a", NULL),
                     0);
    lab_store_close(st);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db,
                                        "SELECT kernel, position, sha256, text FROM kernel_patches "
                                        "ORDER BY kernel",
                                        -1, &s, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(s, 0), "2.6.11+x.diff");
    assert_int_equal(sqlite3_column_int(s, 1), 1);
    assert_string_equal((const char *)sqlite3_column_text(s, 3), "+one line\n");
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    assert_int_equal(sqlite3_column_type(s, 3), SQLITE_NULL);
    assert_int_equal(sqlite3_step(s), SQLITE_DONE);
    sqlite3_finalize(s);
    sqlite3_close(db);
}

/* A store that fills up mid-run (RLIMIT_FSIZE stands in for a full disk):
 * the first failed write is kept and named, later writes fail quietly, and
 * what was committed before is intact. */
static void test_full_store(void **state)
{
    struct lab_store *st;
    struct rlimit old, lim;
    assert_int_equal(lab_store_open(path, &st), 0);
    int64_t run = lab_store_run_begin(st, "lab run", "seqread", "fast");
    int64_t cell = lab_store_cell_begin(st, run, "k", "seqread", NULL);
    assert_true(cell > 0);
    assert_null(lab_store_failure(st));

    signal(SIGXFSZ, SIG_IGN); /* a write past the limit then fails with EFBIG */
    getrlimit(RLIMIT_FSIZE, &old);
    lim = old;
    lim.rlim_cur = 256 << 10;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    char big[2048];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    int failed_at = -1;
    for (int i = 0; i < 2000 && failed_at < 0; i++)
        if (lab_store_add_record(st, cell, i, big) < 0)
            failed_at = i;
    assert_true(failed_at > 0);
    const char *why = lab_store_failure(st);
    assert_non_null(why);
    assert_non_null(strstr(why, path));
    assert_int_equal(lab_store_add_record(st, cell, 1, "later"), -1);
    assert_int_equal(lab_store_cell_end(st, cell, "ok", NULL), -1);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    lab_store_close(st);

    assert_int_equal(count_rows("runs"), 1);
    assert_int_equal(count_rows("records"), failed_at);
    sqlite3 *db;
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(s, 0), "ok");
    sqlite3_finalize(s);
    sqlite3_close(db);
}

/* A run id that was never stored (-1 from a failed lab_store_run_begin)
 * lists nothing and is an error, never every run's cells. */
static int count_cb(const struct lab_cell_info *c, void *p)
{
    (*(int *)p)++;
    return 0;
}

static void test_no_run_minus_one(void **state)
{
    struct lab_store *st;
    int n = 0;
    assert_int_equal(lab_store_open(path, &st), 0);
    int64_t run = lab_store_run_begin(st, "lab run", "seqread", "fast");
    lab_store_cell_begin(st, run, "k", "seqread", NULL);
    assert_int_equal(lab_store_foreach_cell(st, -1, count_cb, &n), -1);
    assert_int_equal(n, 0);
    assert_int_equal(lab_store_foreach_cell(st, LAB_STORE_ALL_RUNS, count_cb, &n), 0);
    assert_int_equal(n, 1);
    lab_store_close(st);
}

static int collect_phase(int seq, const char *phase, int64_t ns, const char *note, void *ctx)
{
    char *out = ctx;
    size_t len = strlen(out);
    snprintf(out + len, 512 - len, "%d:%s=%lld(%s);", seq, phase, (long long)ns, note ? note : "-");
    return 0;
}

/* A version-2 file's tables, with one run and one cell. */
static const char schema_2_sql[] =
    "CREATE TABLE runs (id INTEGER PRIMARY KEY, command_line TEXT NOT NULL,"
    " experiment TEXT, profile TEXT, status TEXT NOT NULL DEFAULT 'running',"
    " started_wall_ns INTEGER NOT NULL, ended_wall_ns INTEGER, pid INTEGER,"
    " pid_start INTEGER);"
    "CREATE TABLE cells (id INTEGER PRIMARY KEY, run INTEGER NOT NULL REFERENCES"
    " runs(id) ON DELETE CASCADE, kernel TEXT NOT NULL, experiment TEXT, params"
    " TEXT, status TEXT NOT NULL DEFAULT 'running', reason TEXT, started_wall_ns"
    " INTEGER NOT NULL, ended_wall_ns INTEGER);"
    "CREATE TABLE cell_facts (cell INTEGER NOT NULL, key TEXT NOT NULL, value TEXT"
    " NOT NULL, PRIMARY KEY (cell, key));"
    "CREATE TABLE samples (id INTEGER PRIMARY KEY, cell INTEGER NOT NULL, rep"
    " INTEGER NOT NULL, test TEXT NOT NULL, bytes INTEGER NOT NULL, real_ns INTEGER"
    " NOT NULL, user_ns INTEGER NOT NULL, sys_ns INTEGER NOT NULL, guest_begin_ns"
    " INTEGER, guest_end_ns INTEGER, host_begin_ns INTEGER, host_end_ns INTEGER,"
    " extra TEXT);"
    "CREATE TABLE records (id INTEGER PRIMARY KEY, cell INTEGER NOT NULL, host_ns"
    " INTEGER NOT NULL, line TEXT NOT NULL);"
    "INSERT INTO runs VALUES (1, 'lab run', 'seqread', 'fast', 'ok', 1, 2, 7, 8);"
    "INSERT INTO cells VALUES (1, 1, '6.1-lab', 'seqread', NULL, 'ok', NULL, 1, 2);";

/* A store from before cell_phases (schema 2, or 3 with the bisection
 * tables), or one another branch of the lab already took to schema 4 with
 * its own tables: it opens, keeps its rows and gains the table; phases
 * round-trip, NULL for "not measured". */
/* A file with the version-2 tables, then_sql run on it, opened by the
 * store: its one cell is there. */
static struct lab_store *open_old_file(const char *then_sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, schema_2_sql, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, then_sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);

    struct lab_store *st;
    assert_int_equal(lab_store_open(path, &st), 0);
    struct cells cs = {0};
    assert_int_equal(lab_store_foreach_cell(st, 1, collect_cell, &cs), 0);
    assert_int_equal(cs.n, 1);
    assert_string_equal(cs.kernel[0], "6.1-lab");
    return st;
}

static void migrate_phases(int version)
{
    char pragma[64];
    snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", version);
    struct lab_store *st = open_old_file(pragma);
    char got[512] = "";
    assert_int_equal(lab_store_foreach_phase(st, 1, collect_phase, got), 0);
    assert_string_equal(got, ""); /* an old cell: no phases */
    assert_int_equal(lab_store_add_phase(st, 1, 1, "decompression", -1, "no output"), 0);
    assert_int_equal(lab_store_add_phase(st, 1, 0, "firmware", 250000000, NULL), 0);
    assert_int_equal(lab_store_add_phase(st, 1, 0, "firmware", 240000000, NULL), 0); /* replaces */
    assert_int_equal(lab_store_foreach_phase(st, 1, collect_phase, got), 0);
    assert_string_equal(got, "0:firmware=240000000(-);1:decompression=-1(no output);");
    lab_store_close(st);
}

static void test_migrate_phases(void **state)
{
    for (int v = 2; v <= 4; v++) {
        migrate_phases(v);
        lab_rm_rf(dir);
        assert_non_null(mkdtemp(strcpy(dir, "/tmp/lab-test-store-XXXXXX")));
        snprintf(path, sizeof path, "%s/results.db", dir);
    }
}

/* A file another branch of the lab took part of the way: version 3 by its
 * number, with version 5's bundle columns and index already. It opens,
 * keeps its rows and what is in those columns, and ends at this version. */
static void test_migrate_mixed(void **state)
{
    lab_store_close(
        open_old_file("ALTER TABLE cells ADD COLUMN cell_key TEXT;"
                      "ALTER TABLE cells ADD COLUMN attempt INTEGER;"
                      "ALTER TABLE cells ADD COLUMN host TEXT;"
                      "CREATE UNIQUE INDEX cells_key_attempt ON cells(cell_key, attempt);"
                      "UPDATE cells SET cell_key = 'run-1-cell-0', attempt = 2, host = 'h2';"
                      "PRAGMA user_version = 3;"));

    sqlite3 *db;
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(
        sqlite3_prepare_v2(db,
                           "SELECT cell_key || '/' || attempt || '/' || host || '/' ||"
                           " (SELECT user_version FROM pragma_user_version) FROM cells",
                           -1, &s, NULL),
        SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    char want[64];
    snprintf(want, sizeof want, "run-1-cell-0/2/h2/%d", LAB_STORE_SCHEMA_VERSION);
    assert_string_equal((const char *)sqlite3_column_text(s, 0), want);
    sqlite3_finalize(s);
    sqlite3_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_uncommitted_writer_visible, setup, teardown),
        cmocka_unit_test_setup_teardown(test_schema_version, setup, teardown),
        cmocka_unit_test_setup_teardown(test_full_store, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kernel_patches, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_run_minus_one, setup, teardown),
        cmocka_unit_test_setup_teardown(test_migrate_phases, setup, teardown),
        cmocka_unit_test_setup_teardown(test_migrate_mixed, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
