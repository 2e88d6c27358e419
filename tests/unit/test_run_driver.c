/* Unit tests of host/run/run.c, the run driver, with fake cells: a fake engine
 * (struct lab_run_ops) that boots nothing, writes what a cell would write
 * into a real temporary store, and fails, flags or queues cells as told.
 * Checked: how many cells a matrix has, their interleaved order, the rerun
 * of flagged runs, a failed cell, an interruption, skipped cells, a
 * queueing engine, and the rows that land in the store. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host/plan/experiment.h"
#include "host/run/run.h"
#include "host/store/store.h"
#include "kernels/catalog.h"
#include "common/file.h"
#include "common/interrupt.h"

static char dir[64], path[128];
static struct lab_store *st;
static int64_t run_id;

static const struct lab_kernel kern_a = {
    .name = "A", .arch = "x86_64", .source = "debian", .version = "6.1.170"};
static const struct lab_kernel kern_b = {
    .name = "B", .arch = "x86_64", .source = "debian", .version = "6.12.113"};
static const struct lab_kernel kern_old = {
    .name = "old", .arch = "i686", .source = "debian", .version = "2.4.22"};

/* The fake engine: what it was asked, and what it is told to do. */
struct fake {
    char order[512];  /* "A1 B1 A2 ..." (kernel, boot; "xN" for a rerun of N runs) */
    const char *fail; /* "B1": that cell fails */
    const char *flag; /* "A1 B2": those cells have flag_runs runs over the threshold */
    unsigned flag_runs;
    int queue; /* 1: queue every cell, collect them newest first */
    int queued[64];
    size_t nqueued;
    struct lab_cell_result results[64];
    unsigned stop_after; /* check says interrupted once this many cells ran (0: never) */
    unsigned ran;
    unsigned boots; /* the run's: a cell of a later boot is a rerun */
};

static void store_cell(const struct lab_cell_spec *s, struct lab_cell_result *res)
{
    char *params = lab_experiment_cmdline(s->exp), boot[16];
    int64_t cell = lab_store_cell_begin(st, run_id, s->kernel->name, s->exp->name, params);
    free(params);
    snprintf(boot, sizeof boot, "%u", s->boot);
    lab_store_cell_set(st, cell, "boot", boot);
    for (unsigned rep = 0; res->status == LAB_CELL_OK && rep < s->exp->reps + s->exp->warmup;
         rep++) {
        struct lab_sample smp = {.cell = cell,
                                 .rep = (int)rep,
                                 .test = s->exp->test,
                                 .bytes = 1 << 20,
                                 .real_ns = 1000000000};
        lab_store_add_sample(st, &smp);
        res->samples++;
    }
    lab_store_cell_end(st, cell, lab_cell_status_name(res->status),
                       res->status == LAB_CELL_OK ? NULL : res->reason);
}

static void fake_one(struct fake *f, const struct lab_cell_spec *s, struct lab_cell_result *res)
{
    char me[32];
    snprintf(me, sizeof me, "%s%u", s->kernel->name, s->boot);
    memset(res, 0, sizeof *res);
    if (f->fail && strcmp(f->fail, me) == 0) {
        res->status = LAB_CELL_FAILED;
        snprintf(res->reason, sizeof res->reason, "fake failure");
    }
    char padded[64], pme[40];
    snprintf(padded, sizeof padded, " %s ", f->flag ? f->flag : "");
    snprintf(pme, sizeof pme, " %s ", me);
    if (strstr(padded, pme))
        res->flagged = f->flag_runs;
    assert_string_equal(s->virt_type, "qemu");
    size_t len = strlen(f->order);
    snprintf(f->order + len, sizeof f->order - len, "%s%s", len ? " " : "", me);
    if (s->boot > f->boots) /* a rerun: how many runs it repeats */
        snprintf(f->order + strlen(f->order), sizeof f->order - strlen(f->order), "x%u",
                 s->exp->reps);
    store_cell(s, res);
    f->ran++;
}

