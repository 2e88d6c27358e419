/* The kernel-version rules table; see rules.h. Each row says what the lab
 * does for the kernels in [since, until) and why; the facts behind the
 * rows are in docs/era-facts.md. */
#include "kernels/rules.h"

#include <string.h>

#define V(a, b, c) LAB_KV(a, b, c)

static const struct lab_rule_row rows[] = {
    /* The agent's floor: it uses only 2.4.0's system calls (or falls back). */
    {LAB_RULE_SUPPORTED,
     NULL,
     LAB_KV_RC(2, 4, 0, 1),
     0,
     NULL,
     0,
     {0},
     "the agent needs 2.4.0's system calls"},
    /* QEMU 7.2's pc (pc-i440fx-7.2) reserves e820 space at 0xfd00000000
     * and x86_64 2.6.12 panics on it ("Cannot find space for the kernel
     * page tables"); pc-i440fx-7.0 is the same board without it. Pinned
     * for every 2.x kernel: nothing else differs for a guest. */
    {LAB_RULE_MACHINE_PC,
     NULL,
     0,
     V(3, 0, 0),
     "pc-i440fx-7.0",
     0,
     {0},
     "2.x: QEMU 7.2's pc reserves e820 space that x86_64 2.6.12 panics on"},
    /* 2.6-era kernels boot on machine pc only with noapic (2.6.10 to
     * 2.6.36, measured); from 3.0 the IO-APIC is used. */
    {LAB_RULE_NOAPIC,
     NULL,
     0,
     V(3, 0, 0),
     " noapic",
     0,
     {0},
     "2.x boots on machine pc only with the IO-APIC off"},
    /* From 3.0: printk times on the console, which date the kernel's own
     * boot on the host clock (host/cell/timing.h), and no IO-APIC timer
     * check, which under TCG on a loaded host panics ("IO-APIC + timer
     * doesn't work!", seen at load 20 with 6.1 and 6.12). */
    {LAB_RULE_CONSOLE_WORDS,
     NULL,
     V(3, 0, 0),
     0,
     " printk.time=1 no_timer_check",
     0,
     {0},
     "printk times date the boot; the IO-APIC timer check panics on a loaded TCG host"},
    /* Under TCG, from 3.0: no local APIC timer (the HPET gives the clock
     * events). Its calibration against the PIT costs 0.1 s of every boot
     * and more under TCG: the lab's 6.1 build reached its agent in 1.18 s
     * against 1.40 s with it. */
    {LAB_RULE_TCG_WORDS,
     NULL,
     V(3, 0, 0),
     0,
     " noapictimer",
     0,
     {0},
     "the local APIC timer's calibration costs 0.1-0.2 s of every TCG boot"},
    /* acpi=noirq where no device needs PCI interrupt routing, checked from
     * 3.0 (6.x); 2.x keeps ACPI's routing. */
    {LAB_RULE_ACPI_NOIRQ,
     NULL,
     V(3, 0, 0),
     0,
     " acpi=noirq",
     0,
     {0},
     "checked on 6.x; ACPI's _PRT walk costs 0.1 s under TCG"},
    /* libata has no run-time transfer-mode setting (no HDIO_SET_DMA, no
     * SETFEATURES pass-through that retunes the port): hdparm's -d0 and -X
     * are boot parameters there. libata.dma= (a mask: 0 keeps every device
     * in PIO) came with 2.6.23, libata.force= (a transfer mode for every
     * port: pio4, mwdma2, udma5, ...) with 2.6.28; earlier libata has
     * neither (Documentation/kernel-parameters.txt of each). */
    {LAB_RULE_LIBATA_DMA,
     NULL,
     V(2, 6, 23),
     0,
     "libata.dma=",
     0,
     {0},
     "libata's DMA mask at boot, from 2.6.23"},
    {LAB_RULE_LIBATA_FORCE,
     NULL,
     V(2, 6, 28),
     0,
     "libata.force=",
     0,
     {0},
     "libata's forced transfer mode at boot, from 2.6.28"},
    /* drivers/ide probes every position it knows, each empty one with
     * fixed 50 ms busy-waits, for ATA and again for ATAPI: 3.3 s of a 2.4.22
     * boot and 3.7 s of 2.6.11's (docs/timing.md). ide_setup() reads
     * "hdX=noprobe" and "ideN=noprobe": read in the 2.4.22, 2.6.18 and
     * 2.6.20 trees, booted on 2.4.22, 2.6.9, 2.6.11 and 2.6.12-rc2. By
     * 2.6.32 (2.6.32.70's ide.c) they were gone for ide_core.noprobe=, and
     * where in between was not read here: a word the kernel does not know
     * becomes an environment variable of /init, and init/main.c panics
     * past MAX_INIT_ENVS of them. So the rule ends where it was read; a
     * drivers/ide kernel from 2.6.21 on (the lab's builds take libata
     * there) keeps the full probe. */
    {LAB_RULE_IDE_NOPROBE,
     NULL,
     0,
     V(2, 6, 21),
     "hdX=noprobe",
     0,
     {0},
     "drivers/ide's ide_setup() words, read up to 2.6.20"},
    /* Guest RAM never below what the kernel needs to boot at all (Debian's
     * 6.x kernels with their initramfs die silently in 64 MiB). */
    {LAB_RULE_MEMORY_FLOOR, NULL, V(5, 0, 0), 0, NULL, 256, {0}, "Debian's 5.x/6.x boots"},
    {LAB_RULE_MEMORY_FLOOR, NULL, V(3, 0, 0), V(5, 0, 0), NULL, 128, {0}, "3.x/4.x boots"},
    {LAB_RULE_MEMORY_FLOOR, NULL, 0, V(3, 0, 0), NULL, 32, {0}, "2.x boots"},
    /* qboot boots a kernel straight from fw_cfg without SeaBIOS's device
     * scan: by default for the kernels it was checked with (6.x on every
     * bus). For 2.4 and 2.6 up to 2.6.12 only when LAB_FIRMWARE=qboot asks,
     * and on a CPU without a local APIC: qboot leaves LINT0 masked, so a UP
     * 2.4.22 waited in "Calibrating delay loop" for a timer tick that never
     * came (docs/timing.md); not the default until measured interleaved.
     * 2.6.13 up to 6.0 keep SeaBIOS (2.6.12-rc2 printed nothing under qboot
     * before the APIC was taken away; later ones untried). */
    {LAB_RULE_QBOOT, NULL, V(6, 0, 0), 0, "qboot", 0, {0}, "checked with 6.x on every bus"},
    {LAB_RULE_QBOOT,
     NULL,
     0,
     V(2, 6, 13),
     "asked",
     0,
     {0},
     "LAB_FIRMWARE=qboot, without a local APIC (qboot leaves LINT0 masked)"},
    /* The builder (kernels/build.c). The fragment each release line takes:
     * 2.6.21 brought libata's ata_piix, and the 2.6.21 fragment drives the
     * PIIX with it alone (with both drivers built in, drivers/ide took hda
     * first); 4.0 on takes the modern fragment. 2.5 is not built. */
    {LAB_RULE_CONFIG_FRAGMENT, NULL, V(2, 4, 0), V(2, 5, 0), "lab-2.4.config", 0, {0}, "2.4"},
    {LAB_RULE_CONFIG_FRAGMENT,
     NULL,
     V(2, 6, 0),
     V(2, 6, 21),
     "lab-2.6.config",
     0,
     {0},
     "2.6 with drivers/ide"},
    {LAB_RULE_CONFIG_FRAGMENT,
     NULL,
     V(2, 6, 21),
     V(4, 0, 0),
     "lab-2.6.21.config",
     0,
     {0},
     "libata only"},
    {LAB_RULE_CONFIG_FRAGMENT, NULL, V(4, 0, 0), 0, "lab-6.x.config", 0, {0}, "4.0 on"},
    /* A build's .config starts from tinyconfig where it exists (3.17), else
     * from allnoconfig where the tree's kconfig Makefile has it, else from
     * nothing; olddefconfig (3.7) fills in the rest without questions,
     * before it `yes '' | make oldconfig` does. */
    {LAB_RULE_KCONFIG_BASE, NULL, V(3, 17, 0), 0, "tinyconfig", 0, {0}, "3.17 added tinyconfig"},
    {LAB_RULE_KCONFIG_UPDATE,
     NULL,
     V(3, 7, 0),
     0,
     "olddefconfig",
     0,
     {0},
     "3.7 added olddefconfig"},
    /* What turns DMA on at boot on the PIIX with drivers/ide
     * (kernels/kconfig.c): before 2.4.21 the PIIX driver's tuning too. An
     * option a .config does not mention counts as off only for the
     * versions whose Kconfig was read for this (to 2.6.20). */
    {LAB_RULE_IDE_DMA_OPTIONS,
     NULL,
     V(2, 4, 0),
     V(2, 4, 21),
     NULL,
     0,
     {"BLK_DEV_IDEDMA_PCI", "IDEDMA_PCI_AUTO", "PIIX_TUNING"},
     "2.4 before 2.4.21"},
    {LAB_RULE_IDE_DMA_OPTIONS,
     NULL,
     V(2, 4, 21),
     0,
     NULL,
     0,
     {"BLK_DEV_IDEDMA_PCI", "IDEDMA_PCI_AUTO"},
     "2.4.21 on"},
    {LAB_RULE_IDE_DMA_KCONFIG_READ,
     NULL,
     0,
     V(2, 6, 21),
     NULL,
     0,
     {0},
     "Kconfig read up to 2.6.20"},
    /* The UART channel's driver: 2.4's serial.c, 2.6's 8250. */
    {LAB_RULE_UART_OPTION, NULL, 0, V(2, 6, 0), "SERIAL", 0, {0}, "2.4: drivers/char/serial.c"},
    {LAB_RULE_UART_OPTION, NULL, V(2, 6, 0), 0, "SERIAL_8250", 0, {0}, "2.6 on: 8250"},
    /* ext4 serves ext2 by EXT4_USE_FOR_EXT23 (2.6.33..4.2), renamed
     * EXT4_USE_FOR_EXT2 when 4.3 removed ext3. A 4.1 built from a fragment
     * written for 6.x has EXT2_FS off and ext4 serving ext2 by the old name. */
    {LAB_RULE_EXT2_OPTIONS,
     NULL,
     V(4, 3, 0),
     0,
     "EXT2_FS|EXT4_FS+EXT4_USE_FOR_EXT2",
     0,
     {0},
     "4.3 on: ext4 serves ext2 by EXT4_USE_FOR_EXT2"},
    {LAB_RULE_EXT2_OPTIONS,
     NULL,
     0,
     V(4, 3, 0),
     "EXT2_FS|EXT4_FS+EXT4_USE_FOR_EXT23",
     0,
     {0},
     "before 4.3: ext2's own driver, or ext4 by EXT4_USE_FOR_EXT23"},
    /* Since 4.3 ("ext3: remove the ext3 driver", Jan Kara) the ext4 driver
     * mounts ext3 whatever the config says; EXT4_USE_FOR_EXT23 is gone. */
    {LAB_RULE_EXT3_OPTIONS,
     NULL,
     V(4, 3, 0),
     0,
     "EXT3_FS|EXT4_FS",
     0,
     {0},
     "4.3 removed the ext3 driver: ext4 mounts ext3"},
    {LAB_RULE_EXT3_OPTIONS,
     NULL,
     0,
     V(4, 3, 0),
     "EXT3_FS|EXT4_FS+EXT4_USE_FOR_EXT23",
     0,
     {0},
     "before 4.3: ext3's own driver, or ext4 told to serve ext3"},
    /* When each scheduler existed: 2.6.0 shipped noop, deadline and
     * anticipatory (as); cfq was merged for 2.6.6 (Jens Axboe); as was
     * removed in 2.6.33; blk-mq's mq-deadline came in 4.11, kyber and bfq in
     * 4.12; the legacy schedulers went with the legacy request path in 5.0
     * ("none" is blk-mq's name for no scheduler). */
    {LAB_RULE_SCHEDULER, "noop", V(2, 6, 0), V(5, 0, 0), NULL, 0, {0}, "2.6.0"},
    {LAB_RULE_SCHEDULER, "deadline", V(2, 6, 0), V(5, 0, 0), NULL, 0, {0}, "2.6.0"},
    {LAB_RULE_SCHEDULER, "anticipatory", V(2, 6, 0), V(2, 6, 33), NULL, 0, {0}, "2.6.0"},
    {LAB_RULE_SCHEDULER, "as", V(2, 6, 0), V(2, 6, 33), NULL, 0, {0}, "2.6.0"},
    {LAB_RULE_SCHEDULER, "cfq", V(2, 6, 6), V(5, 0, 0), NULL, 0, {0}, "2.6.6"},
    {LAB_RULE_SCHEDULER, "none", V(4, 11, 0), 0, NULL, 0, {0}, "4.11 (blk-mq)"},
    {LAB_RULE_SCHEDULER, "mq-deadline", V(4, 11, 0), 0, NULL, 0, {0}, "4.11"},
    {LAB_RULE_SCHEDULER, "kyber", V(4, 12, 0), 0, NULL, 0, {0}, "4.12"},
    {LAB_RULE_SCHEDULER, "bfq", V(4, 12, 0), 0, NULL, 0, {0}, "4.12"},
    /* The modules a modular kernel's boot image loads, per bus, filesystem
     * and channel. Names as modules.dep spells them ('-' and '_' are the
     * same to lab_modules_resolve); dependencies (libata, scsi_mod, virtio,
     * virtio_ring, jbd2, ...) come from modules.dep. IDE by the stack the
     * kernel drives PIIX with (era->ide_libata: the era's default, or the
     * .config's choice where both exist, 2.6.21 to 5.13): libata's
     * ata_piix and the SCSI disk, or drivers/ide's chip driver and disk
     * driver (ide-disk became ide-gd_mod in 2.6.28, "ide: add ide-gd
     * driver"). */
    {LAB_RULE_MODULES, "ide-libata", V(2, 6, 21), 0, NULL, 0, {"ata_piix", "sd_mod"}, "libata"},
    {LAB_RULE_MODULES, "ide-legacy", 0, V(2, 6, 28), NULL, 0, {"piix", "ide-disk"}, "drivers/ide"},
    {LAB_RULE_MODULES,
     "ide-legacy",
     V(2, 6, 28),
     V(5, 14, 0),
     NULL,
     0,
     {"piix", "ide-gd_mod"},
     "drivers/ide from 2.6.28"},
    {LAB_RULE_MODULES, "sata", V(2, 6, 10), 0, NULL, 0, {"ahci", "sd_mod"}, "AHCI"},
    {LAB_RULE_MODULES, "scsi", 0, 0, NULL, 0, {"sym53c8xx", "sd_mod"}, "LSI 53C895A"},
    {LAB_RULE_MODULES,
     "virtio-scsi",
     V(3, 4, 0),
     0,
     NULL,
     0,
     {"virtio_pci", "virtio_scsi", "sd_mod"},
     "virtio-scsi"},
    /* The data disk is ext2. Modular kernels before 3.15 get the ext2
     * module. Debian's (all the catalog's modular kernels) build no ext2 and
     * mount it with ext4 (CONFIG_EXT4_USE_FOR_EXT2); 6.x ext4 asks the
     * crypto API for crc32c at mount ("Cannot load crc32c driver"), and with
     * no modprobe in the guest the generic one is loaded first. It is called
     * crc32c_generic since 3.15 (crypto/crc32c.c renamed crc32c_generic.c,
     * 2014-02-25, "CRC32C: Add soft module dependency to load other
     * accelerated crc32c modules", Tim Chen). */
    {LAB_RULE_MODULES, "fs", 0, V(3, 15, 0), NULL, 0, {"ext2"}, "ext2"},
    {LAB_RULE_MODULES, "fs", V(3, 15, 0), 0, NULL, 0, {"crc32c_generic", "ext4"}, "ext4 for ext2"},
    {LAB_RULE_MODULES,
     "virtio-chan",
     0,
     0,
     NULL,
     0,
     {"virtio_pci", "virtio_console"},
     "the agent's virtio channel"},
};

