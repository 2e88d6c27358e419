/* lab: boots matrices of guest kernels under QEMU through libvirt and
 * compares their IO performance. This file only dispatches subcommands. */
#include "lab/commands.h"
#include "common/msg.h"
#include "common/paths.h"
#include "common/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct command {
    const char *name;
    int (*fn)(int, char **);
    const char *args, *what;
} commands[] = {
    {"run", cmd_run, "--kernels A,B [-e E] [--json F] [--junit F]", "boot kernels, run, compare"},
    {"kernels", cmd_kernels, "list|show|era|fetch|add|remove|build|toolchain",
     "catalog, era facts, user kernels, builds"},
    {"cell", cmd_cell, "--spec CELL.json --out DIR", "run one cell job into a result bundle"},
    {"import", cmd_import, "[--run N] DIR...", "load result bundles into the store, once each"},
    {"bisect", cmd_bisect, "--repo DIR --good REF --bad REF --metric M",
     "find the commit that changed performance"},
    {"experiments", cmd_experiments, "", "the shipped experiments"},
    {"profiles", cmd_profiles, "", "the hardware profiles"},
    {"runs", cmd_runs, "", "stored runs"},
    {"show", cmd_show, "[RUN] [--format json] [--timing]",
     "report of a stored run (--timing: where its cells' time went)"},
    {"trace", cmd_trace, "[RUN [KERNEL]]", "the era disk's request pattern in a run"},
    {"report", cmd_report, "RUN [RUN ...] --html DIR", "an HTML page of plots of stored runs"},
    {"compare", cmd_compare, "RUN_A RUN_B", "two stored runs side by side"},
    {"doctor", cmd_doctor, "", "check what a cell needs on this machine"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: lab [-v] COMMAND [ARGS]\n\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  lab %-12s %-48s %s\n", commands[i].name, commands[i].args,
                commands[i].what);
    fprintf(out, "\nlab COMMAND --help shows a command's options. Cache: %s\n", lab_home());
}

const char *lab_store_path(void)
{
    static char *path;
    const char *env = getenv("LAB_STORE");
    if (!path)
        path = env && *env ? lab_xstrdup(env) : lab_asprintf("%s/results.db", lab_home());
    return path;
}

int main(int argc, char **argv)
{
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "-v") == 0 || strcmp(argv[i], "--verbose") == 0) {
            lab_verbose = 1;
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return 0;
        } else {
            lab_error("unknown option '%s'", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    if (i == argc) {
        usage(stderr);
        return 2;
    }
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++)
        if (strcmp(argv[i], commands[c].name) == 0)
            return commands[c].fn(argc - i, argv + i);
    lab_error("unknown command '%s'", argv[i]);
    usage(stderr);
    return 2;
}
