/* Era facts: version parsing and ordering, the boundary of each table row,
 * the derived decisions, bus support with its reason, and bus modules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/catalog.h"
#include "kernels/era.h"

static lab_kver kv(const char *s)
{
    lab_kver v = 0;
    assert_int_equal(lab_kver_parse(s, &v), 0);
    return v;
}

static struct lab_era era_of(const char *version)
{
    struct lab_era e;
    assert_int_equal(lab_era_for(version, "x86_64", &e), 0);
    return e;
}

static void test_parse(void **state)
{
    assert_true(kv("2.4.0") == LAB_KV(2, 4, 0));
    assert_true(kv("2.6.1-rc1") == LAB_KV_RC(2, 6, 1, 1));
    assert_true(kv("2.6.35.14") == LAB_KV4(2, 6, 35, 14, 255));
    assert_true(kv("3.4") == LAB_KV(3, 4, 0));
    assert_true(kv("3.4.0") == LAB_KV(3, 4, 0));
    assert_true(kv("v6.1") == LAB_KV(6, 1, 0));
    /* Debian's ABI number and flavour are not versions: 6.1.0-47 is 6.1 */
    assert_true(kv("6.1.0-47") == kv("6.1"));
    assert_true(kv("6.1.0-47-amd64") == kv("6.1"));
    assert_true(kv("6.1.0-50-686") == kv("6.1"));
    assert_true(kv("6.12.113+deb12") == LAB_KV(6, 12, 113));
    assert_true(kv("6.12.113+deb12-amd64") == LAB_KV(6, 12, 113));
    assert_true(kv("2.6.0-test9") == LAB_KV_RC(2, 6, 0, 9));
    assert_true(kv("2.4.10-pre3") == LAB_KV_RC(2, 4, 10, 3));
    assert_true(kv("4.9.337") == LAB_KV(4, 9, 337)); /* patch levels past 255 */
    assert_int_equal(LAB_KV_PATCH(kv("4.9.337")), 337);
    assert_int_equal(LAB_KV_SUB(kv("2.6.35.14")), 14);
    assert_int_equal(LAB_KV_RCNUM(kv("2.6.1-rc7")), 7);
    assert_int_equal(LAB_KV_RCNUM(kv("2.6.1")), 255);
}

static void test_parse_rejects(void **state)
{
    lab_kver v = 12345;
    const char *bad[] = {"",     "foo",       "6",           "6.",    "6.1.",  ".6.1",
                         "-6.1", "6..1",      "2.6.35.14.1", "300.1", "6.300", "6.1.999999",
                         "0.9",  "2.6.1-rc0", "x6.1",        "6.a"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (lab_kver_parse(bad[i], &v) == 0)
            fail_msg("'%s' parsed", bad[i]);
    }
    assert_int_equal(lab_kver_parse(NULL, &v), -1);
    assert_true(v == 12345); /* untouched on failure */
}

static void test_order(void **state)
{
    const char *ordered[] = {"2.4.0",     "2.4.10-pre3", "2.4.10",   "2.6.0-test9", "2.6.0",
                             "2.6.1-rc1", "2.6.1-rc2",   "2.6.1",    "2.6.1.1",     "2.6.9",
                             "2.6.10",    "2.6.35.14",   "2.6.39.4", "3.0",         "3.4-rc1",
                             "3.4",       "3.4.1",       "4.9.337",  "4.10",        "6.1",
                             "6.1.170",   "6.12",        "6.12.113", "10.0"};
    size_t n = sizeof ordered / sizeof ordered[0];
    for (size_t i = 0; i + 1 < n; i++)
        if (!(kv(ordered[i]) < kv(ordered[i + 1])))
            fail_msg("%s is not before %s", ordered[i], ordered[i + 1]);
}

