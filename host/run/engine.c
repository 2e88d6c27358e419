/* Picking the engine of a run by name: one table. */
#include "host/run/engine.h"
#include "common/msg.h"
#include "common/str.h"

#include <stdlib.h>
#include <string.h>

static const struct lab_engine_kind *const kinds[] = {
    &lab_engine_local_kind,
    &lab_engine_jobs_kind,
    &lab_engine_slurm_kind,
    &lab_engine_ssh_kind,
};

static const struct lab_engine_kind *find_kind(const struct lab_engine_opts *o)
{
    const char *name = o->engine ? o->engine : "local";
    /* --jobs N on this host: each cell a `lab cell` process of its own. */
    if (strcmp(name, "local") == 0 && o->jobs > 1)
        name = "jobs";
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(kinds[i]->name, name) == 0)
            return kinds[i];
    return NULL;
}

int lab_engine_check(const struct lab_engine_opts *o)
{
    if (!find_kind(o))
        return lab_error("unknown engine '%s': local, slurm or ssh", o->engine);
    if (o->engine && strcmp(o->engine, "ssh") == 0 && !o->hosts)
        return lab_error("--engine ssh wants --hosts FILE (GNU parallel's --sshloginfile)");
    if (o->jobs > 1 && o->engine && strcmp(o->engine, "local") != 0)
        return lab_error("--jobs is for the local engine; %s runs cells its own way", o->engine);
    return 0;
}

struct lab_engine *lab_engine_open(const struct lab_engine_opts *o, const struct lab_cell_env *env)
{
    const struct lab_engine_kind *kind = find_kind(o);
    if (!kind) {
        lab_error("unknown engine '%s': local, slurm or ssh", o->engine);
        return NULL;
    }
    struct lab_engine *e = lab_xcalloc(1, sizeof *e);
    *e = (struct lab_engine){.ops = kind->ops, .env = env, .opts = *o};
    if (!e->opts.jobs)
        e->opts.jobs = 1;
    if (kind->open && kind->open(e) < 0) {
        free(e);
        return NULL;
    }
    return e;
}

const struct lab_run_ops *lab_engine_ops(struct lab_engine *e)
{
    return e->ops;
}

void lab_engine_close(struct lab_engine *e)
{
    if (!e)
        return;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (kinds[i]->ops == e->ops && kinds[i]->close)
            kinds[i]->close(e);
    free(e);
}

int lab_engine_execute(const struct lab_engine_opts *o, const struct lab_cell_env *env,
                       struct lab_run *r, const struct lab_run_env *renv,
                       struct lab_run_outcome *out)
{
    struct lab_engine *e = lab_engine_open(o, env);
    if (!e) {
        lab_run_end_unstarted(env->store, env->run_id);
        return -1;
    }
    int rc = lab_run_execute(r, renv, e->ops, e, out);
    lab_engine_close(e);
    return rc;
}
