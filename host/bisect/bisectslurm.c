/* The bisection's ops on Slurm; see bisectslurm.h. The driver asks for a
 * build, then (queue) for the boots it is sure to measure, then waits on
 * each (measure): a build is one job, each boot a `lab cell` job queued
 * behind it with afterok, so a step's boots wait for its build in Slurm,
 * not here. Each boot is a cell of the bisection's run, dispatched and
 * imported as engine_spool.c does for `lab run --engine slurm`. */
#include "host/bisect/bisectslurm.h"
#include "host/run/engine.h"
#include "host/run/slurm.h"
#include "host/store/store.h"
#include "common/file.h"
#include "common/hash.h"
#include "common/interrupt.h"
#include "common/msg.h"
#include "common/str.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define POLL_US    500000
#define GONE_POLLS 3   /* polls a job may be missing from squeue before it counts as ended */
#define MAX_BUILDS 64  /* commits of one bisection: the endpoints and log2 of the range, skips */
#define MAX_BOOTS  256 /* every boot of them, re-measured endpoints included */

enum build_state { BUILD_QUEUED, BUILD_OK, BUILD_FAILED };

struct build {
    char commit[41], kernel[128];
    char dir[PATH_MAX]; /* SPOOL/build-COMMIT12: its script, output and exit code */
    char job[LAB_SLURM_JOB_ID];
    enum build_state state;
    int gone;
    char why[700]; /* BUILD_FAILED: why, naming its kept output */
};

struct boot {
    struct lab_spool_cell c; /* its attempts' bundles, SPOOL/KEY/aN */
    struct build *build;
    unsigned reps;
    int taken; /* measure asked for it, or it is no longer wanted */
    struct lab_cell_result res;
};

struct lab_bisect_slurm {
    struct lab_bisect_cells *c;
    const char *partition;
    char feature[128]; /* the node class of every job */
    char lab[PATH_MAX];
    char *spool;
    const char *virt_type; /* the cells' accelerator: "auto" is decided on the node */
    struct lab_engine eng; /* what lab_spool_queue needs: the run, the --sets */
    struct build builds[MAX_BUILDS];
    size_t nbuilds;
    struct boot *boots;
    size_t nboots;
    int cancelled;
};

/* --accel as a cell job's virt_type. */
static const char *virt_type_of(const char *accel)
{
    static const char *const map[][2] = {{"auto", "auto"}, {"tcg", "qemu"}, {"kvm", "kvm"}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(accel ? accel : "auto", map[i][0]) == 0)
            return map[i][1];
    return NULL;
}

struct lab_bisect_slurm *lab_bisect_slurm_open(struct lab_bisect_cells *c, const char *partition)
{
    if (lab_slurm_check("--engine slurm") < 0)
        return NULL;
    const char *vt = virt_type_of(c->accel);
    if (!vt) {
        lab_error("unknown accelerator '%s' (use auto, tcg or kvm)", c->accel);
        return NULL;
    }
    struct lab_bisect_slurm *s = lab_xcalloc(1, sizeof *s);
    s->c = c;
    s->partition = partition;
    s->virt_type = vt;
    s->boots = lab_xcalloc(MAX_BOOTS, sizeof *s->boots);
    s->eng = (struct lab_engine){.env = &c->env};
    lab_slurm_feature(partition, s->feature, sizeof s->feature);
    if (!(s->spool = lab_engine_spool_make(s->lab, sizeof s->lab, "bisect: slurm"))) {
        lab_bisect_slurm_close(s);
        return NULL;
    }
    fprintf(stderr, "lab: bisect: slurm: spool %s, node class %s\n", s->spool,
            s->feature[0] ? s->feature : "(any)");
    return s;
}

static struct build *build_of(struct lab_bisect_slurm *s, const char *kernel)
{
    for (size_t i = s->nbuilds; i-- > 0;)
        if (strcmp(s->builds[i].kernel, kernel) == 0)
            return &s->builds[i];
    return NULL;
}

