/* .config parsing and the per-bus, channel and filesystem checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "common/str.h"
#include "kernels/build.h"
#include "kernels/era.h"
#include "kernels/kconfig.h"

static const char *minimal = "#\n# Automatically generated file; DO NOT EDIT.\n"
                             "CONFIG_64BIT=y\n"
                             "CONFIG_LOCALVERSION=\"-lab\"\n"
                             "CONFIG_NR_CPUS=64\n"
                             "CONFIG_BLK_DEV_INITRD=y\n"
                             "CONFIG_ATA=y\n"
                             "CONFIG_ATA_PIIX=y\n"
                             "CONFIG_BLK_DEV_SD=y\n"
                             "# CONFIG_SATA_AHCI is not set\n"
                             "CONFIG_SCSI_SYM53C8XX_2=m\n"
                             "CONFIG_VIRTIO_PCI=y\n"
                             "CONFIG_VIRTIO_CONSOLE=y\n"
                             "CONFIG_SERIAL_8250=y\n"
                             "CONFIG_EXT4_FS=y\n"
                             "CONFIG_EXT4_USE_FOR_EXT2=y\n"
                             "CONFIG_SCSI_VIRTIO=n\n";

static void test_parse_states(void **state)
{
    struct lab_kconfig c;
    char err[128];
    assert_int_equal(lab_kconfig_parse(minimal, &c, err, sizeof err), 0);
    assert_int_equal(lab_kconfig_state(&c, "CONFIG_ATA_PIIX"), LAB_KCONFIG_BUILTIN);
    assert_int_equal(lab_kconfig_state(&c, "ATA_PIIX"), LAB_KCONFIG_BUILTIN);
    assert_int_equal(lab_kconfig_state(&c, "SCSI_SYM53C8XX_2"), LAB_KCONFIG_MODULE);
    assert_int_equal(lab_kconfig_state(&c, "SATA_AHCI"), LAB_KCONFIG_ABSENT);
    assert_int_equal(lab_kconfig_state(&c, "SCSI_VIRTIO"), LAB_KCONFIG_ABSENT);
    assert_int_equal(lab_kconfig_state(&c, "NOT_THERE"), LAB_KCONFIG_ABSENT);
    assert_string_equal(lab_kconfig_value(&c, "LOCALVERSION"), "-lab");
    assert_string_equal(lab_kconfig_value(&c, "NR_CPUS"), "64");
    assert_null(lab_kconfig_value(&c, "SATA_AHCI"));
    lab_kconfig_free(&c);
}

/* Later assignments win, as in kconfig (a fragment appended to .config). */
static void test_override_and_errors(void **state)
{
    struct lab_kconfig c;
    char err[128];
    assert_int_equal(lab_kconfig_parse("CONFIG_A=m\nCONFIG_A=y\n# CONFIG_B=y\nCONFIG_C=y\n"
                                       "# CONFIG_C is not set\r\n",
                                       &c, err, sizeof err),
                     0);
    assert_int_equal(lab_kconfig_state(&c, "A"), LAB_KCONFIG_BUILTIN);
    assert_int_equal(lab_kconfig_state(&c, "B"), LAB_KCONFIG_ABSENT);
    assert_int_equal(lab_kconfig_state(&c, "C"), LAB_KCONFIG_ABSENT);
    assert_int_equal(c.n, 2);
    lab_kconfig_free(&c);
    assert_int_equal(lab_kconfig_parse("CONFIG_OK=y\nCONFIG_BROKEN\n", &c, err, sizeof err), -1);
    assert_non_null(strstr(err, "line 2"));
}

