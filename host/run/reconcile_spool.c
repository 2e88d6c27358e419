/* A dead lab's spool ($LAB_HOME/spool/PID, host/run/engine.h): what landed
 * there after its lab died, or what its store could not take, is imported
 * into the store that dispatched it, once; a partial bundle (no manifest:
 * the cell died with its lab) or a corrupt one is refused and its logs
 * kept; the directory goes once nothing in it is left to import. A spool
 * another host owns, or one whose bundles are another store's, is left to
 * a lab of that host or store. See reconcile.h. */
#include "host/run/reconcile.h"
#include "host/run/bundle.h"
#include "host/run/engine.h"
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
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#define MAX_ATTEMPTS 63

struct sweep {
    struct lab_store *st;
    const char *spool; /* $LAB_HOME/spool/PID */
    const char *pid;   /* its name */
    unsigned imported, refused;
    int left; /* bundles left in place: another store's, or the store could not take them */
};

static int is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int has(const char *dir, const char *name)
{
    char *p = lab_asprintf("%s/%s", dir, name);
    int yes = lab_file_exists(p);
    free(p);
    return yes;
}

/* A bundle that will never be imported: its logs (console, trace, the
 * disk servers') kept under $LAB_HOME/logs/orphans/spool-PID. */
static void keep_refused(struct sweep *w, const char *dir, const char *name, const char *why)
{
    char *to = lab_asprintf("%s/logs/orphans/spool-%s", lab_home(), w->pid);
    DIR *d = opendir(dir);
    struct dirent *e;
    int kept = 0;
    while (d && (e = readdir(d))) {
        if (!strstr(e->d_name, ".log") && !strstr(e->d_name, ".trace"))
            continue;
        char *src = lab_asprintf("%s/%s", dir, e->d_name);
        char *as = lab_asprintf("%s.%s", name, e->d_name);
        char *copy = lab_keep_copy(src, to, as);
        kept += copy != NULL;
        free(copy);
        free(as);
        free(src);
    }
    if (d)
        closedir(d);
    lab_warn("spool of lab %s: bundle %s refused: %s%s%s", w->pid, name, why,
             kept ? "; its logs kept in " : "", kept ? to : "");
    w->refused++;
    free(to);
}

/* One complete or partial bundle: imported into its run, refused, or left. */
static void sweep_bundle(struct sweep *w, const char *dir, const char *name)
{
    struct lab_bundle_manifest m;
    char why[1024];
    if (lab_bundle_verify(dir, &m, why, sizeof why) < 0) {
        keep_refused(w, dir, name, why);
        return;
    }
    unsigned ok_attempt = 0;
    int64_t before = lab_store_find_import(w->st, m.key, m.attempt, &ok_attempt);
    int ours = lab_store_run_has_key(w->st, m.run, m.key);
    if (before < 0 || ours < 0) {
        w->left = 1;
        return;
    }
    if (before > 0 || ok_attempt)
        return; /* imported already, or another attempt of it is stored ok */
    if (!ours) {
        w->left = 1; /* another store's (labs with stores of their own share run ids) */
        return;
    }
    char *log_dir = lab_run_log_dir(lab_store_file(w->st), m.run);
    struct lab_import_result r;
    if (lab_bundle_import(w->st, m.run, log_dir, dir, NULL, &r) == 0) {
        if (r.outcome == LAB_IMPORT_DONE) {
            lab_warn("run %lld: cell %s (attempt %u on %s, %s) imported from the spool of lab %s",
                     (long long)m.run, m.key, m.attempt, m.host, m.status, w->pid);
            w->imported++;
        }
    } else if (r.outcome == LAB_IMPORT_REFUSED) {
        keep_refused(w, dir, name, r.why);
    } else {
        const char *f = lab_store_failure(w->st);
        lab_warn("spool of lab %s: bundle %s kept in %s: the store could not take it (%s); "
                 "`lab import %s` once it can",
                 w->pid, name, dir, f ? f : "see above", dir);
        w->left = 1;
    }
    free(log_dir);
}

