/* The era table: which kernel version brought (or dropped) each feature the
 * lab depends on, and the decisions derived from it. Every row names its
 * source: the release, the commit subject and, where there is one, the
 * Documentation file. Rows that differ from the lab's starting table
 * (docs/era-facts.md) say so in their comment. Versions are mainline releases; a
 * feature merged for X is in X-rc1 already, so -rc kernels count as their
 * release. 2.5.x development kernels are placed by the 2.5 release that
 * brought a feature where that is known, else treated as 2.4. */
#include "kernels/era.h"
#include "kernels/rules.h"

#include "common/msg.h"

#include <ctype.h>
#include <string.h>

/* Versions used by more than one table below. */
#define V_ATA_PIIX3 LAB_KV(2, 6, 21)
#define V_AHCI      LAB_KV(2, 6, 10)
#define V_VSCSI     LAB_KV(3, 4, 0)

static const struct lab_era_row rows[] = {
    {LAB_FEAT_MODULE_LOADER, "in-kernel module loader", LAB_KV(2, 5, 48), 0,
     "earlier (2.4): modutils links modules in user space (create_module, query_module); "
     "the agent cannot load them, so the cell's drivers must be built in",
     "2.5.48: Rusty Russell's in-kernel module loader (module-init-tools replaces modutils); "
     "first stable 2.6.0"},
    /* Design table: "2.6.0 (2.5.46)", the merge of init/initramfs.c. Wrong
     * for booting: 2.6.0 unpacked the lab's cpio and then panicked, "VFS:
     * Unable to mount root fs", because nothing ran /init before 2.6.6. */
    {LAB_FEAT_INITRAMFS, "initramfs (cpio) booted through /init", LAB_KV(2, 6, 6), 0,
     "earlier (2.4 to 2.6.5): the boot image is an ext2 initrd (root=/dev/ram0) or a root disk; "
     "2.5.46-2.6.5 unpack a cpio initrd into rootfs but then mount root= all the same. A newc "
     "cpio given as the initrd was checked to boot from 2.6.6 on",
     "2.6.6: \"search for /init for initramfs boots\" (init/main.c, 2004; commit 8b770c1d of the "
     "2.6 history import); init/initramfs.c itself is 2.5.46 (Al Viro); "
     "Documentation/filesystems/ramfs-rootfs-initramfs.txt"},
    /* sysfs grew out of driverfs during 2.5 (renamed in the 2.5.4x series);
     * the row uses the first stable release rather than guess the 2.5 one. */
    {LAB_FEAT_SYSFS, "sysfs", LAB_KV(2, 6, 0), 0,
     "earlier (2.4): /proc only: disks from /proc/partitions, CPU and IO counters from "
     "/proc/stat; no /sys/block",
     "2.6.0: sysfs (Patrick Mochel, driverfs renamed during 2.5); Documentation/filesystems/"
     "sysfs.txt"},
    {LAB_FEAT_DEVTMPFS, "devtmpfs", LAB_KV(2, 6, 32), 0,
     "earlier: the agent mknods its device nodes (numbers from /proc/partitions or sysfs)",
     "2.6.32: \"Driver-Core: devtmpfs - kernel-maintained tmpfs-based /dev\" (Kay Sievers); "
     "drivers/base/Kconfig DEVTMPFS"},
    {LAB_FEAT_VIRTIO_CONSOLE, "virtio core, virtio console (hvc)", LAB_KV(2, 6, 24), 0,
     "the hvc-based console driver; usable under QEMU only with virtio-pci (next row)",
     "2.6.24: \"Virtio interface\" and \"Virtio console driver\" (Rusty Russell, 2007-10-23, "
     "for lguest)"},
    /* Design table: "virtio-pci, virtio console 2.6.24". Wrong for PCI:
     * 2.6.24 had virtio over lguest only; the PCI transport came in 2.6.25. */
    {LAB_FEAT_VIRTIO_PCI, "virtio-pci", LAB_KV(2, 6, 25), 0,
     "earlier: no virtio device on QEMU's PCI bus; the agent channel is a second 16550 UART "
     "(ttyS1). (the starting table said 2.6.24: that release had virtio over lguest only)",
     "2.6.25: \"virtio: PCI device\" (Anthony Liguori, committed 2008-02-04), "
     "drivers/virtio/virtio_pci.c"},
    {LAB_FEAT_VIRTIO_PORTS, "named virtio-serial ports (multiport)", LAB_KV(2, 6, 35), 0,
     "2.6.25-2.6.34: port 0 only, as the console hvc0; 2.6.35+: named ports /dev/vportNpM, "
     "names in /sys/class/virtio-ports/*/name",
     "2.6.35: Amit Shah's multiport series (\"virtio: console: Add support for multiple "
     "ports\"); merged for 2.6.34 but switched off there by \"virtio: disable multiport "
     "console support\" (Michael S. Tsirkin)"},
    {LAB_FEAT_VIRTIO_SCSI, "virtio-scsi", V_VSCSI, 0,
     "earlier: SCSI cells use lsilogic (LSI53C895A, sym53c8xx)",
     "3.4: \"[SCSI] virtio-scsi: SCSI driver for QEMU based virtual machines\" (Paolo "
     "Bonzini)"},
    /* Design table: "to 5.13". Same fact: removed in 5.14. */
    {LAB_FEAT_LEGACY_IDE, "legacy IDE (drivers/ide, piix)", 0, LAB_KV(5, 14, 0),
     "PIIX IDE disks as /dev/hdX through piix + ide-disk; 5.14+: PIIX IDE only through "
     "libata ata_piix (/dev/sdX)",
     "5.14: \"ide: remove the legacy ide driver\" (Christoph Hellwig)"},
    /* libata (drivers/scsi/libata-core.c, ata_piix for ICH5 SATA) is in
     * 2.6.0, but its PATA ids sat under ATA_ENABLE_PATA (off by default in
     * include/linux/libata.h) and QEMU's PIIX3 (8086:7010) came later. */
    {LAB_FEAT_ATA_PIIX_PIIX3, "libata ata_piix drives PIIX3 IDE", V_ATA_PIIX3, 0,
     "earlier: QEMU's PIIX3 IDE only through drivers/ide (/dev/hdX); 2.6.21-5.13: either, as "
     "the .config chooses (the lab assumes ata_piix for modules)",
     "2.6.21: \"libata: PIIX3 support\" (Alan Cox, posted 2007-01-10 against 2.6.20-rc3-mm1); "
     "PATA in ata_piix was gated by ATA_ENABLE_PATA before"},
    /* Not checked against a tree here: ahci.c carries "Copyright 2004" and
     * was merged with the libata updates of late 2004. */
    {LAB_FEAT_AHCI, "AHCI (libata ahci)", V_AHCI, 0,
     "earlier: no sata bus (QEMU's ich9-ahci has no driver)",
     "2.6.10: drivers/scsi/ahci.c (Jeff Garzik, libata; moved to drivers/ata in 2.6.19); "
     "release from the libata history, to be confirmed on a 2.6.9/2.6.10 tree"},
    {LAB_FEAT_SYM53C8XX, "sym53c8xx (LSI53C895A)", LAB_KV(2, 4, 0), 0,
     "the scsi bus (libvirt lsilogic = LSI53C895A) works on every kernel in range; module "
     "sym53c8xx",
     "2.4.0: drivers/scsi/sym53c8xx.c (v1.7, 53C895A in its chip table); sym53c8xx_2 (Gerard "
     "Roudier) added during 2.4, the only one in 2.6 (drivers/scsi/sym53c8xx_2)"},
    {LAB_FEAT_ELEVATOR_PARAM, "elevator= boot parameter", LAB_KV(2, 6, 0), 0,
     "earlier (2.4): one elevator, tuned with elvtune (BLKELVGET/BLKELVSET ioctls)",
     "2.6.0: the 2.5 pluggable IO scheduler framework (as, deadline, noop; cfq from 2.6.6); "
     "Documentation/kernel-parameters.txt elevator="},
    {LAB_FEAT_SCHED_SYSFS, "runtime scheduler switch (sysfs)", LAB_KV(2, 6, 10), 0,
     "2.6.0-2.6.9: the scheduler is chosen at boot with elevator=, for all disks",
     "2.6.10: switchable IO schedulers, /sys/block/<dev>/queue/scheduler (Jens Axboe); "
     "Documentation/block/switching-sched.txt"},
    /* Design table: "blk-mq schedulers (mq-deadline, kyber, bfq) 4.12".
     * mq-deadline came one release earlier, with the framework. */
    {LAB_FEAT_BLK_MQ_SCHED, "blk-mq schedulers (mq-deadline)", LAB_KV(4, 11, 0), 0,
     "earlier: a blk-mq device has no scheduler ('none'). (the starting table put all three in "
     "4.12: mq-deadline is 4.11)",
     "4.11: \"blk-mq-sched: add framework for MQ capable IO schedulers\" and mq-deadline "
     "(Jens Axboe)"},
    {LAB_FEAT_BFQ_KYBER, "bfq and kyber", LAB_KV(4, 12, 0), 0,
     "earlier: only mq-deadline for blk-mq devices",
     "4.12: \"block: introduce the BFQ-v0 I/O scheduler as an extra scheduler\" (Paolo "
     "Valente), \"blk-mq: introduce Kyber multiqueue I/O scheduler\" (Omar Sandoval)"},
    {LAB_FEAT_LEGACY_SCHED, "legacy schedulers (noop, deadline, cfq)", LAB_KV(2, 6, 0),
     LAB_KV(5, 0, 0),
     "for single-queue devices; anticipatory (as) until 2.6.32; 5.0+: only none, "
     "mq-deadline, kyber, bfq",
     "5.0: the legacy request path and its schedulers removed (Jens Axboe, \"block: remove "
     "legacy IO schedulers\"); as removed in 2.6.33"},
    {LAB_FEAT_DROP_CACHES, "/proc/sys/vm/drop_caches", LAB_KV(2, 6, 16), 0,
     "earlier: posix_fadvise(DONTNEED) per file (2.6.0+); on 2.4 unmount and mount the data "
     "disk (BLKFLSBUF flushes only the device's own buffers)",
     "2.6.16: \"[PATCH] drop-pagecache\" (Andrew Morton); Documentation/sysctl/vm.txt "
     "drop_caches"},
    {LAB_FEAT_AT_SYSCALLS, "openat and the *at syscalls", LAB_KV(2, 6, 16), 0,
     "the agent uses open and stat64 (in 2.4.0) and needs no *at call",
     "2.6.16: openat, mkdirat, fstatat64, ... (Ulrich Drepper)"},
    {LAB_FEAT_CLOCK_GETTIME, "clock_gettime", LAB_KV(2, 6, 0), 0,
     "earlier (2.4): the agent times runs with gettimeofday (fallback on -ENOSYS)",
     "2.5.63: POSIX clocks and timers (George Anzinger); first stable 2.6.0"},
    {LAB_FEAT_FADVISE, "posix_fadvise", LAB_KV(2, 6, 0), 0,
     "earlier (2.4): -ENOSYS, no per-file cache drop; i386 agents try fadvise64_64, then "
     "fadvise64",
     "2.5.60: \"[PATCH] fadvise\" (Andrew Morton, sys_fadvise64); first stable 2.6.0"},
    {LAB_FEAT_O_DIRECT_BLKDEV, "O_DIRECT on block devices", LAB_KV(2, 4, 10), 0,
     "2.4.0-2.4.9: no O_DIRECT; uncached reads need a raw device (raw(8), /dev/raw/rawN)",
     "2.4.10: O_DIRECT (Andrea Arcangeli) with block devices in the page cache "
     "(fs/block_dev.c blkdev_direct_IO)"},
    {LAB_FEAT_FINIT_MODULE, "finit_module", LAB_KV(3, 8, 0), 0,
     "not needed: the agent loads modules with init_module from memory",
     "3.8: \"module: add syscall to load module from fd\" (Kees Cook)"},
    {LAB_FEAT_MODULE_COMPRESS, "compressed modules (.ko.xz/.ko.gz)", LAB_KV(3, 18, 0), 0,
     "modules may be compressed (Debian 6.12: .ko.xz); the host decompresses them into the "
     "boot image (in-kernel decompression only from 5.17)",
     "3.18: CONFIG_MODULE_COMPRESS, \"kbuild: handle module compression while running 'make "
     "modules_install'\" (Bertrand Jacquin); 5.17: CONFIG_MODULE_DECOMPRESS"},
    /* The lab's agent parameters travel in the boot image, so the command
     * line only carries what the kernel itself needs; this row is the limit
     * the lab checks it against. 2.6.22 raised i386 alone; the row takes the
     * later x86_64 change so one number holds for both arches. */
    {LAB_FEAT_LONG_CMDLINE, "2048-byte kernel command line", LAB_KV(2, 6, 24), 0,
     "earlier: COMMAND_LINE_SIZE is 256 bytes on i386 and x86_64; longer command lines are "
     "cut there without a word, so every key past byte 256 is lost",
     "COMMAND_LINE_SIZE 256 read in 2.4.22 arch/i386/kernel/setup.c, 2.6.9 and 2.6.12-rc2 "
     "include/asm-i386/param.h and include/asm-x86_64/setup.h; 2048 in 2.6.24's "
     "include/asm-x86/setup.h after the i386/x86_64 merge (docs/era-facts.md: 256 before 2.6.2x)"},
    {LAB_FEAT_BLKRA_FILE, "BLKRASET sets the file readahead", LAB_KV(2, 6, 0), 0,
     "earlier (2.4): BLKRASET sets the block layer's read_ahead[major], at most 255 sectors "
     "(EINVAL above), and file reads follow the drive's max_readahead, set with BLKFRASET in "
     "pages (ide-disk's file_readahead setting, 0-4096); the agent sets both",
     "2.4.22 drivers/block/blkpg.c (BLKRASET: arg > 0xff is -EINVAL), mm/filemap.c "
     "get_max_readahead, drivers/ide/ide-disk.c file_readahead; 2.6.0 mm/readahead.c "
     "(ra_pages from BLKRASET)"},
    /* Not in the starting table: found running seed 003's overwrite on the
     * lab's 2.4.22 (pread64 EINVAL). Placed at 2.6.0, the first tree read
     * that has it; a later 2.4.x may have had it backported. */
    {LAB_FEAT_O_DIRECT_EXT3, "O_DIRECT on ext3 files", LAB_KV(2, 6, 0), 0,
     "earlier (2.4.22): ext3_aops has no direct_IO, so open(O_DIRECT) succeeds and every read "
     "or write is EINVAL; ext2 files and block devices have it from 2.4.10",
     "2.4.22 fs/ext3/inode.c ext3_aops (no direct_IO), mm/filemap.c generic_file_direct_IO; "
     "2.6.9 fs/ext3/inode.c ext3_direct_IO"},
};

