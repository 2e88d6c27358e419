/* lab run: the command line into a run of host/run.h, its report printed.
 * Everything that can be checked is checked before any boot. */
#include "host/accel.h"
#include "kernels/catalog.h"
#include "host/cell.h"
#include "lab/commands.h"
#include "host/experiment.h"
#include "host/json.h"
#include "host/junit.h"
#include "host/profile.h"
#include "host/plan.h"
#include "host/report.h"
#include "host/rt.h"
#include "host/run.h"
#include "lab/engine_opts.h"
#include "lab/options.h"
#include "lab/session.h"
#include "common/interrupt.h"
#include "common/msg.h"
#include "common/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct run_opts {
    char *kernels;
    const char *experiment;
    const char *profile;
    const char *bus;
    const char *channel;
    const char *accel;
    const char *json, *junit; /* files written after the report */
    double threshold;         /* --junit: smallest change that fails */
    unsigned reps;
    unsigned timeout;
    int no_rt;      /* --no-rt: QEMU and nbdkit at the normal policy */
    unsigned boots; /* --boots: boots per kernel and variant */
    char *sets[32];
    size_t nsets;
    struct lab_engine_opts eng; /* --jobs, --engine, --partition, --hosts */
};

#define OFF(f) offsetof(struct run_opts, f)
#define MORE   "\n                         "
static const struct lab_opt opts[] = {
    {"kernels", 'k', LAB_OPT_STR, OFF(kernels), 0, 0, NULL,
     "  -k, --kernels LIST     kernels from `lab kernels list`, comma-separated"},
    {"experiment", 'e', LAB_OPT_STR, OFF(experiment), 0, 0, NULL,
     "  -e, --experiment E     shipped experiment name or file (default seqread)"},
    {"reps", 'n', LAB_OPT_UINT, OFF(reps), 0, 1000, "a number",
     "  -n, --reps N           runs per kernel (overrides the experiment)"},
    {"set", 's', LAB_OPT_LIST, OFF(sets), OFF(nsets), 32, NULL,
     "  -s, --set KEY=VALUE    override an experiment key (repeatable)"},
    {"profile", 'p', LAB_OPT_STR, OFF(profile), 0, 0, NULL,
     "  -p, --profile P        hardware profile: fast (default), a `lab profiles` name," MORE
     "or iotune:BYTES_PER_S,IOPS"},
    {"bus", 'b', LAB_OPT_STR, OFF(bus), 0, 0, NULL,
     "  -b, --bus B            ide, sata, scsi or virtio-scsi (default: the profile's)"},
    {"channel", 'c', LAB_OPT_STR, OFF(channel), 0, 0, NULL,
     "      --channel C        agent channel: virtio-port or uart (default: the era's)"},
    {"accel", 'a', LAB_OPT_STR, OFF(accel), 0, 0, NULL,
     "      --accel A          auto (default), tcg or kvm"},
    {"timeout", 't', LAB_OPT_UINT, OFF(timeout), 0, LAB_TIMEOUT_MAX_S, "seconds",
     "      --timeout S        seconds before a cell counts as hung"},
    {"boots", 'B', LAB_OPT_UINT, OFF(boots), 0, LAB_PLAN_MAX_BOOTS, "a number",
     "      --boots N          boots per kernel (default 2); the kernels' cells interleave:" MORE
     "A1 B1 A2 B2 ..."},
    {"no-rt", 'R', LAB_OPT_FLAG, OFF(no_rt), 0, 0, NULL,
     "      --no-rt            no real-time scheduling of QEMU and nbdkit (default: SCHED_FIFO" MORE
     "at a low priority where permitted)"},
    {"json", 'J', LAB_OPT_STR, OFF(json), 0, 0, NULL,
     "      --json FILE        also write the run as JSON (schema in README.md)"},
    {"junit", 'U', LAB_OPT_STR, OFF(junit), 0, 0, NULL,
     "      --junit FILE       also write JUnit XML: a slower comparison is a failure," MORE
     "a cell that could not run an error"},
    {"threshold", 'T', LAB_OPT_PCT, OFF(threshold), 0, 1000, "a percentage",
     "  -T, --threshold PCT    smallest slowdown that fails in --junit (default 5)"},
    LAB_ENGINE_OPTS(OFF(eng)),
    {"help", 'h', LAB_OPT_HELP, 0, 0, 0, NULL, NULL},
};

static int parse_opts(int argc, char **argv, struct run_opts *o)
{
    *o = (struct run_opts){
        .threshold = 5, .experiment = "seqread", .accel = "auto", .profile = "fast", .boots = 2};
    if (lab_opts_parse(argc, argv, "k:e:n:s:p:b:T:j:h", "usage: lab run --kernels A[,B...] [options]",
                       opts, sizeof opts / sizeof opts[0], o) < 0)
        return -1;
    if (optind < argc)
        return lab_error("unexpected argument '%s'", argv[optind]);
    if (!o->kernels)
        return lab_error("--kernels is required (see `lab kernels list`)");
    return lab_engine_check(&o->eng); /* before anything is stored */
}

