/* --engine ssh --hosts FILE (issue 11): GNU parallel runs the run's cells
 * as `lab cell` commands on a developer's machines (--sshloginfile FILE),
 * sends each its job (--transferfile), brings its bundle back (--return),
 * retries a failed cell on another machine (--retries) and logs each job
 * (--joblog). A cell's attempt is the position of the machine it ran on in
 * FILE, so the attempts of one cell are distinct bundles, SPOOL/KEY/aN;
 * the controller imports them as they land (engine_spool.c): a cell is
 * stored once. A bundle comes back only at its end, so the running cells'
 * live stores are copied from their machines every few seconds (one ssh
 * per machine) for the progress line, which reads their phases there as
 * it reads a local cell's. */
#include "host/run/engine.h"
#include "common/clock.h"
#include "common/file.h"
#include "common/interrupt.h"
#include "common/msg.h"
#include "common/proc.h"
#include "common/str.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define POLL_US   500000
#define MAX_HOSTS 64
#define MIRROR_NS (2 * 1000000000LL) /* how often the live stores are copied */
#define MIRROR_S  10                 /* at most, per machine (one unreachable stalls the lab) */

struct ssh {
    struct lab_spool_cells q;   /* the spool, this lab binary, the run's cells */
    char hosts[MAX_HOSTS][128]; /* each sshlogin's host: its last word */
    /* How to run a command on each: "ssh HOST", or the login's own command. */
    char logins[MAX_HOSTS][512];
    size_t nhosts;
    int64_t mirrored_ns; /* when the live stores were copied last */
    unsigned mirrors;    /* copies so far: each into SPOOL/live/N, so the progress reopens them */
    unsigned batch_of[LAB_RUN_MAX_CELLS]; /* the batch each cell went out in */
    pid_t parallel;                       /* the running batch, 0 none */
    unsigned batches;
};

static int read_hosts(struct ssh *s, const char *file)
{
    char *text = lab_read_text(file, 1 << 20, NULL);
    if (!text)
        return lab_error("--hosts %s cannot be read", file);
    for (char *save, *line = strtok_r(text, "\n", &save); line && s->nhosts < MAX_HOSTS;
         line = strtok_r(NULL, "\n", &save)) {
        line[strcspn(line, "#")] = '\0';
        char *end = line + strlen(line);
        while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
            *--end = '\0';
        if (!*line)
            continue;
        /* "host", "user@host", "N/host" or "SSH-COMMAND host": the host. */
        const char *host = strrchr(line, ' ') ? strrchr(line, ' ') + 1 : line;
        if (host == line && strchr(host, '/'))
            host = strchr(host, '/') + 1;
        const char *login = host;
        if (strchr(host, '@'))
            host = strchr(host, '@') + 1;
        if (strchr(line, ' ')) /* the login's own ssh command */
            snprintf(s->logins[s->nhosts], sizeof s->logins[0], "%s", line);
        else
            snprintf(s->logins[s->nhosts], sizeof s->logins[0], "ssh -o BatchMode=yes %s", login);
        snprintf(s->hosts[s->nhosts++], sizeof s->hosts[0], "%s", host);
    }
    free(text);
    return s->nhosts ? 0 : lab_error("--hosts %s names no host", file);
}

static int ssh_open(struct lab_engine *e)
{
    char buf[PATH_MAX];
    if (!e->opts.hosts)
        return lab_error("--engine ssh wants --hosts FILE (GNU parallel's --sshloginfile)");
    if (access(lab_tool_path("parallel", buf, sizeof buf), X_OK) != 0)
        return lab_error("--engine ssh needs GNU parallel and rsync here (Debian: apt-get install "
                         "parallel rsync)");
    struct ssh *s = lab_xcalloc(1, sizeof *s);
    if (read_hosts(s, e->opts.hosts) < 0 || lab_spool_cells_open(&s->q, "ssh") < 0) {
        free(s);
        return -1;
    }
    lab_info("ssh: spool %s, %zu host(s) in %s", s->q.spool, s->nhosts, e->opts.hosts);
    e->priv = s;
    return 0;
}

static void stop_parallel(struct ssh *s, int sig)
{
    if (s->parallel > 0) {
        kill(s->parallel, sig);
        waitpid(s->parallel, NULL, 0);
        s->parallel = 0;
    }
}

static void ssh_close(struct lab_engine *e)
{
    struct ssh *s = e->priv;
    if (!s)
        return;
    stop_parallel(s, SIGTERM);
    lab_spool_cells_close(&s->q);
    free(s);
}

static enum lab_run_q ssh_run_cell(void *engine, const struct lab_cell_spec *spec,
                                   struct lab_cell_result *res)
{
    struct lab_engine *e = engine;
    struct ssh *s = e->priv;
    return lab_spool_cells_add(e, &s->q, spec, res);
}

/* The command each job runs there: the attempt from the machine's place
 * in the hosts file, the bundle into SPOOL/KEY/aN. */
