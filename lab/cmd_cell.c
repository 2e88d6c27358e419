/* lab cell: one cell job into a result bundle, on this host (issue 11).
 * What every engine runs; `lab run` runs the same code in-process. With
 * --write, it plans a job here instead (what a controller sends). */
#include "lab/commands.h"
#include "host/run/bundle.h"
#include "kernels/catalog.h"
#include "common/interrupt.h"
#include "common/msg.h"
#include "common/str.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_SETS 32

static void cell_usage(FILE *out)
{
    fprintf(out, "usage: lab cell --spec CELL.json --out DIR [--attempt N]\n"
                 "       lab cell --write CELL.json --kernel NAME --experiment NAME|FILE\n"
                 "                [--profile NAME] [--set KEY=VALUE]...\n"
                 "  runs the cell job CELL.json here (local libvirt, nbdkit and clocks) and\n"
                 "  writes its result bundle into DIR (MANIFEST.json last); exit 0 when the\n"
                 "  cell is ok, 1 when it failed, 130 when interrupted; `lab import DIR`\n"
                 "  loads it into a store. The job carries its plan (the experiment as\n"
                 "  resolved, a model profile's text, the plan's SHA-256): the worker needs\n"
                 "  no experiment file, and runs the cell only if it plans it the same.\n"
                 "  --write plans one cell job here (TCG, boot 1) and writes it\n");
}

struct cell_args {
    const char *spec, *out, *write, *kernel, *experiment, *profile;
    char *sets[MAX_SETS];
    size_t nsets;
    uint64_t attempt;
};

/* --write: the job a controller would send for this kernel and experiment. */
static int write_job(const struct cell_args *a)
{
    const struct lab_kernel *k = lab_kernel_find(a->kernel);
    if (!k)
        return lab_error("unknown kernel '%s' (`lab kernels list` lists them)", a->kernel), 2;
    struct lab_experiment exp;
    struct lab_profile profile;
    if (lab_experiment_prepare(a->experiment, a->sets, a->nsets, &exp) < 0)
        return 2;
    if (lab_profile_resolve(a->profile ? a->profile : "fast", &profile) < 0) {
        lab_experiment_free(&exp);
        return 2;
    }
    struct lab_cell_spec spec = {
        .kernel = k, .exp = &exp, .profile = &profile, .virt_type = "qemu", .boot = 1};
    struct lab_cell_job job;
    lab_cell_job_from_spec(&job, 0, &spec);
    snprintf(job.key, sizeof job.key, "cell-%s-%s", k->name, exp.name);
    int rc = lab_cell_job_write(&job, a->write) < 0 ? 1 : 0;
    if (rc == 0)
        fprintf(stderr, "lab: cell job %s (plan %.12s) written to %s\n", job.key, job.plan_sha256,
                a->write);
    lab_cell_job_free(&job);
    lab_experiment_free(&exp);
    return rc;
}

static int run_job(const struct cell_args *a)
{
    struct lab_cell_job job;
    if (lab_cell_job_read(a->spec, &job) < 0)
        return 2;
    if (a->attempt)
        job.attempt = (unsigned)a->attempt;
    lab_install_signal_handlers();
    struct lab_cell_result res;
    int rc = lab_bundle_run(&job, a->out, &res);
    lab_cell_job_free(&job);
    if (rc < 0)
        return 1;
    if (res.status != LAB_CELL_OK)
        lab_error("cell %s on %s %s: %s", job.key, lab_bundle_host(),
                  lab_cell_status_name(res.status), res.reason);
    else
        fprintf(stderr, "lab: cell %s on %s: %u sample(s), cell %.1f s; bundle %s\n", job.key,
                lab_bundle_host(), res.samples, (double)res.total_ns / 1e9, a->out);
    return res.status == LAB_CELL_OK ? 0 : res.status == LAB_CELL_INTERRUPTED ? 130 : 1;
}

int cmd_cell(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"spec", required_argument, NULL, 's'},    {"out", required_argument, NULL, 'o'},
        {"attempt", required_argument, NULL, 'a'}, {"write", required_argument, NULL, 'w'},
        {"kernel", required_argument, NULL, 'k'},  {"experiment", required_argument, NULL, 'e'},
        {"profile", required_argument, NULL, 'p'}, {"set", required_argument, NULL, 'S'},
        {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0},
    };
    struct cell_args a = {0};
    int ch;
    while ((ch = getopt_long(argc, argv, "s:o:h", longopts, NULL)) != -1) {
        const char **str[] = {['s'] = &a.spec,   ['o'] = &a.out,        ['w'] = &a.write,
                              ['k'] = &a.kernel, ['e'] = &a.experiment, ['p'] = &a.profile};
        if (ch < (int)(sizeof str / sizeof str[0]) && ch > 0 && str[ch])
            *str[ch] = optarg;
        else if (ch == 'S' && a.nsets < MAX_SETS)
            a.sets[a.nsets++] = optarg;
        else if (ch == 'a' && lab_parse_u64(optarg, 1, 1000, &a.attempt) < 0)
            return lab_error("--attempt wants a number from 1 to 1000, not '%s'", optarg), 2;
        else if (ch == 'h')
            return cell_usage(stdout), 0;
        else if (ch != 'a')
            return cell_usage(stderr), 2;
    }
    if (optind < argc)
        return cell_usage(stderr), 2;
    if (a.write && a.kernel && a.experiment && !a.spec && !a.out)
        return write_job(&a);
    if (!a.spec || !a.out || a.write || a.kernel || a.experiment || a.profile || a.nsets)
        return cell_usage(stderr), 2;
    return run_job(&a);
}
