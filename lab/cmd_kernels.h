/* The subcommands of `lab kernels`, one file per concern; lab/cmd_kernels.c
 * dispatches to them. Each takes the words after its own name (add, build
 * and verify: from the subcommand's name on, for getopt and the smoke
 * test's command line) and returns the exit code. */
#ifndef LAB_CMD_KERNELS_H
#define LAB_CMD_KERNELS_H

struct lab_era;
struct lab_kernel;

int lab_kernels_show(int argc, char **argv);      /* cmd_kernels_show.c */
int lab_kernels_era(int argc, char **argv);       /* cmd_kernels_era.c */
int lab_kernels_add(int argc, char **argv);       /* cmd_kernels_build.c */
int lab_kernels_remove(int argc, char **argv);    /* cmd_kernels_build.c */
int lab_kernels_build(int argc, char **argv);     /* cmd_kernels_build.c */
int lab_kernels_verify(int argc, char **argv);    /* cmd_kernels_build.c */
int lab_kernels_toolchain(int argc, char **argv); /* cmd_kernels_toolchain.c */

/* The era's decisions, its buses and the era table's explanation. */
void lab_kernels_print_era(const struct lab_era *era);
/* Which buses and agent channels k's .config can drive under era. */
void lab_kernels_print_config_buses(const struct lab_kernel *k, const struct lab_era *era);

#endif
