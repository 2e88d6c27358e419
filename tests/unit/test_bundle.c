/* Unit tests of host/bundle*.c without a guest: a cell job's JSON round
 * trip; a bundle made from a store by hand (sealed, manifest) verifies,
 * imports once, and is refused truncated, changed or without a manifest; a
 * job that cannot start leaves a failed bundle with its reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/unit/bundle_fixture.h"

#include "host/run/bundle.h"
#include "host/store/store.h"
#include "common/file.h"
#include "common/str.h"

static char dir[64];

static int setup(void **state)
{
    strcpy(dir, "/tmp/lab-test-bundle-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    lab_rm_rf(dir);
    return 0;
}

static void test_job_round_trip(void **state)
{
    struct lab_cell_job a = {.attempt = 2,
                             .run = 7,
                             .index = 3,
                             .timeout_s = 99,
                             .boot = 2,
                             .rt_priority = 10,
                             .cpu = 1};
    snprintf(a.key, sizeof a.key, "run-7-cell-3");
    snprintf(a.kernel, sizeof a.kernel, "6.12.113");
    snprintf(a.experiment, sizeof a.experiment, "seqread");
    snprintf(a.profile, sizeof a.profile, "pata-2003");
    snprintf(a.virt_type, sizeof a.virt_type, "qemu");
    snprintf(a.rt_note, sizeof a.rt_note, "fifo qemu=10");
    snprintf(a.cpu_profile, sizeof a.cpu_profile, "pentium-66");
    a.plan_experiment = lab_xstrdup("test = seqread\nfile_size = 8388608\n");
    a.plan_text = lab_xstrdup("kernel 6.12.113\n");
    memset(a.plan_sha256, 'a', 64);
    char *path = lab_asprintf("%s/CELL.json", dir);
    assert_int_equal(lab_cell_job_write(&a, path), 0);
    struct lab_cell_job b;
    assert_int_equal(lab_cell_job_read(path, &b), 0);
    assert_string_equal(b.key, a.key);
    assert_string_equal(b.kernel, a.kernel);
    assert_string_equal(b.experiment, "seqread");
    assert_string_equal(b.plan_experiment, a.plan_experiment);
    assert_null(b.plan_profile);
    assert_string_equal(b.plan_sha256, a.plan_sha256);
    assert_string_equal(b.bus, "");
    assert_int_equal(b.attempt, 2);
    assert_int_equal(b.run, 7);
    assert_int_equal(b.cpu, 1);
    assert_string_equal(b.cpu_profile, "pentium-66");
    lab_cell_job_free(&b);
    /* A job without its plan is refused: a worker would have to guess.
     * "plan" is the last key written. */
    char *text = lab_read_text(path, 1 << 20, NULL), *cut = strstr(text, ",\n  \"plan\"");
    assert_non_null(cut);
    strcpy(cut, "\n}\n");
    lab_write_file(path, text, strlen(text));
    free(text);
    assert_int_equal(lab_cell_job_read(path, &b), -1);
    lab_cell_job_free(&a);
    /* A field out of range is refused. */
    lab_write_file(path, "{\"format\": 1, \"key\": \"k\", \"attempt\": -1}", 40);
    assert_int_equal(lab_cell_job_read(path, &b), -1);
    free(path);
}

static unsigned count(struct lab_store *st, const char *sql)
{
    (void)st;
    char db[96];
    snprintf(db, sizeof db, "%s/main.db", dir);
    return fixture_count(db, sql);
}

/* Bundle b imported into a new run of the store db (opened into *st):
 * the run's id, with r holding the import's result, which must be DONE. */
static int64_t import_new(const char *db, const char *logs, const char *b, struct lab_store **st,
                          struct lab_import_result *r)
{
    assert_int_equal(lab_store_open(db, st), 0);
    int64_t run = lab_store_run_begin(*st, "lab run", "seqread", "fast");
    assert_int_equal(lab_bundle_import(*st, run, logs, b, NULL, r), 0);
    assert_int_equal(r->outcome, LAB_IMPORT_DONE);
    return run;
}

static void test_import_once(void **state)
{
    char *b = fixture_bundle(dir, "b1", "key-1", 1, "ok"), *db = lab_asprintf("%s/main.db", dir);
    char *logs = lab_asprintf("%s/logs", dir);
    struct lab_store *st;
    struct lab_import_result r;
    int64_t run = import_new(db, logs, b, &st, &r);
    assert_int_equal(count(st, "select count(*) from samples"), 3);
    /* Where its time went comes along (lab show --timing). */
    assert_int_equal(count(st, "select count(*) from cell_phases where ns = 25000000 or "
                               "note = \"no printk times\""),
                     2);
    assert_int_equal(count(st, "select count(*) from cells where cell_key = \"key-1\" and "
                               "attempt = 1 and host = \"h1\""),
                     1);
    /* The cell's CPU profile comes along (docs/cpu.md). */
    assert_int_equal(count(st, "select count(*) from cells where cpu = \"pentium-66\""), 1);
    /* The trace fact names the kept copy. */
    char fact[256];
    lab_store_cell_get(st, r.cell, "trace", fact, sizeof fact);
    char *want = lab_asprintf("%s/cell-0-k.trace", logs);
    assert_string_equal(fact, want);
    assert_true(lab_file_exists(logs)); /* the console was kept there */
    assert_int_equal(lab_bundle_import(st, run, logs, b, NULL, &r), 0);
    assert_int_equal(r.outcome, LAB_IMPORT_DUPLICATE);
    assert_int_equal(count(st, "select count(*) from samples"), 3);
    lab_store_close(st);
    free(want);
    free(b);
    free(db);
    free(logs);
}

