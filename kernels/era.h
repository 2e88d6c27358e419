/* Era facts: what a kernel version can do, as a table of feature rows (with
 * the kernel version each appeared in and where that fact comes from), and
 * the decisions the lab derives from it: boot image kind, agent channel,
 * cache-drop method, scheduler interface, buses and the modules they need.
 * The table and its sources are in kernels/era.c and kernels/README.md. */
#ifndef LAB_KERNELS_ERA_H
#define LAB_KERNELS_ERA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A kernel version as one comparable number: major, minor, patch, the 2.6-era
 * fourth (stable) number, and a pre-release byte that sorts -rcN/-testN/-preN
 * before the release (255). 2.6.1-rc1 < 2.6.1 < 2.6.1.1 < 2.6.10 < 3.4. */
typedef uint64_t lab_kver;
#define LAB_KV4(a, b, c, d, rc)                                                                    \
    (((uint64_t)(a) << 48) | ((uint64_t)(b) << 40) | ((uint64_t)(c) << 24) |                       \
     ((uint64_t)(d) << 8) | (uint64_t)(rc))
#define LAB_KV(a, b, c)        LAB_KV4(a, b, c, 0, 255)
#define LAB_KV_RC(a, b, c, rc) LAB_KV4(a, b, c, 0, rc)
#define LAB_KV_MAJOR(v)        ((unsigned)((v) >> 48))
#define LAB_KV_MINOR(v)        ((unsigned)(((v) >> 40) & 0xff))
#define LAB_KV_PATCH(v)        ((unsigned)(((v) >> 24) & 0xffff))
#define LAB_KV_SUB(v)          ((unsigned)(((v) >> 8) & 0xffff))
#define LAB_KV_RCNUM(v)        ((unsigned)((v)&0xff)) /* 255: a release */

/* Parses "2.4.0", "2.6.1-rc1", "2.6.0-test9", "2.4.10-pre3", "2.6.35.14",
 * "3.4", "v6.1", "6.12.113+deb12", "6.1.0-47-amd64". Anything after the numbers
 * that is not -rcN/-testN/-preN (a distribution ABI number, a local version)
 * is ignored, so Debian's "6.1.0-47" is 6.1. 0 on success; -1 (no message)
 * if s is not a kernel version. */
int lab_kver_parse(const char *s, lab_kver *out);
/* "2.6.1-rc1", "2.6.35.14", "3.4", "6.12.113"; 2.x always with three numbers. */
void lab_kver_format(lab_kver v, char *buf, size_t len);

/* One row per fact in the era table (kernels/era.c). */
enum lab_era_feature {
    LAB_FEAT_MODULE_LOADER, /* in-kernel module loader: init_module takes the ELF */
    LAB_FEAT_INITRAMFS,
    LAB_FEAT_SYSFS,
    LAB_FEAT_DEVTMPFS,
    LAB_FEAT_VIRTIO_CONSOLE, /* virtio core + hvc virtio console */
    LAB_FEAT_VIRTIO_PCI,
    LAB_FEAT_VIRTIO_PORTS, /* multiport virtio-serial, named ports */
    LAB_FEAT_VIRTIO_SCSI,
    LAB_FEAT_LEGACY_IDE,     /* drivers/ide */
    LAB_FEAT_ATA_PIIX_PIIX3, /* libata ata_piix drives QEMU's PIIX3 IDE */
    LAB_FEAT_AHCI,
    LAB_FEAT_SYM53C8XX,
    LAB_FEAT_ELEVATOR_PARAM,
    LAB_FEAT_SCHED_SYSFS,
    LAB_FEAT_BLK_MQ_SCHED, /* mq-deadline */
    LAB_FEAT_BFQ_KYBER,
    LAB_FEAT_LEGACY_SCHED, /* noop/deadline/cfq (and as, to 2.6.32) */
    LAB_FEAT_DROP_CACHES,
    LAB_FEAT_AT_SYSCALLS,
    LAB_FEAT_CLOCK_GETTIME,
    LAB_FEAT_FADVISE,
    LAB_FEAT_O_DIRECT_BLKDEV,
    LAB_FEAT_FINIT_MODULE,
    LAB_FEAT_MODULE_COMPRESS,
    LAB_FEAT_LONG_CMDLINE,  /* COMMAND_LINE_SIZE 2048 (256 before) */
    LAB_FEAT_BLKRA_FILE,    /* BLKRASET sets the file readahead (2.4: BLKFRASET does) */
    LAB_FEAT_O_DIRECT_EXT3, /* ext3 files open with O_DIRECT can be read and written */
    LAB_FEAT_COUNT
};

struct lab_era_row {
    enum lab_era_feature id;
    const char *name;
    lab_kver since; /* first release with it (its -rc kernels count too) */
    lab_kver until; /* first release without it; 0 = still there */
    const char *consequence;
    const char *source; /* kernel version, commit subject, Documentation file */
};

