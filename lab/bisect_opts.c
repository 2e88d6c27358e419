/* lab bisect's options: the table, --help and the parse (bisect_opts.h). */
#include "lab/bisect_opts.h"
#include "host/bisect/bisect.h"
#include "host/plan/experiment.h"
#include "common/msg.h"
#include "common/str.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    O_CONFIG = 256,
    O_CC,
    O_ARCH,
    O_ACCEL,
    O_TIMEOUT,
    O_SHOW,
    O_LIST,
    O_JUNIT,
    O_NO_RT,
    O_CPU,
    O_ENGINE,
    O_PARTITION
};
#define TEXT(field) offsetof(struct lab_bisect_opts, field)
#define NOT_TEXT    ((size_t)-1)

/* Every option, in --help's order. text: where an option that only keeps
 * its argument keeps it, or the int a flag sets; the others are
 * parse_opt's. An arg in [] is a flag's, taken from the next word. */
static const struct opt {
    const char *name;
    int ch;
    const char *arg;
    size_t text;
    const char *help; /* NULL: not in --help */
} opts[] = {
    {"repo", 'r', "DIR", TEXT(row.repo), "kernel git repository"},
    {"good", 'g', "REF", TEXT(row.good), "a commit with the old figure"},
    {"bad", 'B', "REF", TEXT(row.bad), "a later commit with the new figure"},
    {"experiment", 'e', "E", TEXT(row.experiment),
     "shipped experiment name or file (default seqread)"},
    {"metric", 'm', "M", TEXT(row.metric), "mbps, iops or secs (see below)"},
    {"threshold", 'T', "PCT", NOT_TEXT, "smallest relative change that counts (default 5)"},
    {"reps", 'n', "N", NOT_TEXT, "runs per step, after the warm-up (default 5)"},
    {"max-reps", 'N', "N", NOT_TEXT, "runs at most per step when inconclusive (default 20)"},
    {"profile", 'p', "P", TEXT(row.profile), "hardware profile (default fast)"},
    {"set", 's', "KEY=VALUE", NOT_TEXT, "override an experiment key (repeatable)"},
    {"config", O_CONFIG, "FRAGMENT", TEXT(cells.fragment),
     "extra kernel config options for every build"},
    {"cc", O_CC, "CC", TEXT(cells.cc), "compiler for the builds"},
    {"arch", O_ARCH, "A", TEXT(cells.arch),
     "x86_64 (default) or i686, for every build (era trees: i686)"},
    {"accel", O_ACCEL, "A", TEXT(cells.accel), "auto (default), tcg or kvm"},
    {"cpu", O_CPU, "NAME", TEXT(cells.cpu), "CPU profile from `lab cpus` (default fast)"},
    {"timeout", O_TIMEOUT, "S", NOT_TEXT, "seconds before a cell counts as hung"},
    {"no-rt", O_NO_RT, NULL, TEXT(no_rt), "no real-time scheduling of QEMU and nbdkit"},
    {"engine", O_ENGINE, "E", TEXT(engine),
     "local (default), or slurm: builds and boots as Slurm jobs"},
    {"partition", O_PARTITION, "P", TEXT(partition), "the Slurm partition (--engine slurm)"},
    {"show", O_SHOW, "[ID]", TEXT(show), "print a stored bisection (default the newest)"},
    {"list", O_LIST, NULL, TEXT(list), "list the stored bisections"},
    {"junit", O_JUNIT, "FILE", TEXT(junit), "also write JUnit XML (with --show: of a stored one)"},
    {"help", 'h', NULL, NOT_TEXT, NULL},
};
#define NOPTS        (sizeof opts / sizeof opts[0])
#define TAKES_ARG(p) ((p)->arg && (p)->arg[0] != '[')

static void bisect_usage(FILE *out)
{
    fprintf(out, "usage: lab bisect --repo DIR --good REF --bad REF --experiment E --metric M "
                 "[options]\n       lab bisect --show [ID] | --list\n");
    for (const struct opt *p = opts; p < opts + NOPTS; p++) {
        char word[32], flag[8] = "   ";
        snprintf(word, sizeof word, "--%s%s%s", p->name, p->arg ? " " : "", p->arg ? p->arg : "");
        if (p->ch < 256)
            snprintf(flag, sizeof flag, "-%c,", p->ch);
        if (p->help)
            fprintf(out, "  %s %-19s%s\n", flag, word, p->help);
    }
    fprintf(out, "metrics:\n");
    lab_metric_help(out);
}