/* The jobs Slurm may still hold: queued builds, boots not done. */
static char *listed_jobs(struct lab_bisect_slurm *s)
{
    char(*ids)[LAB_SLURM_JOB_ID] = lab_xcalloc(MAX_BUILDS + MAX_BOOTS, sizeof *ids);
    size_t n = 0;
    for (size_t i = 0; i < s->nbuilds; i++)
        if (s->builds[i].state == BUILD_QUEUED)
            snprintf(ids[n++], sizeof ids[0], "%s", s->builds[i].job);
    for (size_t i = 0; i < s->nboots; i++)
        if (!s->boots[i].c.done && s->boots[i].c.task[0])
            snprintf(ids[n++], sizeof ids[0], "%s", s->boots[i].c.task);
    char *out = lab_slurm_listed((const char(*)[LAB_SLURM_JOB_ID])ids, n);
    free(ids);
    return out;
}

/* What a queued build's job left: its exit code, or nothing once Slurm no
 * longer lists it (cancelled, its node lost). */
static void poll_build(struct lab_bisect_slurm *s, struct build *b, const char *listed)
{
    if (b->state != BUILD_QUEUED)
        return;
    char *rc_path = lab_asprintf("%s/rc", b->dir);
    char *text = lab_read_text(rc_path, 64, NULL);
    free(rc_path);
    if (!text && lab_slurm_is_listed(listed, b->job)) {
        b->gone = 0;
        return;
    }
    if (!text && ++b->gone <= GONE_POLLS)
        return;
    int rc = text ? atoi(text) : -1;
    free(text);
    if (rc == 0) {
        b->state = BUILD_OK;
        fprintf(stderr, "lab: bisect: %.12s built and passed the IO smoke test (Slurm job %s)\n",
                b->commit, b->job);
        return;
    }
    b->state = BUILD_FAILED;
    char *out = lab_asprintf("%s/slurm-%s.out", b->dir, b->job);
    char *name = lab_asprintf("build-%.12s.log", b->commit);
    char *kept = lab_keep_copy(out, s->c->env.log_dir, name);
    if (rc < 0)
        snprintf(b->why, sizeof b->why,
                 "its build job %s ended without a result (cancelled, or "
                 "its node was lost)",
                 b->job);
    else
        snprintf(b->why, sizeof b->why,
                 "build failed in Slurm job %s (exit %d: it does not build, or its kernel failed "
                 "the IO smoke test; log %.400s)",
                 b->job, rc, kept ? kept : out);
    lab_warn("bisect: %.12s: %s", b->commit, b->why);
    free(kept);
    free(name);
    free(out);
}

/* The kernel's name: one per commit and build options. The builder caches
 * by its inputs, so building a commit again (another bisection, a local
 * one) costs nothing; a --config, --cc or --arch of its own keeps another
 * bisection's kernels apart. */
static void kernel_name(const struct lab_bisect_cells *c, const char *commit, char *out, size_t len)
{
    struct lab_hash h;
    char hex[LAB_HASH_HEX_LEN + 1] = "";
    if ((c->fragment || c->cc || c->arch) && lab_hash_init(&h) == 0) {
        lab_hash_str(&h, c->fragment ? c->fragment : "");
        lab_hash_str(&h, c->cc ? c->cc : "");
        if (c->arch) /* only when given: the names of before stay */
            lab_hash_str(&h, c->arch);
        if (lab_hash_final(&h, hex) < 0)
            hex[0] = '\0';
    }
    snprintf(out, len, "bisect-%.12s%s%.8s", commit, hex[0] ? "-" : "", hex);
}

/* A path as the nodes see it: absolute (a job runs in its own directory). */
static char *quoted_abs(const char *path)
{
    char *abs = realpath(path, NULL);
    char *q = lab_shell_quote(abs ? abs : path);
    free(abs);
    return q;
}