static void test_bus_checks(void **state)
{
    struct lab_kconfig c;
    struct lab_era era;
    char reason[200];
    assert_int_equal(lab_era_for("6.1.170", "x86_64", &era), 0);
    assert_int_equal(lab_kconfig_parse(minimal, &c, NULL, 0), 0);
    c.kernel = "6.1-mine";
    assert_int_equal(lab_kconfig_bus_ok(&c, "ide", &era, reason, sizeof reason), 1);
    assert_int_equal(lab_kconfig_bus_ok(&c, "sata", &era, reason, sizeof reason), 0);
    assert_string_equal(reason, "kernel 6.1-mine lacks CONFIG_SATA_AHCI (needed for bus sata); "
                                "looked for CONFIG_SATA_AHCI + CONFIG_BLK_DEV_SD or "
                                "CONFIG_SCSI_SATA_AHCI + CONFIG_BLK_DEV_SD");
    /* =m without a modules tree is refused, with it accepted */
    assert_int_equal(lab_kconfig_bus_ok(&c, "scsi", &era, reason, sizeof reason), 0);
    assert_non_null(strstr(reason, "CONFIG_SCSI_SYM53C8XX_2"));
    assert_non_null(strstr(reason, "module"));
    c.have_modules = 1;
    assert_int_equal(lab_kconfig_bus_ok(&c, "scsi", &era, reason, sizeof reason), 1);
    assert_int_equal(lab_kconfig_bus_ok(&c, "virtio-scsi", &era, reason, sizeof reason), 0);
    assert_non_null(strstr(reason, "CONFIG_SCSI_VIRTIO"));
    assert_int_equal(lab_kconfig_bus_ok(&c, "floppy", &era, reason, sizeof reason), -1);
    assert_int_equal(
        lab_kconfig_channel_ok(&c, LAB_AGENT_CHAN_VIRTIO_PORT, &era, reason, sizeof reason), 1);
    assert_int_equal(lab_kconfig_channel_ok(&c, LAB_AGENT_CHAN_UART, &era, reason, sizeof reason),
                     1);
    assert_int_equal(lab_kconfig_fs_ok(&c, "ext2", &era, reason, sizeof reason), 1);
    assert_int_equal(lab_kconfig_fs_ok(&c, "ext4", &era, reason, sizeof reason), 1);
    assert_int_equal(lab_kconfig_fs_ok(&c, "raw", &era, reason, sizeof reason), 1);
    /* From 4.3 the ext4 driver mounts ext3 whatever the config; before, it
     * needed EXT3_FS or EXT4_USE_FOR_EXT23. */
    assert_int_equal(lab_kconfig_fs_ok(&c, "ext3", &era, reason, sizeof reason), 1);
    struct lab_era old;
    assert_int_equal(lab_era_for("3.10", "x86_64", &old), 0);
    assert_int_equal(lab_kconfig_fs_ok(&c, "ext3", &old, reason, sizeof reason), 0);
    assert_non_null(strstr(reason, "CONFIG_EXT3_FS"));
    lab_kconfig_free(&c);
}

/* ext2 through ext4 needs EXT4_USE_FOR_EXT2; no initrd support, no cell. */
static void test_fs_and_initrd(void **state)
{
    struct lab_kconfig c;
    struct lab_era era;
    char reason[200];
    assert_int_equal(lab_era_for("6.1", "x86_64", &era), 0);
    assert_int_equal(lab_kconfig_parse("CONFIG_EXT4_FS=y\nCONFIG_ATA_PIIX=y\nCONFIG_BLK_DEV_SD=y\n",
                                       &c, NULL, 0),
                     0);
    assert_int_equal(lab_kconfig_fs_ok(&c, "ext2", &era, reason, sizeof reason), 0);
    assert_non_null(strstr(reason, "CONFIG_EXT2_FS"));
    assert_int_equal(lab_kconfig_bus_ok(&c, "ide", &era, reason, sizeof reason), 0);
    assert_non_null(strstr(reason, "CONFIG_BLK_DEV_INITRD"));
    assert_non_null(strstr(reason, "this kernel"));
    lab_kconfig_free(&c);
}

/* Era-dependent: legacy IDE before libata drove PIIX3, old libata names. */
static void test_era_options(void **state)
{
    struct lab_kconfig c;
    struct lab_era era;
    char reason[200];
    assert_int_equal(lab_era_for("2.6.10", "i686", &era), 0);
    assert_int_equal(lab_kconfig_parse("CONFIG_BLK_DEV_INITRD=y\nCONFIG_ATA_PIIX=y\n"
                                       "CONFIG_BLK_DEV_SD=y\nCONFIG_SCSI_SATA_AHCI=y\n",
                                       &c, NULL, 0),
                     0);
    c.kernel = "old";
    assert_int_equal(lab_kconfig_bus_ok(&c, "ide", &era, reason, sizeof reason), 0);
    assert_string_equal(reason, "kernel old lacks CONFIG_BLK_DEV_PIIX (needed for bus ide); "
                                "looked for CONFIG_BLK_DEV_PIIX + CONFIG_BLK_DEV_IDEDISK");
    assert_int_equal(lab_kconfig_bus_ok(&c, "sata", &era, reason, sizeof reason), 1);
    lab_kconfig_free(&c);
    /* 2.4: modules cannot be loaded by the agent even with a tree */
    assert_int_equal(lab_era_for("2.4.20", "i686", &era), 0);
    assert_int_equal(lab_kconfig_parse("CONFIG_BLK_DEV_INITRD=y\nCONFIG_BLK_DEV_RAM=y\n"
                                       "CONFIG_EXT2_FS=y\nCONFIG_BLK_DEV_PIIX=m\n"
                                       "CONFIG_BLK_DEV_IDEDISK=y\nCONFIG_SERIAL=y\n",
                                       &c, NULL, 0),
                     0);
    c.have_modules = 1;
    assert_int_equal(lab_kconfig_bus_ok(&c, "ide", &era, reason, sizeof reason), 0);
    assert_non_null(strstr(reason, "cannot load"));
    assert_int_equal(lab_kconfig_channel_ok(&c, LAB_AGENT_CHAN_UART, &era, reason, sizeof reason),
                     1);
    lab_kconfig_free(&c);
}

