/* Unit tests of host/plan/cellplan.c: a cell's plan (era, bus, channel, what
 * the guest mounts, the disks, modules and deadline) for representative
 * cells against golden files, and the reasons a cell cannot run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host/plan/cellplan.h"
#include "kernels/catalog.h"
#include "tests/unit/golden.h"

static const struct lab_kernel k24 = {.name = "lab-2.4.22",
                                      .arch = "i686",
                                      .source = "build",
                                      .version = "2.4.22",
                                      .builtin_drivers = 1,
                                      .verified = "passed"};
static const struct lab_kernel k269 = {.name = "lab-2.6.9",
                                       .arch = "i686",
                                       .source = "build",
                                       .version = "2.6.9",
                                       .verified = "passed"};
static const struct lab_kernel k61 = {
    .name = "6.1.0-47", .arch = "x86_64", .source = "debian", .version = "6.1.170"};
static const struct lab_kernel k612 = {
    .name = "6.12.113", .arch = "x86_64", .source = "debian", .version = "6.12.113"};

struct cell {
    const struct lab_kernel *kernel;
    const char *exp;     /* experiment text */
    const char *profile; /* NULL: fast */
    const char *bus;     /* NULL: the profile's */
    const char *channel; /* NULL: the era's */
};

/* The plan of one cell: 0 and its text in *text, or -1 and the reason. */
static int plan_of(const struct cell *cell, char **text, char *reason, size_t len)
{
    struct lab_experiment e;
    struct lab_profile profile;
    struct lab_era era;
    struct lab_cell_plan p;
    assert_int_equal(lab_experiment_parse("t.exp", cell->exp, &e), 0);
    if (cell->profile)
        assert_int_equal(lab_profile_resolve(cell->profile, &profile), 0);
    assert_int_equal(lab_era_for(cell->kernel->version, cell->kernel->arch, &era), 0);
    struct lab_cell_spec spec = {.kernel = cell->kernel,
                                 .exp = &e,
                                 .profile = cell->profile ? &profile : NULL,
                                 .bus = cell->bus ? lab_bus_find(cell->bus) : NULL,
                                 .channel = cell->channel};
    int rc = lab_cell_plan(&spec, &era, &p, reason, len);
    if (rc == 0) {
        *text = lab_cell_plan_describe(&p);
        assert_int_equal(p.timeout_s, lab_cell_plan_timeout(&spec));
    }
    lab_experiment_free(&e);
    return rc;
}

static void golden_plan(const char *name, const struct cell *cell)
{
    char *text = NULL, reason[256];
    if (plan_of(cell, &text, reason, sizeof reason) < 0)
        fail_msg("%s: no plan: %s", name, reason);
    assert_golden(name, text);
    free(text);
}

/* 2.4 on PIIX IDE: the UART, an ext2 initrd, drivers built in. */
static void test_2_4_ide_uart(void **state)
{
    struct cell c = {&k24, "test = seqread\nreps = 3\nfile_size = 64M\n", "pata-1999", NULL, NULL};
    golden_plan("cellplan-2.4.22-ide-uart.txt", &c);
}

/* 2.6.9 on IDE: modules from an initramfs, the UART still (no named
 * virtio-serial ports before 2.6.35), elevator= for a scheduler. */
static void test_2_6_9_ide(void **state)
{
    struct cell c = {&k269, "test = seqread\nreps = 2\nscheduler = deadline\n", "pata-2003", NULL,
                     NULL};
    golden_plan("cellplan-2.6.9-ide.txt", &c);
}

/* 6.1 on AHCI with the virtio-serial port: a raw device read whole. */
static void test_6_1_sata_virtio(void **state)
{
    struct cell c = {&k61, "test = devread\nreps = 2\n", "sata-ncq-2005", NULL, NULL};
    golden_plan("cellplan-6.1-sata-virtio.txt", &c);
}

/* 6.12 on LSI SCSI: contest's tree disk and io_other's second disk. */
static void test_scsi_tree(void **state)
{
    struct cell c = {&k612, "test = contest\nreps = 2\nload = io_other\n", "scsi-15k-2004", NULL,
                     NULL};
    golden_plan("cellplan-6.12-scsi-tree.txt", &c);
}

/* The reasons a cell cannot run, each decided here before any boot. */
static void test_refusals(void **state)
{
    static const struct {
        struct cell cell;
        const char *reason;
    } cases[] = {
        {{&k24, "test = seqread\n", NULL, NULL, "virtio-port"},
         "named virtio-serial ports need Linux 2.6.35 or later"},
        {{&k61, "test = seqread\n", NULL, NULL, "carrier-pigeon"}, "unknown channel"},
        {{&k24, "test = seqread\n", NULL, "virtio-scsi", NULL}, "virtio-scsi"},
        {{&k24, "test = treeread\ndirect = 1\n", NULL, NULL, NULL}, "O_DIRECT on ext3 files"},
        {{&k61, "test = seqread\nelvtune = 1,2\n", NULL, NULL, NULL}, "elvtune"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *text = NULL, reason[256] = "";
        assert_int_equal(plan_of(&cases[i].cell, &text, reason, sizeof reason), -1);
        if (!strstr(reason, cases[i].reason))
            fail_msg("case %zu: reason '%s' does not say '%s'", i, reason, cases[i].reason);
    }
}

/* A lab build must have passed its smoke test; no era facts is a reason. */
static void test_unverified_and_no_era(void **state)
{
    struct lab_kernel built = k269;
    built.verified = NULL;
    struct lab_experiment e;
    struct lab_era era;
    struct lab_cell_plan p;
    char reason[256];
    assert_int_equal(lab_experiment_parse("t.exp", "test = seqread\n", &e), 0);
    assert_int_equal(lab_era_for(built.version, built.arch, &era), 0);
    struct lab_cell_spec spec = {.kernel = &built, .exp = &e};
    assert_int_equal(lab_cell_plan(&spec, &era, &p, reason, sizeof reason), -1);
    assert_non_null(strstr(reason, "has not passed its IO smoke test"));
    spec.smoke_test = 1; /* the smoke test itself runs it */
    assert_int_equal(lab_cell_plan(&spec, &era, &p, reason, sizeof reason), 0);
    assert_int_equal(lab_cell_plan(&spec, NULL, &p, reason, sizeof reason), -1);
    assert_string_equal(reason, "no era facts for kernel version 2.6.9");
    /* --timeout and the experiment's timeout come first. */
    spec.timeout_s = 42;
    assert_int_equal(lab_cell_plan_timeout(&spec), 42);
    lab_experiment_free(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_2_4_ide_uart),    cmocka_unit_test(test_2_6_9_ide),
        cmocka_unit_test(test_6_1_sata_virtio), cmocka_unit_test(test_scsi_tree),
        cmocka_unit_test(test_refusals),        cmocka_unit_test(test_unverified_and_no_era),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
