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

#include "host/bundle.h"
#include "host/store.h"
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
                             .reps = 4,
                             .timeout_s = 99,
                             .boot = 2,
                             .rt_priority = 10,
                             .cpu = 1};
    snprintf(a.key, sizeof a.key, "run-7-cell-3");
    snprintf(a.kernel, sizeof a.kernel, "6.12.113");
    snprintf(a.experiment, sizeof a.experiment, "/x/seqread.exp");
    snprintf(a.load, sizeof a.load, "io_load");
    snprintf(a.scheduler, sizeof a.scheduler, "default");
    snprintf(a.profile, sizeof a.profile, "pata-2003");
    snprintf(a.virt_type, sizeof a.virt_type, "qemu");
    snprintf(a.rt_note, sizeof a.rt_note, "fifo qemu=10");
    a.sets[a.nsets++] = lab_xstrdup("file_size=8M");
    a.sets[a.nsets++] = lab_xstrdup("verify=1");
    char *path = lab_asprintf("%s/CELL.json", dir);
    assert_int_equal(lab_cell_job_write(&a, path), 0);
    struct lab_cell_job b;
    assert_int_equal(lab_cell_job_read(path, &b), 0);
    assert_string_equal(b.key, a.key);
    assert_string_equal(b.kernel, a.kernel);
    assert_string_equal(b.load, "io_load");
    assert_string_equal(b.scheduler, "default");
    assert_string_equal(b.bus, "");
    assert_int_equal(b.attempt, 2);
    assert_int_equal(b.run, 7);
    assert_int_equal(b.cpu, 1);
    assert_int_equal(b.nsets, 2);
    assert_string_equal(b.sets[1], "verify=1");
    lab_cell_job_free(&a);
    lab_cell_job_free(&b);
    /* A field out of range is refused. */
    lab_write_file(path, "{\"format\": 1, \"key\": \"k\", \"attempt\": -1}", 41);
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
    assert_int_equal(lab_bundle_import(*st, run, logs, b, r), 0);
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
    /* The trace fact names the kept copy. */
    char fact[256];
    lab_store_cell_get(st, r.cell, "trace", fact, sizeof fact);
    char *want = lab_asprintf("%s/cell-0-k.trace", logs);
    assert_string_equal(fact, want);
    assert_true(lab_file_exists(logs)); /* the console was kept there */
    assert_int_equal(lab_bundle_import(st, run, logs, b, &r), 0);
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
    assert_int_equal(lab_bundle_import(st, run, dir, b, &r), -1);
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

static void test_refused(void **state)
{
    refused("trunc", truncate_db, "cell.db is 4096 bytes, the manifest says");
    refused("changed", change_console, "does not match its SHA-256");
    refused("partial", drop_manifest, "partial: no MANIFEST.json");
}

/* A job that cannot start on its host (the kernel is unknown there) leaves
 * a complete bundle of one failed cell with the reason, not a partial one;
 * imported, the cell is stored failed with that reason. */
static void test_cannot_start(void **state)
{
    struct lab_cell_job job = {.attempt = 1, .run = 1, .reps = 1};
    snprintf(job.key, sizeof job.key, "run-1-cell-0");
    snprintf(job.kernel, sizeof job.kernel, "no-such-kernel");
    snprintf(job.experiment, sizeof job.experiment, "/x/seqread.exp");
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
        cmocka_unit_test_setup_teardown(test_cannot_start, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
