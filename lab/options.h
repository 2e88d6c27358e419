/* A command's options as data (fio's options table): one row per option
 * gives getopt_long its entry, the usage its line, and the parser where
 * the value goes and its range, so parsing, checking and --help cannot
 * drift apart. */
#ifndef LAB_OPTIONS_H
#define LAB_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

enum lab_opt_type {
    LAB_OPT_STR,  /* const char * (the argument itself) */
    LAB_OPT_UINT, /* unsigned, 1 .. max (lab_parse_u64) */
    LAB_OPT_PCT,  /* double, 0 .. max */
    LAB_OPT_FLAG, /* int, set to 1; no argument */
    LAB_OPT_LIST, /* char *[max] at off, its count (size_t) at count_off; repeatable */
    LAB_OPT_HELP, /* prints the usage to stdout and exits 0 */
};

struct lab_opt {
    const char *name; /* the long option, without -- */
    int letter;       /* its short option, or a code of its own above 127 */
    enum lab_opt_type type;
    size_t off; /* where the value goes in the command's options struct */
    size_t count_off;
    unsigned max;
    const char *wants; /* a bad value: "--NAME wants WANTS [from 1 to MAX], not 'x'" */
    const char *usage; /* its --help line(s); NULL: not listed */
};

/* The usage: head, then every row's usage line. */
void lab_opts_usage(FILE *out, const char *head, const struct lab_opt *opts, size_t n);

/* Parses argv into dst by the table (shortopts as for getopt_long). 0, or
 * -1 with the error said (an unknown option prints the usage to stderr). */
int lab_opts_parse(int argc, char **argv, const char *shortopts, const char *head,
                   const struct lab_opt *opts, size_t n, void *dst);

#endif
