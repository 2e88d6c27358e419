/* Live progress of a run. On a terminal: one status line, redrawn in
 * place: cell i/n, kernel, phase (fetch, image, boot, run k/m, teardown),
 * the cell's and the run's elapsed time, and an ETA from the durations of
 * like cells stored before. Elsewhere (a CI log, a file): plain lines, one
 * per phase change, with no control characters.
 *
 * The phase is read from the store (a ticker thread polls the cell's row,
 * facts and samples), so the cell code needs no hooks: the cell row
 * without a bus fact is fetch or image, with it boot, with the agent's
 * boot time run k/m, with every sample teardown. */
#ifndef LAB_PROGRESS_H
#define LAB_PROGRESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kernels/catalog.h"
#include "host/store/store.h"

struct lab_progress;

/* out: normally stderr. $LAB_PROGRESS = tty or plain overrides the
 * terminal test (isatty and TERM not "dumb"); off: no status at all, only
 * the run's own lines (and no ticker thread). */
struct lab_progress *lab_progress_start(FILE *out, struct lab_store *st, int64_t run,
                                        size_t ncells);

/* What cell `index` will run, before the run starts: its ETA (kernel
 * NULL: a skipped cell, which takes no time). */
void lab_progress_plan(struct lab_progress *p, size_t index, const char *kernel, const char *params,
                       const char *profile);
/* Cell `index` starts now; runs = samples it will send (warm-ups
 * included). Several cells may run at once (--jobs): the line shows each. */
void lab_progress_cell(struct lab_progress *p, size_t index, const struct lab_kernel *k,
                       const char *what, unsigned runs);
/* Running cell `index` writes its own store (a result bundle's live store,
 * host/run/bundle.h) at store_path: its phase is read there. NULL: the run's;
 * a word without a '/' is the phase itself ("queued": waiting for a job
 * slot). p NULL is fine. */
void lab_progress_cell_source(struct lab_progress *p, size_t index, const char *store_path);
/* Cell `index` ended (its status line is replaced by the caller's message). */
void lab_progress_cell_end(struct lab_progress *p, size_t index);
/* The progress of the run executing now (engines tell it where a cell's
 * store is), or NULL. */
struct lab_progress *lab_progress_current(void);

/* A line of the run's log: on a terminal the status line is cleared
 * first and redrawn after. */
void lab_progress_printf(struct lab_progress *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

void lab_progress_stop(struct lab_progress *p); /* NULL is fine */

/* "1:05", "12:03:07"; "?" for a negative (unknown) time. */
void lab_progress_clock(char *buf, size_t len, int64_t ns);

#endif
