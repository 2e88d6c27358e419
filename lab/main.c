/* lab: boots matrices of guest kernels under QEMU through libvirt and
 * compares their IO performance. This file only dispatches subcommands. */
#include "lab/commands.h"
#include "common/msg.h"
#include "common/paths.h"
#include "common/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every command: its synopsis and one line for `lab --help`, and whether
 * it answers --help itself from its own option table (own_help); main
 * answers for the others from this table, so every command has --help. */
const struct lab_command lab_commands[] = {
    {"run", cmd_run, "--kernels A,B [-e E] [--json F] [--junit F]", "boot kernels, run, compare",
     1},
    {"kernels", cmd_kernels, "list|show|era|fetch|add|remove|build|verify|toolchain",
     "catalog, era facts, user kernels, builds", 1},
    {"cell", cmd_cell, "--spec CELL.json --out DIR", "run one cell job into a result bundle", 1},
    {"import", cmd_import, "[--run N] DIR...", "load result bundles into the store, once each", 1},
    {"bisect", cmd_bisect, "--repo DIR --good REF --bad REF --metric M",
     "find the commit that changed performance", 1},
    {"experiments", cmd_experiments, "", "the shipped experiments", 0},
    {"profiles", cmd_profiles, "", "the hardware profiles", 0},
    {"cpus", cmd_cpus, "", "the CPU profiles (--cpu): era CPUs at QEMU's counter rates", 0},
    {"runs", cmd_runs, "", "stored runs", 0},
    {"show", cmd_show, "[RUN] [--format text|json] [--timing]",
     "report of a stored run (--timing: where its cells' time went)", 0},
    {"trace", cmd_trace, "[RUN [KERNEL]]", "the era disk's request pattern in a run", 0},
    {"report", cmd_report, "RUN [RUN ...] --html DIR", "an HTML page of plots of stored runs", 1},
    {"compare", cmd_compare, "[--force] RUN_A RUN_B", "two stored runs side by side", 1},
    {"doctor", cmd_doctor, "", "check what a cell needs on this machine", 1},
    {"help", cmd_help, "[COMMAND|TOPIC]", "a command's usage, or a topic of the manual", 0},
};
const size_t lab_ncommands = sizeof lab_commands / sizeof lab_commands[0];

static void usage(FILE *out)
{
    fprintf(out, "usage: lab [-v] COMMAND [ARGS]\n       lab --version\n\n");
    for (size_t i = 0; i < lab_ncommands; i++)
        fprintf(out, "  lab %-12s %-48s %s\n", lab_commands[i].name, lab_commands[i].args,
                lab_commands[i].what);
    fprintf(out,
            "\nlab COMMAND --help shows a command's options; lab help TOPIC a topic (lab help\n"
            "lists them). Cache: %s\n",
            lab_home());
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
        } else if (strcmp(argv[i], "--version") == 0 || strcmp(argv[i], "-V") == 0) {
            return lab_print_version(stdout) < 0 ? 1 : 0;
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
    for (size_t c = 0; c < lab_ncommands; c++) {
        const struct lab_command *cmd = &lab_commands[c];
        if (strcmp(argv[i], cmd->name) != 0)
            continue;
        if (lab_parse_only_asked()) /* LAB_PARSE_ONLY=1: check the line, run nothing */
            return lab_parse_only(cmd, argc - i, argv + i);
        if (!cmd->own_help && lab_help_asked(argc - i, argv + i))
            return lab_command_usage(stdout, cmd), 0;
        return cmd->fn(argc - i, argv + i);
    }
    lab_error("unknown command '%s'", argv[i]);
    usage(stderr);
    return 2;
}
