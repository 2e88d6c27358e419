/* Engines: where and how the planned cells of a run execute (issue 11).
 * Every engine runs cells as jobs into result bundles (host/bundle.h) and
 * the controller imports each bundle as it lands; only the controller
 * writes its store. The local engine runs one cell in this process. */
#ifndef LAB_ENGINE_H
#define LAB_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "host/bundle.h"
#include "host/cell.h"
#include "host/progress.h"

/* Where a job's bundle is written on this host: LOG_DIR/bundles/KEY.ATTEMPT. */
char *lab_engine_bundle_dir(const char *log_dir, const struct lab_cell_job *job, unsigned attempt);

/* The cell's "running" row in the controller's store (replaced by its
 * import): the cell id, or -1. */
int64_t lab_engine_dispatch(const struct lab_cell_env *env, const struct lab_cell_spec *spec,
                            const struct lab_cell_job *job);

/* Imports the bundle in dir into env's run; imported, the bundle is
 * removed (its logs kept in env->log_dir) and res's reason names the kept
 * logs. A refused bundle fails the dispatched row with why (res too). 0, or
 * -1 when nothing was imported. */
int lab_engine_collect(const struct lab_cell_env *env, int64_t dispatched, const char *dir,
                       struct lab_cell_result *res, struct lab_import_result *imp);

/* One planned cell, here and now, the way `lab run` runs every cell:
 * dispatched, run into its bundle (lab_bundle_run, as `lab cell` does),
 * imported. Like lab_cell_run: 0 when the cell is ok, else -1 with res. */
int lab_engine_local_cell(const struct lab_cell_env *env, const struct lab_cell_spec *spec,
                          char *const *sets, size_t nsets, struct lab_progress *progress,
                          struct lab_cell_result *res);

#endif