/* SPOOL/KEY/aN, the attempts of one cell on an engine that retries: the
 * first ok one is the cell, else the last complete one; the others are
 * not imported (engine_spool.c's rule). */
static void sweep_attempts(struct sweep *w, const char *key_dir, const char *key)
{
    int ok = 0, last = 0;
    for (int a = 1; a <= MAX_ATTEMPTS; a++) {
        char *dir = lab_asprintf("%s/a%d", key_dir, a);
        struct lab_bundle_manifest m;
        char why[1024];
        if (is_dir(dir) && lab_bundle_verify(dir, &m, why, sizeof why) == 0) {
            last = a;
            if (!ok && strcmp(m.status, "ok") == 0)
                ok = a;
        }
        free(dir);
    }
    int chosen = ok ? ok : last;
    for (int a = 1; a <= MAX_ATTEMPTS; a++) {
        char *dir = lab_asprintf("%s/a%d", key_dir, a), *name = lab_asprintf("%s/a%d", key, a);
        if (!is_dir(dir)) {
        } else if (a == chosen) {
            sweep_bundle(w, dir, name);
        } else if (!has(dir, LAB_BUNDLE_MANIFEST)) {
            keep_refused(w, dir, name, "partial (no " LAB_BUNDLE_MANIFEST ": the cell died there)");
        }
        free(name);
        free(dir);
    }
}

static void sweep_spool(struct sweep *w)
{
    DIR *d = opendir(w->spool);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char *dir = lab_asprintf("%s/%s", w->spool, e->d_name);
        if (!is_dir(dir)) {
        } else if (has(dir, LAB_BUNDLE_MANIFEST) || has(dir, LAB_BUNDLE_DB) ||
                   has(dir, LAB_BUNDLE_LIVE_DB)) {
            sweep_bundle(w, dir, e->d_name); /* SPOOL/KEY.ATTEMPT: the local engines' */
        } else {
            sweep_attempts(w, dir, e->d_name);
        }
        free(dir);
    }
    if (d)
        closedir(d);
}

/* Whether the spool's lab may still run: on another host (not ours to
 * judge), or its process still there. */
static int owner_alive(const char *spool, const char *name)
{
    struct lab_spool_owner o;
    struct utsname u;
    if (lab_engine_spool_owner(spool, &o) == 0)
        return uname(&u) != 0 || strcmp(o.host, u.nodename) != 0 ||
               lab_proc_start(o.pid) == o.start;
    /* A spool from before OWNER: its pid, on this host. */
    char *end;
    long pid = strtol(name, &end, 10);
    return *end || pid <= 0 || !(kill((pid_t)pid, 0) < 0 && errno == ESRCH);
}

/* Whether the spool's bundles may be this store's: its OWNER names it, or
 * it has none (each bundle is then checked against the store's runs). */
static int store_may_own(const char *spool, struct lab_store *st)
{
    struct lab_spool_owner o;
    if (lab_engine_spool_owner(spool, &o) < 0 || !o.store[0])
        return 1;
    char *mine = realpath(lab_store_file(st), NULL);
    int yes = mine && strcmp(mine, o.store) == 0;
    free(mine);
    return yes;
}

void lab_reconcile_spools(struct lab_store *st)
{
    char *root = lab_asprintf("%s/spool", lab_home());
    DIR *d = st ? opendir(root) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char *spool = lab_asprintf("%s/%s", root, e->d_name);
        if (is_dir(spool) && !owner_alive(spool, e->d_name) && store_may_own(spool, st)) {
            struct sweep w = {.st = st, .spool = spool, .pid = e->d_name};
            sweep_spool(&w);
            if (!w.left && lab_rm_rf(spool) < 0)
                lab_warn("cannot remove %s: %s", spool, strerror(errno));
            else if (!w.left && (w.imported || w.refused))
                lab_warn("spool of lab %s: %u bundle(s) imported, %u refused; removed", e->d_name,
                         w.imported, w.refused);
        }
        free(spool);
    }
    if (d)
        closedir(d);
    free(root);
}
