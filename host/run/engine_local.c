/* The local engine, one cell at a time: the one way a planned cell runs in
 * `lab run` (issue 11). The cell is dispatched (a "running" row), run into
 * its bundle by lab_bundle_run, the same code `lab cell` runs, and the
 * bundle imported; its logs land in the run's log directory as before. */
#include "host/run/engine.h"
#include "host/run/bundle.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/paths.h"
#include "common/proc.h"
#include "common/str.h"

#include <dirent.h>
#include <limits.h>
#include <sys/utsname.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *lab_engine_spool(void)
{
    return lab_asprintf("%s/spool/%ld", lab_home(), (long)getpid());
}

char *lab_engine_bundle_dir(const struct lab_cell_job *job, unsigned attempt)
{
    char *spool = lab_engine_spool();
    char *dir = lab_asprintf("%s/%s.%u", spool, job->key, attempt);
    free(spool);
    return dir;
}

static void this_host(char *out, size_t len)
{
    struct utsname u;
    snprintf(out, len, "%s", uname(&u) == 0 ? u.nodename : "unknown");
}

int lab_engine_spool_claim(const struct lab_cell_env *env)
{
    char *spool = lab_engine_spool(), *path = lab_asprintf("%s/%s", spool, LAB_SPOOL_OWNER);
    int rc = 0;
    if (!lab_file_exists(path)) {
        char host[256];
        char *store = env->store ? realpath(lab_store_file(env->store), NULL) : NULL;
        this_host(host, sizeof host);
        char *text = lab_asprintf("host=%s\npid=%ld\nstart=%llu\nstore=%s\n", host, (long)getpid(),
                                  (unsigned long long)lab_proc_start(getpid()), store ? store : "");
        rc = lab_mkdir_p(spool, 0755) == 0 ? lab_write_file(path, text, strlen(text)) : -1;
        free(text);
        free(store);
    }
    free(path);
    free(spool);
    return rc;
}

int lab_engine_spool_owner(const char *spool, struct lab_spool_owner *o)
{
    char *path = lab_asprintf("%s/%s", spool, LAB_SPOOL_OWNER);
    char *text = lab_read_text(path, 1 << 14, NULL);
    free(path);
    memset(o, 0, sizeof *o);
    if (!text)
        return -1;
    for (char *save, *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        char *v = strchr(line, '=');
        if (!v)
            continue;
        *v++ = '\0';
        if (strcmp(line, "host") == 0)
            snprintf(o->host, sizeof o->host, "%s", v);
        else if (strcmp(line, "pid") == 0)
            o->pid = strtol(v, NULL, 10);
        else if (strcmp(line, "start") == 0)
            o->start = strtoull(v, NULL, 10);
        else if (strcmp(line, "store") == 0)
            snprintf(o->store, sizeof o->store, "%s", v);
    }
    free(text);
    return o->pid > 0 ? 0 : -1;
}

void lab_engine_spool_tidy(void)
{
    char *spool = lab_engine_spool(), *owner = lab_asprintf("%s/%s", spool, LAB_SPOOL_OWNER);
    DIR *d = opendir(spool);
    struct dirent *e;
    int others = 0;
    while (d && (e = readdir(d)))
        others +=
            strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, LAB_SPOOL_OWNER);
    if (d)
        closedir(d);
    if (d && !others) {
        unlink(owner);
        rmdir(spool);
    }
    free(owner);
    free(spool);
}

int64_t lab_engine_dispatch(const struct lab_cell_env *env, const struct lab_cell_spec *spec,
                            const struct lab_cell_job *job)
{
    lab_engine_spool_claim(env);
    char *params = lab_experiment_cmdline(spec->exp);
    int64_t cell = lab_store_cell_dispatch(env->store, env->run_id, job->key, spec->kernel->name,
                                           spec->exp->name, params);
    free(params);
    if (cell > 0 && job->plan_sha256[0]) /* what its bundle's manifest must say it ran */
        lab_store_cell_set(env->store, cell, LAB_PLAN_FACT, job->plan_sha256);
    return cell;
}