size_t lab_era_row_count(void)
{
    return sizeof rows / sizeof rows[0];
}

const struct lab_era_row *lab_era_row_at(size_t i)
{
    return i < lab_era_row_count() ? &rows[i] : NULL;
}

const struct lab_era_row *lab_era_row(enum lab_era_feature f)
{
    for (size_t i = 0; i < lab_era_row_count(); i++)
        if (rows[i].id == f)
            return &rows[i];
    return NULL;
}

int lab_kver_has(lab_kver v, enum lab_era_feature f)
{
    const struct lab_era_row *r = lab_era_row(f);
    if (!r)
        return 0;
    return lab_kver_in(v, r->since, r->until);
}

/* Reads a decimal number of at most 5 digits (<= 65535) at *p. */
static int read_num(const char **p, unsigned *out)
{
    unsigned v = 0;
    int n = 0;
    while (isdigit((unsigned char)**p)) {
        v = v * 10 + (unsigned)(**p - '0');
        if (++n > 5 || v > 65535)
            return -1;
        (*p)++;
    }
    if (n == 0)
        return -1;
    *out = v;
    return 0;
}

int lab_kver_parse(const char *s, lab_kver *out)
{
    unsigned n[4] = {0, 0, 0, 0};
    int count = 0;
    if (!s)
        return -1;
    const char *p = s;
    if (*p == 'v')
        p++;
    for (;;) {
        if (read_num(&p, &n[count]) < 0)
            return -1;
        count++;
        if (*p != '.' || count == 4)
            break;
        p++;
    }
    if (count < 2 || *p == '.' || n[0] == 0 || n[0] > 255 || n[1] > 255)
        return -1;

    unsigned rc = 255;
    static const char *const pre[] = {"-rc", "-test", "-pre"};
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++) {
        size_t len = strlen(pre[i]);
        if (strncmp(p, pre[i], len) == 0 && isdigit((unsigned char)p[len])) {
            const char *q = p + len;
            if (read_num(&q, &rc) < 0 || rc == 0 || rc > 254)
                return -1;
            break;
        }
    }
    /* Anything else after the numbers (Debian's "-47", "+deb12", "-amd64", a
     * local version) is ignored. */
    *out = LAB_KV4(n[0], n[1], n[2], n[3], rc);
    return 0;
}

