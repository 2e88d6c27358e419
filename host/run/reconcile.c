/* Reconciling runs of labs that were killed. See reconcile.h. */
#include "host/run/reconcile.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/paths.h"
#include "common/proc.h"
#include "common/str.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GONE 64 /* runs reconciled per start; the rest at the next */

struct gone {
    int64_t run[MAX_GONE];
    long pid[MAX_GONE];
    size_t n;
};

/* A run still "running" whose process is not the one that began it. */
static int collect_gone(const struct lab_run_info *r, void *arg)
{
    struct gone *g = arg;
    if (!r->status || strcmp(r->status, "running") != 0 || r->pid <= 0)
        return 0; /* finished, or from a lab too old to record its pid */
    if (lab_proc_start(r->pid) == r->pid_start)
        return 0;
    g->run[g->n] = r->id;
    g->pid[g->n] = (long)r->pid;
    return ++g->n == MAX_GONE;
}

static int running_kernel(const struct lab_cell_info *c, void *arg)
{
    if (c->status && strcmp(c->status, "running") == 0)
        snprintf(arg, 128, "%s", c->kernel);
    return 0;
}

/* Copies what a dead lab's cell directory holds worth keeping into
 * log_dir, as "<prefix>.console.log" and "<prefix>.nbdkitN.log". */
static void keep_logs(const char *cell_dir, const char *log_dir, const char *prefix)
{
    static const char *const kept[][2] = {
        {"console.log", "console.log"},
        {"nbdkit0.log", "nbdkit0.log"},
        {"nbdkit1.log", "nbdkit1.log"},
    };
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        char *src = lab_asprintf("%s/%s", cell_dir, kept[i][0]);
        char *name = lab_asprintf("%s.%s", prefix, kept[i][1]);
        char *dst = lab_keep_copy(src, log_dir, name);
        if (dst && strcmp(kept[i][0], "console.log") == 0)
            lab_warn("kept the console log of %s as %s", cell_dir, dst);
        free(dst);
        free(name);
        free(src);
    }
}

/* "PID-INDEX" -> pid and index; 0 for any other name. */
static int parse_cell_dir(const char *name, long *pid, int *index)
{
    char *end;
    long p = strtol(name, &end, 10);
    if (end == name || *end != '-' || p <= 0)
        return 0;
    long i = strtol(end + 1, &end, 10);
    if (*end || i < 0 || i > 100000)
        return 0;
    *pid = p;
    *index = (int)i;
    return 1;
}

/* Sweeps the cell directories of process pid (every one when pid is 0 and
 * its owner is gone), keeping their logs under run's log directory (or
 * $LAB_HOME/logs/orphans when no run of this store is known). */
static void sweep_dirs(struct lab_store *st, long only_pid, int64_t run, const char *kernel)
{
    DIR *d = opendir(lab_run_root());
    struct dirent *e;
    if (!d)
        return;
    while ((e = readdir(d))) {
        long pid;
        int index;
        if (!parse_cell_dir(e->d_name, &pid, &index) || (only_pid && pid != only_pid))
            continue;
        if (!only_pid && !(kill((pid_t)pid, 0) < 0 && errno == ESRCH))
            continue; /* a lab that still runs owns it */
        char *dir = lab_asprintf("%s/%s", lab_run_root(), e->d_name);
        char *log_dir = run > 0 ? lab_run_log_dir(lab_store_file(st), run)
                                : lab_asprintf("%s/logs/orphans", lab_home());
        char *prefix = run > 0 ? lab_asprintf("cell-%d-%s", index, kernel)
                               : lab_asprintf("lab-%ld-%d", pid, index);
        keep_logs(dir, log_dir, prefix);
        if (lab_rm_rf(dir) < 0)
            lab_warn("cannot remove %s: %s", dir, strerror(errno));
        free(prefix);
        free(log_dir);
        free(dir);
    }
    closedir(d);
}

int lab_reconcile(struct lab_store *st)
{
    struct gone g = {.n = 0};
    if (st)
        lab_store_foreach_run(st, collect_gone, &g);
    for (size_t i = 0; i < g.n; i++) {
        char kernel[128] = "unknown";
        char *why =
            lab_asprintf("lab process %ld ended without finishing the cell (killed?)", g.pid[i]);
        lab_store_foreach_cell(st, g.run[i], running_kernel, kernel);
        if (lab_store_run_abandon(st, g.run[i], why) == 0)
            lab_warn("run %lld: its lab process %ld is gone; marked abandoned", (long long)g.run[i],
                     g.pid[i]);
        sweep_dirs(st, g.pid[i], g.run[i], kernel);
        free(why);
    }
    sweep_dirs(st, 0, 0, NULL);
    lab_reconcile_spools(st);
    return (int)g.n;
}
