/* The result store's bisection tables (`lab bisect`): one row per
 * bisection, its steps (the endpoints first) as each is decided, and each
 * step's cells. They are part of the store's schema (version 3) and go
 * through its connection, lock and failure rule (host/store/store.h): rows are
 * written as they come, so an interrupted bisection keeps its steps. */
#ifndef LAB_STORE_BISECT_H
#define LAB_STORE_BISECT_H

#include <stdint.h>
#include <stdio.h>

#include "host/bisect/bisect.h"

struct lab_store;

/* A new bisection, status "running"; its id, -1 on error. */
int64_t lab_store_bisect_begin(struct lab_store *st, const struct lab_bisect_row *r);
/* status: "found", "ambiguous", "refused", "failed", "interrupted";
 * first_bad and subject NULL unless found. */
int lab_store_bisect_end(struct lab_store *st, int64_t id, const char *status,
                         const char *first_bad, const char *subject, const char *message);
/* One step with its cells, in one transaction. */
int lab_store_bisect_add_step(struct lab_store *st, int64_t id, const struct lab_bisect_step *s);

/* id < 0: the newest. Steps in order (malloc'd array, *nsteps; cells are
 * not read back). 0, 1 if there is no such bisection, -1 on error. */
int lab_store_bisect_load(struct lab_store *st, int64_t id, struct lab_bisect_info *info,
                          struct lab_bisect_step **steps, size_t *nsteps);
/* One line per stored bisection (`lab bisect --list`). */
int lab_store_bisect_list(struct lab_store *st, FILE *out);

#endif
