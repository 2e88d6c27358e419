/* --jobs N on one host (issue 11): each cell a `lab cell` process of its
 * own, into its own bundle, at most N at once, each bundle imported as its
 * process ends. With real-time cells each is pinned to its own core. The
 * driver hands cells over in the plan's interleaved order; run_cell waits
 * for a free job slot, so at most N boot together. */
#include "host/run/engine.h"
#include "common/file.h"
#include "common/interrupt.h"
#include "common/msg.h"
#include "common/str.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

struct job {
    int used;
    pid_t pid;
    size_t index;
    int64_t dispatched;
    char *dir, *log;
};

struct done {
    size_t index;
    struct lab_cell_result res;
};

struct jobs {
    struct job job[LAB_ENGINE_MAX_JOBS];
    struct done done[LAB_RUN_MAX_CELLS]; /* results not collected yet */
    size_t ndone;
    long ncpus;
    int signalled; /* the children were told of a Ctrl-C */
};

static int jobs_open(struct lab_engine *e)
{
    struct jobs *j = lab_xcalloc(1, sizeof *j);
    j->ncpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (j->ncpus < 1)
        j->ncpus = 1;
    if (e->opts.jobs > (unsigned)j->ncpus)
        lab_warn("--jobs %u on %ld CPU(s): cells share cores, so each runs slower than alone",
                 e->opts.jobs, j->ncpus);
    e->priv = j;
    return 0;
}

static void jobs_close(struct lab_engine *e)
{
    free(e->priv);
}

/* The child: `lab cell` on the job, its output in its log, gone with us. */
static void exec_cell(const char *spec, const char *dir, const char *log)
{
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
    }
    char *const argv[] = {"lab", "cell", "--spec", (char *)spec, "--out", (char *)dir, NULL};
    /* By its real path, so the job is named "lab" like its parent (the
     * leak checks know a lab's children by their parent's name). */
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        execv(self, argv);
    }
    execv("/proc/self/exe", argv);
    _exit(127);
}

/* The bundle of a finished job, imported; its result queued for collect. */
static void finish(struct lab_engine *e, struct jobs *j, struct job *jb, int status)
{
    struct done *d = &j->done[j->ndone++];
    struct lab_import_result imp;
    memset(d, 0, sizeof *d);
    d->index = jb->index;
    lab_progress_cell_source(lab_progress_current(), jb->index, NULL);
    int imported = lab_engine_collect(e->env, jb->dispatched, jb->dir, &d->res, &imp) == 0 &&
                   imp.outcome == LAB_IMPORT_DONE;
    if (!imported || d->res.status != LAB_CELL_OK) {
        /* What `lab cell` said is kept with the run's logs. */
        const char *base = strrchr(jb->log, '/') + 1;
        char *kept = lab_keep_copy(jb->log, e->env->log_dir, base);
        size_t len = strlen(d->res.reason);
        if (imp.outcome == LAB_IMPORT_REFUSED)
            snprintf(d->res.reason + len, sizeof d->res.reason - len,
                     " (lab cell %s %d; its output: %s)",
                     WIFSIGNALED(status) ? "killed by signal" : "exited",
                     WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
                     kept ? kept : jb->log);
        free(kept);
    }
    unlink(jb->log);
    lab_engine_spool_tidy();
    free(jb->dir);
    free(jb->log);
    memset(jb, 0, sizeof *jb);
}

/* Reaps the jobs that ended; with block, waits for one. A Ctrl-C is passed
 * on to every child once. The number reaped. */
