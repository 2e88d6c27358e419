/* lab bisect: find the commit that changed a measured IO figure, by
 * building, booting and measuring commits of a kernel git repo. The
 * decision of each step is statistical (host/bisect.h); both endpoints are
 * re-measured first; build, boot and cell failures are skips, never bad. */
#include "host/accel.h"
#include "host/bisect.h"
#include "kernels/catalog.h"
#include "host/cell.h"
#include "lab/commands.h"
#include "host/junit.h"
#include "lab/session.h"
#include "host/experiment.h"
#include "kernels/build.h"
#include "host/profile.h"
#include "host/stats.h"
#include "host/store.h"
#include "host/rt.h"
#include "host/smoke.h"
#include "common/proc.h"
#include "common/clock.h"
#include "common/interrupt.h"
#include "common/msg.h"
#include "common/str.h"
#include "host/vm.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_COMMITS 100000

struct bisect_opts {
    const char *repo, *good, *bad, *experiment, *metric, *profile, *fragment, *cc, *accel;
    const char *junit; /* JUnit XML of the bisection, written at the end */
    double threshold;
    unsigned reps, max_reps, timeout;
    char *sets[32];
    size_t nsets;
    int show, list;
    int no_rt; /* --no-rt */
    int64_t show_id;
};

static void bisect_usage(FILE *out)
{
    fprintf(
        out,
        "usage: lab bisect --repo DIR --good REF --bad REF --experiment E --metric M [options]\n"
        "       lab bisect --show [ID] | --list\n"
        "  -r, --repo DIR         kernel git repository\n"
        "  -g, --good REF         a commit with the old figure\n"
        "  -B, --bad REF          a later commit with the new figure\n"
        "  -e, --experiment E     shipped experiment name or file (default seqread)\n"
        "  -m, --metric M         mbps, iops or secs (see below)\n"
        "  -T, --threshold PCT    smallest relative change that counts (default 5)\n"
        "  -n, --reps N           runs per step, after the warm-up (default 5)\n"
        "  -N, --max-reps N       runs at most per step when inconclusive (default 20)\n"
        "  -p, --profile P        hardware profile (default fast)\n"
        "  -s, --set KEY=VALUE    override an experiment key (repeatable)\n"
        "      --config FRAGMENT  extra kernel config options for every build\n"
        "      --cc CC            compiler for the builds\n"
        "      --accel A          auto (default), tcg or kvm\n"
        "      --timeout S        seconds before a cell counts as hung\n"
        "      --no-rt            no real-time scheduling of QEMU and nbdkit\n"
        "      --show [ID]        print a stored bisection (default the newest)\n"
        "      --list             list the stored bisections\n"
        "      --junit FILE       also write JUnit XML (with --show: of a stored one)\n"
        "metrics:\n");
    for (size_t i = 0; lab_metric_at(i); i++) {
        const struct lab_metric *m = lab_metric_at(i);
        fprintf(out, "  %-5s %-5s %s; %s is better\n", m->name, m->unit, m->formula,
                m->higher_is_better ? "higher" : "lower");
    }
}