static void test_format(void **state)
{
    const char *same[] = {"2.4.0", "2.6.1-rc1", "2.6.35.14", "3.4", "6.12.113", "3.4-rc3", "2.6.0"};
    char buf[32];
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        lab_kver_format(kv(same[i]), buf, sizeof buf);
        assert_string_equal(buf, same[i]);
    }
    lab_kver_format(kv("6.1.0-47"), buf, sizeof buf);
    assert_string_equal(buf, "6.1");
    lab_kver_format(kv("3.4.0"), buf, sizeof buf);
    assert_string_equal(buf, "3.4");
    lab_kver_format(kv("2.6.35.14"), buf, 5); /* truncated, terminated */
    assert_string_equal(buf, "2.6.");
}

static void test_table_sane(void **state)
{
    assert_int_equal(lab_era_row_count(), LAB_FEAT_COUNT);
    for (int f = 0; f < LAB_FEAT_COUNT; f++) {
        const struct lab_era_row *r = lab_era_row((enum lab_era_feature)f);
        assert_non_null(r);
        assert_int_equal(r->id, f);
        assert_ptr_equal(lab_era_row_at((size_t)f), r); /* table in enum order */
        assert_true(r->name && *r->name);
        assert_true(r->consequence && *r->consequence);
        assert_true(r->source && strlen(r->source) > 10);
        assert_true(r->until == 0 || r->until > r->since);
        assert_int_equal(LAB_KV_RCNUM(r->since) == 255 || r->since == 0, 1);
    }
    assert_null(lab_era_row_at(lab_era_row_count()));
}

/* Each row: the last release without it and the first with it. */
static void test_row_boundaries(void **state)
{
    static const struct {
        enum lab_era_feature f;
        const char *before, *from;
    } b[] = {
        {LAB_FEAT_MODULE_LOADER, "2.5.47", "2.5.48"},  {LAB_FEAT_INITRAMFS, "2.6.5", "2.6.6"},
        {LAB_FEAT_SYSFS, "2.4.37.11", "2.6.0"},        {LAB_FEAT_DEVTMPFS, "2.6.31", "2.6.32"},
        {LAB_FEAT_VIRTIO_CONSOLE, "2.6.23", "2.6.24"}, {LAB_FEAT_VIRTIO_PCI, "2.6.24", "2.6.25"},
        {LAB_FEAT_VIRTIO_PORTS, "2.6.34", "2.6.35"},   {LAB_FEAT_VIRTIO_SCSI, "3.3", "3.4"},
        {LAB_FEAT_ATA_PIIX_PIIX3, "2.6.20", "2.6.21"}, {LAB_FEAT_AHCI, "2.6.9", "2.6.10"},
        {LAB_FEAT_ELEVATOR_PARAM, "2.4.37", "2.6.0"},  {LAB_FEAT_SCHED_SYSFS, "2.6.9", "2.6.10"},
        {LAB_FEAT_BLK_MQ_SCHED, "4.10", "4.11"},       {LAB_FEAT_BFQ_KYBER, "4.11", "4.12"},
        {LAB_FEAT_DROP_CACHES, "2.6.15", "2.6.16"},    {LAB_FEAT_AT_SYSCALLS, "2.6.15", "2.6.16"},
        {LAB_FEAT_CLOCK_GETTIME, "2.4.37", "2.6.0"},   {LAB_FEAT_FADVISE, "2.4.37", "2.6.0"},
        {LAB_FEAT_O_DIRECT_BLKDEV, "2.4.9", "2.4.10"}, {LAB_FEAT_FINIT_MODULE, "3.7", "3.8"},
        {LAB_FEAT_MODULE_COMPRESS, "3.17", "3.18"},
    };
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
        if (lab_kver_has(kv(b[i].before), b[i].f))
            fail_msg("%s: %s has it", lab_era_row(b[i].f)->name, b[i].before);
        if (!lab_kver_has(kv(b[i].from), b[i].f))
            fail_msg("%s: %s lacks it", lab_era_row(b[i].f)->name, b[i].from);
    }
    /* removals */
    assert_true(lab_kver_has(kv("5.13.19"), LAB_FEAT_LEGACY_IDE));
    assert_false(lab_kver_has(kv("5.14"), LAB_FEAT_LEGACY_IDE));
    assert_true(lab_kver_has(kv("2.4.0"), LAB_FEAT_LEGACY_IDE));
    assert_true(lab_kver_has(kv("4.20.17"), LAB_FEAT_LEGACY_SCHED));
    assert_false(lab_kver_has(kv("5.0"), LAB_FEAT_LEGACY_SCHED));
    assert_false(lab_kver_has(kv("2.4.37"), LAB_FEAT_LEGACY_SCHED));
    /* an -rc kernel has what its release has (merged before rc1) */
    assert_true(lab_kver_has(kv("2.6.16-rc1"), LAB_FEAT_DROP_CACHES));
    assert_false(lab_kver_has(kv("5.14-rc1"), LAB_FEAT_LEGACY_IDE));
    assert_true(lab_kver_has(kv("3.4-rc1"), LAB_FEAT_VIRTIO_SCSI));
}

