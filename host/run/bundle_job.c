/* CELL.json: a cell job as JSON (json-c), one table of its fields and its
 * plan, and the job resolved into the lab_cell_spec the cell runs. */
#include "host/run/bundle.h"
#include "host/plan/bus.h"
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
// clang-format off
#define STR(f)  {#f, F_STR, offsetof(struct lab_cell_job, f), sizeof((struct lab_cell_job *)0)->f}
#define NUM(f, t) {#f, t, offsetof(struct lab_cell_job, f), 0}
    STR(key),     NUM(attempt, F_UINT), NUM(run, F_I64),        NUM(index, F_INT),
    STR(kernel),  STR(experiment),      STR(profile),           STR(bus),
    STR(channel), STR(virt_type),       NUM(timeout_s, F_UINT), NUM(boot, F_UINT),
    NUM(rt_priority, F_INT), STR(rt_note), NUM(cpu, F_INT),     STR(cpu_profile),
// clang-format on
#undef STR
#undef NUM
};
#define NFIELDS (sizeof fields / sizeof fields[0])

static void copy_str(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "");
}

void lab_cell_job_from_spec(struct lab_cell_job *job, int64_t run, const struct lab_cell_spec *spec)
{
    const struct lab_experiment *e = spec->exp;
    memset(job, 0, sizeof *job);
    snprintf(job->key, sizeof job->key, "run-%lld-cell-%d", (long long)run, spec->index);
    job->run = run;
    job->index = spec->index;
    copy_str(job->kernel, sizeof job->kernel, spec->kernel->name);
    copy_str(job->experiment, sizeof job->experiment, e->name);
    job->plan_experiment = lab_experiment_format(e);
    if (spec->profile && spec->profile->kind == LAB_PROFILE_MODEL)
        job->plan_profile = lab_read_text(spec->profile->path, 1 << 20, NULL);
    job->plan_text = lab_cell_job_plan_text(spec);
    if (lab_cell_job_plan_hash(spec, job->plan_sha256) < 0)
        job->plan_sha256[0] = '\0'; /* the worker then refuses it: nothing to check against */
    copy_str(job->profile, sizeof job->profile, spec->profile ? spec->profile->name : "fast");
    copy_str(job->bus, sizeof job->bus, spec->bus ? spec->bus->name : NULL);
    copy_str(job->channel, sizeof job->channel, spec->channel);
    copy_str(job->virt_type, sizeof job->virt_type, spec->virt_type);
    job->timeout_s = spec->timeout_s;
    job->boot = spec->boot;
    job->rt_priority = spec->rt_priority;
    copy_str(job->rt_note, sizeof job->rt_note, spec->rt_note);
    copy_str(job->cpu_profile, sizeof job->cpu_profile, spec->cpu ? spec->cpu->name : "fast");
    job->cpu = -1;
}

void lab_cell_job_free(struct lab_cell_job *job)
{
    free(job->plan_experiment);
    free(job->plan_profile);
    free(job->plan_text);
    job->plan_experiment = job->plan_profile = job->plan_text = NULL;
}

/* "plan": the resolved experiment, a model profile's text (or null), the
 * plan as text, and its hash. */
static struct json_object *plan_json(const struct lab_cell_job *job)
{
    struct json_object *p = json_object_new_object();
    json_object_object_add(p, "experiment", json_object_new_string(job->plan_experiment));
    json_object_object_add(p, "profile",
                           job->plan_profile ? json_object_new_string(job->plan_profile) : NULL);
    json_object_object_add(p, "text", json_object_new_string(job->plan_text ? job->plan_text : ""));
    json_object_object_add(p, "sha256", json_object_new_string(job->plan_sha256));
    return p;
}

/* The strings of "plan"; -1 when the experiment or the hash is missing. */
static int read_plan(struct json_object *p, struct lab_cell_job *job)
{
    struct json_object *v;
    if (!json_object_is_type(p, json_type_object))
        return -1;
    if (!json_object_object_get_ex(p, "experiment", &v) ||
        !json_object_is_type(v, json_type_string))
        return -1;
    job->plan_experiment = lab_xstrdup(json_object_get_string(v));
    if (json_object_object_get_ex(p, "profile", &v) && json_object_is_type(v, json_type_string))
        job->plan_profile = lab_xstrdup(json_object_get_string(v));
    if (json_object_object_get_ex(p, "text", &v) && json_object_is_type(v, json_type_string))
        job->plan_text = lab_xstrdup(json_object_get_string(v));
    if (!json_object_object_get_ex(p, "sha256", &v) || !json_object_is_type(v, json_type_string) ||
        json_object_get_string_len(v) != 64)
        return -1;
    copy_str(job->plan_sha256, sizeof job->plan_sha256, json_object_get_string(v));
    return 0;
}