void lab_kver_format(lab_kver v, char *buf, size_t len)
{
    unsigned a = LAB_KV_MAJOR(v), b = LAB_KV_MINOR(v), c = LAB_KV_PATCH(v), d = LAB_KV_SUB(v);
    unsigned rc = LAB_KV_RCNUM(v);
    int n;
    if (a >= 3 && c == 0 && d == 0)
        n = snprintf(buf, len, "%u.%u", a, b);
    else if (d)
        n = snprintf(buf, len, "%u.%u.%u.%u", a, b, c, d);
    else
        n = snprintf(buf, len, "%u.%u.%u", a, b, c);
    if (rc != 255 && n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, "-rc%u", rc);
}

static const char *norm_arch(const char *arch)
{
    static const struct {
        const char *in, *out;
    } arches[] = {{"x86_64", "x86_64"}, {"amd64", "x86_64"}, {"i686", "i686"}, {"i586", "i686"},
                  {"i486", "i686"},     {"i386", "i686"},    {"x86", "i686"}};
    for (size_t i = 0; arch && i < sizeof arches / sizeof arches[0]; i++)
        if (strcmp(arch, arches[i].in) == 0)
            return arches[i].out;
    return NULL;
}

int lab_era_has(const struct lab_era *era, enum lab_era_feature f)
{
    return (era->features >> f) & 1;
}

