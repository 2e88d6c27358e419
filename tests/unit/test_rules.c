/* Unit tests of kernels/rules.c, the kernel-version rules table: the one
 * comparison (a pre-release counts as its release), each rule at the
 * edges of its rows, the table's own consistency (no two rows of a rule
 * and key overlap), and the boot image's IDE modules following the
 * kernel's IDE stack (its .config's choice), not its version. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "kernels/era.h"
#include "kernels/rules.h"

static lab_kver kv(const char *s)
{
    lab_kver v = 0;
    assert_int_equal(lab_kver_parse(s, &v), 0);
    return v;
}

static void test_kver_in(void **state)
{
    lab_kver since = LAB_KV(2, 6, 21), until = LAB_KV(5, 14, 0);
    assert_false(lab_kver_in(kv("2.6.20"), since, until));
    assert_false(lab_kver_in(kv("2.6.20.21"), since, until));
    assert_true(lab_kver_in(kv("2.6.21-rc1"), since, until)); /* merged for 2.6.21 */
    assert_true(lab_kver_in(kv("2.6.21"), since, until));
    assert_true(lab_kver_in(kv("5.13.19"), since, until));
    assert_false(lab_kver_in(kv("5.14-rc1"), since, until)); /* gone in the merge window */
    assert_false(lab_kver_in(kv("5.14"), since, until));
    assert_true(lab_kver_in(kv("6.12.113"), since, 0)); /* no end */
    assert_true(lab_kver_in(kv("2.4.0"), 0, since));
}

