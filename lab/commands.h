/* The lab's subcommands; main.c dispatches through a table of these. */
#ifndef LAB_COMMANDS_H
#define LAB_COMMANDS_H

int cmd_run(int argc, char **argv);
int cmd_kernels(int argc, char **argv);
int cmd_experiments(int argc, char **argv);
int cmd_profiles(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_cell(int argc, char **argv);
int cmd_import(int argc, char **argv);

/* The result store every command reads and writes ($LAB_STORE or
 * $LAB_HOME/results.db). */
const char *lab_store_path(void);

#endif