/* 2.6.21-5.13 may drive PIIX3 either way: the .config decides, and a
 * .config with neither is refused naming both. */
static void test_ide_stack_from_config(void **state)
{
    struct lab_kconfig c;
    struct lab_era era;
    char reason[300];
    assert_int_equal(lab_era_for("2.6.24.7", "i686", &era), 0);
    assert_int_equal(lab_kconfig_parse("CONFIG_BLK_DEV_INITRD=y\nCONFIG_IDE=y\n"
                                       "CONFIG_BLK_DEV_PIIX=y\nCONFIG_BLK_DEV_IDEDISK=y\n",
                                       &c, NULL, 0),
                     0);
    c.kernel = "2.6.24-ide";
    assert_int_equal(lab_kconfig_bus_ok(&c, "ide", &era, reason, sizeof reason), 1);
    assert_int_equal(lab_kconfig_ide_libata(&c, &era), 0);
    lab_kconfig_free(&c);
    /* both stacks built in: libata */
    assert_int_equal(lab_kconfig_parse("CONFIG_BLK_DEV_PIIX=y\nCONFIG_BLK_DEV_IDEDISK=y\n"
                                       "CONFIG_ATA_PIIX=y\nCONFIG_BLK_DEV_SD=y\n",
                                       &c, NULL, 0),
                     0);
    assert_int_equal(lab_kconfig_ide_libata(&c, &era), 1);
    lab_kconfig_free(&c);
    /* no disk driver: refused, every stack named */
    assert_int_equal(
        lab_kconfig_parse("CONFIG_BLK_DEV_INITRD=y\nCONFIG_SERIAL_8250=y\n", &c, NULL, 0), 0);
    c.kernel = "2.6.35-nodisk";
    assert_int_equal(lab_kconfig_ide_libata(&c, &era), -1);
    assert_int_equal(lab_kconfig_bus_ok(&c, "ide", &era, reason, sizeof reason), 0);
    assert_string_equal(reason, "kernel 2.6.35-nodisk lacks CONFIG_ATA_PIIX (needed for bus ide); "
                                "looked for CONFIG_ATA_PIIX + CONFIG_BLK_DEV_SD or "
                                "CONFIG_SCSI_ATA_PIIX + CONFIG_BLK_DEV_SD or "
                                "CONFIG_BLK_DEV_PIIX + CONFIG_BLK_DEV_IDEDISK");
    lab_kconfig_free(&c);
    /* 2.6.9: drivers/ide only; 5.14: libata only */
    assert_int_equal(lab_era_for("2.6.9", "i686", &era), 0);
    assert_string_equal(lab_kconfig_bus_needs("ide", &era), "BLK_DEV_PIIX+BLK_DEV_IDEDISK");
    assert_int_equal(lab_era_for("5.14", "x86_64", &era), 0);
    assert_string_equal(lab_kconfig_bus_needs("ide", &era),
                        "ATA_PIIX+BLK_DEV_SD|SCSI_ATA_PIIX+BLK_DEV_SD");
}

/* DMA at boot on drivers/ide: what each version's PIIX driver needs, and
 * the lab's own fragments against every version they cover. */
