/* Unit tests of host/cell/timing.c: the console parser, the phases from marks
 * and runs (what is not measured stays not measured), and the stored
 * breakdown as `lab show --timing` prints it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host/store/store.h"
#include "host/cell/timing.h"
#include "common/file.h"

#define MS 1000000LL

static const struct lab_phase *find(const struct lab_phase *ph, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(ph[i].name, name) == 0)
            return &ph[i];
    fail_msg("no phase '%s'", name);
    return NULL;
}

static void test_console_lines(void **state)
{
    struct lab_console_marks m = {0};
    lab_timing_console_line(&m, "SeaBIOS (version 1.16.2-debian-1.16.2-1)", 100 * MS);
    lab_timing_console_line(&m, "Decompressing Linux... Parsing ELF... done.", 300 * MS);
    lab_timing_console_line(&m, "Booting the kernel (entry_offset: 0x0000000000000000).", 400 * MS);
    /* Buffered before the console registered: it arrives late. */
    lab_timing_console_line(&m, "[    0.000000] Linux version 6.1.192 (lab@lab)", 600 * MS);
    lab_timing_console_line(&m, "[    0.350000] printk: console [ttyS0] enabled", 760 * MS);
    lab_timing_console_line(&m, "[    0.500000] Run /init as init process", 905 * MS);
    lab_timing_console_line(&m, "[    0.5000] not a printk time", 1000 * MS);
    lab_timing_console_line(&m, "lab-agent 0.1 (x86_64) starting", 920 * MS);
    lab_timing_console_line(&m, "lab-agent 0.1 (x86_64) starting", 990 * MS); /* first wins */
    assert_int_equal(m.first, 100 * MS);
    assert_int_equal(m.decompress, 300 * MS);
    assert_int_equal(m.booting, 400 * MS);
    assert_int_equal(m.kernel, 600 * MS);
    assert_int_equal(m.k0, 405 * MS); /* the tightest: 905 - 500 */
    assert_int_equal(m.printk_lines, 3);
    assert_int_equal(m.init, 920 * MS);

    /* 2.6: "Uncompressing Linux... Ok, booting the kernel." in one line. */
    struct lab_console_marks o = {0};
    lab_timing_console_line(&o, "Uncompressing Linux... Ok, booting the kernel.", 50 * MS);
    assert_int_equal(o.decompress, 50 * MS);
    assert_int_equal(o.booting, 50 * MS);
    assert_int_equal(o.k0, 0);
}

static void test_phases_full(void **state)
{
    struct lab_timing t;
    lab_timing_init(&t);
    int64_t base = 1000 * MS;
    t.mark[LAB_MARK_START] = base;
    t.mark[LAB_MARK_IMAGES] = base + 20 * MS;
    t.mark[LAB_MARK_DISKS] = base + 50 * MS;
    t.mark[LAB_MARK_XML] = base + 51 * MS;
    t.mark[LAB_MARK_DOMAIN] = base + 151 * MS;
    t.con.decompress = base + 351 * MS;
    t.con.booting = base + 451 * MS;
    t.con.k0 = base + 455 * MS;
    t.con.init = base + 951 * MS;
    int64_t hello = base + 1051 * MS;
    struct lab_timing_run runs[] = {
        {0, base + 1100 * MS, base + 2100 * MS}, /* warm-up */
        {1, base + 2200 * MS, base + 2700 * MS},
        {2, base + 2800 * MS, base + 3300 * MS},
    };
    t.mark[LAB_MARK_AGENT_END] = base + 3310 * MS;
    t.mark[LAB_MARK_END] = base + 3610 * MS;
    struct lab_phase ph[LAB_PHASES_MAX];
    int n = lab_timing_phases(&t, hello, runs, 3, (struct lab_warmup){1, 3}, ph, LAB_PHASES_MAX);
    assert_true(n > 10);
    assert_int_equal(find(ph, n, "host: kernel, boot image, data disk")->ns, 20 * MS);
    assert_int_equal(find(ph, n, "host: disk servers (nbdkit)")->ns, 30 * MS);
    assert_int_equal(find(ph, n, "domain start (libvirt, QEMU)")->ns, 100 * MS);
    assert_int_equal(find(ph, n, "firmware (to the decompressor)")->ns, 200 * MS);
    assert_int_equal(find(ph, n, "decompression")->ns, 100 * MS);
    assert_int_equal(find(ph, n, "= firmware + decompression")->ns, 300 * MS);
    assert_int_equal(find(ph, n, "kernel init to /init")->ns, 500 * MS);
    assert_int_equal(find(ph, n, "agent: modules, devices, channel")->ns, 100 * MS);
    assert_int_equal(find(ph, n, "= boot to agent (domain start to hello)")->ns, 1000 * MS);
    assert_int_equal(find(ph, n, "agent: data disk, tunables (to the first run)")->ns, 49 * MS);
    assert_int_equal(find(ph, n, "warm-up runs")->ns, 1000 * MS);
    assert_string_equal(find(ph, n, "warm-up runs")->note, "1 run(s)");
    assert_int_equal(find(ph, n, "counted runs")->ns, 1000 * MS);
    assert_int_equal(find(ph, n, "between runs (cache drops, tunables)")->ns, 200 * MS);
    assert_int_equal(find(ph, n, "after the runs (to the bye)")->ns, 10 * MS);
    assert_int_equal(find(ph, n, "teardown (power-off, destroy, nbdkit, logs)")->ns, 300 * MS);
    assert_int_equal(find(ph, n, "= total")->ns, 3610 * MS);
    assert_int_equal(find(ph, n, "= outside the counted runs")->ns, 2610 * MS);
    /* The non-sum phases tile the cell. */
    int64_t sum = 0;
    for (int i = 0; i < n; i++)
        if (ph[i].name[0] != '=' && ph[i].name[0] != ' ' && ph[i].ns > 0)
            sum += ph[i].ns;
    assert_int_equal(sum, 3610 * MS);
}