int lab_cell_job_write(const struct lab_cell_job *job, const char *path)
{
    struct json_object *o = json_object_new_object();
    json_object_object_add(o, "format", json_object_new_int(LAB_BUNDLE_FORMAT));
    for (size_t i = 0; i < NFIELDS; i++) {
        const char *p = (const char *)job + fields[i].off;
        struct json_object *v = NULL;
        switch (fields[i].type) {
        case F_STR:
            v = json_object_new_string(p);
            break;
        case F_UINT:
            v = json_object_new_int64(*(const unsigned *)p);
            break;
        case F_INT:
            v = json_object_new_int(*(const int *)p);
            break;
        case F_I64:
            v = json_object_new_int64(*(const int64_t *)p);
            break;
        }
        json_object_object_add(o, fields[i].name, v);
    }
    json_object_object_add(o, "plan", plan_json(job));
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
    struct json_object *o = json_tokener_parse(text), *v;
    free(text);
    int rc = -1;
    if (!o || !json_object_is_type(o, json_type_object)) {
        lab_error("%s: not a JSON object", path);
        goto out;
    }
    if (!json_object_object_get_ex(o, "format", &v) ||
        json_object_get_int(v) != LAB_BUNDLE_FORMAT) {
        lab_error("%s: not a cell job of format %d", path, LAB_BUNDLE_FORMAT);
        goto out;
    }
    for (size_t i = 0; i < NFIELDS; i++)
        if (!json_object_object_get_ex(o, fields[i].name, &v) ||
            read_field(&fields[i], v, job) < 0) {
            lab_error("%s: '%s' is missing or out of range", path, fields[i].name);
            goto out;
        }
    if (!json_object_object_get_ex(o, "plan", &v) || read_plan(v, job) < 0) {
        lab_error("%s: 'plan' is missing or incomplete (its experiment and sha256)", path);
        goto out;
    }
    rc = 0;
out:
    json_object_put(o);
    if (rc < 0)
        lab_cell_job_free(job);
    return rc;
}

/* The job's profile: a model profile from the text it carries, written
 * into dir as KEY.profile (the hdd filter reads it there, and the bundle
 * keeps it); fast and iotune: by name. */
static int resolve_profile(const struct lab_cell_job *job, const char *dir, struct lab_profile *p)
{
    if (!job->plan_profile)
        return lab_profile_resolve(job->profile, p);
    char *path = lab_asprintf("%s/%s.profile", dir, job->key); /* kept with the logs */
    int rc = lab_write_file(path, job->plan_profile, strlen(job->plan_profile));
    if (rc == 0)
        rc = lab_profile_resolve(path, p);
    if (rc == 0)
        snprintf(p->name, sizeof p->name, "%.*s", (int)sizeof p->name - 1, job->profile);
    free(path);
    return rc;
}

/* This host's plan of the spec must be the controller's. */
static int same_plan(const struct lab_cell_job *job, const struct lab_cell_spec *spec, char *why,
                     size_t len)
{
    char here[65];
    if (lab_cell_job_plan_hash(spec, here) == 0 && strcmp(here, job->plan_sha256) == 0)
        return 0;
    /* A cell this host cannot plan at all says why, not just "different". */
    char *text = lab_cell_job_plan_text(spec), *cannot = strstr(text, "cannot plan: ");
    if (cannot) {
        snprintf(why, len, "%.*s", (int)strcspn(cannot, "\n"), cannot);
        free(text);
        return lab_error("cell %s: %s", job->key, why);
    }
    free(text);
    snprintf(why, len,
             "this host plans the cell differently (plan SHA-256 %.12s here, %.12s in the job): "
             "the job was changed, or this host's kernel catalog, era rules or lab differ "
             "from the controller's",
             here, job->plan_sha256);
    return lab_error("cell %s: %s", job->key, why);
}

int lab_cell_job_resolve(const struct lab_cell_job *job, const char *dir, struct lab_job_spec *out,
                         char *why, size_t len)
{
    memset(out, 0, sizeof *out);
    const struct lab_kernel *k = lab_kernel_find(job->kernel);
    if (!k) {
        snprintf(why, len, "unknown kernel '%s' on this host", job->kernel);
        return lab_error("cell %s: %s", job->key, why);
    }
    char *where = lab_asprintf("%s (the job's plan)", job->key);
    int rc = lab_experiment_parse(where, job->plan_experiment, &out->exp);
    free(where);
    if (rc < 0) {
        snprintf(why, len, "this host's lab refuses the planned experiment (lab cell says why)");
        return -1;
    }
    out->exp.name = lab_xstrdup(job->experiment);
    const struct lab_bus *bus = NULL;
    const struct lab_cpu *cpu = NULL;
    if (job->cpu_profile[0] && !(cpu = lab_cpu_resolve(job->cpu_profile))) {
        lab_experiment_free(&out->exp);
        snprintf(why, len, "unknown CPU profile '%s' here", job->cpu_profile);
        return lab_error("cell %s: %s", job->key, why);
    }
    if (resolve_profile(job, dir, &out->profile) < 0 ||
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
        .cpu = cpu,
    };
    if (same_plan(job, &out->spec, why, len) < 0) {
        lab_experiment_free(&out->exp);
        return -1;
    }
    return 0;
}

void lab_job_spec_free(struct lab_job_spec *js)
{
    lab_experiment_free(&js->exp);
}
