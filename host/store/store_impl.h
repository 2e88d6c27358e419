/* For host/store*.c only: the result store's connection and its write rule,
 * for the tables whose queries live beside store.c (store_bisect.c). Their
 * schema is store.c's, under its version and migrations: one connection,
 * one schema. */
#ifndef LAB_STORE_IMPL_H
#define LAB_STORE_IMPL_H

#include <sqlite3.h>

struct lab_store;

/* The store's connection with its (recursive) lock held; every
 * lab_store_lock is paired with one lab_store_unlock. */
sqlite3 *lab_store_lock(struct lab_store *st);
void lab_store_unlock(struct lab_store *st);

/* Steps a write statement as store.c's own writes are stepped: 0, or -1
 * with the message said; a fatal error (a full disk, a read-only file) is
 * kept for lab_store_failure, and later writes fail quietly. */
int lab_store_step_write(struct lab_store *st, sqlite3_stmt *s, const char *what);
/* Binds v as text, or NULL when v is NULL (store.c's own binder). */
void lab_store_bind_text(sqlite3_stmt *s, int i, const char *v);
/* A fresh statement on the store's connection with the lock held, or NULL
 * with the error said and the lock given back. Fresh, so the callbacks of
 * one query may start another. */
sqlite3_stmt *lab_store_prepare(struct lab_store *st, const char *sql);
/* The one step loop of the store's queries: row(s, ctx) for each row of s
 * until one returns non-zero, then s finalized and the lock given back.
 * row's non-zero value, 0 at the end of the rows, or -1 with "what" said
 * when sqlite fails a step. */
int lab_store_rows(struct lab_store *st, sqlite3_stmt *s, int (*row)(sqlite3_stmt *s, void *ctx),
                   void *ctx, const char *what);
/* Says "result store PATH: what: sqlite's message"; returns -1. */
int lab_store_sql_error(struct lab_store *st, const char *what);

#endif
