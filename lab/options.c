/* Options parsed from a table; see options.h. */
#include "lab/options.h"
#include "common/msg.h"
#include "common/str.h"

#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>

#define MAX_OPTS 64

void lab_opts_usage(FILE *out, const char *head, const struct lab_opt *opts, size_t n)
{
    fprintf(out, "%s\n", head);
    for (size_t i = 0; i < n; i++)
        if (opts[i].usage)
            fprintf(out, "%s\n", opts[i].usage);
}

/* One option's value into dst; -1 with the error said. */
static int set_opt(const struct lab_opt *d, char *arg, void *dst)
{
    char *field = (char *)dst + d->off, *end;
    size_t *count = (size_t *)((char *)dst + d->count_off);
    uint64_t v;
    switch (d->type) {
    case LAB_OPT_STR:
        *(const char **)field = arg;
        return 0;
    case LAB_OPT_FLAG:
        *(int *)field = 1;
        return 0;
    case LAB_OPT_LIST:
        if (*count == d->max)
            return lab_error("too many --%s options", d->name);
        ((char **)field)[(*count)++] = arg;
        return 0;
    case LAB_OPT_UINT:
        if (lab_parse_u64(arg, 1, d->max, &v) < 0)
            return lab_error("--%s wants %s from 1 to %u, not '%s'", d->name, d->wants, d->max,
                             arg);
        *(unsigned *)field = (unsigned)v;
        return 0;
    case LAB_OPT_PCT: {
        double x = strtod(arg, &end);
        if (*end || !(x >= 0) || x > d->max)
            return lab_error("--%s wants %s, not '%s'", d->name, d->wants, arg);
        *(double *)field = x;
        return 0;
    }
    case LAB_OPT_HELP:
        break;
    }
    return -1;
}

int lab_opts_parse(int argc, char **argv, const char *shortopts, const char *head,
                   const struct lab_opt *opts, size_t n, void *dst)
{
    struct option longopts[MAX_OPTS + 1] = {{0}};
    int ch;
    if (n > MAX_OPTS)
        abort(); /* a table this long is a programming error */
    for (size_t i = 0; i < n; i++)
        longopts[i] = (struct option){opts[i].name,
                                      opts[i].type == LAB_OPT_FLAG || opts[i].type == LAB_OPT_HELP
                                          ? no_argument
                                          : required_argument,
                                      NULL, opts[i].letter};
    while ((ch = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        size_t i = 0;
        while (i < n && opts[i].letter != ch)
            i++;
        if (i == n) {
            lab_opts_usage(stderr, head, opts, n);
            return -1;
        }
        if (opts[i].type == LAB_OPT_HELP) {
            lab_opts_usage(stdout, head, opts, n);
            exit(0);
        }
        if (set_opt(&opts[i], optarg, dst) < 0)
            return -1;
    }
    return 0;
}