size_t lab_era_row_count(void);
const struct lab_era_row *lab_era_row_at(size_t i);          /* NULL past the end */
const struct lab_era_row *lab_era_row(enum lab_era_feature); /* by id */
/* 1 if a kernel of version v has the feature (-rc kernels count as their
 * release: a feature merged for X is in X-rc1). */
int lab_kver_has(lab_kver v, enum lab_era_feature f);

enum lab_boot_image { LAB_BOOT_INITRAMFS, LAB_BOOT_EXT2_INITRD };
enum lab_agent_channel {
    LAB_AGENT_CHAN_VIRTIO_PORT,    /* named virtio-serial port (2.6.35+) */
    LAB_AGENT_CHAN_VIRTIO_CONSOLE, /* port 0 of virtio-serial as hvc0 */
    LAB_AGENT_CHAN_UART            /* a second 16550, ttyS1 */
};
/* What the agent uses to drop the page cache between runs. */
enum lab_cache_drop {
    LAB_DROP_PROC_SYS_VM, /* echo 3 > /proc/sys/vm/drop_caches */
    LAB_DROP_FADVISE,     /* posix_fadvise(DONTNEED) per file */
    LAB_DROP_REMOUNT      /* 2.4: no fadvise; unmount and mount the data disk */
};
enum lab_sched_iface { LAB_SCHED_ELVTUNE, LAB_SCHED_BOOT_PARAM, LAB_SCHED_SYSFS };

struct lab_era {
    lab_kver version;
    char version_str[32]; /* lab_kver_format(version) */
    const char *arch;     /* "x86_64" or "i686" (i386/i486/i586/x86 accepted) */
    enum lab_boot_image boot;
    enum lab_agent_channel channel;
    enum lab_cache_drop drop;
    enum lab_sched_iface sched;
    int has_devtmpfs, has_sysfs, has_at_syscalls, has_clock_gettime, has_o_direct_blkdev;
    int modules_loadable; /* the agent can load modules (else all built in) */
    int ide_libata;       /* PIIX IDE disk through ata_piix (sdX), else drivers/ide (hdX);
                             the era's default: a kernel's .config may choose the other
                             where both exist (lab_kernel_choose_drivers) */
    size_t cmdline_max;   /* COMMAND_LINE_SIZE, with the terminating NUL */
    int ra_blkfra;        /* file readahead through BLKFRASET in pages (2.4), not BLKRASET */
    int pci_msi;          /* the kernel's .config builds MSI (CONFIG_PCI_MSI=y): its virtio,
                             AHCI and virtio-scsi devices take message interrupts, no PCI
                             interrupt routing (lab_kernel_choose_drivers; 0 without one) */
    uint64_t features;    /* bit (1 << enum lab_era_feature) per row present */
};

/* Fills *out for a kernel version and architecture. -1 with a message for
 * a version that does not parse, a kernel older than 2.4.0 (the agent's
 * floor) or an unknown architecture. */
int lab_era_for(const char *version, const char *arch, struct lab_era *out);
int lab_era_has(const struct lab_era *era, enum lab_era_feature f);

/* Can this kernel drive this bus? bus: "ide", "sata", "scsi", "virtio-scsi".
 * 1 yes; 0 no, with a reason in reason (if not NULL), e.g. "virtio-scsi needs
 * Linux 3.4 or later (this kernel is 2.6.32)". */
int lab_era_bus_supported(const struct lab_era *era, const char *bus, char *reason, size_t len);
extern const char *const lab_era_buses[]; /* NULL-terminated, in the order above */

/* Modules the boot image needs for a modular kernel, in load order: the bus
 * driver (ide: ata_piix, or piix + ide-disk (ide-gd_mod from 2.6.28) when
 * the kernel drives PIIX through drivers/ide, era->ide_libata; sata:
 * ahci; scsi: sym53c8xx; virtio-scsi: virtio_pci + virtio_scsi), the disk
 * driver (sd_mod), the data disk's filesystem (ext2; crc32c_generic + ext4
 * from 3.15) and the agent channel (virtio_pci, virtio_console). Each name
 * once. Returns how many there are (may exceed max; only max are stored);
 * 0 for a kernel whose modules the agent cannot load or an unsupported bus.
 * Modules built into a kernel are skipped later by lab_modules_resolve. */
size_t lab_era_bus_modules(const struct lab_era *era, const char *bus, const char **out,
                           size_t max);

const char *lab_boot_image_name(enum lab_boot_image b);
const char *lab_agent_channel_name(enum lab_agent_channel c);
const char *lab_cache_drop_name(enum lab_cache_drop d);
const char *lab_sched_iface_name(enum lab_sched_iface s);

/* Prints the era table for `lab kernels show`: each row with yes/no, the
 * versions, the consequence and the source. */
void lab_era_explain(const struct lab_era *era, FILE *out);

#endif
