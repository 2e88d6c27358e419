/* The lab's subcommands; main.c dispatches through a table of these. */
#ifndef LAB_COMMANDS_H
#define LAB_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

int cmd_run(int argc, char **argv);
int cmd_kernels(int argc, char **argv);
int cmd_experiments(int argc, char **argv);
int cmd_profiles(int argc, char **argv);
int cmd_cpus(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_cell(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_help(int argc, char **argv);

/* The command table (main.c): dispatch, `lab --help`, `lab help`. */
struct lab_command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *args, *what;
    int own_help; /* answers --help from its own option table */
};
extern const struct lab_command lab_commands[];
extern const size_t lab_ncommands;

/* lab/help.c: is argv[1] -h or --help; a command's usage from the table;
 * `lab --version`. */
int lab_help_asked(int argc, char **argv);
void lab_command_usage(FILE *out, const struct lab_command *cmd);
int lab_print_version(FILE *out);

/* lab/help.c: LAB_PARSE_ONLY=1 asks to check a command line without
 * running it (tests/shape/doccmds.py); lab_parse_only checks cmd's
 * options against its usage and returns the exit code: 0, or 2 said. */
int lab_parse_only_asked(void);
int lab_parse_only(const struct lab_command *cmd, int argc, char **argv);

/* The result store every command reads and writes ($LAB_STORE or
 * $LAB_HOME/results.db). */
const char *lab_store_path(void);

#endif
