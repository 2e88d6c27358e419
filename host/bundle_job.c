/* CELL.json: a cell job as JSON (json-c), one table of its fields, and
 * the job resolved into the lab_cell_spec the cell runs. */
#include "host/bundle.h"
#include "host/bus.h"
#include "kernels/catalog.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/str.h"

#include <json-c/json.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum field_type { F_STR, F_UINT, F_INT, F_I64 };

static const struct field {
    const char *name;
    enum field_type type;
    size_t off, size; /* size: a string's buffer */
} fields[] = {
#define STR(f)  {#f, F_STR, offsetof(struct lab_cell_job, f), sizeof((struct lab_cell_job *)0)->f}
#define NUM(f, t) {#f, t, offsetof(struct lab_cell_job, f), 0}
    STR(key),       NUM(attempt, F_UINT), NUM(run, F_I64),       NUM(index, F_INT),
    STR(kernel),    STR(experiment),      NUM(reps, F_UINT),     STR(load),
    STR(scheduler), STR(profile),         STR(bus),              STR(channel),
    STR(virt_type), NUM(timeout_s, F_UINT), NUM(boot, F_UINT),   NUM(rt_priority, F_INT),
    STR(rt_note),   NUM(cpu, F_INT),
#undef STR
#undef NUM
};
#define NFIELDS (sizeof fields / sizeof fields[0])

static void copy_str(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "");
}

void lab_cell_job_from_spec(struct lab_cell_job *job, int64_t run, const struct lab_cell_spec *spec,
                            char *const *sets, size_t nsets)
{
    const struct lab_experiment *e = spec->exp;
    memset(job, 0, sizeof *job);
    snprintf(job->key, sizeof job->key, "run-%lld-cell-%d", (long long)run, spec->index);
    job->run = run;
    job->index = spec->index;
    copy_str(job->kernel, sizeof job->kernel, spec->kernel->name);
    copy_str(job->experiment, sizeof job->experiment, e->path);
    for (size_t i = 0; i < nsets && i < LAB_JOB_MAX_SETS; i++)
        job->sets[job->nsets++] = lab_xstrdup(sets[i]);
    job->reps = e->reps;
    if (e->load_list)
        copy_str(job->load, sizeof job->load, e->load);
    if (e->scheduler_list)
        copy_str(job->scheduler, sizeof job->scheduler, e->scheduler ? e->scheduler : "default");
    copy_str(job->profile, sizeof job->profile, spec->profile ? spec->profile->name : "fast");
    copy_str(job->bus, sizeof job->bus, spec->bus ? spec->bus->name : NULL);
    copy_str(job->channel, sizeof job->channel, spec->channel);
    copy_str(job->virt_type, sizeof job->virt_type, spec->virt_type);
    job->timeout_s = spec->timeout_s;
    job->boot = spec->boot;
    job->rt_priority = spec->rt_priority;
    copy_str(job->rt_note, sizeof job->rt_note, spec->rt_note);
    job->cpu = -1;
}

void lab_cell_job_free(struct lab_cell_job *job)
{
    for (size_t i = 0; i < job->nsets; i++)
        free(job->sets[i]);
    job->nsets = 0;
}

int lab_cell_job_write(const struct lab_cell_job *job, const char *path)
{
    struct json_object *o = json_object_new_object(), *sets = json_object_new_array();
    json_object_object_add(o, "format", json_object_new_int(LAB_BUNDLE_FORMAT));
    for (size_t i = 0; i < NFIELDS; i++) {
        const char *p = (const char *)job + fields[i].off;
        struct json_object *v = NULL;
        switch (fields[i].type) {
        case F_STR: v = json_object_new_string(p); break;
        case F_UINT: v = json_object_new_int64(*(const unsigned *)p); break;
        case F_INT: v = json_object_new_int(*(const int *)p); break;
        case F_I64: v = json_object_new_int64(*(const int64_t *)p); break;
        }
        json_object_object_add(o, fields[i].name, v);
    }
    for (size_t i = 0; i < job->nsets; i++)
        json_object_array_add(sets, json_object_new_string(job->sets[i]));
    json_object_object_add(o, "sets", sets);
    const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY);
    int rc = lab_write_file(path, text, strlen(text));
    json_object_put(o);
    return rc < 0 ? lab_error("cannot write the cell job %s", path) : 0;
}

