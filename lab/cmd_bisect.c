/* lab bisect: find the commit that changed a measured IO figure, by
 * building, booting and measuring commits of a kernel git repo. Options and
 * printing only: the loop is host/bisectdriver.h, its real ops (builds,
 * cells) host/bisectcells.h, its words host/bisectreport.h, the git
 * plumbing host/git.h, the stored rows host/store_bisect.h. */
#include "host/bisectcells.h"
#include "host/bisectreport.h"
#include "host/bisectslurm.h"
#include "host/git.h"
#include "host/rt.h"
#include "host/store.h"
#include "host/store_bisect.h"
#include "lab/commands.h"
#include "lab/session.h"

#include "common/msg.h"
#include "common/str.h"

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct bisect_opts {
    struct lab_bisect_row row;     /* repo, good, bad, experiment, metric, profile, ... */
    struct lab_bisect_cells cells; /* fragment, cc, accel, timeout_s */
    const char *junit;             /* JUnit XML of the bisection, written at the end */
    const char *engine;            /* "local" (NULL) or "slurm" */
    const char *partition;         /* slurm */
    char *sets[32];
    size_t nsets;
    int show, list, no_rt;
    int64_t show_id;
};

enum {
    O_CONFIG = 256,
    O_CC,
    O_ACCEL,
    O_TIMEOUT,
    O_SHOW,
    O_LIST,
    O_JUNIT,
    O_NO_RT,
    O_ENGINE,
    O_PARTITION
};
#define TEXT(field) offsetof(struct bisect_opts, field)
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
    {"accel", O_ACCEL, "A", TEXT(cells.accel), "auto (default), tcg or kvm"},
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
static int parse_opt(int ch, struct bisect_opts *o)
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

static int is_slurm(const struct bisect_opts *o)
{
    return o->engine && strcmp(o->engine, "slurm") == 0;
}

static int parse_opts(int argc, char **argv, struct bisect_opts *o)
{
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
    if (o->partition && !is_slurm(o))
        return lab_error("--partition is for --engine slurm");
    return 0;
}

static int do_show(const struct bisect_opts *o)
{
    struct lab_store *st;
    if (lab_store_open(lab_store_path(), &st) < 0)
        return 1;
    int rc = o->list ? lab_store_bisect_list(st, stdout)
                     : lab_bisect_show(stdout, st, o->show_id, o->junit);
    lab_store_close(st);
    return rc != 0;
}

/* The session's stop checks, as the driver's stop hook. */
static enum lab_bisect_stop session_stop(void *ctx, char *why, size_t len)
{
    enum lab_session_stop s = lab_session_check(ctx, why, len);
    return s == LAB_GO                 ? LAB_BISECT_RUN_ON
           : s == LAB_STOP_INTERRUPTED ? LAB_BISECT_STOP_SIGNAL
                                       : LAB_BISECT_STOP_FAILURE;
}

/* The bisection proper, in a session of its own: the exit code. */
static int bisect(int argc, char **argv, struct bisect_opts *o, struct lab_bisect_setup *set)
{
    struct lab_session session;
    if (lab_session_open(&session, argc, argv, set->row.experiment, set->row.profile) < 0)
        return 1;
    o->cells.env = session.env;
    o->cells.rt_priority = lab_rt_plan(o->no_rt, o->cells.rt_note, sizeof o->cells.rt_note);
    set->row.run = session.env.run_id;
    set->row.command_line = session.command_line;
    set->hooks = (struct lab_bisect_hooks){
        .stop = session_stop, .report = lab_bisect_report_line, .ctx = &session};
    /* The same driver either way: only the ops differ. */
    struct lab_bisect_slurm *slurm = NULL;
    if (is_slurm(o)) {
        if (!(slurm = lab_bisect_slurm_open(&o->cells, o->partition))) {
            lab_store_run_end(session.env.store, session.env.run_id, "failed");
            lab_session_close(&session);
            return 1;
        }
        set->ops = &lab_bisect_slurm_ops;
        set->ops_ctx = slurm;
    }
    struct lab_bisect_result r;
    int rc = lab_bisect_drive(set, session.env.store, &r);
    lab_bisect_slurm_close(slurm);
    lab_bisect_print_result(stdout, set, &r);
    if (o->junit && lab_bisect_junit_stored(session.env.store, r.id, o->junit) < 0 && rc == 0)
        rc = 1;
    lab_store_run_end(session.env.store, session.env.run_id, r.run_status);
    lab_bisect_result_free(&r);
    lab_session_close(&session);
    return rc;
}

int cmd_bisect(int argc, char **argv)
{
    struct bisect_opts o = {.row = {.experiment = "seqread",
                                    .profile = "fast",
                                    .threshold_pct = 5,
                                    .reps = 5,
                                    .max_reps = 20},
                            .cells = {.accel = "auto"},
                            .show_id = -1};
    char(*commits)[41] = NULL;
    const struct lab_metric *metric;
    if (parse_opts(argc, argv, &o) < 0)
        return 2;
    if (o.show || o.list)
        return do_show(&o);
    if (!(metric = lab_metric_find(o.row.metric)))
        return lab_error("unknown metric '%s' (mbps, iops or secs)", o.row.metric), 2;
    size_t n = lab_git_range(o.row.repo, o.row.good, o.row.bad, &commits);
    struct lab_bisect_cells *c = &o.cells;
    if (!n ||
        lab_bisect_cells_prepare(c, metric, o.row.experiment, o.sets, o.nsets, o.row.profile) < 0) {
        free(commits);
        return 2;
    }
    struct lab_bisect_setup set;
    lab_bisect_cells_setup(c, (const char(*)[41])commits, n, &o.row, &set);
    int rc = bisect(argc, argv, &o, &set);
    lab_bisect_cells_free(c);
    free(commits);
    return rc;
}