static char *remote_command(const struct ssh *s)
{
    char *cases = lab_xstrdup("");
    for (size_t i = 0; i < s->nhosts; i++) {
        char *q = lab_shell_quote(s->hosts[i]);
        char *more = lab_asprintf("%s%s) a=%zu;; ", cases, q, i + 1);
        free(cases);
        free(q);
        cases = more;
    }
    char *cmd = lab_asprintf("case \"$PARALLEL_SSHHOST\" in %s*) a=%zu;; esac; "
                             "LAB_HOST=\"$PARALLEL_SSHHOST\" exec '%s' cell --spec {} "
                             "--out {//}/a$a --attempt $a",
                             cases, s->nhosts + 1, s->q.lab);
    free(cases);
    return cmd;
}

/* The cells not run yet, as one `parallel` in the background. */
static int launch(struct lab_engine *e, struct ssh *s)
{
    size_t first = s->q.submitted;
    char *list = lab_asprintf("%s/batch-%u.jobs", s->q.spool, s->batches);
    char *joblog = lab_asprintf("%s/batch-%u.joblog", s->q.spool, s->batches);
    char *log = lab_asprintf("%s/batch-%u.log", s->q.spool, s->batches);
    FILE *f = fopen(list, "w");
    for (size_t i = first; f && i < s->q.ncells; i++)
        fprintf(f, "%s/%s\n", s->q.cells[i].dir, LAB_BUNDLE_JOB);
    if (f)
        fclose(f);
    char *cmd = remote_command(s);
    char retries[24];
    snprintf(retries, sizeof retries, "%zu", s->nhosts < 2 ? 2 : s->nhosts);
    pid_t pid = f ? fork() : -1;
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        /* GNU parallel's remote wrapper execs the job with the machine's
         * $SHELL and, without one, runs nothing and logs exit 0. sshd sets
         * it; a login command that passes our environment on (nsenter,
         * a container's exec) from a cron job or CI runner may have none. */
        if (!getenv("SHELL"))
            setenv("SHELL", "/bin/sh", 1);
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execlp("parallel", "parallel", "--sshloginfile", e->opts.hosts, "--retries", retries,
               "--joblog", joblog, "--transferfile", "{}", "--return", "{//}", "-j1", "--arg-file",
               list, cmd, (char *)NULL);
        _exit(127);
    }
    free(cmd);
    free(list);
    free(joblog);
    free(log);
    if (pid < 0)
        return lab_error("cannot start GNU parallel");
    for (size_t i = first; i < s->q.ncells; i++) { /* until a machine has it */
        s->batch_of[i] = s->batches;
        lab_progress_cell_source(lab_progress_current(), s->q.cells[i].index, "queued");
    }
    lab_info("ssh: batch %u: %zu cell(s) through GNU parallel", s->batches, s->q.ncells - first);
    s->parallel = pid;
    s->batches++;
    s->q.submitted = s->q.ncells;
    return 0;
}

/* The live store of cell c's attempt on machine h as copied into dir. */
static char *live_copy(const char *dir, size_t h, const struct lab_spool_cell *c)
{
    return lab_asprintf("%s/h%zu/%s/a%zu/%s", dir, h + 1, c->key, h + 1, LAB_BUNDLE_LIVE_DB);
}

/* Every few seconds, the running cells' live stores (and their WAL) from
 * each machine into SPOOL/live/N, and each cell's progress pointed at the
 * copy of the attempt that runs. A new N each time: the progress reopens a
 * store whose path changed, and keeps the last copy open meanwhile. */
static void mirror_live(struct ssh *s)
{
    int64_t now = lab_now_ns();
    if (now - s->mirrored_ns < MIRROR_NS)
        return;
    s->mirrored_ns = now;
    char *dir = lab_asprintf("%s/live/%u", s->q.spool, ++s->mirrors);
    for (size_t h = 0; h < s->nhosts; h++) {
        char *files = lab_xstrdup("");
        for (size_t i = 0; i < s->q.submitted; i++) {
            const struct lab_spool_cell *c = &s->q.cells[i];
            if (c->done)
                continue;
            char *more = lab_asprintf("%s %s/a%zu/%s %s/a%zu/%s-wal", files, c->key, h + 1,
                                      LAB_BUNDLE_LIVE_DB, c->key, h + 1, LAB_BUNDLE_LIVE_DB);
            free(files);
            files = more;
        }
        char *to = lab_asprintf("%s/h%zu", dir, h + 1);
        char *remote = lab_asprintf("cd %s 2>/dev/null && tar cf - --ignore-failed-read%s "
                                    "2>/dev/null",
                                    s->q.spool, files);
        char *qremote = lab_shell_quote(remote), *qto = lab_shell_quote(to);
        char *cmd = lab_asprintf("timeout %d %s %s 2>/dev/null | tar xf - -C %s 2>/dev/null; true",
                                 MIRROR_S, s->logins[h], qremote, qto);
        if (files[0] && lab_mkdir_p(to, 0755) == 0)
            free(lab_capture(cmd));
        free(cmd);
        free(qto);
        free(qremote);
        free(remote);
        free(to);
        free(files);
    }
    for (size_t i = 0; i < s->q.submitted; i++) {
        const struct lab_spool_cell *c = &s->q.cells[i];
        for (size_t h = 0; h < s->nhosts && !c->done; h++) {
            char *live = live_copy(dir, h, c);
            if (lab_file_exists(live)) /* where it runs: a finished attempt leaves none */
                lab_progress_cell_source(lab_progress_current(), c->index, live);
            free(live);
        }
    }
    if (s->mirrors > 2) { /* the one before the last is no longer open */
        char *old = lab_asprintf("%s/live/%u", s->q.spool, s->mirrors - 2);
        lab_rm_rf(old);
        free(old);
    }
    free(dir);
}