/* Each rule on both sides of its edges. */
static void test_rules_at_edges(void **state)
{
    static const struct {
        enum lab_rule rule;
        const char *version, *value; /* NULL: no row holds the version */
    } cases[] = {
        {LAB_RULE_MACHINE_PC, "2.6.39", "pc-i440fx-7.0"},
        {LAB_RULE_MACHINE_PC, "3.0", NULL},
        {LAB_RULE_NOAPIC, "2.4.22", " noapic"},
        {LAB_RULE_NOAPIC, "3.0-rc1", NULL},
        {LAB_RULE_CONSOLE_WORDS, "2.6.39", NULL},
        {LAB_RULE_CONSOLE_WORDS, "6.1", " printk.time=1 no_timer_check"},
        {LAB_RULE_TCG_WORDS, "3.0", " noapictimer"},
        {LAB_RULE_ACPI_NOIRQ, "2.6.32", NULL},
        {LAB_RULE_ACPI_NOIRQ, "6.12.113", " acpi=noirq"},
        {LAB_RULE_UART_OPTION, "2.4.22", "SERIAL"},
        {LAB_RULE_UART_OPTION, "2.5.75", "SERIAL"},
        {LAB_RULE_UART_OPTION, "2.6.0-test9", "SERIAL_8250"},
        {LAB_RULE_EXT2_OPTIONS, "4.1.15", "EXT2_FS|EXT4_FS+EXT4_USE_FOR_EXT23"},
        {LAB_RULE_EXT2_OPTIONS, "4.3", "EXT2_FS|EXT4_FS+EXT4_USE_FOR_EXT2"},
        {LAB_RULE_EXT2_OPTIONS, "6.1", "EXT2_FS|EXT4_FS+EXT4_USE_FOR_EXT2"},
        {LAB_RULE_EXT3_OPTIONS, "4.2.8", "EXT3_FS|EXT4_FS+EXT4_USE_FOR_EXT23"},
        {LAB_RULE_EXT3_OPTIONS, "4.3", "EXT3_FS|EXT4_FS"},
        {LAB_RULE_QBOOT, "5.19", NULL},
        {LAB_RULE_QBOOT, "2.6.12-rc2", "asked"},
        {LAB_RULE_QBOOT, "2.6.13", NULL},
        {LAB_RULE_CONFIG_FRAGMENT, "2.4.0-test1", "lab-2.4.config"},
        {LAB_RULE_CONFIG_FRAGMENT, "2.5.70", NULL},
        {LAB_RULE_CONFIG_FRAGMENT, "2.6.20", "lab-2.6.config"},
        {LAB_RULE_CONFIG_FRAGMENT, "2.6.21-rc1", "lab-2.6.21.config"},
        {LAB_RULE_CONFIG_FRAGMENT, "3.19.8", "lab-2.6.21.config"},
        {LAB_RULE_CONFIG_FRAGMENT, "4.0", "lab-6.x.config"},
        {LAB_RULE_KCONFIG_BASE, "3.16", NULL},
        {LAB_RULE_KCONFIG_BASE, "3.17-rc1", "tinyconfig"},
        {LAB_RULE_KCONFIG_UPDATE, "3.6.11", NULL},
        {LAB_RULE_KCONFIG_UPDATE, "3.7", "olddefconfig"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = lab_rule_value(cases[i].rule, kv(cases[i].version), NULL);
        if (!cases[i].value != !got || (got && strcmp(got, cases[i].value) != 0))
            fail_msg("rule %d on %s: got '%s', want '%s'", cases[i].rule, cases[i].version,
                     got ? got : "(none)", cases[i].value ? cases[i].value : "(none)");
    }
    assert_non_null(lab_rule_for(LAB_RULE_QBOOT, NULL, kv("6.1.0-47")));
    assert_int_equal(lab_rule_for(LAB_RULE_MEMORY_FLOOR, NULL, kv("2.6.9"))->number, 32);
    assert_int_equal(lab_rule_for(LAB_RULE_MEMORY_FLOOR, NULL, kv("4.19"))->number, 128);
    assert_int_equal(lab_rule_for(LAB_RULE_MEMORY_FLOOR, NULL, kv("5.0"))->number, 256);
    assert_null(lab_rule_for(LAB_RULE_SUPPORTED, NULL, kv("2.2.26")));
    assert_non_null(lab_rule_for(LAB_RULE_SUPPORTED, NULL, kv("2.4.0-test1")));
    assert_null(lab_rule_for(LAB_RULE_SCHEDULER, "as", kv("2.6.33-rc1")));
    assert_non_null(lab_rule_for(LAB_RULE_SCHEDULER, "as", kv("2.6.32")));
    assert_null(lab_rule_for(LAB_RULE_SCHEDULER, "cfq", kv("2.6.5")));
    assert_non_null(lab_rule_for(LAB_RULE_SCHEDULER, "bfq", kv("4.12")));
    assert_null(lab_rule_named(LAB_RULE_SCHEDULER, "bogus"));
    /* PIIX DMA at boot: the tuning option too before 2.4.21 (its -rc1 on,
     * a pre-release counting as its release). */
    assert_string_equal(lab_rule_for(LAB_RULE_IDE_DMA_OPTIONS, NULL, kv("2.4.20"))->mods[2],
                        "PIIX_TUNING");
    assert_null(lab_rule_for(LAB_RULE_IDE_DMA_OPTIONS, NULL, kv("2.4.21-rc1"))->mods[2]);
    assert_non_null(lab_rule_for(LAB_RULE_IDE_DMA_KCONFIG_READ, NULL, kv("2.6.20")));
    assert_null(lab_rule_for(LAB_RULE_IDE_DMA_KCONFIG_READ, NULL, kv("2.6.21")));
}

/* One row at most holds a version, for a rule and key: first-match is
 * the only match. */
static void test_rows_do_not_overlap(void **state)
{
    for (size_t i = 0; i < lab_rule_count(); i++) {
        const struct lab_rule_row *a = lab_rule_at(i);
        assert_true(a->until == 0 || a->since < a->until);
        assert_non_null(a->why);
        for (size_t j = i + 1; j < lab_rule_count(); j++) {
            const struct lab_rule_row *b = lab_rule_at(j);
            if (a->rule != b->rule || (a->key || b->key) != (a->key && b->key) ||
                (a->key && strcmp(a->key, b->key) != 0))
                continue;
            int apart = (a->until && a->until <= b->since) || (b->until && b->until <= a->since);
            if (!apart)
                fail_msg("rows %zu and %zu of rule %d (%s) overlap", i, j, a->rule,
                         a->key ? a->key : "");
        }
    }
    assert_null(lab_rule_at(lab_rule_count()));
}

static void modules(const char *version, int libata, char *buf, size_t len)
{
    struct lab_era era;
    const char *mods[16];
    assert_int_equal(lab_era_for(version, "x86_64", &era), 0);
    if (libata >= 0)
        era.ide_libata = libata; /* the .config's choice (lab_kernel_choose_drivers) */
    size_t n = lab_era_bus_modules(&era, "ide", mods, 16);
    buf[0] = '\0';
    for (size_t i = 0; i < n && i < 16; i++)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? " " : "", mods[i]);
}

/* A modular 2.6.21-5.13 kernel whose .config drives PIIX through
 * drivers/ide gets drivers/ide's modules, not ata_piix. */
static void test_ide_modules_follow_the_stack(void **state)
{
    char buf[256];
    modules("2.6.20", -1, buf, sizeof buf);
    assert_string_equal(buf, "piix ide-disk ext2");
    modules("2.6.24", -1, buf, sizeof buf);
    assert_string_equal(buf, "ata_piix sd_mod ext2");
    modules("2.6.24", 0, buf, sizeof buf);
    assert_string_equal(buf, "piix ide-disk ext2");
    modules("2.6.32", 0, buf, sizeof buf);
    assert_string_equal(buf, "piix ide-gd_mod ext2 virtio_pci virtio_console");
    modules("5.10", 0, buf, sizeof buf);
    assert_string_equal(buf, "piix ide-gd_mod crc32c_generic ext4 virtio_pci virtio_console");
    modules("6.1", -1, buf, sizeof buf);
    assert_string_equal(buf, "ata_piix sd_mod crc32c_generic ext4 virtio_pci virtio_console");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kver_in),
        cmocka_unit_test(test_rules_at_edges),
        cmocka_unit_test(test_rows_do_not_overlap),
        cmocka_unit_test(test_ide_modules_follow_the_stack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