/* 2.4: no printk times, no decompressor output: the banner's arrival
 * splits the boot, and says so; without it nothing splits it. */
static void test_phases_no_printk(void **state)
{
    struct lab_timing t;
    lab_timing_init(&t);
    t.mark[LAB_MARK_START] = 1;
    t.mark[LAB_MARK_IMAGES] = 2;
    t.mark[LAB_MARK_DISKS] = 3;
    t.mark[LAB_MARK_XML] = 4;
    t.mark[LAB_MARK_DOMAIN] = 100 * MS;
    t.con.kernel = 700 * MS;
    t.con.init = 2000 * MS;
    struct lab_phase ph[LAB_PHASES_MAX];
    int n =
        lab_timing_phases(&t, 2500 * MS, NULL, 0, (struct lab_warmup){1, 6}, ph, LAB_PHASES_MAX);
    assert_int_equal(find(ph, n, "firmware (to the decompressor)")->ns, -1);
    assert_int_equal(find(ph, n, "decompression")->ns, -1);
    assert_int_equal(find(ph, n, "= firmware + decompression")->ns, 600 * MS);
    assert_int_equal(find(ph, n, "kernel init to /init")->ns, 1300 * MS);
    assert_non_null(strstr(find(ph, n, "kernel init to /init")->note, "the banner's arrival"));
    assert_int_equal(find(ph, n, "= domain start to /init")->ns, 1900 * MS);
    assert_int_equal(find(ph, n, "agent: modules, devices, channel")->ns, 500 * MS);
    assert_int_equal(find(ph, n, "counted runs")->ns, -1);

    t.con.kernel = 0; /* a console that shows nothing before /init */
    n = lab_timing_phases(&t, 2500 * MS, NULL, 0, (struct lab_warmup){1, 6}, ph, LAB_PHASES_MAX);
    assert_int_equal(find(ph, n, "kernel init to /init")->ns, -1);
    assert_non_null(strstr(find(ph, n, "kernel init to /init")->note, "no banner"));
    assert_int_equal(find(ph, n, "= domain start to /init")->ns, 1900 * MS);

    /* The agent's hello said the kernel's clock read 1.5 s at /init. */
    t.init_uptime_ns = 1500 * MS;
    n = lab_timing_phases(&t, 2500 * MS, NULL, 0, (struct lab_warmup){1, 6}, ph, LAB_PHASES_MAX);
    assert_int_equal(find(ph, n, "= firmware + decompression")->ns, 400 * MS);
    assert_int_equal(find(ph, n, "kernel init to /init")->ns, 1500 * MS);
    assert_non_null(strstr(find(ph, n, "kernel init to /init")->note, "/proc/uptime"));
    t.init_uptime_ns = 2500 * MS; /* a clock that started before the domain: not used */
    n = lab_timing_phases(&t, 2500 * MS, NULL, 0, (struct lab_warmup){1, 6}, ph, LAB_PHASES_MAX);
    assert_int_equal(find(ph, n, "kernel init to /init")->ns, -1);
    t.init_uptime_ns = 1880 * MS; /* 20 ms after the domain's start: too soon */
    n = lab_timing_phases(&t, 2500 * MS, NULL, 0, (struct lab_warmup){1, 6}, ph, LAB_PHASES_MAX);
    assert_int_equal(find(ph, n, "kernel init to /init")->ns, -1);

    /* 2.6.12-rc2 at loglevel 4: printk's time zero 4 ms after the domain's
     * start (its late lines timed from the CPU's reset) is no entry; the
     * uptime then splits the boot, or nothing does. */
    t.con.k0 = 104 * MS;
    t.init_uptime_ns = 1500 * MS;
    n = lab_timing_phases(&t, 2500 * MS, NULL, 0, (struct lab_warmup){1, 6}, ph, LAB_PHASES_MAX);
    assert_int_equal(find(ph, n, "kernel init to /init")->ns, 1500 * MS);
    t.init_uptime_ns = 0;
    n = lab_timing_phases(&t, 2500 * MS, NULL, 0, (struct lab_warmup){1, 6}, ph, LAB_PHASES_MAX);
    assert_int_equal(find(ph, n, "kernel init to /init")->ns, -1);
    assert_non_null(strstr(find(ph, n, "kernel init to /init")->note, "too soon"));
    t.con.k0 = 160 * MS; /* 60 ms after: a possible entry */
    n = lab_timing_phases(&t, 2500 * MS, NULL, 0, (struct lab_warmup){1, 6}, ph, LAB_PHASES_MAX);
    assert_int_equal(find(ph, n, "kernel init to /init")->ns, 1840 * MS);
}

