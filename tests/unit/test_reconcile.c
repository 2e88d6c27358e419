/* Unit tests of the reconciler's spool sweep (host/run/reconcile_spool.c)
 * without a guest: a dead lab's spool in a private $LAB_HOME, with a
 * bundle that landed after its lab died (a local engine's KEY.ATTEMPT),
 * a partial one, and a retrying engine's attempts (KEY/aN); spools of a
 * lab still running, of another store and of a lab before OWNER with
 * another store's bundle are left alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "host/run/bundle.h"
#include "host/run/engine.h"
#include "host/run/reconcile.h"
#include "host/store/store.h"
#include "common/file.h"
#include "common/proc.h"
#include "common/str.h"
#include "tests/unit/bundle_fixture.h"
#include "tests/unit/tmphome.h"

static int setup(void **state)
{
    if (tmphome_setup("reconcile") < 0)
        return -1;
    char *run = lab_asprintf("%s/run", tmpdir);
    setenv("LAB_RUN_DIR", run, 1);
    free(run);
    return 0;
}

static int teardown(void **state)
{
    return tmphome_teardown();
}

/* A pid no process has now: a child that exited. */
static long dead_pid(void)
{
    pid_t p = fork();
    if (p == 0)
        _exit(0);
    waitpid(p, NULL, 0);
    return (long)p;
}

static char *make_spool(long pid, long owner_pid, uint64_t start, const char *store)
{
    char *spool = lab_asprintf("%s/spool/%ld", lab_home(), pid);
    assert_int_equal(lab_mkdir_p(spool, 0755), 0);
    if (store) {
        struct utsname u;
        uname(&u);
        char *owner = lab_asprintf("%s/OWNER", spool);
        char *text = lab_asprintf("host=%s\npid=%ld\nstart=%llu\nstore=%s\n", u.nodename, owner_pid,
                                  (unsigned long long)start, store);
        lab_write_file(owner, text, strlen(text));
        free(text);
        free(owner);
    }
    return spool;
}

/* A complete bundle as a worker leaves it: the job could not start there
 * (its kernel is unknown), one failed cell with the reason. */
static void make_bundle(const char *dir, int64_t run, int index)
{
    struct lab_cell_job job = {.attempt = 1, .run = run, .index = index};
    snprintf(job.key, sizeof job.key, "run-%lld-cell-%d", (long long)run, index);
    snprintf(job.kernel, sizeof job.kernel, "gone-kernel");
    snprintf(job.experiment, sizeof job.experiment, "seqread");
    snprintf(job.profile, sizeof job.profile, "fast");
    struct lab_cell_result res;
    setenv("LAB_HOST", "h1", 1);
    assert_int_equal(lab_bundle_run(&job, dir, &res), 0);
    unsetenv("LAB_HOST");
}

/* A partial one: the cell died with its lab (no manifest). */
static void make_partial(const char *dir, const char *console)
{
    assert_int_equal(lab_mkdir_p(dir, 0755), 0);
    char *live = lab_asprintf("%s/live.db", dir), *log = lab_asprintf("%s/%s", dir, console);
    lab_write_file(live, "x", 1);
    lab_write_file(log, "Linux version 6.12\n", 19);
    free(log);
    free(live);
}

