/* lab run: expand kernels x experiment into cells, run each, print the
 * comparison. Everything that can be checked is checked before any boot. */
#include "host/accel.h"
#include "kernels/catalog.h"
#include "host/cell.h"
#include "lab/commands.h"
#include "host/engine.h"
#include "host/experiment.h"
#include "host/json.h"
#include "host/junit.h"
#include "host/profile.h"
#include "host/progress.h"
#include "host/plan.h"
#include "host/report.h"
#include "host/rt.h"
#include "lab/session.h"
#include "host/store.h"
#include "common/interrupt.h"
#include "common/msg.h"
#include "common/str.h"
#include "host/vm.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_KERNELS 32
#define MAX_LOADS   8
#define MAX_SCHEDS  4
#define MAX_CELLS   (MAX_KERNELS * MAX_LOADS * MAX_SCHEDS)

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
};

static void run_usage(FILE *out)
{
    fprintf(out,
            "usage: lab run --kernels A[,B...] [options]\n"
            "  -k, --kernels LIST     kernels from `lab kernels list`, comma-separated\n"
            "  -e, --experiment E     shipped experiment name or file (default seqread)\n"
            "  -n, --reps N           runs per kernel (overrides the experiment)\n"
            "  -s, --set KEY=VALUE    override an experiment key (repeatable)\n"
            "  -p, --profile P        hardware profile: fast (default), a `lab profiles` name,\n"
            "                         or iotune:BYTES_PER_S,IOPS\n"
            "  -b, --bus B            ide, sata, scsi or virtio-scsi (default: the profile's)\n"
            "      --channel C        agent channel: virtio-port or uart (default: the era's)\n"
            "      --accel A          auto (default), tcg or kvm\n"
            "      --timeout S        seconds before a cell counts as hung\n"
            "      --boots N          boots per kernel (default 2); the kernels' cells interleave:\n"
            "                         A1 B1 A2 B2 ...\n"
            "      --no-rt            no real-time scheduling of QEMU and nbdkit (default: SCHED_FIFO\n"
            "                         at a low priority where permitted)\n"
            "      --json FILE        also write the run as JSON (schema in README.md)\n"
            "      --junit FILE       also write JUnit XML: a slower comparison is a failure,\n"
            "                         a cell that could not run an error\n"
            "  -T, --threshold PCT    smallest slowdown that fails in --junit (default 5)\n");
}