int lab_kver_in(lab_kver v, lab_kver since, lab_kver until)
{
    lab_kver rel = v | 0xff; /* -rcN of X counts as X: the merge window is over at rc1 */
    return rel >= since && (until == 0 || rel < until);
}

void lab_run_rules_for(lab_kver v, struct lab_run_rules *out)
{
    const struct lab_rule_row *floor = lab_rule_for(LAB_RULE_MEMORY_FLOOR, NULL, v);
    *out = (struct lab_run_rules){
        .machine_pc = lab_rule_value(LAB_RULE_MACHINE_PC, v, NULL),
        .noapic = lab_rule_value(LAB_RULE_NOAPIC, v, ""),
        .console_words = lab_rule_value(LAB_RULE_CONSOLE_WORDS, v, ""),
        .tcg_words = lab_rule_value(LAB_RULE_TCG_WORDS, v, ""),
        .acpi_noirq = lab_rule_value(LAB_RULE_ACPI_NOIRQ, v, ""),
        .memory_floor_mib = floor ? floor->number : 0,
        .qboot = lab_rule_value(LAB_RULE_QBOOT, v, ""),
        .libata_dma = lab_rule_value(LAB_RULE_LIBATA_DMA, v, ""),
        .libata_force = lab_rule_value(LAB_RULE_LIBATA_FORCE, v, ""),
        .ide_noprobe = lab_rule_value(LAB_RULE_IDE_NOPROBE, v, ""),
    };
}

size_t lab_rule_count(void)
{
    return sizeof rows / sizeof rows[0];
}

const struct lab_rule_row *lab_rule_at(size_t i)
{
    return i < lab_rule_count() ? &rows[i] : NULL;
}

static int row_is(const struct lab_rule_row *r, enum lab_rule rule, const char *key)
{
    return r->rule == rule && (!key || (r->key && strcmp(r->key, key) == 0));
}

const struct lab_rule_row *lab_rule_for(enum lab_rule rule, const char *key, lab_kver v)
{
    for (size_t i = 0; i < lab_rule_count(); i++)
        if (row_is(&rows[i], rule, key) && lab_kver_in(v, rows[i].since, rows[i].until))
            return &rows[i];
    return NULL;
}

const struct lab_rule_row *lab_rule_named(enum lab_rule rule, const char *key)
{
    for (size_t i = 0; i < lab_rule_count(); i++)
        if (row_is(&rows[i], rule, key))
            return &rows[i];
    return NULL;
}

const char *lab_rule_value(enum lab_rule rule, lab_kver v, const char *dflt)
{
    const struct lab_rule_row *r = lab_rule_for(rule, NULL, v);
    return r && r->value ? r->value : dflt;
}