static void test_dead_spool_imported(void **state)
{
    char *db = lab_asprintf("%s/main.db", tmpdir);
    struct lab_store *st;
    assert_int_equal(lab_store_open(db, &st), 0);
    int64_t run = lab_store_run_begin(st, "lab run", "seqread", "fast");
    char keys[3][32];
    for (int i = 0; i < 3; i++) {
        snprintf(keys[i], sizeof keys[i], "run-%lld-cell-%d", (long long)run, i);
        assert_true(lab_store_cell_dispatch(st, run, keys[i], "gone-kernel", "seqread", NULL) > 0);
    }
    char *real = realpath(db, NULL);
    long pid = dead_pid();
    char *spool = make_spool(pid, pid, 12345, real);
    char *b0 = lab_asprintf("%s/%s.1", spool, keys[0]),
         *b1 = lab_asprintf("%s/%s.1", spool, keys[1]);
    char *a1 = lab_asprintf("%s/%s/a1", spool, keys[2]),
         *a2 = lab_asprintf("%s/%s/a2", spool, keys[2]);
    make_bundle(b0, run, 0); /* landed after its lab died */
    make_partial(b1, "cell-1-k.console.log");
    make_bundle(a1, run, 2);                  /* attempt 1 complete (failed) */
    make_partial(a2, "cell-2-k.console.log"); /* attempt 2 cut short */

    lab_reconcile(st);
    char *sql = lab_asprintf("select count(*) from cells where cell_key = '%s' and attempt = 1 and "
                             "status = 'failed' and reason like 'cannot start on h1:%%' and host "
                             "= 'h1'",
                             keys[0]);
    assert_int_equal(fixture_count(db, sql), 1);
    free(sql);
    sql = lab_asprintf("select count(*) from cells where cell_key = '%s' and attempt = 1", keys[2]);
    assert_int_equal(fixture_count(db, sql), 1); /* its one complete attempt, once */
    free(sql);
    sql = lab_asprintf("select count(*) from cells where cell_key = '%s' and attempt = 0", keys[1]);
    assert_int_equal(fixture_count(db, sql), 1); /* the partial one: still its dispatch row */
    free(sql);
    assert_int_equal(fixture_count(db, "select count(*) from cells where attempt = 0"), 1);
    assert_false(lab_file_exists(spool)); /* removed */
    char *kept = lab_asprintf("%s/logs/orphans/spool-%ld/%s.1.cell-1-k.console.log", lab_home(),
                              pid, keys[1]);
    assert_true(lab_file_exists(kept));
    free(kept);
    /* Reconciling again changes nothing. */
    unsigned before = fixture_count(db, "select count(*) from cells");
    lab_reconcile(st);
    assert_int_equal(fixture_count(db, "select count(*) from cells"), before);
    lab_store_close(st);
    free(a2);
    free(a1);
    free(b1);
    free(b0);
    free(spool);
    free(real);
    free(db);
}

static void test_spools_left_alone(void **state)
{
    char *db = lab_asprintf("%s/other.db", tmpdir);
    struct lab_store *st;
    assert_int_equal(lab_store_open(db, &st), 0);
    int64_t run = lab_store_run_begin(st, "lab run", "seqread", "fast");
    char *real = realpath(db, NULL);
    /* A lab that still runs (this process), of this store. */
    char *live = make_spool(getpid(), getpid(), lab_proc_start(getpid()), real);
    char *lb = lab_asprintf("%s/run-%lld-cell-0.1", live, (long long)run);
    make_bundle(lb, run, 0);
    /* A dead lab of another store. */
    long pid = dead_pid();
    char *other = make_spool(pid, pid, 1, "/elsewhere/results.db");
    char *ob = lab_asprintf("%s/run-%lld-cell-0.1", other, (long long)run);
    make_bundle(ob, run, 0);
    /* A dead lab from before OWNER, with a bundle of a run this store has
     * not: another store's. */
    long pid2 = dead_pid();
    char *old = make_spool(pid2, 0, 0, NULL);
    char *ab = lab_asprintf("%s/run-%lld-cell-0.1", old, (long long)run + 7);
    make_bundle(ab, run + 7, 0);

    lab_reconcile(st);
    assert_true(lab_file_exists(lb));
    assert_true(lab_file_exists(ob));
    assert_true(lab_file_exists(ab));
    assert_int_equal(fixture_count(db, "select count(*) from cells"), 0);
    lab_store_close(st);
    lab_rm_rf(live); /* this process's own spool */
    free(ab);
    free(old);
    free(ob);
    free(other);
    free(lb);
    free(live);
    free(real);
    free(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dead_spool_imported),
        cmocka_unit_test(test_spools_left_alone),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