/* What GNU parallel's joblog says of cell c's attempts ("on h1 exit 255,
 * on h2 exit 0"), and its log's last line, into why: a cell that left no
 * bundle says where it ran and how that ended. */
static void attempts_said(const struct ssh *s, size_t i, char *why, size_t n)
{
    char *joblog = lab_asprintf("%s/batch-%u.joblog", s->q.spool, s->batch_of[i]);
    char *log = lab_asprintf("%s/batch-%u.log", s->q.spool, s->batch_of[i]);
    char *job = lab_asprintf("%s/%s", s->q.cells[i].dir, LAB_BUNDLE_JOB);
    char *text = lab_read_text(joblog, 1 << 20, NULL);
    size_t len = (size_t)snprintf(why, n, "GNU parallel ran its last retry");
    int any = 0;
    for (char *save, *line = text ? strtok_r(text, "\n", &save) : NULL; line && len < n;
         line = strtok_r(NULL, "\n", &save)) {
        /* Seq Host Starttime JobRuntime Send Receive Exitval Signal Command */
        char *field[9] = {0}, *fsave;
        size_t nf = 0;
        for (char *t = strtok_r(line, "\t", &fsave); t && nf < 9; t = strtok_r(NULL, "\t", &fsave))
            field[nf++] = t;
        if (nf < 9 || !strstr(field[8], job))
            continue;
        const char *host = strrchr(field[1], ' ') ? strrchr(field[1], ' ') + 1 : field[1];
        len += (size_t)snprintf(why + len, n - len, "%s on %s exit %s%s%s", any++ ? "," : ":", host,
                                field[6], strcmp(field[7], "0") ? " signal " : "",
                                strcmp(field[7], "0") ? field[7] : "");
    }
    free(text);
    if (!any && len < n)
        len += (size_t)snprintf(why + len, n - len, " (its joblog %s names no attempt)", joblog);
    text = lab_read_text(log, 1 << 20, NULL);
    char *last = text ? text + strlen(text) : NULL;
    while (last && last > text && (last[-1] == '\n' || last[-1] == ' '))
        *--last = '\0';
    while (last && last > text && last[-1] != '\n')
        last--;
    if (last && *last && len < n)
        snprintf(why + len, n - len, "; it said: %.200s", last);
    free(text);
    free(job);
    free(log);
    free(joblog);
}

/* Outstanding cells once: one with its result in res, or -1. When the
 * batch is over, a cell without an ok bundle gets what is left of it. */
static int poll_cells(struct lab_engine *e, struct ssh *s, int batch_over,
                      struct lab_cell_result *res)
{
    for (size_t i = 0; i < s->q.submitted; i++) {
        struct lab_spool_cell *c = &s->q.cells[i];
        if (c->done)
            continue;
        if (lab_spool_scan(e->env, c, res))
            return (int)c->index;
        if (batch_over) {
            char why[700];
            attempts_said(s, i, why, sizeof why);
            lab_spool_give_up(e->env, c, why, res);
            return (int)c->index;
        }
    }
    return -1;
}

static int ssh_collect(void *engine, int wait, struct lab_cell_result *res)
{
    struct lab_engine *e = engine;
    struct ssh *s = e->priv;
    if (wait && !s->parallel && s->q.submitted < s->q.ncells && launch(e, s) < 0)
        return lab_spool_cells_refuse(e->env, &s->q, "GNU parallel did not start", res);
    for (;;) {
        if (lab_interrupted)
            stop_parallel(s, SIGTERM); /* it passes the signal on to its jobs */
        int over = s->parallel > 0 && waitpid(s->parallel, NULL, WNOHANG) == s->parallel;
        if (over)
            s->parallel = 0;
        if (s->parallel)
            mirror_live(s);
        int found = poll_cells(e, s, s->parallel == 0, res);
        if (found >= 0 || !wait || s->parallel == 0)
            return found;
        usleep(POLL_US);
    }
}

static const struct lab_run_ops ssh_ops = {
    .version = LAB_RUN_OPS_VERSION,
    .name = "ssh",
    .run_cell = ssh_run_cell,
    .collect = ssh_collect,
};

const struct lab_engine_kind lab_engine_ssh_kind = {
    .name = "ssh", .ops = &ssh_ops, .open = ssh_open, .close = ssh_close};
