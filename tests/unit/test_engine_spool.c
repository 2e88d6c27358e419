/* Unit tests of host/run/engine_spool.c without a guest or an engine: the
 * attempts of one cell in SPOOL/KEY/aN, as Slurm's requeues or GNU
 * parallel's retries leave them. */
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

#include "host/run/engine.h"
#include "host/store/store.h"
#include "kernels/catalog.h"
#include "common/file.h"
#include "common/str.h"

static char dir[64];

static int setup(void **state)
{
    strcpy(dir, "/tmp/lab-test-spool-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    lab_rm_rf(dir);
    return 0;
}

static unsigned count(const char *sql)
{
    char db[96];
    snprintf(db, sizeof db, "%s/main.db", dir);
    return fixture_count(db, sql);
}

struct fixture {
    struct lab_store *st;
    struct lab_cell_env env;
    struct lab_spool_cell c;
    char *db, *logs;
};

static void open_fixture(struct fixture *f)
{
    f->db = lab_asprintf("%s/main.db", dir);
    f->logs = lab_asprintf("%s/logs", dir);
    assert_int_equal(lab_store_open(f->db, &f->st), 0);
    f->env = (struct lab_cell_env){.store = f->st, .log_dir = f->logs};
    f->env.run_id = lab_store_run_begin(f->st, "lab run", "seqread", "fast");
    memset(&f->c, 0, sizeof f->c);
    snprintf(f->c.key, sizeof f->c.key, "k");
    snprintf(f->c.dir, sizeof f->c.dir, "%s/k", dir);
    f->c.index = 3;
    f->c.dispatched = lab_store_cell_dispatch(f->st, f->env.run_id, "k", "k", "seqread", NULL);
}

static void close_fixture(struct fixture *f)
{
    lab_store_close(f->st);
    free(f->db);
    free(f->logs);
}

/* a1 failed (libvirt lost on h1), a2 ok on h2: a2 stored, once. */
static void test_failed_then_ok(void **state)
{
    struct fixture f;
    struct lab_cell_result res;
    open_fixture(&f);
    free(fixture_bundle(dir, "k/a1", "k", 1, "failed"));
    assert_int_equal(lab_spool_scan(&f.env, &f.c, &res), 0); /* held: a retry may come */
    assert_int_equal(count("select count(*) from cells where attempt > 0"), 0);
    free(fixture_bundle(dir, "k/a2", "k", 2, "ok"));
    assert_int_equal(lab_spool_scan(&f.env, &f.c, &res), 1);
    assert_int_equal(res.status, LAB_CELL_OK);
    assert_int_equal(res.samples, 3);
    assert_int_equal(count("select count(*) from cells"), 1); /* the dispatch row replaced */
    assert_int_equal(count("select count(*) from cells where attempt = 2 and host = \"h2\""), 1);
    assert_int_equal(lab_spool_scan(&f.env, &f.c, &res), 0); /* done: nothing more */
    close_fixture(&f);
}

/* Only a partial attempt and a failed one: at the end the failure is
 * stored; with nothing complete, the cell fails saying so. */
static void test_give_up(void **state)
{
    struct fixture f;
    struct lab_cell_result res;
    open_fixture(&f);
    char *a1 = fixture_bundle(dir, "k/a1", "k", 1, "failed");
    free(fixture_bundle(dir, "k/a2", "k", 2, "ok"));
    char *m = lab_asprintf("%s/k/a2/MANIFEST.json", dir);
    unlink(m); /* a2 partial: its host died */
    assert_int_equal(lab_spool_scan(&f.env, &f.c, &res), 0);
    lab_spool_give_up(&f.env, &f.c, "its task ended", &res);
    assert_int_equal(res.status, LAB_CELL_FAILED);
    assert_int_equal(count("select count(*) from cells where attempt = 1 and status = \"failed\""),
                     1);
    assert_int_equal(count("select count(*) from cells"), 1);
    close_fixture(&f);

    open_fixture(&f);
    snprintf(f.c.key, sizeof f.c.key, "other");
    snprintf(f.c.dir, sizeof f.c.dir, "%s/none", dir);
    lab_spool_give_up(&f.env, &f.c, "its task ended", &res);
    assert_non_null(strstr(res.reason, "its task ended; no attempt left a complete bundle"));
    close_fixture(&f);
    free(a1);
    free(m);
}

/* A job whose `lab cell` could not start on its host (the kernel is not
 * there) left a failed bundle: held while another attempt may come, then
 * stored as the failed cell with that reason, replacing the dispatch row;
 * the stored cell is the one the spool cell names. */
static void test_cannot_start(void **state)
{
    struct fixture f;
    struct lab_cell_result res;
    open_fixture(&f);
    struct lab_cell_job job = {.attempt = 1, .run = f.env.run_id};
    snprintf(job.key, sizeof job.key, "k");
    snprintf(job.kernel, sizeof job.kernel, "not-on-this-host");
    snprintf(job.experiment, sizeof job.experiment, "seqread");
    snprintf(job.profile, sizeof job.profile, "fast");
    char *a1 = lab_asprintf("%s/a1", f.c.dir);
    setenv("LAB_HOST", "h1", 1);
    assert_int_equal(lab_bundle_run(&job, a1, &res), 0);
    unsetenv("LAB_HOST");
    assert_int_equal(lab_spool_scan(&f.env, &f.c, &res), 0); /* held */
    lab_spool_give_up(&f.env, &f.c, "its task ended", &res);
    assert_int_equal(res.status, LAB_CELL_FAILED);
    assert_non_null(strstr(res.reason, "cannot start on h1: unknown kernel 'not-on-this-host'"));
    assert_int_equal(count("select count(*) from cells"), 1);
    assert_int_equal(count("select count(*) from cells where status = \"failed\" and attempt = 1 "
                           "and reason like \"cannot start on h1: unknown kernel%\""),
                     1);
    char *sql = lab_asprintf("select count(*) from cells where id = %lld and attempt = 1",
                             (long long)f.c.cell);
    assert_int_equal(count(sql), 1);
    free(sql);
    free(a1);
    close_fixture(&f);
}

/* The queue both spool engines keep (struct lab_spool_cells): cells
 * queued with their jobs written, the first of a batch the engine would
 * not take given up on, and the spool kept until every cell is done. */
static void test_spool_cells(void **state)
{
    struct fixture f;
    struct lab_cell_result res;
    open_fixture(&f);
    setenv("LAB_HOME", dir, 1);
    static const struct lab_kernel kern = {
        .name = "K", .arch = "x86_64", .source = "debian", .version = "6.1.170"};
    struct lab_experiment exp;
    assert_int_equal(lab_experiment_load("seqread", &exp), 0);
    struct lab_engine e = {.env = &f.env};
    struct lab_spool_cells *q = calloc(1, sizeof *q);
    assert_int_equal(lab_spool_cells_open(q, "test"), 0);
    assert_true(lab_file_exists(q->spool));
    assert_true(q->lab[0] == '/');
    for (int i = 0; i < 2; i++) {
        struct lab_cell_spec spec = {.index = 5 + i, .kernel = &kern, .exp = &exp};
        assert_int_equal(lab_spool_cells_add(&e, q, &spec, &res), LAB_RUN_Q_QUEUED);
    }
    assert_int_equal(q->ncells, 2);
    char *job = lab_asprintf("%s/%s", q->cells[1].dir, LAB_BUNDLE_JOB);
    assert_true(lab_file_exists(job));
    assert_int_equal(lab_spool_cells_outstanding(q), 1);
    assert_int_equal(lab_spool_cells_refuse(&f.env, q, "the engine said no", &res), 5);
    assert_int_equal(q->submitted, 2);
    assert_int_equal(res.status, LAB_CELL_FAILED);
    assert_non_null(strstr(res.reason, "the engine said no"));
    assert_int_equal(lab_spool_cells_outstanding(q), 1); /* the second is not done */
    char *spool = lab_xstrdup(q->spool);
    lab_spool_cells_close(q);
    assert_true(lab_file_exists(spool)); /* kept: a cell may still land */
    assert_int_equal(lab_spool_cells_open(q, "test"), 0);
    q->ncells = 1;
    q->cells[0].done = 1;
    assert_int_equal(lab_spool_cells_outstanding(q), 0);
    lab_spool_cells_close(q);
    assert_false(lab_file_exists(spool));
    free(spool);
    free(job);
    free(q);
    lab_experiment_free(&exp);
    unsetenv("LAB_HOME");
    close_fixture(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_failed_then_ok, setup, teardown),
        cmocka_unit_test_setup_teardown(test_give_up, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cannot_start, setup, teardown),
        cmocka_unit_test_setup_teardown(test_spool_cells, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