static void refused(const char *name, void (*spoil)(const char *b), const char *why)
{
    char *b = fixture_bundle(dir, name, name, 1, "ok"), *db = lab_asprintf("%s/main.db", dir);
    struct lab_store *st;
    struct lab_import_result r;
    spoil(b);
    assert_int_equal(lab_store_open(db, &st), 0);
    int64_t run = lab_store_run_begin(st, "lab run", "seqread", "fast");
    unsigned before = count(st, "select count(*) from cells");
    assert_int_equal(lab_bundle_import(st, run, dir, b, NULL, &r), -1);
    assert_int_equal(r.outcome, LAB_IMPORT_REFUSED);
    if (!strstr(r.why, why))
        fail_msg("'%s' does not say '%s'", r.why, why);
    assert_int_equal(count(st, "select count(*) from cells"), before);
    lab_store_close(st);
    free(b);
    free(db);
}

static void truncate_db(const char *b)
{
    char *p = lab_asprintf("%s/cell.db", b);
    assert_int_equal(truncate(p, 4096), 0);
    free(p);
}

static void change_console(const char *b)
{
    char *p = lab_asprintf("%s/cell-0-k.console.log", b);
    lab_write_file(p, "Linux version 6.13\n", 19);
    free(p);
}

static void drop_manifest(const char *b)
{
    char *p = lab_asprintf("%s/MANIFEST.json", b);
    unlink(p);
    free(p);
}

/* An ok cell whose manifest names no plan (a worker that checked none). */
static void drop_plan(const char *b)
{
    char *p = lab_asprintf("%s/MANIFEST.json", b);
    char *text = lab_read_text(p, 1 << 20, NULL), *at = strstr(text, FIXTURE_PLAN);
    assert_non_null(at);
    memmove(at, at + 64, strlen(at + 64) + 1);
    lab_write_file(p, text, strlen(text));
    free(text);
    free(p);
}

/* The controller dispatched another plan than the bundle ran, or a cell
 * ran ok without a checked plan: refused, nothing stored. */
static void test_plan_checked(void **state)
{
    char *b = fixture_bundle(dir, "planned", "run-1-cell-5", 1, "ok");
    char *db = lab_asprintf("%s/main.db", dir), *logs = lab_asprintf("%s/logs", dir);
    struct lab_store *st;
    assert_int_equal(lab_store_open(db, &st), 0);
    int64_t run = lab_store_run_begin(st, "lab run", "seqread", "fast");
    struct lab_import_result r;
    unsigned before = count(st, "select count(*) from cells");
    char other[65];
    memset(other, 'q', 64);
    other[64] = '\0';
    assert_int_equal(lab_bundle_import(st, run, logs, b, other, &r), -1);
    assert_int_equal(r.outcome, LAB_IMPORT_REFUSED);
    assert_non_null(strstr(r.why, "it ran plan pppppppppppp, the controller planned qqqqqqqqqqqq"));
    assert_int_equal(count(st, "select count(*) from cells"), before);
    assert_int_equal(lab_bundle_import(st, run, dir, b, FIXTURE_PLAN, &r), 0);
    assert_int_equal(r.outcome, LAB_IMPORT_DONE);
    assert_int_equal(count(st, "select count(*) from cells"), before + 1);
    lab_store_close(st);
    free(db);
    free(logs);
    free(b);
}

static void test_refused(void **state)
{
    refused("trunc", truncate_db, "cell.db is 4096 bytes, the manifest says");
    refused("changed", change_console, "does not match its SHA-256");
    refused("partial", drop_manifest, "partial: no MANIFEST.json");
    refused("no plan", drop_plan, "its cell is ok but ran no checked plan");
}

/* A job that cannot start on its host (the kernel is unknown there) leaves
 * a complete bundle of one failed cell with the reason, not a partial one;
 * imported, the cell is stored failed with that reason. */
static void test_cannot_start(void **state)
{
    struct lab_cell_job job = {.attempt = 1, .run = 1};
    snprintf(job.key, sizeof job.key, "run-1-cell-0");
    snprintf(job.kernel, sizeof job.kernel, "no-such-kernel");
    snprintf(job.experiment, sizeof job.experiment, "seqread");
    snprintf(job.profile, sizeof job.profile, "fast");
    char *b = lab_asprintf("%s/nostart", dir), *db = lab_asprintf("%s/main.db", dir);
    char *logs = lab_asprintf("%s/logs", dir);
    struct lab_cell_result res;
    setenv("LAB_HOST", "h1", 1);
    assert_int_equal(lab_bundle_run(&job, b, &res), 0);
    assert_int_equal(res.status, LAB_CELL_FAILED);
    assert_non_null(strstr(res.reason, "cannot start on h1: unknown kernel 'no-such-kernel'"));
    struct lab_bundle_manifest m;
    char why[256];
    assert_int_equal(lab_bundle_verify(b, &m, why, sizeof why), 0);
    assert_string_equal(m.status, "failed");
    assert_string_equal(m.reason, res.reason);
    struct lab_store *st;
    struct lab_import_result r;
    import_new(db, logs, b, &st, &r);
    assert_int_equal(count(st, "select count(*) from cells where status = \"failed\" and "
                               "reason like \"cannot start on h1: unknown kernel%\" and "
                               "host = \"h1\""),
                     1);
    lab_store_close(st);
    unsetenv("LAB_HOST");
    free(logs);
    free(db);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_job_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_import_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_plan_checked, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cannot_start, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