/* One option that is not text: 0, or -1 said. */
static int parse_opt(int ch, struct lab_bisect_opts *o)
{
    uint64_t v;
    char *end;
    switch (ch) {
    case 'T':
        o->row.threshold_pct = strtod(optarg, &end);
        if (*end || !(o->row.threshold_pct >= 0) || o->row.threshold_pct > 1000)
            return lab_error("--threshold wants a percentage, not '%s'", optarg);
        return 0;
    case 'n':
    case 'N':
        if (lab_parse_u64(optarg, 2, 1000, &v) < 0)
            return lab_error("--%s wants a number from 2 to 1000, not '%s'",
                             ch == 'n' ? "reps" : "max-reps", optarg);
        *(ch == 'n' ? &o->row.reps : &o->row.max_reps) = (unsigned)v;
        return 0;
    case 's':
        if (o->nsets == sizeof o->sets / sizeof o->sets[0])
            return lab_error("too many --set options");
        o->sets[o->nsets++] = optarg;
        return 0;
    case O_TIMEOUT:
        if (lab_parse_u64(optarg, 1, LAB_TIMEOUT_MAX_S, &v) < 0)
            return lab_error("--timeout wants seconds from 1 to %d, not '%s'", LAB_TIMEOUT_MAX_S,
                             optarg);
        o->cells.timeout_s = (unsigned)v;
        return 0;
    case 'h':
        bisect_usage(stdout);
        exit(0);
    }
    bisect_usage(stderr);
    return -1;
}

/* getopt_long's tables from opts: the long options and the short string. */
static void getopt_tables(struct option *lo, char *shorts)
{
    for (size_t i = 0; i < NOPTS; i++) {
        lo[i] = (struct option){opts[i].name, TAKES_ARG(&opts[i]), NULL, opts[i].ch};
        if (opts[i].ch < 256) {
            *shorts++ = (char)opts[i].ch;
            if (TAKES_ARG(&opts[i]))
                *shorts++ = ':';
        }
    }
    lo[NOPTS] = (struct option){0};
    *shorts = '\0';
}

int lab_bisect_opts_slurm(const struct lab_bisect_opts *o)
{
    return o->engine && strcmp(o->engine, "slurm") == 0;
}

int lab_bisect_opts_parse(int argc, char **argv, struct lab_bisect_opts *o)
{
    *o = (struct lab_bisect_opts){.row = {.experiment = "seqread",
                                          .profile = "fast",
                                          .threshold_pct = 5,
                                          .reps = 5,
                                          .max_reps = 20},
                                  .cells = {.accel = "auto"},
                                  .show_id = -1};
    struct option lo[NOPTS + 1];
    char shorts[2 * NOPTS + 1];
    int ch;
    getopt_tables(lo, shorts);
    while ((ch = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
        const struct opt *p = opts;
        while (p < opts + NOPTS && p->ch != ch)
            p++;
        if (p < opts + NOPTS && p->text != NOT_TEXT && TAKES_ARG(p))
            *(const char **)((char *)o + p->text) = optarg;
        else if (p < opts + NOPTS && p->text != NOT_TEXT)
            *(int *)((char *)o + p->text) = 1;
        else if (parse_opt(ch, o) < 0)
            return -1;
    }
    if (o->show && optind < argc) {
        if (lab_parse_id(argv[optind], &o->show_id) < 0)
            return lab_error("--show wants a bisection id, not '%s'", argv[optind]);
        optind++;
    }
    if (optind < argc)
        return lab_error("unexpected argument '%s'", argv[optind]);
    if (o->show || o->list)
        return 0;
    if (!o->row.repo || !o->row.good || !o->row.bad || !o->row.metric)
        return lab_error("--repo, --good, --bad and --metric are required (lab bisect --help)");
    if (o->row.max_reps < o->row.reps)
        o->row.max_reps = o->row.reps;
    o->cells.repo = o->row.repo;
    if (o->engine && strcmp(o->engine, "local") != 0 && strcmp(o->engine, "slurm") != 0)
        return lab_error("unknown engine '%s' for bisect: local or slurm", o->engine);
    if (o->cells.arch && strcmp(o->cells.arch, "x86_64") != 0 && strcmp(o->cells.arch, "i686") != 0)
        return lab_error("--arch wants x86_64 or i686, not '%s'", o->cells.arch);
    if (o->partition && !lab_bisect_opts_slurm(o))
        return lab_error("--partition is for --engine slurm");
    return 0;
}