static void test_drop_caches_boundary(void **state)
{
    struct lab_era e = era_of("2.6.15");
    assert_int_equal(e.drop, LAB_DROP_FADVISE);
    assert_false(e.has_at_syscalls);
    e = era_of("2.6.16");
    assert_int_equal(e.drop, LAB_DROP_PROC_SYS_VM);
    assert_true(e.has_at_syscalls);
    e = era_of("2.6.0");
    assert_int_equal(e.drop, LAB_DROP_FADVISE);
}

static void test_channel_boundaries(void **state)
{
    /* The design's table put virtio-pci at 2.6.24; it is 2.6.25. */
    assert_int_equal(era_of("2.6.23").channel, LAB_AGENT_CHAN_UART);
    assert_int_equal(era_of("2.6.24").channel, LAB_AGENT_CHAN_UART);
    assert_int_equal(era_of("2.6.25").channel, LAB_AGENT_CHAN_VIRTIO_CONSOLE);
    assert_int_equal(era_of("2.6.34").channel, LAB_AGENT_CHAN_VIRTIO_CONSOLE);
    assert_int_equal(era_of("2.6.35").channel, LAB_AGENT_CHAN_VIRTIO_PORT);
    assert_int_equal(era_of("6.12.113+deb12").channel, LAB_AGENT_CHAN_VIRTIO_PORT);
}

static void test_virtio_scsi_boundary(void **state)
{
    char reason[160];
    struct lab_era e = era_of("3.3");
    assert_int_equal(lab_era_bus_supported(&e, "virtio-scsi", reason, sizeof reason), 0);
    assert_string_equal(reason, "virtio-scsi needs Linux 3.4 or later (this kernel is 3.3)");
    e = era_of("2.6.32");
    assert_int_equal(lab_era_bus_supported(&e, "virtio-scsi", reason, sizeof reason), 0);
    assert_string_equal(reason, "virtio-scsi needs Linux 3.4 or later (this kernel is 2.6.32)");
    e = era_of("3.4");
    reason[0] = 'x';
    assert_int_equal(lab_era_bus_supported(&e, "virtio-scsi", reason, sizeof reason), 1);
    assert_string_equal(reason, "");
    e = era_of("3.4-rc1");
    assert_int_equal(lab_era_bus_supported(&e, "virtio-scsi", NULL, 0), 1);
}

static void test_2_4(void **state)
{
    struct lab_era e = era_of("2.4.20");
    assert_int_equal(e.boot, LAB_BOOT_EXT2_INITRD);
    assert_int_equal(e.sched, LAB_SCHED_ELVTUNE);
    /* 2.4 has no fadvise: the agent remounts the data disk */
    assert_int_equal(e.drop, LAB_DROP_REMOUNT);
    assert_int_equal(e.channel, LAB_AGENT_CHAN_UART);
    assert_false(e.has_sysfs);
    assert_false(e.has_devtmpfs);
    assert_false(e.has_clock_gettime);
    assert_true(e.has_o_direct_blkdev);
    assert_false(e.modules_loadable);
    assert_false(e.ide_libata);
    assert_false(era_of("2.4.9").has_o_direct_blkdev);

    char reason[160];
    assert_int_equal(lab_era_bus_supported(&e, "ide", reason, sizeof reason), 1);
    assert_int_equal(lab_era_bus_supported(&e, "scsi", reason, sizeof reason), 1);
    assert_int_equal(lab_era_bus_supported(&e, "sata", reason, sizeof reason), 0);
    assert_string_equal(reason, "sata needs Linux 2.6.10 or later (this kernel is 2.4.20)");
    /* modules cannot be loaded by the agent: everything built in */
    const char *mods[8];
    assert_int_equal(lab_era_bus_modules(&e, "ide", mods, 8), 0);
}

