/* A run's context, and where two runs' contexts differ; see runcontext.h. */
#include "host/stats/runcontext.h"
#include "kernels/catalog.h"
#include "common/msg.h"
#include "common/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each key: where its values come from, a run's own row or each of its
 * cells' facts (a cell fact absent in both runs is no difference). */
enum ctx_source { CTX_RUN_EXPERIMENT, CTX_RUN_PROFILE, CTX_CELL_FACT, CTX_KERNEL_ARCH };
static const struct ctx_key {
    const char *name;
    enum ctx_source source;
} keys[] = {
    {"experiment", CTX_RUN_EXPERIMENT},
    {"profile", CTX_RUN_PROFILE},
    {"bus", CTX_CELL_FACT},
    {"cpu", CTX_CELL_FACT},
    {"arch", CTX_KERNEL_ARCH},
};
#define NKEYS (sizeof keys / sizeof keys[0])

/* One run's values per key: a set, kept sorted so that two runs listing
 * the same kernels in another order agree. More values than fit are
 * summed up as "..." (a run has at most a few kernels). */
#define MAX_VALUES 16
struct ctx {
    struct lab_store *st;
    char *v[NKEYS][MAX_VALUES];
    size_t n[NKEYS];
};

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_value(struct ctx *c, size_t k, const char *value)
{
    if (!value || !*value)
        return;
    for (size_t i = 0; i < c->n[k]; i++)
        if (strcmp(c->v[k][i], value) == 0)
            return;
    if (c->n[k] == MAX_VALUES)
        value = "...";
    else
        c->n[k]++;
    free(c->v[k][c->n[k] - 1]);
    c->v[k][c->n[k] - 1] = lab_xstrdup(value);
    qsort(c->v[k], c->n[k], sizeof c->v[k][0], cmp_str);
}

/* "a, b" (malloc'd), or "-" when the run has no value for the key. */
static char *joined(const struct ctx *c, size_t k)
{
    char *out = lab_xstrdup(c->n[k] ? c->v[k][0] : "-");
    for (size_t i = 1; i < c->n[k]; i++) {
        char *next = lab_asprintf("%s, %s", out, c->v[k][i]);
        free(out);
        out = next;
    }
    return out;
}

static int run_cb(const struct lab_run_info *r, void *arg)
{
    struct ctx *c = arg;
    for (size_t k = 0; k < NKEYS; k++) {
        if (keys[k].source == CTX_RUN_EXPERIMENT)
            add_value(c, k, r->experiment);
        else if (keys[k].source == CTX_RUN_PROFILE)
            add_value(c, k, r->profile);
    }
    return 0;
}

static int cell_cb(const struct lab_cell_info *cell, void *arg)
{
    struct ctx *c = arg;
    char buf[256];
    if (strcmp(cell->status, "skipped") == 0)
        return 0;
    for (size_t k = 0; k < NKEYS; k++) {
        if (keys[k].source == CTX_CELL_FACT) {
            add_value(c, k, lab_store_cell_get(c->st, cell->id, keys[k].name, buf, sizeof buf));
        } else if (keys[k].source == CTX_KERNEL_ARCH) {
            const struct lab_kernel *kern = lab_kernel_find(cell->kernel);
            add_value(c, k, kern ? kern->arch : NULL);
        }
    }
    return 0;
}

static int load(struct lab_store *st, int64_t run, struct ctx *c)
{
    *c = (struct ctx){.st = st};
    int rc = lab_store_get_run(st, run, run_cb, c);
    if (rc == 1)
        return lab_error("no run %lld (see `lab runs`)", (long long)run);
    if (rc < 0 || lab_store_foreach_cell(st, run, cell_cb, c) < 0)
        return -1;
    return 0;
}

static void release(struct ctx *c)
{
    for (size_t k = 0; k < NKEYS; k++)
        for (size_t i = 0; i < c->n[k]; i++)
            free(c->v[k][i]);
}

int lab_run_context_diff(struct lab_store *st, int64_t a, int64_t b, char *why, size_t len)
{
    struct ctx ca, cb;
    int n = 0;
    size_t used = 0;
    why[0] = '\0';
    if (load(st, a, &ca) < 0)
        return -1;
    if (load(st, b, &cb) < 0) {
        release(&ca);
        return -1;
    }
    for (size_t k = 0; k < NKEYS; k++) {
        char *va = joined(&ca, k), *vb = joined(&cb, k);
        if (strcmp(va, vb) != 0) {
            n++;
            if (used < len)
                used += (size_t)snprintf(why + used, len - used, "%s%s: run %lld %s, run %lld %s",
                                         used ? "; " : "", keys[k].name, (long long)a, va,
                                         (long long)b, vb);
        }
        free(va);
        free(vb);
    }
    release(&ca);
    release(&cb);
    return n;
}

static int found_cb(const struct lab_run_info *r, void *arg)
{
    (void)r;
    (void)arg;
    return 0;
}

int lab_run_exists(struct lab_store *st, int64_t run)
{
    int rc = lab_store_get_run(st, run, found_cb, NULL);
    return rc == 0 ? 1 : rc == 1 ? 0 : -1;
}
