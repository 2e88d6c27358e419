/* Unit tests of the store's one step loop (lab_store_rows in
 * host/store/store_impl.h): every row seen, a callback's stop kept, a
 * failing step said as -1, and the lock given back each way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <pthread.h>

#include "host/store/store.h"
#include "host/store/store_impl.h"
#include "common/file.h"

static char dir[64];
static struct lab_store *st;

static int setup(void **state)
{
    strcpy(dir, "/tmp/lab-test-rows-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    char path[128];
    snprintf(path, sizeof path, "%s/results.db", dir);
    return lab_store_open(path, &st);
}

static int teardown(void **state)
{
    lab_store_close(st);
    lab_rm_rf(dir);
    return 0;
}

struct seen {
    int n, stop_at;
    int64_t sum;
};

static int add_row(sqlite3_stmt *s, void *p)
{
    struct seen *x = p;
    x->n++;
    x->sum += sqlite3_column_int64(s, 0);
    return x->n == x->stop_at ? 7 : 0;
}

static const char *const three = "SELECT column1 FROM (VALUES (1), (20), (300))";

/* Another thread takes the store's lock: the loop gave it back. */
static void *lock_elsewhere(void *p)
{
    lab_store_lock(p);
    lab_store_unlock(p);
    return p;
}

static void assert_unlocked(void)
{
    pthread_t t;
    void *ret = NULL;
    assert_int_equal(pthread_create(&t, NULL, lock_elsewhere, st), 0);
    assert_int_equal(pthread_join(t, &ret), 0);
    assert_ptr_equal(ret, st);
}

static void test_every_row(void **state)
{
    struct seen x = {0};
    sqlite3_stmt *s = lab_store_prepare(st, three);
    assert_non_null(s);
    assert_int_equal(lab_store_rows(st, s, add_row, &x, "three rows"), 0);
    assert_int_equal(x.n, 3);
    assert_int_equal(x.sum, 321);
    assert_unlocked();
}

static void test_callback_stops(void **state)
{
    struct seen x = {.stop_at = 2};
    sqlite3_stmt *s = lab_store_prepare(st, three);
    assert_non_null(s);
    assert_int_equal(lab_store_rows(st, s, add_row, &x, "two of three rows"), 7);
    assert_int_equal(x.n, 2);
    assert_int_equal(x.sum, 21);
    assert_unlocked();
}

static void test_no_rows(void **state)
{
    struct seen x = {0};
    sqlite3_stmt *s = lab_store_prepare(st, "SELECT 1 WHERE 0");
    assert_int_equal(lab_store_rows(st, s, add_row, &x, "no rows"), 0);
    assert_int_equal(x.n, 0);
}

/* A step that fails after a row: the rows before it were seen, the
 * failure is -1 (not the callback's 0), and the lock is free again. */
static void test_failing_step(void **state)
{
    struct seen x = {0};
    sqlite3_stmt *s = lab_store_prepare(st, "SELECT CASE WHEN column1 < 2 THEN column1 ELSE "
                                            "abs(-9223372036854775807 - 1) END "
                                            "FROM (VALUES (1), (2))");
    assert_non_null(s);
    assert_int_equal(lab_store_rows(st, s, add_row, &x, "an overflowing row"), -1);
    assert_int_equal(x.n, 1);
    assert_unlocked();
}

static void test_bad_sql(void **state)
{
    assert_null(lab_store_prepare(st, "SELECT FROM nowhere"));
    assert_unlocked();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_every_row, setup, teardown),
        cmocka_unit_test_setup_teardown(test_callback_stops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_rows, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failing_step, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_sql, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
