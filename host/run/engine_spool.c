/* The controller's side of engines that retry a cell elsewhere (Slurm's
 * requeue, GNU parallel's --retries): every attempt writes its bundle into
 * SPOOL/KEY/aN. An ok bundle is imported as soon as it lands; a complete
 * but failed or interrupted one is held until the engine says the task is
 * over (another attempt may still come); a partial one (no manifest) is
 * refused. A cell is stored once: the first ok attempt, else the last
 * held one. */
#include "host/run/engine.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/str.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The attempt numbers under c->dir (aN), as a bit set up to 63. */
static uint64_t attempts(const struct lab_spool_cell *c)
{
    uint64_t set = 0;
    DIR *d = opendir(c->dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (e->d_name[0] == 'a' && strtoul(e->d_name + 1, NULL, 10) - 1 < 63)
            set |= 1ULL << (strtoul(e->d_name + 1, NULL, 10) - 1);
    if (d)
        closedir(d);
    return set;
}

static int try_attempt(const struct lab_cell_env *env, struct lab_spool_cell *c, unsigned a,
                       struct lab_cell_result *res)
{
    char *dir = lab_asprintf("%s/a%u", c->dir, a),
         *manifest = lab_asprintf("%s/%s", dir, LAB_BUNDLE_MANIFEST);
    struct lab_bundle_manifest m;
    char why[1024];
    int got = 0;
    if (!lab_file_exists(manifest)) {
        if (a < c->newest && !(c->said & (1ULL << (a - 1)))) { /* a later attempt runs */
            lab_warn("bundle %s/a%u refused: partial (no %s): the cell did not finish there; "
                     "attempt %u runs",
                     c->dir, a, LAB_BUNDLE_MANIFEST, c->newest);
            c->said |= 1ULL << (a - 1);
        }
    } else if (!(c->seen & (1ULL << (a - 1)))) {
        c->seen |= 1ULL << (a - 1);
        if (lab_bundle_verify(dir, &m, why, sizeof why) < 0) {
            lab_error("bundle %s refused: %s; nothing imported", dir, why);
        } else if (strcmp(m.status, "ok") == 0) {
            struct lab_import_result imp;
            got = lab_engine_collect(env, c->dispatched, dir, res, &imp) == 0 &&
                  imp.outcome == LAB_IMPORT_DONE;
            if (got)
                c->cell = imp.cell;
            if (got && c->held[0])
                lab_warn("bundle %s refused: that attempt %s; attempt %u on %s is stored", c->held,
                         c->held_why, m.attempt, m.host);
        } else {
            snprintf(c->held, sizeof c->held, "%s", dir); /* unless another attempt succeeds */
            snprintf(c->held_why, sizeof c->held_why, "on %.60s %.20s: %.200s", m.host, m.status,
                     m.reason);
        }
    }
    free(dir);
    free(manifest);
    return got;
}

int lab_spool_scan(const struct lab_cell_env *env, struct lab_spool_cell *c,
                   struct lab_cell_result *res)
{
    if (c->done)
        return 0;
    uint64_t set = attempts(c);
    for (unsigned a = 1; a <= 63; a++)
        if (set & (1ULL << (a - 1)))
            c->newest = a;
    for (unsigned a = 1; a <= c->newest; a++)
        if ((set & (1ULL << (a - 1))) && try_attempt(env, c, a, res)) {
            c->done = 1;
            return 1;
        }
    return 0;
}

void lab_spool_give_up(const struct lab_cell_env *env, struct lab_spool_cell *c, const char *why,
                       struct lab_cell_result *res)
{
    struct lab_import_result imp;
    c->done = 1;
    memset(res, 0, sizeof *res);
    if (c->held[0] && lab_engine_collect(env, c->dispatched, c->held, res, &imp) == 0 &&
        imp.outcome == LAB_IMPORT_DONE) {
        c->cell = imp.cell;
        return; /* its last attempt's failure is on record */
    }
    c->cell = c->dispatched;
    res->status = LAB_CELL_FAILED;
    snprintf(res->reason, sizeof res->reason, "%.900s; no attempt left a complete bundle", why);
    lab_store_cell_end(env->store, c->dispatched, "failed", res->reason);
}

int lab_spool_queue(struct lab_engine *e, const char *spool, const struct lab_cell_spec *spec,
                    struct lab_spool_cell *c, struct lab_cell_result *res)
{
    struct lab_cell_job job;
    lab_cell_job_from_spec(&job, e->env->run_id, spec);
    memset(c, 0, sizeof *c);
    c->index = (size_t)spec->index;
    snprintf(c->key, sizeof c->key, "%s", job.key);
    snprintf(c->dir, sizeof c->dir, "%s/%s", spool, job.key);
    char *path = lab_asprintf("%s/%s", c->dir, LAB_BUNDLE_JOB);
    c->dispatched = lab_engine_dispatch(e->env, spec, &job);
    int ok =
        c->dispatched > 0 && lab_mkdir_p(c->dir, 0755) == 0 && lab_cell_job_write(&job, path) == 0;
    lab_cell_job_free(&job);
    free(path);
    if (!ok) {
        res->status = LAB_CELL_FAILED;
        snprintf(res->reason, sizeof res->reason, "cannot write its cell job in %.900s", c->dir);
        lab_store_cell_end(e->env->store, c->dispatched, "failed", res->reason);
        return -1;
    }
    return 0;
}

char *lab_engine_spool_make(char *lab, size_t len, const char *what)
{
    ssize_t n = readlink("/proc/self/exe", lab, len - 1);
    lab[n > 0 ? n : 0] = '\0';
    char *spool = lab_engine_spool();
    if (lab_mkdir_p(spool, 0755) < 0) {
        lab_error("%s: cannot make the spool %s", what, spool);
        free(spool);
        return NULL;
    }
    return spool;
}

int lab_spool_cells_open(struct lab_spool_cells *q, const char *engine)
{
    q->spool = lab_engine_spool_make(q->lab, sizeof q->lab, engine);
    return q->spool ? 0 : -1;
}

void lab_spool_cells_close(struct lab_spool_cells *q)
{
    if (!lab_spool_cells_outstanding(q))
        lab_rm_rf(q->spool); /* every bundle imported or given up on */
    free(q->spool);
    q->spool = NULL;
}

enum lab_run_q lab_spool_cells_add(struct lab_engine *e, struct lab_spool_cells *q,
                                   const struct lab_cell_spec *spec, struct lab_cell_result *res)
{
    if (lab_spool_queue(e, q->spool, spec, &q->cells[q->ncells], res) < 0)
        return LAB_RUN_Q_COMPLETED;
    q->ncells++;
    return LAB_RUN_Q_QUEUED;
}

int lab_spool_cells_outstanding(const struct lab_spool_cells *q)
{
    for (size_t i = 0; i < q->ncells; i++)
        if (!q->cells[i].done)
            return 1;
    return 0;
}

int lab_spool_cells_refuse(const struct lab_cell_env *env, struct lab_spool_cells *q,
                           const char *why, struct lab_cell_result *res)
{
    struct lab_spool_cell *c = &q->cells[q->submitted];
    q->submitted = q->ncells;
    lab_spool_give_up(env, c, why, res);
    return (int)c->index;
}
