/* A kernel .config: which options are built in (=y), modules (=m), set to a
 * value ("str", numbers) or absent (=n, "# CONFIG_X is not set", missing),
 * and whether a kernel has what a lab cell needs: the bus driver, the disk
 * driver, the data disk's filesystem, initramfs and the agent channel. */
#ifndef LAB_KERNELS_KCONFIG_H
#define LAB_KERNELS_KCONFIG_H

#include "kernels/era.h"

#include <stddef.h>

enum lab_kconfig_state { LAB_KCONFIG_ABSENT, LAB_KCONFIG_MODULE, LAB_KCONFIG_BUILTIN };

struct lab_kconfig_opt {
    char *name;  /* without CONFIG_: "SATA_AHCI" */
    char *value; /* "y", "m", "n", "64", "ext4" (quotes removed) */
};

struct lab_kconfig {
    struct lab_kconfig_opt *opts;
    size_t n;
    /* Set by the caller for messages and checks: */
    const char *kernel; /* "6.1-mine", for "kernel 6.1-mine lacks ..." */
    int have_modules;   /* a modules tree comes with it, so =m counts */
};

/* Parses .config text; later assignments override earlier ones (as in
 * kconfig). Lines that are neither assignments nor "is not set" comments are
 * ignored. 0, or -1 on a malformed assignment with its line in err. */
int lab_kconfig_parse(const char *text, struct lab_kconfig *out, char *err, size_t errlen);
/* Reads and parses a file; -1 with a lab_error message. */
int lab_kconfig_load(const char *path, struct lab_kconfig *out);
void lab_kconfig_free(struct lab_kconfig *cfg);

/* opt with or without the CONFIG_ prefix. NULL when unset or =n. */
const char *lab_kconfig_value(const struct lab_kconfig *cfg, const char *opt);
enum lab_kconfig_state lab_kconfig_state(const struct lab_kconfig *cfg, const char *opt);

/* What a cell on this bus needs (the bus driver, sd or ide-disk, the
 * initramfs or initrd), for the kernel's era: ide is ata_piix + sd or
 * piix + ide-disk, whichever the era allows (both for 2.6.21-5.13: the
 * .config decides); older option names are accepted
 * (SCSI_SATA_AHCI and SCSI_ATA_PIIX before 2.6.19). =m counts only when
 * cfg->have_modules and the era's agent can load modules.
 * 1 ok; 0 with reason, e.g. "kernel 6.1-mine lacks CONFIG_SATA_AHCI (needed
 * for bus sata); looked for CONFIG_SATA_AHCI + CONFIG_BLK_DEV_SD or ..."
 * (every alternative named when there are several); -1 for an unknown bus. */
int lab_kconfig_bus_ok(const struct lab_kconfig *cfg, const char *bus, const struct lab_era *era,
                       char *reason, size_t len);
/* Which IDE stack the kernel drives QEMU's PIIX3 with, among those its era
 * allows: 1 libata (ata_piix, sdX), 0 drivers/ide (piix + ide-disk, hdX),
 * -1 neither is built (or loadable). libata wins when both are there. */
int lab_kconfig_ide_libata(const struct lab_kconfig *cfg, const struct lab_era *era);
/* Whether a drivers/ide kernel turns DMA on for QEMU's PIIX at boot, by
 * what its version's PIIX driver needs: 2.4.0-2.4.20 (drivers/ide/piix.c
 * sets autodma only under CONFIG_PIIX_TUNING) BLK_DEV_IDEDMA_PCI +
 * IDEDMA_PCI_AUTO + PIIX_TUNING; 2.4.21 on and 2.6 (drivers/ide/pci/piix.c)
 * BLK_DEV_IDEDMA_PCI + IDEDMA_PCI_AUTO. Without them the disk runs in PIO
 * until someone sets DMA (hdparm -d1, lab.ide_dma=on). After 2.6.20 (the
 * last tree checked here) an option the .config does not mention at all is
 * not held against it (later trees may have dropped it); "is not set" is.
 * 1 DMA at boot; 0 PIO, with the options that leave it off in reason
 * ("CONFIG_IDEDMA_PCI_AUTO is not set"); -1 not a drivers/ide kernel (the
 * era has no drivers/ide or the .config does not build piix). */
int lab_kconfig_ide_dma_at_boot(const struct lab_kconfig *cfg, const struct lab_era *era,
                                char *reason, size_t len);

/* The agent channel: a virtio port or console needs VIRTIO_PCI +
 * VIRTIO_CONSOLE, the UART SERIAL_8250 (SERIAL before 2.6). */
int lab_kconfig_channel_ok(const struct lab_kconfig *cfg, enum lab_agent_channel ch,
                           const struct lab_era *era, char *reason, size_t len);
/* The data disk's filesystem: "ext2" needs EXT2_FS or EXT4_FS +
 * EXT4_USE_FOR_EXT2; "ext3" EXT3_FS (or EXT4_FS + EXT4_USE_FOR_EXT23);
 * "ext4" EXT4_FS; "raw" nothing. */
int lab_kconfig_fs_ok(const struct lab_kconfig *cfg, const char *fs, const struct lab_era *era,
                      char *reason, size_t len);

/* The requirement rows, for `lab kernels show` and the README: each is a
 * list of alternatives separated by '|', each alternative options joined by
 * '+'. NULL for an unknown bus. */
const char *lab_kconfig_bus_needs(const char *bus, const struct lab_era *era);

#endif
