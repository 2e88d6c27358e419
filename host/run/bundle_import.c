/* Importing a bundle: verified first, then its logs kept with the run's,
 * then its cell in one transaction, once per (key, attempt). */
#include "host/run/bundle.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every file but the store goes where the run's logs are kept. */
static int keep_logs(const char *dir, const char *log_dir, const struct lab_bundle_manifest *m)
{
    for (size_t i = 0; i < m->nfiles; i++) {
        if (strcmp(m->files[i].name, LAB_BUNDLE_DB) == 0)
            continue;
        char *src = lab_asprintf("%s/%s", dir, m->files[i].name);
        char *kept = lab_keep_copy(src, log_dir, m->files[i].name);
        free(src);
        if (!kept)
            return lab_error("bundle %s: cannot keep %s in %s", dir, m->files[i].name, log_dir);
        free(kept);
    }
    return 0;
}

static int refuse(struct lab_import_result *r, const char *dir)
{
    r->outcome = LAB_IMPORT_REFUSED;
    return lab_error("bundle %s refused: %s; nothing imported", dir, r->why);
}

/* A cell that got as far as running ran a plan: the controller's, if known. */
static int plan_ok(const struct lab_bundle_manifest *m, const char *plan, char *why, size_t len)
{
    if (!m->plan[0] && strcmp(m->status, "failed") != 0)
        snprintf(why, len, "its cell is %s but ran no checked plan", m->status);
    else if (m->plan[0] && plan && plan[0] && strcmp(m->plan, plan) != 0)
        snprintf(why, len, "it ran plan %.12s, the controller planned %.12s", m->plan, plan);
    else
        return 1;
    return 0;
}

int lab_bundle_import(struct lab_store *st, int64_t run, const char *log_dir, const char *dir,
                      const char *plan, struct lab_import_result *r)
{
    memset(r, 0, sizeof *r);
    struct lab_bundle_manifest *m = &r->m;
    if (lab_bundle_verify(dir, m, r->why, sizeof r->why) < 0 ||
        !plan_ok(m, plan, r->why, sizeof r->why))
        return refuse(r, dir);
    unsigned ok_attempt = 0;
    int64_t before = lab_store_find_import(st, m->key, m->attempt, &ok_attempt);
    if (before < 0)
        return -1;
    if (before > 0) {
        r->outcome = LAB_IMPORT_DUPLICATE;
        r->cell = before;
        return 0;
    }
    if (ok_attempt) {
        r->outcome = LAB_IMPORT_SUPERSEDED;
        snprintf(r->why, sizeof r->why, "attempt %u of %s is stored already", ok_attempt, m->key);
        return 0;
    }
    if (keep_logs(dir, log_dir, m) < 0)
        return -1;
    char *db = lab_asprintf("%s/%s", dir, LAB_BUNDLE_DB);
    struct lab_store_import im = {.db = db,
                                  .key = m->key,
                                  .attempt = m->attempt,
                                  .host = m->host,
                                  .from_dir = m->dir,
                                  .to_dir = log_dir};
    int rc = lab_store_import(st, run, &im, &r->cell);
    free(db);
    if (rc < 0)
        return -1;
    r->outcome = LAB_IMPORT_DONE;
    return 0;
}