void lab_engine_result_of(const struct lab_bundle_manifest *m, struct lab_cell_result *res)
{
    static const struct {
        const char *name;
        enum lab_cell_status status;
    } statuses[] = {{"ok", LAB_CELL_OK}, {"interrupted", LAB_CELL_INTERRUPTED}};
    res->status = LAB_CELL_FAILED;
    for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++)
        if (strcmp(m->status, statuses[i].name) == 0)
            res->status = statuses[i].status;
    snprintf(res->reason, sizeof res->reason, "%s", m->reason);
    res->samples = m->samples;
    res->flagged = m->flagged;
    res->hello_ns = m->hello_ns;
    res->total_ns = m->total_ns;
}

/* The reason named the bundle's files: name the kept copies. */
static void repoint(char *reason, size_t size, const char *from, const char *to)
{
    char *p = from[0] ? strstr(reason, from) : NULL;
    if (!p)
        return;
    char tail[1024];
    snprintf(tail, sizeof tail, "%s%s", to, p + strlen(from));
    snprintf(p, size - (size_t)(p - reason), "%s", tail);
}

int lab_engine_collect(const struct lab_cell_env *env, int64_t dispatched, const char *dir,
                       struct lab_cell_result *res, struct lab_import_result *imp)
{
    char plan[72];
    const char *planned =
        lab_store_cell_get(env->store, dispatched, LAB_PLAN_FACT, plan, sizeof plan);
    int rc = lab_bundle_import(env->store, env->run_id, env->log_dir, dir, planned, imp);
    if (rc == 0 && imp->outcome == LAB_IMPORT_DONE) {
        lab_engine_result_of(&imp->m, res);
        repoint(res->reason, sizeof res->reason, imp->m.dir, env->log_dir);
        lab_rm_rf(dir); /* its logs are kept in the run's log directory */
        lab_engine_spool_tidy();
        return 0;
    }
    if (rc == 0) /* stored before: its result is the one on record */
        lab_engine_result_of(&imp->m, res);
    if (rc < 0 && imp->outcome != LAB_IMPORT_REFUSED) {
        /* Measured, but not stored: a failure, never an ok cell. The bundle
         * stays in the spool for `lab import` once the store can take it. */
        const char *why = lab_store_failure(env->store);
        res->status = LAB_CELL_FAILED;
        snprintf(res->reason, sizeof res->reason,
                 "its result could not be stored (%.700s); the bundle is kept in %.200s",
                 why ? why : "see above", dir);
        return rc;
    }
    if (imp->outcome == LAB_IMPORT_REFUSED) {
        res->status = LAB_CELL_FAILED;
        snprintf(res->reason, sizeof res->reason, "its result bundle was refused: %.900s",
                 imp->why);
        lab_store_cell_end(env->store, dispatched, "failed", res->reason);
    }
    return rc;
}

int lab_engine_local_cell(const struct lab_cell_env *env, const struct lab_cell_spec *spec,
                          struct lab_cell_result *res)
{
    struct lab_cell_job job;
    struct lab_import_result imp;
    lab_cell_job_from_spec(&job, env->run_id, spec);
    job.attempt = 1;
    char *dir = lab_engine_bundle_dir(&job, job.attempt);
    int64_t dispatched = lab_engine_dispatch(env, spec, &job);
    lab_rm_rf(dir);
    char *live = lab_asprintf("%s/%s", dir, LAB_BUNDLE_LIVE_DB);
    lab_progress_cell_source(lab_progress_current(), (size_t)spec->index, live);
    int rc = -1;
    if (dispatched > 0 && lab_bundle_run(&job, dir, res) == 0)
        rc = lab_engine_collect(env, dispatched, dir, res, &imp);
    else if (dispatched > 0)
        lab_store_cell_end(env->store, dispatched, "failed", "its result bundle was not written");
    lab_progress_cell_source(lab_progress_current(), (size_t)spec->index, NULL);
    free(live);
    free(dir);
    lab_cell_job_free(&job);
    return rc < 0 || res->status != LAB_CELL_OK ? -1 : 0;
}

static enum lab_run_q local_run_cell(void *engine, const struct lab_cell_spec *spec,
                                     struct lab_cell_result *res)
{
    struct lab_engine *e = engine;
    lab_engine_local_cell(e->env, spec, res);
    return LAB_RUN_Q_COMPLETED;
}

static const struct lab_run_ops local_ops = {
    .version = LAB_RUN_OPS_VERSION,
    .name = "local",
    .run_cell = local_run_cell,
};

const struct lab_engine_kind lab_engine_local_kind = {.name = "local", .ops = &local_ops};
