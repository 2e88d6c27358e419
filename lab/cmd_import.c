/* lab import: result bundles into the store, each checked against its
 * manifest and loaded in one transaction, once per (cell key, attempt). */
#include "lab/commands.h"
#include "host/run/bundle.h"
#include "host/store/store.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/paths.h"
#include "common/str.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct import_ctx {
    struct lab_store *st;
    int64_t run; /* --run, or 0: the bundle's run if stored, else a new one */
};

static int run_exists_cb(const struct lab_run_info *r, void *arg)
{
    return 0;
}

/* The run a bundle goes into: --run, its own run when this store has it,
 * else a new run recording the import. */
static int64_t target_run(struct import_ctx *c, const char *dir,
                          const struct lab_bundle_manifest *m)
{
    if (c->run)
        return c->run;
    if (m->run > 0 && lab_store_get_run(c->st, m->run, run_exists_cb, NULL) == 0)
        return m->run;
    char *cmd = lab_asprintf("lab import %s", dir);
    int64_t run = lab_store_run_begin(c->st, cmd, NULL, NULL);
    free(cmd);
    if (run > 0)
        lab_store_run_end(c->st, run, "ok");
    return c->run = run;
}

static const char *const outcome_words[] = {
    [LAB_IMPORT_DONE] = "imported",
    [LAB_IMPORT_DUPLICATE] = "already imported",
    [LAB_IMPORT_SUPERSEDED] = "not imported",
    [LAB_IMPORT_REFUSED] = "refused",
};

static int import_one(struct import_ctx *c, const char *dir)
{
    struct lab_bundle_manifest m;
    struct lab_import_result r;
    char why[1024];
    if (lab_bundle_verify(dir, &m, why, sizeof why) < 0)
        return lab_error("bundle %s refused: %s; nothing imported", dir, why);
    unsigned ok_attempt;
    int64_t before = lab_store_find_import(c->st, m.key, m.attempt, &ok_attempt);
    if (before != 0) { /* no new run for a bundle stored before */
        if (before > 0)
            printf("%s: cell %s attempt %u: already imported as cell %lld; nothing changed\n", dir,
                   m.key, m.attempt, (long long)before);
        return before > 0 ? 0 : -1;
    }
    int64_t run = target_run(c, dir, &m);
    char *log_dir = run > 0 ? lab_run_log_dir(lab_store_path(), run) : NULL;
    int rc = run > 0 ? lab_bundle_import(c->st, run, log_dir, dir, NULL, &r) : -1;
    free(log_dir);
    if (rc < 0)
        return -1;
    printf("%s: cell %s attempt %u (%s on %s, %u sample(s)): %s as cell %lld of run %lld%s\n", dir,
           r.m.key, r.m.attempt, r.m.status, r.m.host, r.m.samples, outcome_words[r.outcome],
           (long long)r.cell, (long long)run,
           r.outcome == LAB_IMPORT_DONE ? "" : "; nothing changed");
    if (r.outcome == LAB_IMPORT_SUPERSEDED)
        printf("%s: %s; nothing changed\n", dir, r.why);
    return 0;
}

int cmd_import(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"run", required_argument, NULL, 'r'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct import_ctx c = {0};
    int ch, failed = 0;
    while ((ch = getopt_long(argc, argv, "r:h", longopts, NULL)) != -1) {
        if (ch == 'r' && lab_parse_id(optarg, &c.run) < 0)
            return 2;
        if (ch == 'h' || ch == '?') {
            fprintf(ch == 'h' ? stdout : stderr,
                    "usage: lab import [--run N] DIR...\n"
                    "  loads result bundles (`lab cell --out DIR`) into the store: each checked\n"
                    "  against its MANIFEST.json, in one transaction, once per (cell, attempt)\n");
            return ch == 'h' ? 0 : 2;
        }
    }
    if (optind == argc)
        return lab_error("lab import wants a bundle directory"), 2;
    if (lab_mkdir_p(lab_home(), 0755) < 0 || lab_store_open(lab_store_path(), &c.st) < 0)
        return 1;
    for (int i = optind; i < argc; i++)
        failed += import_one(&c, argv[i]) < 0;
    lab_store_close(c.st);
    return failed ? 1 : 0;
}