int lab_era_for(const char *version, const char *arch, struct lab_era *out)
{
    lab_kver v;
    memset(out, 0, sizeof *out);
    if (lab_kver_parse(version, &v) < 0)
        return lab_error("'%s' is not a kernel version (expected e.g. 2.6.32, 2.6.1-rc1, 6.1)",
                         version ? version : "(null)");
    if (!lab_rule_for(LAB_RULE_SUPPORTED, NULL, v))
        return lab_error("kernel %s is older than 2.4.0, the oldest the lab's agent supports",
                         version);
    const char *a = norm_arch(arch);
    if (!a)
        return lab_error("unknown architecture '%s' (use x86_64 or i686)", arch ? arch : "(null)");
    out->version = v;
    lab_kver_format(v, out->version_str, sizeof out->version_str);
    out->arch = a;
    for (size_t i = 0; i < lab_era_row_count(); i++)
        if (lab_kver_has(v, rows[i].id))
            out->features |= (uint64_t)1 << rows[i].id;

#define HAS(f) lab_era_has(out, LAB_FEAT_##f)
    out->boot = HAS(INITRAMFS) ? LAB_BOOT_INITRAMFS : LAB_BOOT_EXT2_INITRD;
    out->channel = HAS(VIRTIO_PORTS)                        ? LAB_AGENT_CHAN_VIRTIO_PORT
                   : HAS(VIRTIO_PCI) && HAS(VIRTIO_CONSOLE) ? LAB_AGENT_CHAN_VIRTIO_CONSOLE
                                                            : LAB_AGENT_CHAN_UART;
    out->drop = HAS(DROP_CACHES) ? LAB_DROP_PROC_SYS_VM
                : HAS(FADVISE)   ? LAB_DROP_FADVISE
                                 : LAB_DROP_REMOUNT;
    out->sched = HAS(SCHED_SYSFS)      ? LAB_SCHED_SYSFS
                 : HAS(ELEVATOR_PARAM) ? LAB_SCHED_BOOT_PARAM
                                       : LAB_SCHED_ELVTUNE;
    out->has_devtmpfs = HAS(DEVTMPFS);
    out->has_sysfs = HAS(SYSFS);
    out->has_at_syscalls = HAS(AT_SYSCALLS);
    out->has_clock_gettime = HAS(CLOCK_GETTIME);
    out->has_o_direct_blkdev = HAS(O_DIRECT_BLKDEV);
    out->modules_loadable = HAS(MODULE_LOADER);
    out->ide_libata = HAS(ATA_PIIX_PIIX3);
    out->cmdline_max = HAS(LONG_CMDLINE) ? 2048 : 256;
    out->ra_blkfra = !HAS(BLKRA_FILE);
#undef HAS
    return 0;
}

