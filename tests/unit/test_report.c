/* Reports rendered from a store with known samples, against golden files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/unit/fixture.h"
#include "tests/unit/golden.h"
#include "host/report/table.h"
#include "host/store/store.h"

static char dir[] = "/tmp/lab-test-report.XXXXXX";

/* One run, two kernels, one warm-up + 3 samples each, plus a failed cell. */
static int64_t make_run(struct lab_store *st, const char *test, const char *extra_fmt)
{
    static const double secs[2][4] = {{2.0, 1.00, 1.02, 0.98}, {2.1, 1.20, 1.18, 1.25}};
    static const char *const kernels[] = {"6.1.0-47", "6.12.113"};
    int64_t run = lab_store_run_begin(st, "lab run", test, "fast");
    char params[128], extra[256];
    snprintf(params, sizeof params, "lab.test=%s lab.reps=4", test);
    for (int k = 0; k < 2; k++) {
        int64_t cell = lab_store_cell_begin(st, run, kernels[k], test, params);
        lab_store_cell_set(st, cell, "warmup", "1");
        for (int rep = 0; rep < 4; rep++) {
            int64_t ns = (int64_t)(secs[k][rep] * 1e9);
            /* The template ends with a key whose value varies per sample. */
            snprintf(extra, sizeof extra, "%s%d", extra_fmt, 2000 + 100 * k + rep);
            struct lab_sample s = {.cell = cell,
                                   .rep = rep,
                                   .test = test,
                                   .bytes = 256ULL << 20,
                                   .real_ns = ns,
                                   .user_ns = 1000000,
                                   .sys_ns = 500000000,
                                   .host_begin_ns = 10,
                                   .host_end_ns = 10 + ns,
                                   .extra = extra};
            assert_int_equal(lab_store_add_sample(st, &s), 0);
        }
        lab_store_cell_end(st, cell, "ok", NULL);
    }
    int64_t bad = lab_store_cell_begin(st, run, "6.1.0-50", test, params);
    lab_store_cell_end(st, bad, "failed", "kernel panicked: Kernel panic - not syncing: VFS");
    lab_store_run_end(st, run, "failed");
    return run;
}

static char *render(struct lab_store *st, int64_t run)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(lab_report_run(f, st, run), 0);
    fclose(f);
    return text;
}

static void test_reports(void **state)
{
    static const struct {
        const char *test, *extra, *golden;
    } cases[] = {
        {"seqread", "ra_sectors=256 bs=1048576 dev_read_bytes=", "report-seqread.txt"},
        {"devread",
         "bs=131072 direct=0 cpu_nice=0 cpu_system=300 cpu_idle=0 cpu_iowait=600 "
         "cpu_irq=0 cpu_softirq=100 cpu_steal=0 cpu_fields=10 cpu_user=",
         "report-devread.txt"},
        {"randread",
         "bs=4096 qd=1 direct=1 lat_mean_ns=13100000 lat_min_ns=200000 "
         "lat_p50_ns=12000000 lat_p99_ns=30000000 lat_max_ns=40000000 cpu_user=1 cpu_nice=0 "
         "cpu_system=9 cpu_idle=0 cpu_iowait=90 cpu_fields=7 count=",
         "report-randread.txt"},
        /* A time: lower is better, so the longer kernel is the slower. */
        {"treeread",
         "files=300 dirs=25 bs=65536 cpu_user=1 cpu_nice=0 cpu_system=30 cpu_idle=0 "
         "cpu_iowait=69 cpu_fields=10 load=copy load_units=0 load_bytes=",
         "report-treeread.txt"},
    };
    char *path = lab_asprintf("%s/results.db", dir);
    struct lab_store *st;
    assert_int_equal(lab_store_open(path, &st), 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t run = make_run(st, cases[i].test, cases[i].extra);
        char *text = render(st, run);
        assert_golden(cases[i].golden, text);
        free(text);
    }
    lab_store_close(st);
    free(path);
}

/* Seed 000's sweep: rows per kernel and readahead, compared per setting. */
struct sample_count {
    struct lab_store *st;
    unsigned n;
};

static int count_sample(const struct lab_sample *smp, void *ctx)
{
    ((struct sample_count *)ctx)->n++;
    return 0;
}

