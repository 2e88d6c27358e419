/* Running a cell job into a bundle: the cell runs exactly as in `lab run`
 * (host/cell/cell.c) against a private store in the bundle, which is sealed
 * into one file before the manifest is written. */
#include "host/run/bundle.h"
#include "host/cell/accel.h"
#include "host/cell/vm.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned attempt_of(const struct lab_cell_job *job)
{
    const char *requeued = getenv("SLURM_RESTART_COUNT"); /* Slurm's requeues */
    if (job->attempt)
        return job->attempt;
    return requeued && *requeued ? 1 + (unsigned)strtoul(requeued, NULL, 10) : 1;
}

static int set_host_fact(const struct lab_cell_info *ci, void *arg)
{
    struct lab_store *st = arg;
    lab_store_cell_set(st, ci->id, "host", lab_bundle_host());
    return 0;
}

/* A job that cannot start here: its bundle holds one failed cell with
 * why, so the controller stores the reason, not a partial bundle. */
static void cannot_start(const struct lab_cell_job *job, const char *why, struct lab_store *st,
                         struct lab_cell_result *res)
{
    const char *exp = job->experiment;
    char *cmd = lab_asprintf("lab cell %s (attempt %u)", job->key, attempt_of(job));
    int64_t run = lab_store_run_begin(st, cmd, exp, job->profile);
    free(cmd);
    res->status = LAB_CELL_FAILED;
    snprintf(res->reason, sizeof res->reason, "cannot start on %s: %.900s", lab_bundle_host(), why);
    int64_t cell = lab_store_cell_begin(st, run, job->kernel, exp, NULL);
    lab_store_cell_end(st, cell, "failed", res->reason);
    lab_store_cell_set(st, cell, "host", lab_bundle_host());
    lab_store_run_end(st, run, "failed");
}

/* The cell itself: its store, libvirt, the run. */
static void run_cell(const struct lab_cell_job *job, struct lab_job_spec *js, const char *dir,
                     struct lab_store *st, struct lab_cell_result *res)
{
    char *cmd = lab_asprintf("lab cell %s (attempt %u)", job->key, attempt_of(job));
    int64_t run = lab_store_run_begin(st, cmd, js->exp.name, js->profile.name);
    free(cmd);
    virConnectPtr conn = run > 0 ? lab_vm_connect() : NULL;
    if (!conn) {
        res->status = LAB_CELL_FAILED;
        snprintf(res->reason, sizeof res->reason, "%s on %s",
                 run > 0 ? "cannot connect to libvirt" : "cannot record the cell",
                 lab_bundle_host());
        if (run > 0) {
            int64_t cell = lab_store_cell_begin(st, run, job->kernel, js->exp.name, NULL);
            lab_store_cell_end(st, cell, "failed", res->reason);
        }
    } else {
        lab_vm_sweep_stale(conn);
        struct lab_cell_env env = {.conn = conn, .store = st, .run_id = run, .log_dir = dir};
        /* "auto": the controller left the accelerator to this host's own
         * probe (its verdict cached per host kernel, host/cell/accel.h). */
        if (strcmp(js->spec.virt_type, "auto") == 0)
            js->spec.virt_type = lab_accel_choose("auto", &env, &js->spec);
        if (js->spec.virt_type) {
            lab_cell_run(&env, &js->spec, res);
        } else {
            res->status = LAB_CELL_FAILED;
            snprintf(res->reason, sizeof res->reason, "no accelerator on %s", lab_bundle_host());
            int64_t cell = lab_store_cell_begin(st, run, job->kernel, js->exp.name, NULL);
            lab_store_cell_end(st, cell, "failed", res->reason);
        }
        virConnectClose(conn);
    }
    lab_store_foreach_cell(st, run, set_host_fact, st);
    lab_store_run_end(st, run, lab_cell_status_name(res->status));
}

static void fill_manifest(struct lab_bundle_manifest *m, const struct lab_cell_job *job,
                          const char *dir, const struct lab_cell_result *res, int resolved)
{
    memset(m, 0, sizeof *m);
    snprintf(m->key, sizeof m->key, "%s", job->key);
    snprintf(m->host, sizeof m->host, "%s", lab_bundle_host());
    snprintf(m->status, sizeof m->status, "%s", lab_cell_status_name(res->status));
    snprintf(m->kernel, sizeof m->kernel, "%s", job->kernel);
    snprintf(m->reason, sizeof m->reason, "%s", res->status == LAB_CELL_OK ? "" : res->reason);
    snprintf(m->dir, sizeof m->dir, "%s", dir);
    if (resolved) /* it planned the job's plan: the hashes matched */
        snprintf(m->plan, sizeof m->plan, "%s", job->plan_sha256);
    m->attempt = attempt_of(job);
    m->run = job->run;
    m->index = job->index;
    m->samples = res->samples;
    m->flagged = res->flagged;
    m->hello_ns = res->hello_ns;
    m->total_ns = res->total_ns;
}

int lab_bundle_run(const struct lab_cell_job *job, const char *dir, struct lab_cell_result *res)
{
    memset(res, 0, sizeof *res);
    char *manifest = lab_asprintf("%s/%s", dir, LAB_BUNDLE_MANIFEST);
    char *live = lab_asprintf("%s/%s", dir, LAB_BUNDLE_LIVE_DB);
    char *sealed = lab_asprintf("%s/%s", dir, LAB_BUNDLE_DB);
    struct lab_job_spec js;
    struct lab_store *st = NULL;
    int rc = -1;
    if (lab_file_exists(manifest)) {
        lab_error("%s is a finished bundle already (it has a %s)", dir, LAB_BUNDLE_MANIFEST);
        goto out;
    }
    if (lab_mkdir_p(dir, 0755) < 0)
        goto out;
    char why[512];
    int resolved = lab_cell_job_resolve(job, dir, &js, why, sizeof why) == 0;
    /* QEMU and nbdkit on the job's core; the reader (above normal threads)
     * is left free to stamp records from any core. */
    js.spec.pin_cpu = resolved && job->cpu >= 0 ? (unsigned)job->cpu + 1 : 0;
    char note[sizeof job->rt_note + 64];
    if (js.spec.pin_cpu && js.spec.rt_note) { /* the "rt" fact says so */
        snprintf(note, sizeof note, "%s; pinned to CPU %d, reader above the vCPU", js.spec.rt_note,
                 job->cpu);
        js.spec.rt_note = note;
    }
    unlink(sealed);
    if (lab_store_open(live, &st) == 0) {
        if (resolved)
            run_cell(job, &js, dir, st, res);
        else
            cannot_start(job, why, st, res);
        rc = lab_store_seal(st, sealed);
        lab_store_close(st);
    }
    if (resolved)
        lab_job_spec_free(&js);
    static const char *const live_files[] = {"", "-wal", "-shm"};
    for (size_t i = 0; i < sizeof live_files / sizeof live_files[0]; i++) {
        char *p = lab_asprintf("%s%s", live, live_files[i]);
        unlink(p);
        free(p);
    }
    struct lab_bundle_manifest m;
    fill_manifest(&m, job, dir, res, resolved);
    if (rc == 0)
        rc = lab_bundle_write_manifest(dir, &m);
out:
    free(manifest);
    free(live);
    free(sealed);
    return rc;
}
