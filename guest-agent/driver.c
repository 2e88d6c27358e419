/* The tests, as rows of one table, and the one driver that runs them: the
 * readahead sweep's groups, the reps, and for each run the same sequence
 * (prepare, the engine's counters and begin record, the test's IO, the
 * counters again, cleanup, the end record or the failure). Tests reach each
 * other only through this table. */
#include "agent.h"
#include "str.h"
#include "sys.h"

/* The table: every AGENT_TEST row of the linked files (agent.h). */
extern const struct agent_test *const __start_agent_tests[], *const __stop_agent_tests[];

const struct agent_test *agent_test_find(const char *name)
{
    for (const struct agent_test *const *t = __start_agent_tests; t < __stop_agent_tests; t++)
        if (agent_streq(name, (*t)->name))
            return *t;
    return NULL;
}

int agent_run_once(const struct agent_test *t, struct agent_run *r)
{
    r->verifies = t->verifies;
    int ok = t->prepare(r) == 0;
    if (ok && run_begin(r) == 0) {
        ok = t->io(r) == 0;
        run_stop(r);
    } else {
        ok = 0; /* prepare failed, or the load did not start (its error is sent) */
    }
    if (t->cleanup)
        t->cleanup(r);
    if (r->fd >= 0) {
        sys_close((int)r->fd);
        r->fd = -1;
    }
    if (!ok && r->what)
        test_fail(r->test, r->what, r->err, r->rep);
    if (!ok || !r->load_ok)
        return -1; /* a failed load child has sent its own error record */
    struct agent_line *l = run_end_start(r);
    t->end_keys(r, l);
    run_end_send(r, l);
    return 0;
}

/* A warm-up run's configuration: only the last lab.warmup_size bytes of
 * lab.size (from a 4 KiB boundary, so O_DIRECT and the content check
 * hold). What a warm-up warms, TCG's translation of the read path, does
 * not need the whole file (docs/notebook.md, "fast cells"), and ending where a full
 * run ends leaves the era disk's cache as a full warm-up leaves it. A test
 * that does not read lab.size bytes, or a whole-file lab.size of 0, warms
 * up in full. */
static const struct agent_config *warmup_config(const struct agent_config *c)
{
    static struct agent_config w;
    if (!c->warmup_size || !c->size || c->size <= c->warmup_size)
        return c;
    w = *c;
    w.skip = (c->size - c->warmup_size) & ~(uint64_t)4095;
    w.size = c->size - w.skip;
    return &w;
}

/* lab.reps runs of t, numbered from lab.rep0, the first lab.warmup of
 * them warm-ups. */
static uint64_t run_reps(const struct agent_test *t, const struct agent_config *c)
{
    static char path[WALK_PATH_MAX];
    static struct agent_run r;
    if (c->bs > LAB_AGENT_MAX_BS) {
        report_error("lab.bs larger than the agent's 4 MiB buffer", t->name, -1);
        return 0;
    }
    run_init(&r, c, t->name, c->rep0, NULL, NULL);
    if (t->target(&r, path, sizeof(path)) < 0) {
        report_error(r.what, t->name, -1);
        return 0;
    }
    const char *target = r.path, *dev = r.dev;
    uint64_t runs = 0;
    for (uint64_t i = 0; i < c->reps; i++) {
        run_init(&r, i < c->warmup ? warmup_config(c) : c, t->name, c->rep0 + i, target, dev);
        if (agent_run_once(t, &r) == 0)
            runs++;
    }
    return runs;
}

uint64_t agent_run_test(const struct agent_test *t, const struct agent_config *c)
{
    if (c->ra_count == 0)
        return run_reps(t, c);
    static struct agent_config g;
    uint64_t runs = 0;
    for (uint64_t i = 0; i < c->ra_count; i++) {
        g = *c;
        g.ra = c->ra_list[i];
        g.given |= AGENT_GIVEN_RA_SET;
        g.rep0 = i * c->reps;
        char m[80];
        size_t at = agent_cat(m, sizeof(m), 0, "readahead sweep: lab.ra=");
        agent_cat_u64(m, sizeof(m), at, g.ra);
        report_log(m);
        runs += run_reps(t, &g);
    }
    return runs;
}