static void test_ide_dma_at_boot(void **state)
{
    struct lab_kconfig c;
    struct lab_era era;
    char reason[300];
    /* A prebuilt 2.6.11.12 whose .config leaves DMA to the user (hdparm -d1). */
    assert_int_equal(lab_era_for("2.6.11.12", "i686", &era), 0);
    assert_int_equal(lab_kconfig_parse("CONFIG_BLK_DEV_PIIX=y\nCONFIG_BLK_DEV_IDEDISK=y\n"
                                       "CONFIG_BLK_DEV_IDEDMA_PCI=y\n"
                                       "# CONFIG_IDEDMA_PCI_AUTO is not set\n",
                                       &c, NULL, 0),
                     0);
    assert_int_equal(lab_kconfig_ide_dma_at_boot(&c, &era, reason, sizeof reason), 0);
    assert_string_equal(reason, "CONFIG_IDEDMA_PCI_AUTO is not set");
    /* 2.4.20's piix.c sets autodma only under PIIX_TUNING; 2.4.22's never asks. */
    assert_int_equal(lab_era_for("2.4.20", "i686", &era), 0);
    lab_kconfig_free(&c);
    assert_int_equal(lab_kconfig_parse("CONFIG_BLK_DEV_PIIX=y\nCONFIG_BLK_DEV_IDEDISK=y\n"
                                       "CONFIG_BLK_DEV_IDEDMA_PCI=y\nCONFIG_IDEDMA_PCI_AUTO=y\n",
                                       &c, NULL, 0),
                     0);
    assert_int_equal(lab_kconfig_ide_dma_at_boot(&c, &era, reason, sizeof reason), 0);
    assert_string_equal(reason, "CONFIG_PIIX_TUNING is missing");
    assert_int_equal(lab_era_for("2.4.22", "i686", &era), 0);
    assert_int_equal(lab_kconfig_ide_dma_at_boot(&c, &era, reason, sizeof reason), 1);
    assert_int_equal(lab_era_for("2.4.19", "i686", &era), 0);
    assert_int_equal(lab_kconfig_ide_dma_at_boot(&c, &era, reason, sizeof reason), 0);
    /* After 2.6.20 an option the .config never mentions is not held against it. */
    assert_int_equal(lab_era_for("2.6.24", "i686", &era), 0);
    lab_kconfig_free(&c);
    assert_int_equal(lab_kconfig_parse("CONFIG_BLK_DEV_PIIX=y\nCONFIG_BLK_DEV_IDEDISK=y\n"
                                       "CONFIG_BLK_DEV_IDEDMA_PCI=y\n",
                                       &c, NULL, 0),
                     0);
    assert_int_equal(lab_kconfig_ide_dma_at_boot(&c, &era, reason, sizeof reason), 1);
    /* libata: not this check's. */
    lab_kconfig_free(&c);
    assert_int_equal(lab_kconfig_parse("CONFIG_ATA_PIIX=y\nCONFIG_BLK_DEV_SD=y\n", &c, NULL, 0), 0);
    assert_int_equal(lab_kconfig_ide_dma_at_boot(&c, &era, reason, sizeof reason), -1);
    lab_kconfig_free(&c);

    /* The lab's fragments: DMA at boot for every 2.4.x and 2.6.0-2.6.20. */
    static const char *const v24[] = {"2.4.0", "2.4.9", "2.4.18", "2.4.20", "2.4.21", "2.4.37"};
    static const char *const v26[] = {"2.6.0",     "2.6.1-rc1", "2.6.8.1", "2.6.10",
                                      "2.6.11.12", "2.6.12.6",  "2.6.20"};
    char *frag = lab_asprintf("%s/lab-2.4.config", lab_build_configs_dir());
    assert_int_equal(lab_kconfig_load(frag, &c), 0);
    free(frag);
    for (size_t i = 0; i < sizeof v24 / sizeof v24[0]; i++) {
        assert_int_equal(lab_era_for(v24[i], "i686", &era), 0);
        assert_int_equal(lab_kconfig_ide_dma_at_boot(&c, &era, reason, sizeof reason), 1);
    }
    lab_kconfig_free(&c);
    frag = lab_asprintf("%s/lab-2.6.config", lab_build_configs_dir());
    assert_int_equal(lab_kconfig_load(frag, &c), 0);
    free(frag);
    for (size_t i = 0; i < sizeof v26 / sizeof v26[0]; i++) {
        assert_int_equal(lab_era_for(v26[i], "i686", &era), 0);
        assert_int_equal(lab_kconfig_ide_dma_at_boot(&c, &era, reason, sizeof reason), 1);
    }
    lab_kconfig_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_states),    cmocka_unit_test(test_override_and_errors),
        cmocka_unit_test(test_bus_checks),      cmocka_unit_test(test_fs_and_initrd),
        cmocka_unit_test(test_era_options),     cmocka_unit_test(test_ide_stack_from_config),
        cmocka_unit_test(test_ide_dma_at_boot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