static void test_2_6_decisions(void **state)
{
    struct lab_era e = era_of("2.6.0");
    assert_int_equal(e.boot, LAB_BOOT_EXT2_INITRD); /* nothing runs /init before 2.6.6 */
    assert_int_equal(era_of("2.6.5").boot, LAB_BOOT_EXT2_INITRD);
    assert_int_equal(era_of("2.6.6").boot, LAB_BOOT_INITRAMFS);
    assert_int_equal(e.sched, LAB_SCHED_BOOT_PARAM);
    assert_true(e.has_sysfs);
    assert_true(e.has_clock_gettime);
    assert_int_equal(era_of("2.6.9").sched, LAB_SCHED_BOOT_PARAM);
    assert_int_equal(era_of("2.6.10").sched, LAB_SCHED_SYSFS);
    assert_false(era_of("2.6.31").has_devtmpfs);
    assert_true(era_of("2.6.32").has_devtmpfs);
    assert_false(era_of("2.6.20").ide_libata);
    assert_true(era_of("2.6.21").ide_libata);
    assert_true(era_of("6.1").ide_libata);
}

static void test_era_for_errors(void **state)
{
    struct lab_era e;
    assert_int_equal(lab_era_for("foo", "x86_64", &e), -1);
    assert_int_equal(lab_era_for(NULL, "x86_64", &e), -1);
    assert_int_equal(lab_era_for("2.2.26", "x86_64", &e), -1); /* before the agent's floor */
    assert_int_equal(lab_era_for("6.1", "sparc64", &e), -1);
    assert_int_equal(lab_era_for("6.1", NULL, &e), -1);
    assert_int_equal(lab_era_for("6.1", "i386", &e), 0);
    assert_string_equal(e.arch, "i686");
    assert_int_equal(lab_era_for("6.1", "i686", &e), 0);
    assert_string_equal(e.arch, "i686");
    assert_int_equal(lab_era_for("6.1", "amd64", &e), 0);
    assert_string_equal(e.arch, "x86_64");
    assert_string_equal(e.version_str, "6.1");
}

static void test_unknown_bus(void **state)
{
    struct lab_era e = era_of("6.1");
    char reason[160];
    assert_int_equal(lab_era_bus_supported(&e, "nvme", reason, sizeof reason), 0);
    assert_non_null(strstr(reason, "unknown bus 'nvme'"));
    assert_int_equal(lab_era_bus_supported(&e, NULL, reason, sizeof reason), 0);
    const char *mods[8];
    assert_int_equal(lab_era_bus_modules(&e, "nvme", mods, 8), 0);
}

static void assert_mods(const struct lab_era *e, const char *bus, const char *const *want,
                        size_t nwant)
{
    const char *mods[16];
    size_t n = lab_era_bus_modules(e, bus, mods, 16);
    if (n != nwant)
        fail_msg("%s on %s: %zu modules, want %zu", bus, e->version_str, n, nwant);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(mods[i], want[i]);
}

static void test_modules_modern(void **state)
{
    struct lab_era e = era_of("6.1.0-47");
    /* the list host/cell/cell.c uses for IDE cells on Debian 6.1/6.12 */
    const char *ide[] = {"ata_piix", "sd_mod",     "crc32c_generic",
                         "ext4",     "virtio_pci", "virtio_console"};
    assert_mods(&e, "ide", ide, 6);
    const char *sata[] = {"ahci", "sd_mod",     "crc32c_generic",
                          "ext4", "virtio_pci", "virtio_console"};
    assert_mods(&e, "sata", sata, 6);
    const char *scsi[] = {"sym53c8xx", "sd_mod",     "crc32c_generic",
                          "ext4",      "virtio_pci", "virtio_console"};
    assert_mods(&e, "scsi", scsi, 6);
    /* virtio_pci once, first: the SCSI controller is itself a virtio device */
    const char *vscsi[] = {"virtio_pci",     "virtio_scsi", "sd_mod",
                           "crc32c_generic", "ext4",        "virtio_console"};
    assert_mods(&e, "virtio-scsi", vscsi, 6);
    e = era_of("6.12.113+deb12");
    assert_mods(&e, "ide", ide, 6);
}

