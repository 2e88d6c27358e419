/* The store's cell_failures table (schema 7): a cell's kernel oops, BUG or
 * panic as host/cell/oops.c read it from the console. The schema is
 * store.c's; this file holds the queries. */
#include "host/store/store.h"
#include "host/store/store_impl.h"

#include <string.h>

int lab_store_set_failure(struct lab_store *st, int64_t cell, const struct lab_cell_failure *f)
{
    sqlite3 *db = lab_store_lock(st);
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db,
                           "INSERT OR REPLACE INTO cell_failures (cell, headline, function, "
                           "offset, trace, bug_file, bug_line, panic, phase, avoid_key) VALUES "
                           "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                           -1, &s, NULL) != SQLITE_OK) {
        int rc = lab_store_sql_error(st, "store a cell's failure");
        lab_store_unlock(st);
        return rc;
    }
    const char *const text[] = {f->headline ? f->headline : "", f->function, f->offset, f->trace,
                                f->bug_file};
    sqlite3_bind_int64(s, 1, cell);
    for (int i = 0; i < 5; i++)
        lab_store_bind_text(s, 2 + i, text[i] && *text[i] ? text[i] : i == 0 ? "" : NULL);
    if (f->bug_line > 0)
        sqlite3_bind_int(s, 7, f->bug_line);
    lab_store_bind_text(s, 8, f->panic && *f->panic ? f->panic : NULL);
    lab_store_bind_text(s, 9, f->phase);
    lab_store_bind_text(s, 10, f->avoid_key);
    int rc = lab_store_step_write(st, s, "store a cell's failure");
    sqlite3_finalize(s);
    lab_store_unlock(st);
    return rc;
}

static const char *col(sqlite3_stmt *s, int i)
{
    return (const char *)sqlite3_column_text(s, i);
}

int lab_store_get_failure(struct lab_store *st, int64_t cell,
                          int (*cb)(const struct lab_cell_failure *, void *), void *ctx)
{
    sqlite3 *db = lab_store_lock(st);
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(db,
                           "SELECT headline, function, offset, trace, bug_file, bug_line, panic, "
                           "phase, avoid_key FROM cell_failures WHERE cell = ?1",
                           -1, &s, NULL) != SQLITE_OK) {
        /* A read-only store of an older lab has no such table: no failure. */
        int missing = strstr(sqlite3_errmsg(db), "no such table") != NULL;
        int rc = missing ? 1 : lab_store_sql_error(st, "read a cell's failure");
        lab_store_unlock(st);
        return rc;
    }
    sqlite3_bind_int64(s, 1, cell);
    int rc = sqlite3_step(s);
    if (rc == SQLITE_ROW) {
        struct lab_cell_failure f = {
            .headline = col(s, 0),
            .function = col(s, 1),
            .offset = col(s, 2),
            .trace = col(s, 3),
            .bug_file = col(s, 4),
            .bug_line = sqlite3_column_int(s, 5),
            .panic = col(s, 6),
            .phase = col(s, 7),
            .avoid_key = col(s, 8),
        };
        rc = cb(&f, ctx);
    } else {
        rc = rc == SQLITE_DONE ? 1 : lab_store_sql_error(st, "read a cell's failure");
    }
    sqlite3_finalize(s);
    lab_store_unlock(st);
    return rc;
}