/* The build job's script: the lab's builder, which admits the kernel only
 * once it passed the IO smoke test, a cell on this node into a store of the
 * job's own (only the controller writes the bisection's store); its exit
 * code left for the controller. */
static int write_build_script(const struct lab_bisect_slurm *s, const struct build *b,
                              char **script)
{
    const struct lab_bisect_cells *c = s->c;
    char *repo = quoted_abs(c->repo), *frag = c->fragment ? quoted_abs(c->fragment) : NULL;
    char *cc = c->cc ? lab_shell_quote(c->cc) : NULL, *lab = lab_shell_quote(s->lab);
    char *arch = c->arch ? lab_shell_quote(c->arch) : NULL;
    char *dir = lab_shell_quote(b->dir);
    char *text = lab_asprintf("#!/bin/sh\n"
                              "LAB_STORE=%s/smoke.db %s kernels build --repo %s --ref %s --name %s"
                              "%s%s%s%s%s%s\n"
                              "rc=$?\n"
                              "echo $rc >%s/rc.tmp && mv %s/rc.tmp %s/rc\n"
                              "exit $rc\n",
                              dir, lab, repo, b->commit, b->kernel, frag ? " --config " : "",
                              frag ? frag : "", cc ? " --cc " : "", cc ? cc : "",
                              arch ? " --arch " : "", arch ? arch : "", dir, dir, dir);
    *script = lab_asprintf("%s/build.sh", b->dir);
    int rc = lab_mkdir_p(b->dir, 0755) == 0 ? lab_write_file(*script, text, strlen(text)) : -1;
    free(text);
    free(dir);
    free(lab);
    free(cc);
    free(arch);
    free(frag);
    free(repo);
    return rc;
}

static int slurm_build(void *ctx, const char *commit, char *kernel, size_t len)
{
    struct lab_bisect_slurm *s = ctx;
    if (s->nbuilds == MAX_BUILDS)
        return lab_error("bisect: more than %d builds in one bisection", MAX_BUILDS);
    struct build *b = &s->builds[s->nbuilds];
    memset(b, 0, sizeof *b);
    snprintf(b->commit, sizeof b->commit, "%s", commit);
    kernel_name(s->c, commit, b->kernel, sizeof b->kernel);
    snprintf(b->dir, sizeof b->dir, "%s/build-%.12s", s->spool, commit);
    snprintf(kernel, len, "%s", b->kernel);
    char *script = NULL, *name = lab_asprintf("lab-%ld-build", (long)getpid());
    char *output = lab_asprintf("%s/slurm-%%j.out", b->dir);
    struct lab_slurm_submit sb = {.script = script,
                                  .name = name,
                                  .output = output,
                                  .partition = s->partition,
                                  .feature = s->feature};
    int rc = write_build_script(s, b, &script);
    sb.script = script;
    if (rc < 0)
        lab_error("cannot write the build script in %s", b->dir);
    else if ((rc = lab_slurm_sbatch(&sb, b->job)) == 0)
        fprintf(stderr, "lab: bisect: %.12s: build job %s (kernel %s)\n", commit, b->job,
                b->kernel);
    free(output);
    free(name);
    free(script);
    if (rc < 0)
        return -1; /* not even queued: a skip, like a build that fails */
    s->nbuilds++;
    return 0;
}

/* A boot given up on before its cell ran: its row ends with why. */
static void boot_fails(struct lab_bisect_slurm *s, struct boot *bt, const char *why)
{
    lab_spool_give_up(&s->c->env, &bt->c, why, &bt->res);
}

/* The task script of a boot: attempt N writes SPOOL/KEY/aN (Slurm's
 * requeues are attempts, as for `lab run --engine slurm`). */