static void test_modules_old(void **state)
{
    /* before libata drove PIIX3, with a UART channel: no virtio modules */
    struct lab_era e = era_of("2.6.18");
    const char *ide[] = {"piix", "ide-disk", "ext2"};
    assert_mods(&e, "ide", ide, 3);
    e = era_of("2.6.32");
    const char *ide32[] = {"ata_piix", "sd_mod", "ext2", "virtio_pci", "virtio_console"};
    assert_mods(&e, "ide", ide32, 5);
    /* too small an array: the count says how many there are */
    const char *two[2];
    assert_int_equal(lab_era_bus_modules(&e, "ide", two, 2), 5);
    assert_string_equal(two[0], "ata_piix");
    assert_string_equal(two[1], "sd_mod");
    /* unsupported bus: nothing */
    assert_int_equal(lab_era_bus_modules(&e, "virtio-scsi", two, 2), 0);
}

/* The Debian catalog (user kernels in $LAB_HOME may be of any era). */
static void test_catalog_eras(void **state)
{
    for (size_t i = 0; i < lab_kernel_count(); i++) {
        const struct lab_kernel *k = lab_kernel_at(i);
        if (strcmp(k->source, "debian") != 0)
            continue; /* user kernels in LAB_HOME (an era build has no virtio) */
        struct lab_era e;
        if (k->dir)
            continue;
        assert_int_equal(lab_era_for(k->version, k->arch, &e), 0);
        /* the release parses to the same major.minor as the version */
        lab_kver r = kv(k->release);
        assert_int_equal(LAB_KV_MAJOR(r), LAB_KV_MAJOR(e.version));
        assert_int_equal(LAB_KV_MINOR(r), LAB_KV_MINOR(e.version));
        assert_int_equal(e.channel, LAB_AGENT_CHAN_VIRTIO_PORT);
        assert_true(lab_era_bus_supported(&e, "ide", NULL, 0));
    }
}

static void test_explain(void **state)
{
    struct lab_era e = era_of("2.6.15");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    lab_era_explain(&e, f);
    fclose(f);
    assert_non_null(strstr(buf, "era facts for Linux 2.6.15 (x86_64)"));
    assert_non_null(strstr(buf, "no   /proc/sys/vm/drop_caches"));
    assert_non_null(strstr(buf, "yes  sysfs"));
    assert_non_null(strstr(buf, "drop-pagecache"));
    assert_non_null(strstr(buf, "gone in 5.14"));
    /* one yes/no line per row */
    size_t rows = 0;
    for (char *p = buf; (p = strstr(p, "\n  ")); p++)
        if (strncmp(p + 3, "yes  ", 5) == 0 || strncmp(p + 3, "no   ", 5) == 0)
            rows++;
    assert_int_equal(rows, lab_era_row_count());
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_parse_rejects),
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_table_sane),
        cmocka_unit_test(test_row_boundaries),
        cmocka_unit_test(test_drop_caches_boundary),
        cmocka_unit_test(test_channel_boundaries),
        cmocka_unit_test(test_virtio_scsi_boundary),
        cmocka_unit_test(test_2_4),
        cmocka_unit_test(test_2_6_decisions),
        cmocka_unit_test(test_era_for_errors),
        cmocka_unit_test(test_unknown_bus),
        cmocka_unit_test(test_modules_modern),
        cmocka_unit_test(test_modules_old),
        cmocka_unit_test(test_catalog_eras),
        cmocka_unit_test(test_explain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