/* Which era row a bus needs. */
static const struct {
    const char *bus;
    enum lab_era_feature needs;
} bus_rows[] = {
    {"ide", LAB_FEAT_COUNT}, /* drivers/ide to 5.13, ata_piix from 2.6.21: always */
    {"sata", LAB_FEAT_AHCI},
    {"scsi", LAB_FEAT_SYM53C8XX},
    {"virtio-scsi", LAB_FEAT_VIRTIO_SCSI},
};

const char *const lab_era_buses[] = {"ide", "sata", "scsi", "virtio-scsi", NULL};

int lab_era_bus_supported(const struct lab_era *era, const char *bus, char *reason, size_t len)
{
    if (reason && len)
        reason[0] = '\0';
    for (size_t i = 0; bus && i < sizeof bus_rows / sizeof bus_rows[0]; i++) {
        if (strcmp(bus, bus_rows[i].bus) != 0)
            continue;
        enum lab_era_feature f = bus_rows[i].needs;
        if (f == LAB_FEAT_COUNT || lab_era_has(era, f))
            return 1;
        char since[32];
        lab_kver_format(lab_era_row(f)->since, since, sizeof since);
        if (reason && len)
            snprintf(reason, len, "%s needs Linux %s or later (this kernel is %s)", bus, since,
                     era->version_str);
        return 0;
    }
    if (reason && len)
        snprintf(reason, len, "unknown bus '%s' (use ide, sata, scsi or virtio-scsi)",
                 bus ? bus : "(null)");
    return 0;
}

