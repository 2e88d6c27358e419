/* lab run: the command line (lab/run_opts.h) into a run of host/run/run.h,
 * its report printed. Everything that can be checked is checked before any
 * boot. */
#include "host/cell/accel.h"
#include "host/cell/cpuprobe.h"
#include "kernels/catalog.h"
#include "host/cell/cell.h"
#include "lab/commands.h"
#include "host/plan/experiment.h"
#include "host/plan/profile.h"
#include "host/plan/order.h"
#include "host/report/table.h"
#include "host/cell/rt.h"
#include "host/run/run.h"
#include "lab/kernelnames.h"
#include "lab/outputs.h"
#include "lab/run_opts.h"
#include "lab/session.h"
#include "common/interrupt.h"
#include "common/msg.h"
#include "common/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int check_agents(const struct lab_kernel *const *kernels, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *path = lab_agent_path(kernels[i]->arch);
        if (access(path, R_OK) != 0)
            return lab_error("the guest agent %s is missing; run `make` first", path);
    }
    return 0;
}

/* The session's reasons to stop, as the driver asks for them (the same
 * reasons in the same order). */
_Static_assert((int)LAB_STOP_LIBVIRT == (int)LAB_RUN_STOP_LIBVIRT, "stop reasons differ");
static enum lab_run_stop session_stop(void *session, char *why, size_t len)
{
    return (enum lab_run_stop)lab_session_check(session, why, len);
}

/* The matrix from the command line; NULL (said why) when no cell can run. */
static struct lab_run *plan_run(const struct lab_run_opts *o,
                                const struct lab_kernel *const *kernels, size_t nk,
                                const struct lab_experiment *exp, const struct lab_profile *profile,
                                const struct lab_bus *bus)
{
    struct lab_run_request req = {.kernels = kernels,
                                  .nkernels = nk,
                                  .exp = exp,
                                  .profile = profile,
                                  .cpu = o->cpu ? lab_cpu_find(o->cpu) : profile->cpu,
                                  .bus = bus,
                                  .channel = o->channel,
                                  .timeout_s = o->timeout,
                                  .boots = o->boots};
    struct lab_run *r = lab_run_plan(&req);
    for (size_t i = 0; r && i < lab_run_ncells(r); i++) {
        const struct lab_run_cell *c = lab_run_cell_at(r, i);
        if (c->skip[0] && c->spec.boot == 1) /* said once, for the first boot */
            fprintf(stderr, "lab: skipping %s/%s: %s\n", c->spec.kernel->name, exp->name, c->skip);
    }
    if (!r || lab_run_runnable(r) == 0) {
        lab_error("no cell can run (see the reasons above)");
        lab_run_free(r);
        return NULL;
    }
    return r;
}

/* The cells, the report and the files; the exit code. */
static int measure(const struct lab_run_opts *o, struct lab_run *r, struct lab_session *session,
                   const struct lab_experiment *exp, const struct lab_profile *profile)
{
    struct lab_cell_env *env = &session->env;
    const char *virt_type = lab_accel_choose(o->accel, env, lab_run_first_runnable(r));
    if (!virt_type) {
        lab_run_end_unstarted(env->store, env->run_id);
        return 1;
    }
    /* A CPU profile this host cannot sustain is refused before any boot. */
    const struct lab_cpu *cpu = lab_run_first_runnable(r)->cpu;
    if (lab_cpu_check_headroom(cpu, env, lab_run_first_runnable(r)) < 0) {
        lab_run_end_unstarted(env->store, env->run_id);
        return 2;
    }
    if (!lab_cpu_is_fast(cpu))
        fprintf(stderr, "lab: CPU %s: %s at %.2f MIPS (QEMU -icount shift=%d)\n", cpu->name,
                cpu->what, lab_cpu_nominal_mips(cpu), cpu->shift);
    fprintf(stderr,
            "lab: run %lld: %s, %zu cell(s) on %s (%u boot(s) per kernel, interleaved), %u run(s) "
            "each after %u warm-up, %s\n",
            (long long)env->run_id, exp->name, lab_run_ncells(r), profile->name, o->boots,
            exp->reps, exp->warmup, strcmp(virt_type, "kvm") == 0 ? "KVM" : "TCG");
    char rt_note[256];
    struct lab_run_env renv = {.store = env->store,
                               .run_id = env->run_id,
                               .virt_type = virt_type,
                               .rt_priority = lab_rt_plan(o->no_rt, rt_note, sizeof rt_note),
                               .rt_note = rt_note,
                               .check = session_stop,
                               .check_arg = session};
    struct lab_run_outcome out;
    if (lab_engine_execute(&o->eng, env, r, &renv, &out) < 0)
        return 1;
    printf("\n");
    lab_report_run(stdout, env->store, env->run_id);
    int written = lab_run_write_files(env->store, env->run_id, o->json, o->junit, o->threshold);
    if (lab_interrupted)
        fprintf(stderr,
                "lab: interrupted; the samples measured so far are stored (lab show %lld)\n",
                (long long)env->run_id);
    if (lab_interrupted || out.failed || out.stop || written < 0)
        return lab_interrupted ? 130 : 1;
    return lab_gate_check(env->store, env->run_id, o->fail_on, o->threshold);
}

int cmd_run(int argc, char **argv)
{
    struct lab_run_opts o = {0};
    struct lab_experiment exp;
    struct lab_profile profile;
    const struct lab_bus *bus = NULL;
    const struct lab_kernel *kernels[LAB_RUN_MAX_KERNELS];
    struct lab_run *r = NULL;
    size_t nk;
    int rc = 2;

    if (lab_run_opts_parse(argc, argv, &o) < 0)
        return 2;
    if (o.arch && strcmp(o.arch, "x86_64") != 0 && strcmp(o.arch, "i686") != 0) {
        lab_error("--arch is x86_64 or i686, not '%s'", o.arch);
        return 2;
    }
    o.kernels = lab_xstrdup(o.kernels);
    if (lab_experiment_prepare(o.experiment, o.sets, o.nsets, &exp) < 0) {
        free(o.kernels);
        return 2;
    }
    if (o.reps)
        exp.reps = o.reps;
    if (lab_profile_resolve(o.profile, &profile) < 0 || (o.cpu && !lab_cpu_resolve(o.cpu)) ||
        (o.bus && !(bus = lab_bus_find(o.bus))))
        goto out;
    /* every kernel ready (fetched, built, smoke-tested) before any cell is
     * planned or dispatched, whatever the engine */
    struct lab_kernel_names_opts ko = {.arch = o.arch, .argc = argc, .argv = argv};
    rc = lab_kernel_list_resolve(o.kernels, &ko, kernels, LAB_RUN_MAX_KERNELS, &nk);
    if (rc != 0)
        goto out;
    rc = 2;
    if (!(r = plan_run(&o, kernels, nk, &exp, &profile, bus)))
        goto out;
    rc = 1;
    struct lab_session session;
    if (check_agents(kernels, nk) == 0 &&
        lab_session_open(&session, argc, argv, exp.name, profile.name) == 0) {
        /* what each kernel was patched with, before its first cell */
        if (lab_kernel_patches_record(session.env.store, session.env.run_id, kernels, nk) == 0)
            rc = measure(&o, r, &session, &exp, &profile);
        else
            lab_run_end_unstarted(session.env.store, session.env.run_id);
        lab_session_close(&session);
    }
out:
    lab_run_free(r);
    lab_experiment_free(&exp);
    free(o.kernels);
    return rc;
}
