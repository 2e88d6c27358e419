/* A result bundle as lab_bundle_run leaves it, for the bundle and spool
 * tests: one run, one cell of kernel "k" with 3 samples of 1 MiB, two
 * timing phases, a console log, and the manifest (attempt N ran on host
 * hN; a status other than ok has the reason "lost libvirt"). Include after
 * cmocka.h. */
#ifndef LAB_TEST_BUNDLE_FIXTURE_H
#define LAB_TEST_BUNDLE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/run/bundle.h"
#include "host/store/store.h"
#include "common/file.h"
#include "common/proc.h"
#include "common/str.h"

#define FIXTURE_PLAN "pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp"

/* The bundle's directory, top/name (malloc'd). */
static inline char *fixture_bundle(const char *top, const char *name, const char *key,
                                   unsigned attempt, const char *status)
{
    char *b = lab_asprintf("%s/%s", top, name), *live = lab_asprintf("%s/live.db", b);
    char *sealed = lab_asprintf("%s/cell.db", b),
         *console = lab_asprintf("%s/cell-0-k.console.log", b);
    struct lab_store *st;
    lab_mkdir_p(b, 0755);
    assert_int_equal(lab_store_open(live, &st), 0);
    int64_t run = lab_store_run_begin(st, "lab cell", "seqread", "fast");
    int64_t cell = lab_store_cell_begin(st, run, "k", "seqread", "lab.test=seqread");
    for (int i = 0; i < 3; i++) {
        struct lab_sample s = {
            .cell = cell, .rep = i, .test = "seqread", .bytes = 1 << 20, .real_ns = 1000 + i};
        lab_store_add_sample(st, &s);
    }
    lab_store_cell_set(st, cell, "trace", "/elsewhere/cell-0-k.trace");
    lab_store_cell_set(st, cell, "cpu", "pentium-66"); /* as host/cell/cell.c stores it */
    lab_store_add_phase(st, cell, 0, "host", 25000000, NULL);
    lab_store_add_phase(st, cell, 1, "firmware", -1, "no printk times");
    lab_store_cell_end(st, cell, status, NULL);
    assert_int_equal(lab_store_seal(st, sealed), 0);
    lab_store_close(st);
    unlink(live);
    lab_write_file(console, "Linux version 6.12\n", 19);
    struct lab_bundle_manifest m = {.attempt = attempt, .samples = 3};
    snprintf(m.key, sizeof m.key, "%s", key);
    snprintf(m.host, sizeof m.host, "h%u", attempt);
    snprintf(m.status, sizeof m.status, "%s", status);
    snprintf(m.reason, sizeof m.reason, "%s", strcmp(status, "ok") ? "lost libvirt" : "");
    snprintf(m.kernel, sizeof m.kernel, "k");
    snprintf(m.dir, sizeof m.dir, "/elsewhere");
    memset(m.plan, 'p', 64); /* the plan it ran: FIXTURE_PLAN */
    assert_int_equal(lab_bundle_write_manifest(b, &m), 0);
    assert_int_equal(m.nfiles, 2);
    free(live);
    free(sealed);
    free(console);
    return b;
}

/* The number sql's query gives on the store file db, read through the
 * sqlite3 tool as another process would (9999 when it gives none). */
static inline unsigned fixture_count(const char *db, const char *sql)
{
    char *qdb = lab_shell_quote(db), *qsql = lab_shell_quote(sql);
    char *cmd = lab_asprintf("sqlite3 %s %s", qdb, qsql);
    char *out = lab_capture(cmd);
    unsigned n = out ? (unsigned)strtoul(out, NULL, 10) : 9999;
    free(out);
    free(cmd);
    free(qsql);
    free(qdb);
    return n;
}

#endif