static size_t add_rows(const struct lab_era *era, const char *what, const char **out, size_t max,
                       size_t n)
{
    for (size_t i = 0; i < lab_rule_count(); i++) {
        const struct lab_rule_row *r = lab_rule_at(i);
        if (r->rule != LAB_RULE_MODULES || strcmp(r->key, what) != 0 ||
            !lab_kver_in(era->version, r->since, r->until))
            continue;
        for (size_t j = 0; j < 4 && r->mods[j]; j++) {
            int dup = 0;
            for (size_t k = 0; k < n && k < max; k++)
                dup |= strcmp(out[k], r->mods[j]) == 0;
            if (dup)
                continue;
            if (n < max)
                out[n] = r->mods[j];
            n++;
        }
    }
    return n;
}

size_t lab_era_bus_modules(const struct lab_era *era, const char *bus, const char **out, size_t max)
{
    if (!era->modules_loadable || !lab_era_bus_supported(era, bus, NULL, 0))
        return 0;
    /* IDE's modules follow the stack the kernel drives PIIX with, which its
     * .config may have chosen (lab_kernel_choose_drivers), not the version. */
    if (strcmp(bus, "ide") == 0)
        bus = era->ide_libata ? "ide-libata" : "ide-legacy";
    size_t n = add_rows(era, bus, out, max, 0);
    n = add_rows(era, "fs", out, max, n);
    if (era->channel != LAB_AGENT_CHAN_UART)
        n = add_rows(era, "virtio-chan", out, max, n);
    return n;
}