static int parse_opts(int argc, char **argv, struct bisect_opts *o)
{
    enum { O_CONFIG = 256, O_CC, O_ACCEL, O_TIMEOUT, O_SHOW, O_LIST, O_JUNIT, O_NO_RT };
    static const struct option longopts[] = {
        {"repo", required_argument, NULL, 'r'},
        {"good", required_argument, NULL, 'g'},
        {"bad", required_argument, NULL, 'B'},
        {"experiment", required_argument, NULL, 'e'},
        {"metric", required_argument, NULL, 'm'},
        {"threshold", required_argument, NULL, 'T'},
        {"reps", required_argument, NULL, 'n'},
        {"max-reps", required_argument, NULL, 'N'},
        {"profile", required_argument, NULL, 'p'},
        {"set", required_argument, NULL, 's'},
        {"config", required_argument, NULL, O_CONFIG},
        {"cc", required_argument, NULL, O_CC},
        {"accel", required_argument, NULL, O_ACCEL},
        {"timeout", required_argument, NULL, O_TIMEOUT},
        {"show", no_argument, NULL, O_SHOW},
        {"list", no_argument, NULL, O_LIST},
        {"junit", required_argument, NULL, O_JUNIT},
        {"no-rt", no_argument, NULL, O_NO_RT},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int ch;
    char *end;
    o->experiment = "seqread";
    o->profile = "fast";
    o->accel = "auto";
    o->threshold = 5;
    o->reps = 5;
    o->max_reps = 20;
    o->show_id = -1;
    while ((ch = getopt_long(argc, argv, "r:g:B:e:m:T:n:N:p:s:h", longopts, NULL)) != -1) {
        switch (ch) {
        case 'r':
            o->repo = optarg;
            break;
        case 'g':
            o->good = optarg;
            break;
        case 'B':
            o->bad = optarg;
            break;
        case 'e':
            o->experiment = optarg;
            break;
        case 'm':
            o->metric = optarg;
            break;
        case 'T':
            o->threshold = strtod(optarg, &end);
            if (*end || !(o->threshold >= 0) || o->threshold > 1000)
                return lab_error("--threshold wants a percentage, not '%s'", optarg);
            break;
        case 'n':
        case 'N': {
            uint64_t v;
            if (lab_parse_u64(optarg, 2, 1000, &v) < 0)
                return lab_error("--%s wants a number from 2 to 1000, not '%s'",
                                 ch == 'n' ? "reps" : "max-reps", optarg);
            *(ch == 'n' ? &o->reps : &o->max_reps) = (unsigned)v;
            break;
        }
        case 'p':
            o->profile = optarg;
            break;
        case 's':
            if (o->nsets == sizeof o->sets / sizeof o->sets[0])
                return lab_error("too many --set options");
            o->sets[o->nsets++] = optarg;
            break;
        case O_CONFIG:
            o->fragment = optarg;
            break;
        case O_CC:
            o->cc = optarg;
            break;
        case O_ACCEL:
            o->accel = optarg;
            break;
        case O_TIMEOUT: {
            uint64_t v;
            if (lab_parse_u64(optarg, 1, LAB_TIMEOUT_MAX_S, &v) < 0)
                return lab_error("--timeout wants seconds from 1 to %d, not '%s'",
                                 LAB_TIMEOUT_MAX_S, optarg);
            o->timeout = (unsigned)v;
            break;
        }
        case O_SHOW:
            o->show = 1;
            break;
        case O_LIST:
            o->list = 1;
            break;
        case O_JUNIT:
            o->junit = optarg;
            break;
        case O_NO_RT:
            o->no_rt = 1;
            break;
        case 'h':
            bisect_usage(stdout);
            exit(0);
        default:
            bisect_usage(stderr);
            return -1;
        }
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
    if (!o->repo || !o->good || !o->bad || !o->metric)
        return lab_error("--repo, --good, --bad and --metric are required (lab bisect --help)");
    if (o->max_reps < o->reps)
        o->max_reps = o->reps;
    return 0;
}

/* ---- git ---- */

/* The command's whole stdout (malloc'd), NULL if it failed. */
static char *git_out(const char *repo, const char *args)
{
    char *qr = lab_shell_quote(repo);
    char *cmd = lab_asprintf("git -C %s %s 2>/dev/null", qr, args);
    free(qr);
    char *out = lab_capture(cmd);
    free(cmd);
    return out;
}

/* The repository itself first: a missing one is not a missing commit. */
static int git_repo_check(const char *repo)
{
    struct stat st;
    if (stat(repo, &st) < 0)
        return lab_error("--repo %s: %s", repo, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return lab_error("--repo %s: not a directory", repo);
    char *s = git_out(repo, "rev-parse --git-dir");
    free(s);
    if (!s)
        return lab_error("--repo %s: not a git repository (or git is missing)", repo);
    return 0;
}

static int git_commit(const char *repo, const char *ref, char out[41])
{
    char *q = lab_shell_quote(ref);
    char *args = lab_asprintf("rev-parse --verify -q %s^{commit}", q);
    char *s = git_out(repo, args);
    free(args);
    free(q);
    if (!s || strlen(s) < 40) {
        free(s);
        return lab_error("'%s' is not a commit in %s", ref, repo);
    }
    snprintf(out, 41, "%.40s", s);
    free(s);
    return 0;
}

static void git_subject(const char *repo, const char *hash, char *out, size_t len)
{
    char *args = lab_asprintf("log -1 --format=%%s %s", hash);
    char *s = git_out(repo, args);
    free(args);
    if (s)
        s[strcspn(s, "\n")] = '\0';
    snprintf(out, len, "%s", s ? s : "?");
    free(s);
}

/* good, then good..bad on the ancestry path, oldest first. */
static size_t git_path(const char *repo, const char *good, const char *bad, char (**out)[41])
{
    char *args = lab_asprintf("merge-base --is-ancestor %s %s && git -C %s rev-list --reverse "
                              "--ancestry-path %s..%s",
                              good, bad, repo, good, bad);
    char *s = git_out(repo, args);
    free(args);
    if (!s) {
        lab_error("%.12s is not an ancestor of %.12s in %s", good, bad, repo);
        return 0;
    }
    size_t n = 1, cap = 64;
    char(*c)[41] = lab_xcalloc(cap, sizeof *c);
    snprintf(c[0], 41, "%s", good);
    for (char *save, *line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strlen(line) != 40)
            continue;
        if (n == cap) {
            cap *= 2;
            c = realloc(c, cap * sizeof *c);
            if (!c)
                abort();
        }
        snprintf(c[n++], 41, "%s", line);
        if (n == MAX_COMMITS)
            break;
    }
    free(s);
    if (n < 2 || strcmp(c[n - 1], bad) != 0) {
        lab_error("no commits from %.12s to %.12s in %s", good, bad, repo);
        free(c);
        return 0;
    }
    *out = c;
    return n;
}

/* ---- measuring ---- */

struct ctx {
    const struct bisect_opts *o;
    struct lab_experiment exp;
    struct lab_profile profile;
    const struct lab_metric *metric;
    struct lab_cell_env env;
    struct lab_store *st;
    const char *virt_type;
    int rt_priority;    /* lab_rt_plan's decision, once per bisection */
    char rt_note[256];
    struct lab_session *session;
    enum lab_session_stop stop; /* why the bisection stopped early, LAB_GO if not */
    char stop_why[600];
};

/* Whether the bisection must stop now: Ctrl-C, a store that cannot be
 * written, a lost libvirt. The step in progress then gets no verdict (what
 * failed, failed because of the stop: it is no evidence about the commit). */
static int stopped(struct ctx *c)
{
    if (c->stop == LAB_GO)
        c->stop = lab_session_check(c->session, c->stop_why, sizeof c->stop_why);
    return c->stop != LAB_GO;
}

/* A commit's measured values, each with its boot (one cell = one boot). */
struct values {
    double *v;
    unsigned *boot;
    size_t n, cap;
    unsigned nboots;
};

static void values_add(struct values *x, double v)
{
    if (x->n == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 32;
        x->v = realloc(x->v, x->cap * sizeof *x->v);
        x->boot = realloc(x->boot, x->cap * sizeof *x->boot);
        if (!x->v || !x->boot)
            abort();
    }
    x->boot[x->n] = x->nboots;
    x->v[x->n++] = v;
}

static void values_free(struct values *x)
{
    free(x->v);
    free(x->boot);
}

/* Boots per measurement: the runs of a step or an endpoint are split over
 * two interleaved boots (at least 2 runs each), so decisions take the boot
 * as their unit (host/bootstats.h). */
#define BISECT_BOOTS 2
static unsigned runs_per_boot(unsigned reps)
{
    unsigned per = (reps + BISECT_BOOTS - 1) / BISECT_BOOTS;
    return per < 2 ? 2 : per;
}

static int last_cell_cb(const struct lab_cell_info *c, void *p)
{
    *(int64_t *)p = c->id;
    return 0;
}

struct sample_ctx {
    const struct lab_metric *m;
    unsigned warmup, seen, bad;
    struct values *out;
};

static int sample_cb(const struct lab_sample *s, void *p)
{
    struct sample_ctx *c = p;
    if (c->seen++ < c->warmup)
        return 0;
    double v = lab_metric_value(c->m, s);
    if (isnan(v))
        c->bad++;
    else
        values_add(c->out, v);
    return 0;
}

/* Builds the commit (or finds it built); its kernel name into kernel. 0, or
 * -1 when it does not build (a skip). */
static int build_commit(struct ctx *c, const char *hash, char *kernel, size_t len)
{
    struct lab_build_spec b = {
        .repo = c->o->repo, .ref = hash, .fragment = c->o->fragment, .cc = c->o->cc};
    char *name = NULL;
    int64_t t0 = lab_now_ns();
    fprintf(stderr, "lab: bisect: building %.12s\n", hash);
    if (lab_kernel_build(&b, &name) != 0)
        return -1;
    fprintf(stderr, "lab: bisect: %.12s is kernel %s (%.0f s)\n", hash, name,
            (double)(lab_now_ns() - t0) / 1e9);
    snprintf(kernel, len, "%s", name);
    free(name);
    /* Never trust what only links: a build that fails the IO smoke test is
     * a skip, like one that does not build. */
    char note[1024];
    int v = lab_kernel_verify(&c->env, kernel, c->o->accel, 0, note, sizeof note);
    if (v != 1) {
        if (!lab_interrupted)
            lab_warn("bisect: %.12s: %s the IO smoke test: %s", hash,
                     v == 0 ? "failed" : "could not run", note);
        return -1;
    }
    return 0;
}

/* One cell of reps runs of the kernel; its values are appended. 0, or -1
 * with the reason (a boot or cell failure: a skip). */
static int measure(struct ctx *c, const char *kernel, unsigned reps, struct values *out,
                   int64_t *cell_out, char *reason, size_t rlen)
{
    const struct lab_kernel *k = lab_kernel_find(kernel); /* builds reload the catalog */
    *cell_out = -1;
    if (!k) {
        snprintf(reason, rlen, "kernel %s is not registered", kernel);
        return -1;
    }
    c->exp.reps = reps;
    struct lab_cell_spec spec = {
        .kernel = k,
        .exp = &c->exp,
        .profile = &c->profile,
        .timeout_s = c->o->timeout,
        .rt_priority = c->rt_priority,
        .rt_note = c->rt_note};
    if (lab_cell_check(&spec, reason, rlen) < 0)
        return -1;
    if (access(lab_agent_path(k->arch), R_OK) != 0) {
        snprintf(reason, rlen, "the guest agent %s is missing; run `make` first",
                 lab_agent_path(k->arch));
        return -1;
    }
    if (!c->virt_type) {
        c->virt_type = lab_accel_choose(c->o->accel, &c->env, &spec);
        if (!c->virt_type) {
            snprintf(reason, rlen, "no accelerator");
            return -1;
        }
    }
    spec.virt_type = c->virt_type;
    struct lab_cell_result res;
    int rc = lab_cell_run(&c->env, &spec, &res);
    lab_store_foreach_cell(c->st, c->env.run_id, last_cell_cb, cell_out);
    if (rc < 0) {
        snprintf(reason, rlen, "cell %s: %.200s", lab_cell_status_name(res.status), res.reason);
        return -1;
    }
    struct sample_ctx sc = {.m = c->metric, .warmup = c->exp.warmup, .out = out};
    size_t before = out->n;
    out->nboots++;
    lab_store_foreach_sample(c->st, *cell_out, sample_cb, &sc);
    if (sc.bad || out->n - before < reps) {
        snprintf(reason, rlen, "%u of %u run(s) gave no %s",
                 sc.bad + reps - (unsigned)(out->n - before), reps, c->metric->name);
        return -1;
    }
    return 0;
}

static void fill_stats(struct lab_bisect_step *s, const struct values *v)
{
    if (v->n)
        lab_summarize(v->v, v->n, &s->sum);
    else
        memset(&s->sum, 0, sizeof s->sum);
}

static void print_step_line(const struct lab_bisect_step *s, const char *unit)
{
    char what[64];
    if (strcmp(s->role, "step") == 0)
        snprintf(what, sizeof what, "step %d", s->step);
    else
        snprintf(what, sizeof what, "%s", s->role);
    fprintf(stderr, "lab: bisect: %s %.12s \"%.50s\": ", what, s->commit, s->subject);
    if (s->sum.n)
        fprintf(stderr, "n=%zu mean %.2f %s (95%% CI %.2f .. %.2f) ", s->sum.n, s->sum.mean, unit,
                s->sum.ci_lo, s->sum.ci_hi);
    fprintf(stderr, "-> %s", lab_bisect_verdict_name(s->verdict));
    if (s->reason[0])
        fprintf(stderr, " (%s)", s->reason);
    fprintf(stderr, "\n");
}

/* The stored bisection as JUnit: written from the store, like --show. */
static int write_junit(struct lab_bisect_db *db, int64_t id, const char *path)
{
    struct lab_bisect_info info;
    struct lab_bisect_step *steps;
    size_t n;
    if (lab_bisect_db_load(db, id, &info, &steps, &n) != 0)
        return lab_error("cannot read bisection %lld back for --junit", (long long)id);
    int rc = lab_junit_write_bisect(&info, steps, n, path);
    free(steps);
    return rc;
}

static int do_show(const struct bisect_opts *o)
{
    struct lab_bisect_db *db;
    if (lab_bisect_db_open(lab_store_path(), &db) < 0)
        return 1;
    int rc;
    if (o->list) {
        rc = lab_bisect_db_list(db, stdout) < 0;
    } else {
        struct lab_bisect_info info;
        struct lab_bisect_step *steps;
        size_t n;
        rc = lab_bisect_db_load(db, o->show_id, &info, &steps, &n);
        if (rc == 1) {
            lab_error("no bisection %s", o->show_id < 0 ? "stored" : "with that id");
        } else if (rc == 0) {
            const struct lab_metric *m = lab_metric_find(info.metric);
            printf("bisection %lld (run %lld): %s\n", (long long)info.id, (long long)info.run,
                   info.command_line);
            printf("status: %s%s%s\n", info.status, info.message[0] ? ": " : "", info.message);
            if (info.first_bad[0])
                printf("first bad commit: %s %s\n", info.first_bad, info.first_bad_subject);
            printf("\n");
            lab_bisect_print_table(stdout, steps, n, m ? m->unit : info.metric);
            free(steps);
            if (o->junit && write_junit(db, info.id, o->junit) < 0)
                rc = 1;
        }
        rc = rc != 0;
    }
    lab_bisect_db_close(db);
    return rc;
}

int cmd_bisect(int argc, char **argv)
{
    struct bisect_opts o = {0};
    struct ctx c = {.o = &o};
    char good[41], bad[41];
    char(*commits)[41] = NULL;
    size_t ncommits;
    int rc = 2;

    if (parse_opts(argc, argv, &o) < 0)
        return 2;
    if (o.show || o.list)
        return do_show(&o);
    if (!(c.metric = lab_metric_find(o.metric)))
        return lab_error("unknown metric '%s' (mbps, iops or secs)", o.metric), 2;
    if (git_repo_check(o.repo) < 0 || git_commit(o.repo, o.good, good) < 0 ||
        git_commit(o.repo, o.bad, bad) < 0)
        return 2;
    if (!(ncommits = git_path(o.repo, good, bad, &commits)))
        return 2;
    if (lab_experiment_prepare(o.experiment, o.sets, o.nsets, &c.exp) < 0)
        goto out_commits;
    if (c.exp.load_list || c.exp.readahead_list) {
        lab_error("bisect measures one figure per kernel: experiment %s has a %s", c.exp.name,
                  c.exp.load_list ? "load_list" : "readahead_list");
        goto out_exp;
    }
    if (!lab_test_gives(lab_test_find(c.exp.test), c.metric)) {
        char *tests = lab_metric_tests(c.metric);
        lab_error("metric %s needs a %s experiment (%s runs %s)", c.metric->name, tests,
                  c.exp.name, c.exp.test);
        free(tests);
        goto out_exp;
    }
    if (lab_profile_resolve(o.profile, &c.profile) < 0)
        goto out_exp;

    rc = 1;
    struct lab_session session;
    struct lab_bisect_db *db = NULL;
    if (lab_session_open(&session, argc, argv, c.exp.name, c.profile.name) < 0)
        goto out_exp;
    c.env = session.env;
    c.st = session.env.store;
    c.rt_priority = lab_rt_plan(o.no_rt, c.rt_note, sizeof c.rt_note);
    c.session = &session;
    int64_t run = session.env.run_id;
    char *cmdline = session.command_line;
    if (lab_bisect_db_open(lab_store_path(), &db) < 0) {
        lab_store_run_end(c.st, run, "failed");
        goto out_session;
    }
    struct lab_bisect_row row = {.run = run,
                                 .command_line = cmdline,
                                 .repo = o.repo,
                                 .good = good,
                                 .bad = bad,
                                 .experiment = c.exp.name,
                                 .metric = c.metric->name,
                                 .profile = c.profile.name,
                                 .threshold_pct = o.threshold,
                                 .reps = o.reps,
                                 .max_reps = o.max_reps};
    int64_t bid = lab_bisect_db_begin(db, &row);
    int64_t t_start = lab_now_ns();

    const char *unit = c.metric->unit;
    enum lab_bisect_verdict *states = lab_xcalloc(ncommits, sizeof *states);
    struct lab_bisect_step *steps = lab_xcalloc(ncommits + 2, sizeof *steps);
    size_t nsteps = 0;
    struct values vgood = {0}, vbad = {0};
    const char *status = "failed";
    char message[512] = "", first_bad[41] = "", first_subject[128] = "";

    fprintf(stderr,
            "lab: bisect %lld (run %lld): %zu commit(s) from %.12s (good) to %.12s (bad), %s %s on "
            "%s, %u run(s) per step (up to %u), threshold %.1f%%\n",
            (long long)bid, (long long)run, ncommits, good, bad, c.exp.name, c.metric->name,
            c.profile.name, o.reps, o.max_reps, o.threshold);

    /* 1. Both endpoints, re-measured: good, bad, good, bad (a boot each). */
    unsigned per = runs_per_boot(o.reps);
    for (int round = 0; round < BISECT_BOOTS && !message[0] && !stopped(&c); round++)
        for (int e = 0; e < 2 && !stopped(&c); e++) {
            struct lab_bisect_step *s = &steps[e];
            const char *hash = e ? bad : good;
            struct values *v = e ? &vbad : &vgood;
            if (round == 0) {
                nsteps++;
                snprintf(s->role, sizeof s->role, "%s", e ? "bad" : "good");
                snprintf(s->commit, sizeof s->commit, "%s", hash);
                git_subject(o.repo, hash, s->subject, sizeof s->subject);
                s->p_good = s->p_bad = s->d_good = s->d_bad = NAN;
                s->verdict = e ? LAB_BISECT_BAD : LAB_BISECT_GOOD;
                int built = build_commit(&c, hash, s->kernel, sizeof s->kernel) == 0;
                if (stopped(&c)) { /* a build cut short, or one that finished after Ctrl-C */
                    nsteps--;
                    break;
                }
                if (!built) {
                    snprintf(message, sizeof message, "the %s endpoint %.12s does not build",
                             s->role, hash);
                    s->verdict = LAB_BISECT_SKIP;
                    snprintf(s->reason, sizeof s->reason, "build failed");
                    break;
                }
            }
            int64_t cell;
            if (measure(&c, s->kernel, per, v, &cell, s->reason, sizeof s->reason) < 0) {
                if (stopped(&c)) {
                    if (round == 0)
                        nsteps--;
                    break;
                }
                if (cell > 0 && s->ncells < sizeof s->cells / sizeof s->cells[0])
                    s->cells[s->ncells++] = cell;
                snprintf(message, sizeof message, "the %s endpoint %.12s: %s", s->role, hash,
                         s->reason);
                s->verdict = LAB_BISECT_SKIP;
                break;
            }
            s->cells[s->ncells++] = cell;
            fill_stats(s, v);
            if (round == BISECT_BOOTS - 1)
                print_step_line(s, unit);
        }
    if (stopped(&c) || message[0]) {
        for (size_t i = 0; i < nsteps; i++)
            fill_stats(&steps[i], i ? &vbad : &vgood), lab_bisect_db_add_step(db, bid, &steps[i]);
        if (!message[0])
            snprintf(message, sizeof message, "%.400s", c.stop_why);
        status = c.stop == LAB_STOP_INTERRUPTED ? "interrupted" : "failed";
        rc = c.stop == LAB_STOP_INTERRUPTED ? 130 : 1;
        lab_error("bisect %lld %s: %s", (long long)bid, status, message);
        goto done;
    }
    struct lab_bisect_endpoints ends;
    lab_bisect_check_endpoints_boots(vgood.v, vgood.boot, vgood.n, vbad.v, vbad.boot, vbad.n,
                                     o.threshold, LAB_STATS_ALPHA, &ends);
    steps[1].p_good = ends.cmp.welch_p;
    steps[1].d_good = ends.cmp.cohen_d;
    snprintf(steps[1].reason, sizeof steps[1].reason, "%s", ends.reason);
    for (size_t i = 0; i < nsteps; i++)
        lab_bisect_db_add_step(db, bid, &steps[i]);
    if (!ends.differ) {
        printf("\n");
        lab_bisect_print_table(stdout, steps, nsteps, unit);
        printf("\nlab: refusing to bisect: %s\n", ends.reason);
        snprintf(message, sizeof message, "%s", ends.reason);
        status = "refused";
        rc = 2;
        goto done;
    }
    const char *better = (ends.direction > 0) == (c.metric->higher_is_better != 0)
                             ? "an improvement"
                             : "a regression";
    fprintf(stderr, "lab: bisect: %s (%s for %s)\n", ends.reason, better, c.metric->name);
    states[0] = LAB_BISECT_GOOD;
    states[ncommits - 1] = LAB_BISECT_BAD;

    /* 2. Steps. */
    struct lab_bisect_pick pick;
    for (int stepno = 1;; stepno++) {
        pick = lab_bisect_pick_next(states, ncommits);
        if (pick.status != LAB_BISECT_NEXT || stopped(&c))
            break;
        const char *hash = commits[pick.index];
        struct lab_bisect_step *s = &steps[nsteps++];
        struct values v = {0};
        s->step = stepno;
        snprintf(s->role, sizeof s->role, "step");
        snprintf(s->commit, sizeof s->commit, "%s", hash);
        git_subject(o.repo, hash, s->subject, sizeof s->subject);
        s->p_good = s->p_bad = s->d_good = s->d_bad = NAN;
        fprintf(stderr, "lab: bisect: step %d: %.12s \"%s\" (%zu commit(s) left between)\n", stepno,
                hash, s->subject, pick.hi - pick.lo - 1);
        int built = build_commit(&c, hash, s->kernel, sizeof s->kernel) == 0;
        if (stopped(&c)) {
            nsteps--;
            break;
        }
        if (!built) {
            s->verdict = LAB_BISECT_SKIP;
            snprintf(s->reason, sizeof s->reason, "build failed (skip, like git bisect's 125)");
        } else {
            unsigned want = per;
            int boots_left = BISECT_BOOTS; /* the first decision sees two boots */
            for (;;) {
                int64_t cell;
                char why[256];
                int m = measure(&c, s->kernel, want, &v, &cell, why, sizeof why);
                if (cell > 0 && s->ncells < sizeof s->cells / sizeof s->cells[0])
                    s->cells[s->ncells++] = cell;
                if (stopped(&c))
                    break; /* no verdict from a cell cut short */
                if (m < 0) {
                    s->verdict = LAB_BISECT_SKIP;
                    snprintf(s->reason, sizeof s->reason, "%.200s (skip)", why);
                    break;
                }
                if (--boots_left > 0)
                    continue;
                struct lab_bisect_decision d;
                lab_bisect_decide_boots(vgood.v, vgood.boot, vgood.n, vbad.v, vbad.boot, vbad.n,
                                        v.v, v.boot, v.n, o.threshold, LAB_STATS_ALPHA, &d);
                s->verdict = d.verdict;
                snprintf(s->reason, sizeof s->reason, "%s", d.reason);
                if (d.have_cmp) {
                    s->p_good = d.vs_good.welch_p;
                    s->p_bad = d.vs_bad.welch_p;
                    s->d_good = d.vs_good.cohen_d;
                    s->d_bad = d.vs_bad.cohen_d;
                }
                if (d.verdict != LAB_BISECT_INCONCLUSIVE)
                    break;
                want = lab_bisect_more_reps((unsigned)v.n, o.max_reps);
                if (want == 0) {
                    snprintf(s->reason, sizeof s->reason, "%s; still at n=%zu (skip)", d.reason,
                             v.n);
                    break;
                }
                /* The host may have drifted since the endpoints were
                 * measured: the endpoint nearer the step gets another boot
                 * beside the step's next one. */
                struct lab_summary sg, sb, ss;
                lab_summarize(vgood.v, vgood.n, &sg);
                lab_summarize(vbad.v, vbad.n, &sb);
                lab_summarize(v.v, v.n, &ss);
                int near_bad = fabs(ss.mean - sb.mean) < fabs(ss.mean - sg.mean);
                struct lab_bisect_step *ep = &steps[near_bad ? 1 : 0];
                int64_t ecell;
                char ewhy[256];
                fprintf(stderr, "lab: bisect: step %d: re-measuring %s beside it\n", stepno,
                        ep->role);
                if (measure(&c, ep->kernel, per, near_bad ? &vbad : &vgood, &ecell, ewhy,
                            sizeof ewhy) == 0 &&
                    ep->ncells < sizeof ep->cells / sizeof ep->cells[0])
                    ep->cells[ep->ncells++] = ecell;
                fprintf(stderr,
                        "lab: bisect: step %d: inconclusive at n=%zu (%s): %u more run(s)\n",
                        stepno, v.n, d.reason, want);
            }
        }
        if (c.stop) {
            free(v.v);
            nsteps--; /* the interrupted step is not recorded: no verdict */
            break;
        }
        fill_stats(s, &v);
        values_free(&v);
        states[pick.index] = s->verdict == LAB_BISECT_GOOD  ? LAB_BISECT_GOOD
                             : s->verdict == LAB_BISECT_BAD ? LAB_BISECT_BAD
                                                            : LAB_BISECT_SKIP;
        print_step_line(s, unit);
        lab_bisect_db_add_step(db, bid, s);
    }

    printf("\n");
    if (c.stop) {
        status = c.stop == LAB_STOP_INTERRUPTED ? "interrupted" : "failed";
        snprintf(message, sizeof message, "%.400s", c.stop_why);
        rc = c.stop == LAB_STOP_INTERRUPTED ? 130 : 1;
        lab_error("bisect %lld %s after %zu step(s): %s (lab bisect --show %lld)", (long long)bid,
                  status, nsteps, message, (long long)bid);
    } else if (pick.status == LAB_BISECT_FOUND) {
        status = "found";
        snprintf(first_bad, sizeof first_bad, "%s", commits[pick.index]);
        git_subject(o.repo, first_bad, first_subject, sizeof first_subject);
        snprintf(message, sizeof message, "%s", ends.reason);
        printf("first bad commit: %s %s\n", first_bad, first_subject);
        rc = 0;
    } else if (pick.status == LAB_BISECT_AMBIGUOUS) {
        status = "ambiguous";
        snprintf(message, sizeof message,
                 "the first bad commit is one of %zu: %.12s..%.12s (the others were skipped)",
                 pick.hi - pick.lo, commits[pick.lo + 1], commits[pick.hi]);
        printf("%s\n", message);
        rc = 1;
    } else {
        snprintf(message, sizeof message, "the steps contradict the endpoints");
        printf("%s\n", message);
        rc = 1;
    }
    /* The endpoints as last re-measured. */
    fill_stats(&steps[0], &vgood);
    fill_stats(&steps[1], &vbad);
    printf("%s %s: %s\n\n", c.exp.name, c.metric->name, ends.reason);
    for (size_t i = 0; i < nsteps; i++)
        if (strncmp(steps[i].reason, "new finding", 11) == 0)
            printf("new finding at step %d %.12s \"%s\": %s\n", steps[i].step, steps[i].commit,
                   steps[i].subject, steps[i].reason);
    lab_bisect_print_table(stdout, steps, nsteps, unit);
    fprintf(stderr, "lab: bisect %lld took %.0f s (lab bisect --show %lld)\n", (long long)bid,
            (double)(lab_now_ns() - t_start) / 1e9, (long long)bid);

done:
    lab_bisect_db_end(db, bid, status, first_bad[0] ? first_bad : NULL,
                      first_bad[0] ? first_subject : NULL, message);
    if (o.junit && write_junit(db, bid, o.junit) < 0 && rc == 0)
        rc = 1;
    lab_store_run_end(c.st, run,
                      c.stop == LAB_STOP_INTERRUPTED  ? "interrupted"
                      : strcmp(status, "failed") == 0 ? "failed"
                                                      : "ok");
    values_free(&vgood);
    values_free(&vbad);
    free(states);
    free(steps);
    lab_bisect_db_close(db);
out_session:
    lab_session_close(&session);
out_exp:
    lab_experiment_free(&c.exp);
out_commits:
    free(commits);
    return rc;
}