static void test_report(void **state)
{
    char dir[] = "/tmp/lab-test-timing-XXXXXX", path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/results.db", dir);
    struct lab_store *st;
    assert_int_equal(lab_store_open(path, &st), 0);
    int64_t run = lab_store_run_begin(st, "lab run", "seqread", "fast");
    FILE *out = tmpfile();
    assert_int_equal(lab_timing_report(out, st, run), 1); /* nothing stored */
    for (int i = 0; i < 3; i++) {
        int64_t cell = lab_store_cell_begin(st, run, "6.1-lab", "seqread", NULL);
        lab_store_add_phase(st, cell, 0, "firmware (to the decompressor)", (100 + 10 * i) * MS,
                            NULL);
        lab_store_add_phase(st, cell, 1, "decompression", -1, "nothing printed");
    }
    int64_t cell = lab_store_cell_begin(st, run, "lab-2.4.22", "seqread", NULL);
    lab_store_add_phase(st, cell, 0, "firmware (to the decompressor)", 300 * MS, NULL);
    lab_store_add_phase(st, cell, 2, "kernel init to /init", 900 * MS, "the banner's arrival");
    fclose(out);
    out = tmpfile();
    assert_int_equal(lab_timing_report(out, st, run), 0);
    rewind(out);
    char text[4096];
    size_t len = fread(text, 1, sizeof text - 1, out);
    text[len] = '\0';
    assert_non_null(strstr(text, "6.1-lab (3 cells)"));
    assert_non_null(strstr(text, "lab-2.4.22 (1 cell)"));
    assert_non_null(strstr(text, "  0.110 [0.100-0.120]"));
    assert_non_null(strstr(text, "  0.300"));
    assert_non_null(strstr(text, "6.1-lab, decompression: nothing printed"));
    /* An estimate says how it was obtained, under its own heading. */
    assert_non_null(strstr(text, "how the boot was split"));
    assert_non_null(strstr(text, "  lab-2.4.22: the banner's arrival\n"));
    fclose(out);
    lab_store_close(st);
    lab_rm_rf(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_console_lines),
        cmocka_unit_test(test_phases_full),
        cmocka_unit_test(test_phases_no_printk),
        cmocka_unit_test(test_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