const char *lab_boot_image_name(enum lab_boot_image b)
{
    static const char *const names[] = {"initramfs (cpio)", "ext2 initrd"};
    return names[b];
}

const char *lab_agent_channel_name(enum lab_agent_channel c)
{
    static const char *const names[] = {"virtio-serial named port", "virtio console (hvc0)",
                                        "second UART (ttyS1)"};
    return names[c];
}

const char *lab_cache_drop_name(enum lab_cache_drop d)
{
    static const char *const names[] = {"/proc/sys/vm/drop_caches",
                                        "posix_fadvise DONTNEED per file",
                                        "unmount and mount the data disk"};
    return names[d];
}

const char *lab_sched_iface_name(enum lab_sched_iface s)
{
    static const char *const names[] = {"elvtune ioctls (BLKELVGET/BLKELVSET)",
                                        "elevator= boot parameter", "sysfs queue/scheduler"};
    return names[s];
}

/* Prints prefix + text as lines of at most 100 columns, indented by 7. */
static void wrap(FILE *out, const char *prefix, const char *text)
{
    const int indent = 7, width = 100;
    int col = fprintf(out, "%*s%s", indent, "", prefix);
    int first = 1; /* no word on this line yet */
    const char *p = text;
    while (*p) {
        size_t word = strcspn(p, " ");
        if (!first && col + 1 + (int)word > width) {
            col = fprintf(out, "\n%*s", indent + 2, "") - 1;
            first = 1;
        }
        col += fprintf(out, "%s%.*s", first ? "" : " ", (int)word, p);
        first = 0;
        p += word;
        while (*p == ' ')
            p++;
    }
    fputc('\n', out);
}

void lab_era_explain(const struct lab_era *era, FILE *out)
{
    fprintf(out, "era facts for Linux %s (%s):\n", era->version_str, era->arch);
    for (size_t i = 0; i < lab_era_row_count(); i++) {
        const struct lab_era_row *r = &rows[i];
        char since[32], until[32], when[80];
        lab_kver_format(r->since, since, sizeof since);
        lab_kver_format(r->until, until, sizeof until);
        if (r->since && r->until)
            snprintf(when, sizeof when, "since %s, gone in %s", since, until);
        else if (r->until)
            snprintf(when, sizeof when, "gone in %s", until);
        else
            snprintf(when, sizeof when, "since %s", since);
        fprintf(out, "  %-3s  %-40s %s\n", lab_era_has(era, r->id) ? "yes" : "no", r->name, when);
        wrap(out, "", r->consequence);
        wrap(out, "source: ", r->source);
    }
}