static int submit_boot(struct lab_bisect_slurm *s, struct boot *bt, const char *after)
{
    char *script = lab_asprintf("%s/cell.sh", bt->c.dir);
    char *lab = lab_shell_quote(s->lab), *dir = lab_shell_quote(bt->c.dir);
    char *text = lab_asprintf("#!/bin/sh\n"
                              "attempt=$(( ${SLURM_RESTART_COUNT:-0} + 1 ))\n"
                              "exec %s cell --spec %s/%s --out %s/a$attempt\n",
                              lab, dir, LAB_BUNDLE_JOB, dir);
    char *name = lab_asprintf("lab-%ld-cell", (long)getpid());
    char *output = lab_asprintf("%s/slurm-%%j.out", bt->c.dir);
    struct lab_slurm_submit sb = {.script = script,
                                  .name = name,
                                  .output = output,
                                  .partition = s->partition,
                                  .feature = s->feature,
                                  .after_ok = after,
                                  .requeue = 1};
    int rc = lab_write_file(script, text, strlen(text));
    if (rc == 0)
        rc = lab_slurm_sbatch(&sb, bt->c.task);
    if (rc == 0)
        lab_info("bisect: slurm: cell job %s: %s, %u run(s)%s%s", bt->c.task, bt->build->kernel,
                 bt->reps, after ? ", afterok:" : "", after ? after : "");
    free(output);
    free(name);
    free(text);
    free(dir);
    free(lab);
    free(script);
    return rc;
}

/* A boot of the kernel, dispatched as a cell of the run and submitted
 * behind its build; NULL when the table is full. */
static struct boot *add_boot(struct lab_bisect_slurm *s, const char *kernel, unsigned reps)
{
    struct build *b = build_of(s, kernel);
    if (!b || s->nboots == MAX_BOOTS)
        return NULL;
    struct boot *bt = &s->boots[s->nboots];
    memset(bt, 0, sizeof *bt);
    bt->build = b;
    bt->reps = reps;
    struct lab_bisect_cells *c = s->c;
    struct lab_kernel k = {.name = b->kernel}; /* the node resolves it once built */
    c->exp.reps = reps;
    struct lab_cell_spec spec = {.index = (int)s->nboots,
                                 .kernel = &k,
                                 .exp = &c->exp,
                                 .profile = &c->profile,
                                 .cpu = c->profile.cpu,
                                 .virt_type = s->virt_type,
                                 .timeout_s = c->timeout_s,
                                 .rt_priority = c->rt_priority,
                                 .rt_note = c->rt_note};
    s->nboots++;
    if (lab_spool_queue(&s->eng, s->spool, &spec, &bt->c, &bt->res) < 0) {
        bt->c.done = 1;
        bt->c.cell = bt->c.dispatched;
        return bt;
    }
    char *listed = listed_jobs(s);
    poll_build(s, b, listed);
    free(listed);
    /* afterok only on a build still in Slurm's hands: a job it finished
     * long ago is one it may have forgotten. */
    if (b->state == BUILD_FAILED)
        boot_fails(s, bt, b->why);
    else if (submit_boot(s, bt, b->state == BUILD_QUEUED ? b->job : NULL) < 0)
        boot_fails(s, bt, "sbatch refused its cell job");
    return bt;
}

static void slurm_queue(void *ctx, const char *kernel, unsigned reps)
{
    add_boot(ctx, kernel, reps);
}

static void cancel_all(struct lab_bisect_slurm *s)
{
    for (size_t i = 0; i < s->nbuilds; i++)
        if (s->builds[i].state == BUILD_QUEUED)
            lab_slurm_cancel(s->builds[i].job);
    for (size_t i = 0; i < s->nboots; i++)
        if (!s->boots[i].c.done && s->boots[i].c.task[0])
            lab_slurm_cancel(s->boots[i].c.task);
    s->cancelled = 1;
}

/* Until the boot's cell is stored: imported as it lands, or given up on
 * once its build failed or Slurm no longer has its job. */