static int reap(struct lab_engine *e, struct jobs *j, int block)
{
    for (;;) {
        int reaped = 0, running = 0;
        for (unsigned i = 0; i < e->opts.jobs; i++) {
            struct job *jb = &j->job[i];
            int status;
            if (!jb->used)
                continue;
            pid_t got = waitpid(jb->pid, &status, WNOHANG);
            if (got == jb->pid || (got < 0 && errno == ECHILD)) {
                finish(e, j, jb, got == jb->pid ? status : 0);
                reaped++;
            } else {
                running++;
            }
        }
        if (lab_interrupted && !j->signalled) {
            for (unsigned i = 0; i < e->opts.jobs; i++)
                if (j->job[i].used)
                    kill(j->job[i].pid, SIGINT);
            j->signalled = 1;
        }
        if (reaped || !block || !running)
            return reaped;
        usleep(100 * 1000);
    }
}

/* A job slot, once one is free (said as the cell's phase meanwhile). */
static struct job *free_job(struct lab_engine *e, struct jobs *j, size_t index, unsigned *slot)
{
    for (int waited = 0;; waited = 1) {
        for (unsigned i = 0; i < e->opts.jobs; i++)
            if (!j->job[i].used) {
                *slot = i;
                return &j->job[i];
            }
        if (!waited)
            lab_progress_cell_source(lab_progress_current(), index, "queued");
        reap(e, j, 1);
    }
}

static enum lab_run_q jobs_run_cell(void *engine, const struct lab_cell_spec *spec,
                                    struct lab_cell_result *res)
{
    struct lab_engine *e = engine;
    struct jobs *j = e->priv;
    unsigned slot;
    struct job *jb = free_job(e, j, (size_t)spec->index, &slot);
    struct lab_cell_job job;
    lab_cell_job_from_spec(&job, e->env->run_id, spec);
    job.attempt = 1;
    job.cpu = spec->rt_priority ? (int)(slot % (unsigned)j->ncpus) : -1; /* its own core */
    jb->dir = lab_engine_bundle_dir(&job, job.attempt);
    jb->log = lab_asprintf("%s.log", jb->dir);
    jb->index = (size_t)spec->index;
    char *spec_path = lab_asprintf("%s/%s", jb->dir, LAB_BUNDLE_JOB);
    lab_rm_rf(jb->dir);
    jb->dispatched = lab_engine_dispatch(e->env, spec, &job);
    int ok = jb->dispatched > 0 && lab_mkdir_p(jb->dir, 0755) == 0 &&
             lab_cell_job_write(&job, spec_path) == 0;
    lab_cell_job_free(&job);
    jb->pid = ok ? fork() : -1;
    if (jb->pid == 0)
        exec_cell(spec_path, jb->dir, jb->log);
    free(spec_path);
    if (jb->pid < 0) {
        res->status = LAB_CELL_FAILED;
        snprintf(res->reason, sizeof res->reason, "cannot start `lab cell` for it");
        lab_store_cell_end(e->env->store, jb->dispatched, "failed", res->reason);
        free(jb->dir);
        free(jb->log);
        memset(jb, 0, sizeof *jb);
        return LAB_RUN_Q_COMPLETED;
    }
    jb->used = 1;
    char *live = lab_asprintf("%s/%s", jb->dir, LAB_BUNDLE_LIVE_DB);
    lab_progress_cell_source(lab_progress_current(), jb->index, live);
    free(live);
    return LAB_RUN_Q_QUEUED;
}

static int jobs_collect(void *engine, int wait, struct lab_cell_result *res)
{
    struct lab_engine *e = engine;
    struct jobs *j = e->priv;
    if (!j->ndone)
        reap(e, j, wait);
    if (!j->ndone)
        return -1;
    struct done d = j->done[0];
    memmove(&j->done[0], &j->done[1], --j->ndone * sizeof j->done[0]);
    *res = d.res;
    return (int)d.index;
}

static const struct lab_run_ops jobs_ops = {
    .version = LAB_RUN_OPS_VERSION,
    .name = "jobs",
    .run_cell = jobs_run_cell,
    .collect = jobs_collect,
};

const struct lab_engine_kind lab_engine_jobs_kind = {
    .name = "jobs", .ops = &jobs_ops, .open = jobs_open, .close = jobs_close};