static int count_cell_samples(const struct lab_cell_info *ci, void *ctx)
{
    struct sample_count *sc = ctx;
    return lab_store_foreach_sample(sc->st, ci->id, count_sample, sc);
}

static void test_readahead_sweep(void **state)
{
    char *path = lab_asprintf("%s/sweep.db", dir);
    struct lab_store *st;
    assert_int_equal(lab_store_open(path, &st), 0);
    /* Seed 000's real times (s) for ra 256, 128, 64, three runs each, after
     * a warm-up per setting: 2 kernels x 3 settings x 4 samples stored. */
    int64_t run = fixture_sweep(st);
    struct sample_count sc = {st, 0};
    assert_int_equal(lab_store_foreach_cell(st, run, count_cell_samples, &sc), 0);
    assert_int_equal(sc.n, 24);
    char *text = render(st, run);
    assert_golden("report-readahead-sweep.txt", text);
    free(text);
    lab_store_close(st);
    free(path);
}

/* The first kernel's disk in PIO (a DMA-capable drive on drivers/ide), the
 * second's in multiword DMA: the table warns about the PIO row, and the
 * comparison's verdict line names both modes. */
static void test_transfer_modes(void **state)
{
    (void)state;
    char *path = lab_asprintf("%s/xfer.db", dir);
    struct lab_store *st;
    assert_int_equal(lab_store_open(path, &st), 0);
    int64_t run = make_run(st, "seqread", "ra_sectors=256 bs=1048576 dev_read_bytes=");
    static const char *const facts[2][5] = {{"ide", "0", "pio4", "1", "udma5"},
                                            {"ide", "1", "mwdma2", "1", "udma5"}};
    static const char *const keys[5] = {"ide_stack", "ide_dma", "ide_mode", "ide_dma_capable",
                                        "ide_best"};
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 5; i++)
            lab_store_cell_set(st, k + 1, keys[i], facts[k][i]);
    char *text = render(st, run);
    assert_non_null(strstr(text, "6.12.113 vs 6.1.0-47: MB/s "));
    assert_non_null(strstr(text, "(significant) [transfer modes differ: pio4, mwdma2: partly the "
                                 "disk's mode, not the IO path]\n"));
    assert_non_null(strstr(text, "warning: 6.1.0-47: the IDE data disk ran in PIO (pio4) on a "
                                 "controller and drive with DMA"));
    assert_null(strstr(text, "warning: 6.12.113"));
    free(text);
    lab_store_close(st);
    free(path);
}

/* One kernel's cells in a real-time slot, the other's without one (the
 * slots were taken): the verdict line says the two differ in it; two runs
 * both without real time say nothing. */
static void test_real_time_differs(void **state)
{
    (void)state;
    char *path = lab_asprintf("%s/rt.db", dir);
    struct lab_store *st;
    assert_int_equal(lab_store_open(path, &st), 0);
    int64_t run = make_run(st, "seqread", "ra_sectors=256 bs=1048576 dev_read_bytes=");
    lab_store_cell_set(st, 1, "rt", "fifo qemu=10 nbdkit=11 reader=12, QEMU set by the lab");
    lab_store_cell_set(st, 2, "rt", "off: every real-time slot is taken");
    char *text = render(st, run);
    assert_non_null(strstr(text, "(significant) [real time differs: off vs on]\n"));
    free(text);
    lab_store_cell_set(st, 1, "rt", "off: --no-rt");
    text = render(st, run);
    assert_null(strstr(text, "real time differs"));
    free(text);
    lab_store_close(st);
    free(path);
}

static void test_empty_run(void **state)
{
    char *path = lab_asprintf("%s/empty.db", dir);
    struct lab_store *st;
    assert_int_equal(lab_store_open(path, &st), 0);
    int64_t run = lab_store_run_begin(st, "lab run", "seqread", "fast");
    FILE *f = fopen("/dev/null", "w");
    assert_int_equal(lab_report_run(f, st, run), -1);
    fclose(f);
    lab_store_close(st);
    free(path);
}

static int setup(void **state)
{
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    return lab_rm_rf(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reports),        cmocka_unit_test(test_readahead_sweep),
        cmocka_unit_test(test_transfer_modes), cmocka_unit_test(test_real_time_differs),
        cmocka_unit_test(test_empty_run),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
