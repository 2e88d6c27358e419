/* lab run's options: the table and the parse (run_opts.h). */
#include "lab/run_opts.h"
#include "host/plan/experiment.h"
#include "host/plan/order.h"
#include "lab/engine_opts.h"
#include "lab/options.h"
#include "lab/outputs.h"
#include "lab/seedkernels.h"
#include "common/msg.h"

#include <getopt.h>
#include <stddef.h>

#define OFF(f) offsetof(struct lab_run_opts, f)
#define MORE   "\n                         "
static const struct lab_opt opts[] = {
    {"kernels", 'k', LAB_OPT_STR, OFF(kernels), 0, 0, NULL,
     "  -k, --kernels LIST     comma-separated: kernels from `lab kernels list`, kernel.org" MORE
     "release names (2.6.11, 2.6.12-rc2, 2.6.11.7, 6.1: fetched from $LAB_KERNEL_MIRROR," MORE
     "patched, built and smoke-tested once) and variants NAME+FILE[+FILE...] (the" MORE
     "release with patch files applied in order): 2.4.20,2.4.20+rl2.diff; default: the" MORE
     "experiment's own kernels (its kernels line, docs/seeds.md)"},
    {"arch", 'A', LAB_OPT_STR, OFF(arch), 0, 0, NULL,
     "      --arch A           x86_64 or i686 for kernels built by name (default: i686" MORE
     "for 2.x, x86_64 from 3.0)"},
    {"experiment", 'e', LAB_OPT_STR, OFF(experiment), 0, 0, NULL,
     "  -e, --experiment E     shipped experiment name or file (default seqread)"},
    {"reps", 'n', LAB_OPT_UINT, OFF(reps), 0, 1000, "a number",
     "  -n, --reps N           runs per kernel (overrides the experiment)"},
    {"set", 's', LAB_OPT_LIST, OFF(sets), OFF(nsets), 32, NULL,
     "  -s, --set KEY=VALUE    override an experiment key (repeatable)"},
    {"profile", 'p', LAB_OPT_STR, OFF(profile), 0, 0, NULL,
     "  -p, --profile P        hardware profile: fast (default), a `lab profiles` name," MORE
     "or iotune:BYTES_PER_S,IOPS"},
    {"cpu", 'C', LAB_OPT_STR, OFF(cpu), 0, 0, NULL,
     "      --cpu NAME         CPU profile: fast (default, or the profile's cpu) or an era" MORE
     "CPU from `lab cpus` (QEMU's instruction counter)"},
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
     "      --json FILE        also write the run as JSON (schema: docs/json.md)"},
    {"junit", 'U', LAB_OPT_STR, OFF(junit), 0, 0, NULL,
     "      --junit FILE       also write JUnit XML: a slower comparison is a failure," MORE
     "a cell that could not run an error"},
    {"threshold", 'T', LAB_OPT_PCT, OFF(threshold), 0, 1000, "a percentage",
     "  -T, --threshold PCT    smallest change that fails in --junit and --fail-on (default 5)"},
    {"fail-on", 'F', LAB_OPT_STR, OFF(fail_on), 0, 0, NULL,
     "      --fail-on WHAT     exit 3 when a comparison is significantly slower, faster or" MORE
     "either (change), by --threshold or more"},
    LAB_ENGINE_OPTS(OFF(eng)),
    {"help", 'h', LAB_OPT_HELP, 0, 0, 0, NULL, NULL},
};

int lab_run_opts_parse(int argc, char **argv, struct lab_run_opts *o)
{
    *o = (struct lab_run_opts){
        .threshold = 5, .experiment = "seqread", .accel = "auto", .profile = "fast", .boots = 2};
    if (lab_opts_parse(argc, argv, "k:e:n:s:p:b:T:j:h",
                       "usage: lab run --kernels A[,B...] [options]", opts,
                       sizeof opts / sizeof opts[0], o) < 0)
        return -1;
    if (optind < argc)
        return lab_error("unexpected argument '%s'", argv[optind]);
    if (!o->kernels && !(o->kernels = lab_seed_kernels(o->experiment, o->sets, o->nsets)))
        return -1; /* the experiment's own kernels, or said why not */
    if (o->fail_on && !lab_gate_valid(o->fail_on))
        return lab_error("--fail-on wants slower, faster or change, not '%s'", o->fail_on);
    return lab_engine_check(&o->eng); /* before anything is stored */
}