static void wait_boot(struct lab_bisect_slurm *s, struct boot *bt)
{
    while (!bt->c.done) {
        if (lab_interrupted && !s->cancelled)
            cancel_all(s); /* each cell tears down into an interrupted bundle */
        char *listed = listed_jobs(s);
        poll_build(s, bt->build, listed);
        if (lab_spool_scan(&s->c->env, &bt->c, &bt->res)) {
        } else if (bt->build->state == BUILD_FAILED) {
            lab_slurm_cancel(bt->c.task); /* --kill-on-invalid-dep would too */
            boot_fails(s, bt, bt->build->why);
        } else if (!lab_slurm_is_listed(listed, bt->c.task) && ++bt->c.gone > GONE_POLLS) {
            char why[128];
            snprintf(why, sizeof why, "its Slurm job %s ended", bt->c.task);
            boot_fails(s, bt, why);
        } else if (lab_slurm_is_listed(listed, bt->c.task)) {
            bt->c.gone = 0;
        }
        free(listed);
        if (!bt->c.done)
            usleep(POLL_US);
    }
}

/* Boots queued for the kernel that will not be asked for (an earlier one
 * failed: the driver skips the commit), or for none at the end. */
static void drop_queued(struct lab_bisect_slurm *s, const char *kernel, const char *why)
{
    for (size_t i = 0; i < s->nboots; i++) {
        struct boot *bt = &s->boots[i];
        if (bt->taken || (kernel && strcmp(bt->build->kernel, kernel) != 0))
            continue;
        bt->taken = 1;
        if (bt->c.done)
            continue;
        if (bt->c.task[0])
            lab_slurm_cancel(bt->c.task);
        lab_store_cell_end(s->c->env.store, bt->c.dispatched, "skipped", why);
        bt->c.done = 1;
    }
}

static int slurm_measure(void *ctx, const char *kernel, unsigned reps,
                         struct lab_bisect_values *out, int64_t *cell, char *reason, size_t len)
{
    struct lab_bisect_slurm *s = ctx;
    struct boot *bt = NULL;
    *cell = -1;
    for (size_t i = 0; i < s->nboots && !bt; i++)
        if (!s->boots[i].taken && s->boots[i].reps == reps &&
            strcmp(s->boots[i].build->kernel, kernel) == 0)
            bt = &s->boots[i];
    if (!bt && !(bt = add_boot(s, kernel, reps))) {
        snprintf(reason, len, "no boot of %s could be queued (more than %d, or not built here)",
                 kernel, MAX_BOOTS);
        return -1;
    }
    bt->taken = 1;
    wait_boot(s, bt);
    *cell = bt->c.cell;
    if (bt->res.status != LAB_CELL_OK) {
        if (bt->build->state == BUILD_FAILED)
            snprintf(reason, len, "%s", bt->build->why); /* a skip, like a local build failure */
        else
            snprintf(reason, len, "cell %s: %.200s", lab_cell_status_name(bt->res.status),
                     bt->res.reason);
        drop_queued(s, kernel, "not measured: an earlier boot of its kernel failed");
        return -1;
    }
    return lab_bisect_cells_values(s->c, *cell, reps, out, reason, len);
}

static void slurm_describe(void *ctx, const char *commit, char *subject, size_t len)
{
    struct lab_bisect_slurm *s = ctx;
    lab_bisect_cell_ops.describe(s->c, commit, subject, len);
}

void lab_bisect_slurm_close(struct lab_bisect_slurm *s)
{
    if (!s)
        return;
    drop_queued(s, NULL, "not measured: the bisection ended without it");
    for (size_t i = 0; i < s->nbuilds; i++)
        if (s->builds[i].state == BUILD_QUEUED)
            lab_slurm_cancel(s->builds[i].job);
    if (s->spool)
        lab_rm_rf(s->spool); /* every boot is stored or given up on */
    free(s->spool);
    free(s->boots);
    free(s);
}

const struct lab_bisect_ops lab_bisect_slurm_ops = {
    .build = slurm_build,
    .measure = slurm_measure,
    .describe = slurm_describe,
    .queue = slurm_queue,
};