static int parse_opts(int argc, char **argv, struct run_opts *o)
{
    static const struct option longopts[] = {
        {"kernels", required_argument, NULL, 'k'},
        {"experiment", required_argument, NULL, 'e'},
        {"reps", required_argument, NULL, 'n'},
        {"set", required_argument, NULL, 's'},
        {"accel", required_argument, NULL, 'a'},
        {"timeout", required_argument, NULL, 't'},
        {"profile", required_argument, NULL, 'p'},
        {"bus", required_argument, NULL, 'b'},
        {"channel", required_argument, NULL, 'c'},
        {"json", required_argument, NULL, 'J'},
        {"junit", required_argument, NULL, 'U'},
        {"threshold", required_argument, NULL, 'T'},
        {"no-rt", no_argument, NULL, 'R'},
        {"boots", required_argument, NULL, 'B'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int ch;
    uint64_t v;
    char *end;
    o->threshold = 5;
    o->experiment = "seqread";
    o->accel = "auto";
    o->profile = "fast";
    o->boots = 2;
    while ((ch = getopt_long(argc, argv, "k:e:n:s:p:b:T:h", longopts, NULL)) != -1) {
        switch (ch) {
        case 'J':
            o->json = optarg;
            break;
        case 'R':
            o->no_rt = 1;
            break;
        case 'B':
            o->boots = (unsigned)strtoul(optarg, &end, 10);
            if (*end || o->boots == 0 || o->boots > LAB_PLAN_MAX_BOOTS)
                return lab_error("--boots wants a number from 1 to %d, not '%s'",
                                 LAB_PLAN_MAX_BOOTS, optarg);
            break;
        case 'U':
            o->junit = optarg;
            break;
        case 'T':
            o->threshold = strtod(optarg, &end);
            if (*end || !(o->threshold >= 0) || o->threshold > 1000)
                return lab_error("--threshold wants a percentage, not '%s'", optarg);
            break;
        case 'k':
            o->kernels = optarg;
            break;
        case 'e':
            o->experiment = optarg;
            break;
        case 'n':
            if (lab_parse_u64(optarg, 1, 1000, &v) < 0)
                return lab_error("--reps wants a number from 1 to 1000, not '%s'", optarg);
            o->reps = (unsigned)v;
            break;
        case 's':
            if (o->nsets == sizeof o->sets / sizeof o->sets[0])
                return lab_error("too many --set options");
            o->sets[o->nsets++] = optarg;
            break;
        case 'a':
            o->accel = optarg;
            break;
        case 'p':
            o->profile = optarg;
            break;
        case 'b':
            o->bus = optarg;
            break;
        case 'c':
            o->channel = optarg;
            break;
        case 't':
            if (lab_parse_u64(optarg, 1, LAB_TIMEOUT_MAX_S, &v) < 0)
                return lab_error("--timeout wants seconds from 1 to %d, not '%s'",
                                 LAB_TIMEOUT_MAX_S, optarg);
            o->timeout = (unsigned)v;
            break;
        case 'h':
            run_usage(stdout);
            exit(0);
        default:
            run_usage(stderr);
            return -1;
        }
    }
    if (optind < argc)
        return lab_error("unexpected argument '%s'", argv[optind]);
    if (!o->kernels)
        return lab_error("--kernels is required (see `lab kernels list`)");
    return 0;
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
        if (n == MAX_KERNELS) {
            lab_error("at most %d kernels per run", MAX_KERNELS);
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

/* The matrix: one cell per kernel, variant and boot, in the interleaved
 * order of host/plan.h (A1 B1 A2 B2 ...); the variants are every load of a
 * load_list crossed with every scheduler of a scheduler_list ("default":
 * the kernel's own), each a copy of the experiment with its load and
 * scheduler. Cells the era cannot run are skipped here, before anything
 * boots (said once, for the first boot). Returns the number of cells. */
static size_t plan_cells(const struct run_opts *o, const struct lab_kernel *const *kernels,
                         size_t nk, const struct lab_experiment *exp,
                         struct lab_experiment *variants, size_t nvariants,
                         const struct lab_profile *profile, const struct lab_bus *bus,
                         struct lab_cell_spec *specs, char (*skip)[256], size_t *runnable)
{
    static struct lab_plan_slot order[MAX_CELLS];
    size_t n = lab_plan_order(nk, nvariants, o->boots, order, MAX_CELLS);
    *runnable = 0;
    if (n == 0)
        lab_error("too many cells: %zu kernel(s) x %zu variant(s) x %u boot(s) is more than %d",
                  nk, nvariants ? nvariants : 1, o->boots, MAX_CELLS);
    for (size_t c = 0; c < n; c++) {
        const struct lab_kernel *k = kernels[order[c].kernel];
        const struct lab_experiment *e = nvariants ? &variants[order[c].variant] : exp;
        specs[c] = (struct lab_cell_spec){.index = (int)c,
                                          .kernel = k,
                                          .exp = e,
                                          .profile = profile,
                                          .bus = bus,
                                          .channel = o->channel,
                                          .timeout_s = o->timeout,
                                          .boot = order[c].boot};
        if (lab_cell_check(&specs[c], skip[c], sizeof skip[c]) == 0) {
            skip[c][0] = '\0';
            (*runnable)++;
        } else if (order[c].boot == 1) {
            fprintf(stderr, "lab: skipping %s/%s: %s\n", k->name, exp->name, skip[c]);
        }
    }
    return n;
}

/* "none,io_load" -> {"none", "io_load"}; at most max names. */
static size_t split_list(const char *list, char (*out)[16], size_t max)
{
    size_t n = 0;
    for (const char *p = list; p && *p && n < max; n++) {
        size_t len = strcspn(p, ",");
        snprintf(out[n], sizeof out[n], "%.*s", (int)len, p);
        p += len + (p[len] == ',');
    }
    return n;
}

/* The variants of exp (loads x schedulers), pointing into loads/scheds. */
static size_t plan_variants(const struct lab_experiment *exp, char (*loads)[16], char (*scheds)[16],
                            struct lab_experiment *variants)
{
    size_t nl = split_list(exp->load_list, loads, MAX_LOADS);
    size_t ns = split_list(exp->scheduler_list, scheds, MAX_SCHEDS);
    if (!nl && !ns)
        return 0;
    size_t n = 0;
    for (size_t l = 0; l < (nl ? nl : 1); l++)
        for (size_t s = 0; s < (ns ? ns : 1); s++, n++) {
            variants[n] = *exp;
            if (nl)
                variants[n].load = loads[l];
            if (ns)
                variants[n].scheduler = strcmp(scheds[s], "default") == 0 ? NULL : scheds[s];
        }
    return n;
}

/* Readahead settings a cell sweeps (1 without a readahead_list): each
 * has its own warm-up. */
static unsigned groups_of(const struct lab_experiment *e)
{
    unsigned groups = 1;
    for (const char *p = e->readahead_list; p && *p; p++)
        groups += *p == ',';
    return groups;
}

/* Samples a cell sends: warm-ups and counted runs, per readahead setting. */
static unsigned runs_per_cell(const struct lab_experiment *e)
{
    return (e->reps + e->warmup) * groups_of(e);
}

/* The status line, with each runnable cell's expected time from history. */
static struct lab_progress *start_progress(struct lab_store *st, int64_t run,
                                           const struct lab_cell_spec *specs, size_t ncells,
                                           char (*skip)[256], const char *profile)
{
    struct lab_progress *p = lab_progress_start(stderr, st, run, ncells);
    for (size_t i = 0; i < ncells; i++) {
        char *params = lab_experiment_cmdline(specs[i].exp);
        if (skip[i][0])
            lab_progress_plan(p, i, NULL, NULL, NULL); /* takes no time */
        else
            lab_progress_plan(p, i, specs[i].kernel->name, params, profile);
        free(params);
    }
    return p;
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

int cmd_run(int argc, char **argv)
{
    struct run_opts o = {0};
    struct lab_experiment exp;
    struct lab_profile profile;
    const struct lab_bus *bus = NULL;
    const struct lab_kernel *kernels[MAX_KERNELS];
    static struct lab_cell_spec specs[MAX_CELLS];
    static char skip[MAX_CELLS][256];
    static struct lab_experiment variants[MAX_LOADS * MAX_SCHEDS];
    char loads[MAX_LOADS][16], scheds[MAX_SCHEDS][16];
    size_t nk, ncells, runnable;
    int failed = 0, rc = 2;

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
    if (lab_profile_resolve(o.profile, &profile) < 0 || (o.bus && !(bus = lab_bus_find(o.bus))))
        goto out_exp;
    ncells =
        plan_cells(&o, kernels, nk, &exp, variants, plan_variants(&exp, loads, scheds, variants),
                   &profile, bus, specs, skip, &runnable);
    if (runnable == 0) {
        lab_error("no cell can run (see the reasons above)");
        goto out_exp;
    }
    rc = 1;
    struct lab_session session;
    if (check_agents(kernels, nk) < 0 ||
        lab_session_open(&session, argc, argv, exp.name, profile.name) < 0)
        goto out_exp;
    struct lab_cell_env *env = &session.env;
    struct lab_store *st = env->store;
    int64_t run = env->run_id;

    size_t first = 0;
    while (first < ncells && skip[first][0])
        first++;
    const char *virt_type = lab_accel_choose(o.accel, env, &specs[first]);
    if (!virt_type) {
        lab_store_run_end(st, run, lab_interrupted ? "interrupted" : "failed");
        goto out_session;
    }

    fprintf(stderr,
            "lab: run %lld: %s, %zu cell(s) on %s (%u boot(s) per kernel, interleaved), %u run(s) "
            "each after %u warm-up, %s\n",
            (long long)run, exp.name, ncells, profile.name, o.boots, exp.reps, exp.warmup,
            strcmp(virt_type, "kvm") == 0 ? "KVM" : "TCG");
    /* Real-time or not is decided once per run, said once, and stored on
     * every cell (its "rt" fact). */
    char rt_note[256];
    int rt_prio = lab_rt_plan(o.no_rt, rt_note, sizeof rt_note);
    for (size_t i = 0; i < ncells; i++) {
        specs[i].rt_priority = rt_prio;
        specs[i].rt_note = rt_note;
    }
    enum lab_session_stop stop = LAB_GO;
    char stop_why[600] = "";
    size_t done = 0;
    struct lab_progress *progress = start_progress(st, run, specs, ncells, skip, profile.name);
    /* A cell with runs over a contention threshold (host/contention.h) gets
     * one more boot for as many runs, once: those runs are left out of the
     * statistics while at least 2 others remain. */
    static struct lab_experiment rerun_exp[MAX_CELLS];
    unsigned next_boot[MAX_CELLS] = {0}, reruns = 0, flagged_runs = 0;
    size_t planned = ncells;
    for (size_t i = 0; i < ncells; i++, done++) {
        struct lab_cell_result res;
        if ((stop = lab_session_check(&session, stop_why, sizeof stop_why)) != LAB_GO)
            break;
        const char *kname = specs[i].kernel->name;
        char what[160];
        snprintf(what, sizeof what, "%s%s%s%s%s", exp.name, exp.load_list ? " load=" : "",
                 exp.load_list ? specs[i].exp->load : "", exp.scheduler_list ? " scheduler=" : "",
                 exp.scheduler_list
                     ? (specs[i].exp->scheduler ? specs[i].exp->scheduler : "default")
                     : "");
        size_t what_len = strlen(what); /* without the boot, for messages */
        if (o.boots > 1 || i >= planned)
            snprintf(what + what_len, sizeof what - what_len, " boot %u/%u", specs[i].boot,
                     o.boots);
        if (skip[i][0]) {
            int64_t cell = lab_store_cell_begin(st, run, kname, exp.name, NULL);
            lab_store_cell_end(st, cell, "skipped", skip[i]);
            continue;
        }
        specs[i].virt_type = virt_type;
        if (i >= planned)
            snprintf(what + strlen(what), sizeof what - strlen(what), " (rerun of %u flagged run(s))",
                     specs[i].exp->reps);
        lab_progress_printf(progress, "lab: [%zu/%zu] %s: %s\n", i + 1, ncells, kname, what);
        if (i < planned)
            lab_progress_cell(progress, i, specs[i].kernel, what, runs_per_cell(specs[i].exp));
        int cell_rc = lab_engine_local_cell(env, &specs[i], o.sets, o.nsets, progress, &res);
        if (i < planned)
            lab_progress_cell_done(progress);
        if (cell_rc < 0) {
            failed++;
            lab_error("cell %s/%.*s %s: %s (boot %u of %u)", kname, (int)what_len, what,
                      lab_cell_status_name(res.status), res.reason, specs[i].boot, o.boots);
        } else {
            lab_progress_printf(
                progress,
                "lab: [%zu/%zu] %s: %u run(s) + %u warm-up, agent up after %.1f s, cell %.1f s\n",
                i + 1, ncells, kname, res.samples - exp.warmup * groups_of(&exp),
                exp.warmup * groups_of(&exp), (double)res.hello_ns / 1e9,
                (double)res.total_ns / 1e9);
        }
        flagged_runs += res.flagged;
        if (cell_rc == 0 && res.flagged && i < planned && ncells < MAX_CELLS) {
            lab_progress_printf(progress,
                                "lab: [%zu/%zu] %s: %u run(s) over the contention threshold: "
                                "rerun in another boot\n",
                                i + 1, ncells, kname, res.flagged);
            rerun_exp[ncells] = *specs[i].exp;
            rerun_exp[ncells].reps = res.flagged;
            specs[ncells] = specs[i];
            specs[ncells].index = (int)ncells;
            specs[ncells].exp = &rerun_exp[ncells];
            /* The next boot number of this kernel and variant. */
            size_t key = 0;
            while (key < i && !(specs[key].kernel == specs[i].kernel && specs[key].exp == specs[i].exp))
                key++;
            specs[ncells].boot = o.boots + 1 + next_boot[key]++;
            skip[ncells][0] = '\0';
            ncells++;
            reruns++;
        }
    }
    lab_progress_stop(progress);
    if (flagged_runs)
        fprintf(stderr,
                "lab: %u run(s) were over a contention threshold (left out where at least 2 "
                "others remain); %u cell(s) rerun\n",
                flagged_runs, reruns);
    if (stop == LAB_GO)
        stop = lab_session_check(&session, stop_why, sizeof stop_why);
    if (stop == LAB_STOP_STORE || stop == LAB_STOP_LIBVIRT)
        lab_error("stopped after %zu of %zu cell(s): %s", done, ncells, stop_why);
    const char *status = lab_interrupted ? "interrupted" : failed || stop ? "failed" : "ok";
    lab_store_run_end(st, run, status);
    printf("\n");
    lab_report_run(stdout, st, run);
    int written = write_outputs(&o, st, run);
    if (lab_interrupted)
        fprintf(stderr,
                "lab: interrupted; the samples measured so far are stored (lab show %lld)\n",
                (long long)run);
    rc = lab_interrupted ? 130 : failed || stop || written < 0 ? 1 : 0;
out_session:
    lab_session_close(&session);
out_exp:
    lab_experiment_free(&exp);
    free(o.kernels);
    return rc;
}