static int read_field(const struct field *f, struct json_object *v, struct lab_cell_job *job)
{
    char *p = (char *)job + f->off;
    if (f->type == F_STR) {
        if (!json_object_is_type(v, json_type_string) ||
            (size_t)json_object_get_string_len(v) >= f->size)
            return -1;
        copy_str(p, f->size, json_object_get_string(v));
        return 0;
    }
    if (!json_object_is_type(v, json_type_int))
        return -1;
    int64_t n = json_object_get_int64(v);
    if (f->type == F_UINT && (n < 0 || n > 0xffffffffLL))
        return -1;
    if (f->type == F_INT && (n < -1000000 || n > 1000000))
        return -1;
    if (f->type == F_UINT)
        *(unsigned *)p = (unsigned)n;
    else if (f->type == F_INT)
        *(int *)p = (int)n;
    else
        *(int64_t *)p = n;
    return 0;
}

int lab_cell_job_read(const char *path, struct lab_cell_job *job)
{
    memset(job, 0, sizeof *job);
    char *text = lab_read_text(path, 1 << 20, NULL);
    if (!text)
        return lab_error("cannot read the cell job %s", path);
    struct json_object *o = json_tokener_parse(text), *v, *sets;
    free(text);
    int rc = -1;
    if (!o || !json_object_is_type(o, json_type_object)) {
        lab_error("%s: not a JSON object", path);
        goto out;
    }
    if (!json_object_object_get_ex(o, "format", &v) || json_object_get_int(v) != LAB_BUNDLE_FORMAT) {
        lab_error("%s: not a cell job of format %d", path, LAB_BUNDLE_FORMAT);
        goto out;
    }
    for (size_t i = 0; i < NFIELDS; i++)
        if (!json_object_object_get_ex(o, fields[i].name, &v) || read_field(&fields[i], v, job) < 0) {
            lab_error("%s: '%s' is missing or out of range", path, fields[i].name);
            goto out;
        }
    if (json_object_object_get_ex(o, "sets", &sets) && json_object_is_type(sets, json_type_array))
        for (size_t i = 0; i < json_object_array_length(sets) && i < LAB_JOB_MAX_SETS; i++)
            job->sets[job->nsets++] =
                lab_xstrdup(json_object_get_string(json_object_array_get_idx(sets, i)));
    rc = 0;
out:
    json_object_put(o);
    if (rc < 0)
        lab_cell_job_free(job);
    return rc;
}

/* A variant's value replaces the file's (owned by the experiment). */
static void set_owned(char **field, const char *value)
{
    free(*field);
    *field = value ? lab_xstrdup(value) : NULL;
}

int lab_cell_job_resolve(const struct lab_cell_job *job, struct lab_job_spec *out, char *why,
                         size_t len)
{
    memset(out, 0, sizeof *out);
    const struct lab_kernel *k = lab_kernel_find(job->kernel);
    if (!k) {
        snprintf(why, len, "unknown kernel '%s' on this host", job->kernel);
        return lab_error("cell %s: %s", job->key, why);
    }
    if (lab_experiment_prepare(job->experiment, job->sets, job->nsets, &out->exp) < 0) {
        snprintf(why, len, "cannot load the experiment %s here (lab cell says why)",
                 job->experiment);
        return -1;
    }
    if (job->reps)
        out->exp.reps = job->reps;
    if (job->load[0])
        set_owned(&out->exp.load, job->load);
    if (job->scheduler[0])
        set_owned(&out->exp.scheduler,
                  strcmp(job->scheduler, "default") == 0 ? NULL : job->scheduler);
    const struct lab_bus *bus = NULL;
    if (lab_profile_resolve(job->profile, &out->profile) < 0 ||
        (job->bus[0] && !(bus = lab_bus_find(job->bus)))) {
        lab_experiment_free(&out->exp);
        snprintf(why, len, "cannot resolve profile '%s' or bus '%s' here", job->profile, job->bus);
        return lab_error("cell %s: %s", job->key, why);
    }
    out->spec = (struct lab_cell_spec){
        .index = job->index,
        .kernel = k,
        .exp = &out->exp,
        .profile = &out->profile,
        .bus = bus,
        .channel = job->channel[0] ? job->channel : NULL,
        .virt_type = job->virt_type,
        .timeout_s = job->timeout_s,
        .rt_priority = job->rt_priority,
        .boot = job->boot,
        .rt_note = job->rt_note[0] ? job->rt_note : NULL,
    };
    return 0;
}

void lab_job_spec_free(struct lab_job_spec *js)
{
    lab_experiment_free(&js->exp);
}