static enum lab_run_q fake_run_cell(void *engine, const struct lab_cell_spec *s,
                                    struct lab_cell_result *res)
{
    struct fake *f = engine;
    if (!f->queue) {
        fake_one(f, s, res);
        return LAB_RUN_Q_COMPLETED;
    }
    fake_one(f, s, &f->results[s->index]);
    f->queued[f->nqueued++] = s->index;
    return LAB_RUN_Q_QUEUED;
}

/* Newest first, and nothing ready until asked to wait. */
static int fake_collect(void *engine, int wait, struct lab_cell_result *res)
{
    struct fake *f = engine;
    if (!wait || f->nqueued == 0)
        return -1;
    int i = f->queued[--f->nqueued];
    *res = f->results[i];
    return i;
}

static const struct lab_run_ops fake_ops = {LAB_RUN_OPS_VERSION, "fake", fake_run_cell,
                                            fake_collect};

static enum lab_run_stop fake_check(void *arg, char *why, size_t len)
{
    struct fake *f = arg;
    if (f->stop_after && f->ran >= f->stop_after) {
        lab_interrupted = 2;
        snprintf(why, len, "interrupted by signal 2");
        return LAB_RUN_STOP_INTERRUPTED;
    }
    return LAB_RUN_GO;
}

static int setup(void **state)
{
    strcpy(dir, "/tmp/lab-test-run-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof path, "%s/results.db", dir);
    setenv("LAB_PROGRESS", "off", 1);
    if (lab_store_open(path, &st) < 0)
        return -1;
    run_id = lab_store_run_begin(st, "lab run (test)", "t", "fast");
    lab_interrupted = 0;
    return run_id > 0 ? 0 : -1;
}

static int teardown(void **state)
{
    lab_store_close(st);
    lab_rm_rf(dir);
    lab_interrupted = 0;
    return 0;
}

static void load_exp(struct lab_experiment *e, const char *text)
{
    assert_int_equal(lab_experiment_parse("t.exp", text, e), 0);
    e->name = strdup("t");
}

/* Plans and executes kernels x exp with the fake engine. */
static struct lab_run *run_with(struct fake *f, const struct lab_kernel *const *k, size_t nk,
                                const struct lab_experiment *e, unsigned boots, const char *bus,
                                struct lab_run_outcome *out)
{
    struct lab_run_request req = {.kernels = k,
                                  .nkernels = nk,
                                  .exp = e,
                                  .boots = boots,
                                  .bus = bus ? lab_bus_find(bus) : NULL};
    struct lab_run *r = lab_run_plan(&req);
    assert_non_null(r);
    f->boots = boots;
    struct lab_run_env env = {
        .store = st, .run_id = run_id, .virt_type = "qemu", .check = fake_check, .check_arg = f};
    assert_int_equal(lab_run_execute(r, &env, &fake_ops, f, out), 0);
    return r;
}

struct counts {
    unsigned cells, ok, failed, skipped, samples;
    char kernels[256];
};

static int count_sample(const struct lab_sample *s, void *arg)
{
    ((struct counts *)arg)->samples++;
    return 0;
}

static int count_cell(const struct lab_cell_info *ci, void *arg)
{
    struct counts *c = arg;
    c->cells++;
    c->ok += strcmp(ci->status, "ok") == 0;
    c->failed += strcmp(ci->status, "failed") == 0;
    c->skipped += strcmp(ci->status, "skipped") == 0;
    snprintf(c->kernels + strlen(c->kernels), sizeof c->kernels - strlen(c->kernels), "%s%s",
             c->kernels[0] ? " " : "", ci->kernel);
    return lab_store_foreach_sample(st, ci->id, count_sample, c);
}

static int get_status(const struct lab_run_info *ri, void *arg)
{
    snprintf(arg, 32, "%s", ri->status);
    return 0;
}

static void stored(struct counts *c, char status[32])
{
    memset(c, 0, sizeof *c);
    assert_int_equal(lab_store_foreach_cell(st, run_id, count_cell, c), 0);
    assert_int_equal(lab_store_get_run(st, run_id, get_status, status), 0);
}

/* Two kernels, two boots: four cells, A1 B1 A2 B2, all stored ok. */
static void test_interleaved(void **state)
{
    const struct lab_kernel *k[] = {&kern_a, &kern_b};
    struct lab_experiment e;
    struct fake f = {0};
    struct lab_run_outcome out;
    struct counts c;
    char status[32];
    load_exp(&e, "test = seqread\nreps = 3\n");
    struct lab_run *r = run_with(&f, k, 2, &e, 2, NULL, &out);
    assert_int_equal(lab_run_planned(r), 4);
    assert_int_equal(lab_run_ncells(r), 4);
    assert_string_equal(f.order, "A1 B1 A2 B2");
    assert_int_equal(out.done, 4);
    assert_int_equal(out.failed, 0);
    assert_int_equal(out.stop, LAB_RUN_GO);
    assert_string_equal(out.status, "ok");
    stored(&c, status);
    assert_string_equal(status, "ok");
    assert_int_equal(c.cells, 4);
    assert_int_equal(c.ok, 4);
    assert_int_equal(c.samples, 4 * (3 + 1));
    assert_string_equal(c.kernels, "A B A B");
    lab_run_free(r);
    lab_experiment_free(&e);
}

/* Variants (a load_list) x kernels x boots, each variant's kernels side by side. */
static void test_variants(void **state)
{
    const struct lab_kernel *k[] = {&kern_a, &kern_b, &kern_a};
    struct lab_experiment e;
    struct fake f = {0};
    struct lab_run_outcome out;
    load_exp(&e, "test = treeread\nreps = 1\nload_list = none,io_load\n");
    struct lab_run *r = run_with(&f, k, 3, &e, 2, NULL, &out);
    assert_int_equal(lab_run_ncells(r), 3 * 2 * 2);
    const char *loads[] = {"none", "none", "none", "io_load", "io_load", "io_load"};
    for (size_t i = 0; i < 12; i++) {
        const struct lab_run_cell *cell = lab_run_cell_at(r, i);
        assert_int_equal(cell->spec.index, (int)i);
        assert_string_equal(cell->spec.exp->load, loads[i % 6]);
        assert_int_equal(cell->spec.boot, 1 + i / 6);
    }
    assert_string_equal(f.order, "A1 B1 A1 A1 B1 A1 A2 B2 A2 A2 B2 A2");
    assert_null(lab_run_cell_at(r, 12));
    lab_run_free(r);
    lab_experiment_free(&e);
}

/* A cell with flagged runs gets one more boot for as many runs, once, at
 * the end; the rerun is not rerun even when flagged itself. */
static void test_rerun(void **state)
{
    const struct lab_kernel *k[] = {&kern_a, &kern_b};
    struct lab_experiment e;
    struct fake f = {.flag = "B2", .flag_runs = 2};
    struct lab_run_outcome out;
    struct counts c;
    char status[32];
    load_exp(&e, "test = seqread\nreps = 4\n");
    struct lab_run *r = run_with(&f, k, 2, &e, 2, NULL, &out);
    assert_string_equal(f.order, "A1 B1 A2 B2 B3x2");
    assert_int_equal(lab_run_planned(r), 4);
    assert_int_equal(lab_run_ncells(r), 5);
    const struct lab_run_cell *rerun = lab_run_cell_at(r, 4);
    assert_true(rerun->rerun);
    assert_int_equal(rerun->spec.index, 4);
    assert_int_equal(rerun->spec.exp->reps, 2);
    assert_int_equal(e.reps, 4); /* the experiment itself is untouched */
    assert_int_equal(out.reruns, 1);
    assert_int_equal(out.flagged_runs, 2);
    assert_int_equal(out.ncells, 5);
    assert_string_equal(out.status, "ok");
    stored(&c, status);
    assert_int_equal(c.cells, 5);
    assert_int_equal(c.samples, 4 * 5 + 3);
    lab_run_free(r);
    lab_experiment_free(&e);
}

/* Two reruns of one kernel and variant take boots 3 and 4. */
static void test_rerun_boots(void **state)
{
    const struct lab_kernel *k[] = {&kern_a};
    struct lab_experiment e;
    struct fake f = {.flag = "A1 A2", .flag_runs = 1};
    struct lab_run_outcome out;
    load_exp(&e, "test = seqread\nreps = 2\n");
    struct lab_run *r = run_with(&f, k, 1, &e, 2, NULL, &out);
    assert_string_equal(f.order, "A1 A2 A3x1 A4x1");
    assert_int_equal(out.reruns, 2);
    lab_run_free(r);
    lab_experiment_free(&e);
}

/* A failed cell: the run goes on, ends failed, and a failed cell is never
 * rerun (its flagged runs are counted still). */
static void test_failed_cell(void **state)
{
    const struct lab_kernel *k[] = {&kern_a, &kern_b};
    struct lab_experiment e;
    struct fake f = {.fail = "B1", .flag = "B1", .flag_runs = 3};
    struct lab_run_outcome out;
    struct counts c;
    char status[32];
    load_exp(&e, "test = seqread\nreps = 2\n");
    struct lab_run *r = run_with(&f, k, 2, &e, 2, NULL, &out);
    assert_string_equal(f.order, "A1 B1 A2 B2");
    assert_int_equal(out.failed, 1);
    assert_int_equal(out.reruns, 0);
    assert_int_equal(out.flagged_runs, 3);
    assert_string_equal(out.status, "failed");
    stored(&c, status);
    assert_string_equal(status, "failed");
    assert_int_equal(c.ok, 3);
    assert_int_equal(c.failed, 1);
    lab_run_free(r);
    lab_experiment_free(&e);
}

/* Interrupted after two cells: no third boots, the run is interrupted. */
static void test_interrupted(void **state)
{
    const struct lab_kernel *k[] = {&kern_a, &kern_b};
    struct lab_experiment e;
    struct fake f = {.stop_after = 2};
    struct lab_run_outcome out;
    struct counts c;
    char status[32];
    load_exp(&e, "test = seqread\nreps = 2\n");
    struct lab_run *r = run_with(&f, k, 2, &e, 3, NULL, &out);
    assert_int_equal(lab_run_ncells(r), 6);
    assert_string_equal(f.order, "A1 B1");
    assert_int_equal(out.done, 2);
    assert_int_equal(out.stop, LAB_RUN_STOP_INTERRUPTED);
    assert_string_equal(out.why, "interrupted by signal 2");
    assert_string_equal(out.status, "interrupted");
    stored(&c, status);
    assert_string_equal(status, "interrupted");
    assert_int_equal(c.cells, 2);
    lab_run_free(r);
    lab_experiment_free(&e);
}

/* A kernel whose era lacks the bus: its cells are skipped before anything
 * boots, stored as skipped with the reason, and the others run. */
static void test_skipped(void **state)
{
    const struct lab_kernel *k[] = {&kern_old, &kern_a};
    struct lab_experiment e;
    struct fake f = {0};
    struct lab_run_outcome out;
    struct counts c;
    char status[32];
    load_exp(&e, "test = seqread\nreps = 1\n");
    struct lab_run_request req = {
        .kernels = k, .nkernels = 2, .exp = &e, .boots = 2, .channel = "virtio-port"};
    struct lab_run *r = lab_run_plan(&req);
    assert_int_equal(lab_run_ncells(r), 4);
    assert_int_equal(lab_run_runnable(r), 2);
    assert_ptr_equal(lab_run_first_runnable(r), &lab_run_cell_at(r, 1)->spec);
    assert_non_null(strstr(lab_run_cell_at(r, 0)->skip, "virtio-serial"));
    struct lab_run_env env = {.store = st, .run_id = run_id, .virt_type = "qemu"};
    f.boots = 2;
    assert_int_equal(lab_run_execute(r, &env, &fake_ops, &f, &out), 0);
    assert_string_equal(f.order, "A1 A2");
    assert_int_equal(out.done, 4);
    assert_string_equal(out.status, "ok");
    stored(&c, status);
    assert_int_equal(c.cells, 4);
    assert_int_equal(c.skipped, 2);
    assert_string_equal(c.kernels, "old A old A");
    lab_run_free(r);
    lab_experiment_free(&e);
}

/* An engine that queues: every result comes through collect, in its own
 * order, and a rerun found there still runs. */
static void test_queued_engine(void **state)
{
    const struct lab_kernel *k[] = {&kern_a, &kern_b};
    struct lab_experiment e;
    struct fake f = {.queue = 1, .flag = "A1", .flag_runs = 1};
    struct lab_run_outcome out;
    load_exp(&e, "test = seqread\nreps = 2\n");
    struct lab_run *r = run_with(&f, k, 2, &e, 2, NULL, &out);
    assert_string_equal(f.order, "A1 B1 A2 B2 A3x1");
    assert_int_equal(lab_run_ncells(r), 5);
    for (size_t i = 0; i < 5; i++)
        assert_true(lab_run_cell_at(r, i)->done);
    assert_int_equal(out.reruns, 1);
    assert_string_equal(out.status, "ok");
    lab_run_free(r);
    lab_experiment_free(&e);
}

/* Engines are checked when they are used: a wrong version or no run_cell
 * is refused and the run ends failed, with nothing run. */
static void test_ops_check(void **state)
{
    const struct lab_kernel *k[] = {&kern_a};
    struct lab_experiment e;
    struct lab_run_outcome out;
    struct fake f = {0};
    char status[32];
    struct counts c;
    struct lab_run_ops bad = fake_ops;
    bad.version = LAB_RUN_OPS_VERSION + 1;
    assert_int_equal(lab_run_ops_check(&fake_ops), 0);
    assert_int_equal(lab_run_ops_check(&lab_run_local), 0);
    assert_int_equal(lab_run_ops_check(&bad), -1);
    bad = fake_ops;
    bad.run_cell = NULL;
    assert_int_equal(lab_run_ops_check(&bad), -1);
    load_exp(&e, "test = seqread\n");
    struct lab_run_request req = {.kernels = k, .nkernels = 1, .exp = &e, .boots = 1};
    struct lab_run *r = lab_run_plan(&req);
    struct lab_run_env env = {.store = st, .run_id = run_id, .virt_type = "qemu"};
    assert_int_equal(lab_run_execute(r, &env, &bad, &f, &out), -1);
    assert_string_equal(f.order, "");
    stored(&c, status);
    assert_string_equal(status, "failed");
    assert_int_equal(c.cells, 0);
    lab_run_free(r);
    lab_experiment_free(&e);
}

/* More cells than a run holds: no plan, said why. */
static void test_too_many(void **state)
{
    const struct lab_kernel *k[LAB_RUN_MAX_KERNELS];
    struct lab_experiment e;
    for (size_t i = 0; i < LAB_RUN_MAX_KERNELS; i++)
        k[i] = &kern_a;
    load_exp(&e, "test = treeread\nload_list = none,io_load,copy,read_load,io_other\n");
    struct lab_run_request req = {
        .kernels = k, .nkernels = LAB_RUN_MAX_KERNELS, .exp = &e, .boots = 20};
    assert_null(lab_run_plan(&req));
    req.boots = 1;
    struct lab_run *r = lab_run_plan(&req);
    assert_non_null(r);
    assert_int_equal(lab_run_ncells(r), LAB_RUN_MAX_KERNELS * 5);
    lab_run_free(r);
    lab_experiment_free(&e);
}

/* What a cell sends: (reps + warm-ups) per readahead setting. */
static void test_samples_per_cell(void **state)
{
    struct lab_experiment e;
    load_exp(&e, "test = seqread\nreps = 3\nwarmup = 2\nreadahead_list = 256,128,64\n");
    assert_int_equal(lab_run_samples_per_cell(&e), 15);
    lab_experiment_free(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_interleaved, setup, teardown),
        cmocka_unit_test_setup_teardown(test_variants, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rerun, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rerun_boots, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failed_cell, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interrupted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_skipped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_queued_engine, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ops_check, setup, teardown),
        cmocka_unit_test_setup_teardown(test_too_many, setup, teardown),
        cmocka_unit_test(test_samples_per_cell),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
