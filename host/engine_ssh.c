/* --engine ssh --hosts FILE (issue 11): GNU parallel runs the run's cells
 * as `lab cell` commands on a developer's machines (--sshloginfile FILE),
 * sends each its job (--transferfile), brings its bundle back (--return),
 * retries a failed cell on another machine (--retries) and logs each job
 * (--joblog). A cell's attempt is the position of the machine it ran on in
 * FILE, so the attempts of one cell are distinct bundles, SPOOL/KEY/aN;
 * the controller imports them as they land (engine_spool.c): a cell is
 * stored once. */
#include "host/engine.h"
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

struct ssh {
    char *spool;
    char lab[PATH_MAX];
    char hosts[MAX_HOSTS][128]; /* each sshlogin's host: its last word */
    size_t nhosts;
    struct lab_spool_cell cells[LAB_RUN_MAX_CELLS];
    size_t ncells, submitted;
    pid_t parallel; /* the running batch, 0 none */
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
        if (strchr(host, '@'))
            host = strchr(host, '@') + 1;
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
    ssize_t n = readlink("/proc/self/exe", s->lab, sizeof s->lab - 1);
    s->lab[n > 0 ? n : 0] = '\0';
    s->spool = lab_engine_spool();
    if (read_hosts(s, e->opts.hosts) < 0 || lab_mkdir_p(s->spool, 0755) < 0) {
        free(s->spool);
        free(s);
        return -1;
    }
    lab_info("ssh: spool %s, %zu host(s) in %s", s->spool, s->nhosts, e->opts.hosts);
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
    int all_done = 1;
    for (size_t i = 0; i < s->ncells; i++)
        all_done &= s->cells[i].done;
    if (all_done)
        lab_rm_rf(s->spool);
    free(s->spool);
    free(s);
}

static enum lab_run_q ssh_run_cell(void *engine, const struct lab_cell_spec *spec,
                                   struct lab_cell_result *res)
{
    struct lab_engine *e = engine;
    struct ssh *s = e->priv;
    struct lab_spool_cell *c = &s->cells[s->ncells];
    if (lab_spool_queue(e, s->spool, spec, c, res) < 0)
        return LAB_RUN_Q_COMPLETED;
    s->ncells++;
    return LAB_RUN_Q_QUEUED;
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
                             cases, s->nhosts + 1, s->lab);
    free(cases);
    return cmd;
}

/* The cells not run yet, as one `parallel` in the background. */
static int launch(struct lab_engine *e, struct ssh *s)
{
    size_t first = s->submitted;
    char *list = lab_asprintf("%s/batch-%u.jobs", s->spool, s->batches);
    char *joblog = lab_asprintf("%s/batch-%u.joblog", s->spool, s->batches);
    char *log = lab_asprintf("%s/batch-%u.log", s->spool, s->batches);
    FILE *f = fopen(list, "w");
    for (size_t i = first; f && i < s->ncells; i++)
        fprintf(f, "%s/%s\n", s->cells[i].dir, LAB_BUNDLE_JOB);
    if (f)
        fclose(f);
    char *cmd = remote_command(s);
    char retries[24];
    snprintf(retries, sizeof retries, "%zu", s->nhosts < 2 ? 2 : s->nhosts);
    pid_t pid = f ? fork() : -1;
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execlp("parallel", "parallel", "--sshloginfile", e->opts.hosts, "--retries", retries,
               "--joblog", joblog, "--transferfile", "{}", "--return", "{//}", "-j1",
               "--arg-file", list, cmd, (char *)NULL);
        _exit(127);
    }
    free(cmd);
    free(list);
    free(joblog);
    free(log);
    if (pid < 0)
        return lab_error("cannot start GNU parallel");
    lab_info("ssh: batch %u: %zu cell(s) through GNU parallel", s->batches, s->ncells - first);
    s->parallel = pid;
    s->batches++;
    s->submitted = s->ncells;
    return 0;
}

/* Outstanding cells once: one with its result in res, or -1. When the
 * batch is over, a cell without an ok bundle gets what is left of it. */
static int poll_cells(struct lab_engine *e, struct ssh *s, int batch_over,
                      struct lab_cell_result *res)
{
    for (size_t i = 0; i < s->submitted; i++) {
        struct lab_spool_cell *c = &s->cells[i];
        if (c->done)
            continue;
        if (lab_spool_scan(e->env, c, res))
            return (int)c->index;
        if (batch_over) {
            lab_spool_give_up(e->env, c, "GNU parallel ran its last retry", res);
            return (int)c->index;
        }
    }
    return -1;
}

static int ssh_collect(void *engine, int wait, struct lab_cell_result *res)
{
    struct lab_engine *e = engine;
    struct ssh *s = e->priv;
    if (wait && !s->parallel && s->submitted < s->ncells && launch(e, s) < 0)
        for (size_t i = s->submitted; i < s->ncells;) {
            s->submitted = s->ncells;
            lab_spool_give_up(e->env, &s->cells[i], "GNU parallel did not start", res);
            return (int)s->cells[i].index;
        }
    for (;;) {
        if (lab_interrupted)
            stop_parallel(s, SIGTERM); /* it passes the signal on to its jobs */
        int over = s->parallel > 0 && waitpid(s->parallel, NULL, WNOHANG) == s->parallel;
        if (over)
            s->parallel = 0;
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