static size_t resolve_kernels(char *list, const struct lab_kernel **out)
{
    size_t n = 0;
    for (char *save, *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        const struct lab_kernel *k = lab_kernel_find(name);
        if (!k) {
            char *known = lab_kernel_known_names();
            lab_error("unknown kernel '%s'; known kernels: %s", name, known);
            free(known);
            return 0;
        }
        if (n == LAB_RUN_MAX_KERNELS) {
            lab_error("at most %d kernels per run", LAB_RUN_MAX_KERNELS);
            return 0;
        }
        out[n++] = k;
    }
    if (n == 0)
        lab_error("--kernels names no kernel");
    return n;
}

static int check_agents(const struct lab_kernel *const *kernels, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *path = lab_agent_path(kernels[i]->arch);
        if (access(path, R_OK) != 0)
            return lab_error("the guest agent %s is missing; run `make` first", path);
    }
    return 0;
}

/* The machine-readable files, from the store like the table. */
static int write_outputs(const struct run_opts *o, struct lab_store *st, int64_t run)
{
    int rc = 0;
    if (o->json && lab_json_write(st, run, o->json) < 0)
        rc = -1;
    if (o->junit && lab_junit_write_run(st, run, o->threshold, o->junit) < 0)
        rc = -1;
    return rc;
}

/* The session's reasons to stop, as the driver asks for them (the same
 * reasons in the same order). */
_Static_assert((int)LAB_STOP_LIBVIRT == (int)LAB_RUN_STOP_LIBVIRT, "stop reasons differ");
static enum lab_run_stop session_stop(void *session, char *why, size_t len)
{
    return (enum lab_run_stop)lab_session_check(session, why, len);
}

/* The matrix from the command line; NULL (said why) when no cell can run. */
static struct lab_run *plan_run(const struct run_opts *o, const struct lab_kernel *const *kernels,
                                size_t nk, const struct lab_experiment *exp,
                                const struct lab_profile *profile, const struct lab_bus *bus)
{
    struct lab_run_request req = {.kernels = kernels,
                                  .nkernels = nk,
                                  .exp = exp,
                                  .profile = profile,
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
static int measure(const struct run_opts *o, struct lab_run *r, struct lab_session *session,
                   const struct lab_experiment *exp, const struct lab_profile *profile)
{
    struct lab_cell_env *env = &session->env;
    const char *virt_type = lab_accel_choose(o->accel, env, lab_run_first_runnable(r));
    if (!virt_type) {
        lab_run_end_unstarted(env->store, env->run_id);
        return 1;
    }
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
    if (lab_engine_execute(&o->eng, env, o->sets, o->nsets, r, &renv, &out) < 0)
        return 1;
    printf("\n");
    lab_report_run(stdout, env->store, env->run_id);
    int written = write_outputs(o, env->store, env->run_id);
    if (lab_interrupted)
        fprintf(stderr,
                "lab: interrupted; the samples measured so far are stored (lab show %lld)\n",
                (long long)env->run_id);
    return lab_interrupted ? 130 : out.failed || out.stop || written < 0 ? 1 : 0;
}

int cmd_run(int argc, char **argv)
{
    struct run_opts o = {0};
    struct lab_experiment exp;
    struct lab_profile profile;
    const struct lab_bus *bus = NULL;
    const struct lab_kernel *kernels[LAB_RUN_MAX_KERNELS];
    struct lab_run *r = NULL;
    size_t nk;
    int rc = 2;

    if (parse_opts(argc, argv, &o) < 0)
        return 2;
    o.kernels = lab_xstrdup(o.kernels);
    nk = resolve_kernels(o.kernels, kernels);
    if (nk == 0 || lab_experiment_prepare(o.experiment, o.sets, o.nsets, &exp) < 0) {
        free(o.kernels);
        return 2;
    }
    if (o.reps)
        exp.reps = o.reps;
    if (lab_profile_resolve(o.profile, &profile) < 0 || (o.bus && !(bus = lab_bus_find(o.bus))) ||
        !(r = plan_run(&o, kernels, nk, &exp, &profile, bus)))
        goto out;
    rc = 1;
    struct lab_session session;
    if (check_agents(kernels, nk) == 0 &&
        lab_session_open(&session, argc, argv, exp.name, profile.name) == 0) {
        rc = measure(&o, r, &session, &exp, &profile);
        lab_session_close(&session);
    }
out:
    lab_run_free(r);
    lab_experiment_free(&exp);
    free(o.kernels);
    return rc;
}
