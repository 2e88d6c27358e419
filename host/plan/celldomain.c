/* A cell's domain and kernel command line from its era, bus and profile. */
#include "host/plan/celldomain.h"
#include "guest-agent/keys.h"
#include "guest-agent/protocol.h"
#include "common/msg.h"
#include "images/initrd.h"
#include "host/plan/iosched.h"
#include "common/str.h"

#include <stdlib.h>
#include <string.h>

/* The guest's name for data disk i. Before libata drove PIIX3 (2.6.21)
 * IDE disks were hdX; the second disk is the secondary master, hdc, so the
 * two do not share a channel. */
static const char *guest_disk(const struct lab_era *era, const struct lab_bus *bus, int i)
{
    if (strcmp(bus->name, "ide") == 0 && !era->ide_libata)
        return i ? "hdc" : "hda";
    return i ? "sdb" : "sda";
}

char *lab_cell_agent_params(const struct lab_cell_plan *p, const struct lab_experiment *exp)
{
    const struct lab_era *era = &p->era;
    const struct lab_bus *bus = p->bus;
    const struct lab_sched_plan sched = p->sched;
    enum lab_channel_kind channel = p->channel;
    struct agent_config c;
    uint64_t sent = lab_experiment_agent_config(exp, &c);
    if (p->ide.at_boot) /* libata's boot words carry them (host/plan/idemode.h) */
        sent &= ~(AGENT_KEY(AGENT_K_IDE_DMA) | AGENT_KEY(AGENT_K_IDE_XFER));
    /* The cell's own keys, through the agent's key table like the
     * experiment's: what the agent parses is what is written. */
    const struct {
        enum agent_key_id id;
        const char *value; /* NULL: not sent */
    } cell[] = {
        {AGENT_K_SCHED, sched.agent_sched[0] ? sched.agent_sched : NULL},
        {AGENT_K_DEV, guest_disk(era, bus, 0)},
        {AGENT_K_DEV2, guest_disk(era, bus, 1)},
        {AGENT_K_CHAN, channel == LAB_CHANNEL_UART ? "ttyS1" : "virtio"},
        {AGENT_K_RA_BLKFRA, era->ra_blkfra ? "1" : NULL},
    };
    for (size_t i = 0; i < sizeof cell / sizeof cell[0]; i++) {
        if (!cell[i].value)
            continue;
        const struct agent_key *k = &agent_keys[cell[i].id];
        const char *why = agent_key_set(k, &c, cell[i].value, strlen(cell[i].value));
        if (why) { /* cannot be: the values come from the lab's own tables */
            lab_error("the agent refuses lab.%s=%s (%s)", k->name, cell[i].value, why);
            abort();
        }
        sent |= AGENT_KEY(cell[i].id);
    }
    char buf[LAB_PARAMS_MAX];
    if (agent_params_format(&c, sent, buf, sizeof buf) < 0) {
        lab_error("the agent's parameters of %s pass %d bytes", exp->name, LAB_PARAMS_MAX);
        abort();
    }
    return lab_asprintf("%s\n", buf);
}

/* The console's log level: 4 (warnings and worse) keeps the serial console
 * short; LAB_KERNEL_LOGLEVEL=7 (0..8) prints the kernel's boot, whose printk
 * times split a cell's boot into firmware, decompression and kernel init
 * (host/cell/timing.h; `make bench` takes its breakdown boots so). */
static unsigned console_loglevel(void)
{
    const char *env = getenv("LAB_KERNEL_LOGLEVEL");
    return env && env[0] >= '0' && env[0] <= '8' && !env[1] ? (unsigned)(env[0] - '0') : 4;
}

/* acpi=noirq where no device of the domain needs PCI interrupt routing:
 * a kernel with MSI (era->pci_msi, from its .config; the agent's
 * virtio-serial port takes MSI-X, a UART its ISA IRQ) on a bus whose
 * controller takes MSI or a legacy ISA IRQ. Every INTx device a kernel
 * enables otherwise makes ACPI evaluate QEMU's _PRT for pc, a 128-round
 * AML loop, 0.1 s under TCG: the lab's 6.1 build with MSI reached its
 * agent in 1.06 s against 1.16 s with it (docs/notebook.md, "fast cells"). The
 * disk's own interrupts are what they were: MSI, or IRQ 14 and 15. From
 * 3.0, where it was checked (6.x); 2.x keeps ACPI's routing. */
static const char *no_pci_irq_routing(const struct lab_cell_plan *p)
{
    return p->era.pci_msi && p->bus->msi_or_isa ? p->rules.acpi_noirq : "";
}

/* drivers/ide (2.x before libata) probes every position it knows: hda-hdd
 * on the PIIX's two channels and, in 2.4, four ISA interfaces (ide2-ide5,
 * 0x1e8 ...), each empty one with fixed 50 ms busy-waits, for ATA and
 * again for ATAPI. So a cell's kernel probes only the positions holding
 * the cell's disks, where the rules table says its ide_setup() reads the
 * words and the driver is built in (a modular one would hand them to /init
 * as environment variables). The cut took 2.4.22 from 4.55 to 1.29 s to
 * its agent and 2.6.11 from 5.03 to 1.30 s, measured interleaved
 * (docs/timing.md).
 * LAB_IDE_PROBE=all gives the kernel its full probe back. */
static void ide_noprobe(const struct lab_cell_plan *p, int ndisks, char *out, size_t size)
{
    out[0] = '\0';
    const char *want = getenv("LAB_IDE_PROBE");
    if (p->era.ide_libata || !p->rules.ide_noprobe[0] || p->nmodules > 0 ||
        (want && strcmp(want, "all") == 0))
        return;
    static const char *const drives[] = {"hda", "hdb", "hdc", "hdd"};
    int on_ide = strcmp(p->bus->name, "ide") == 0;
    size_t len = 0;
    for (size_t i = 0; i < sizeof drives / sizeof drives[0]; i++) {
        int used =
            on_ide && (strcmp(drives[i], guest_disk(&p->era, p->bus, 0)) == 0 ||
                       (ndisks > 1 && strcmp(drives[i], guest_disk(&p->era, p->bus, 1)) == 0));
        if (!used && len < size)
            len += (size_t)snprintf(out + len, size - len, " %s=noprobe", drives[i]);
    }
    for (int hwif = 2; hwif <= 5 && len < size; hwif++)
        len += (size_t)snprintf(out + len, size - len, " ide%d=noprobe", hwif);
}

/* Only what the kernel itself reads: the agent's parameters are a file in
 * the boot image (lab_cell_agent_params), so the line fits every era's
 * COMMAND_LINE_SIZE (256 bytes before 2.6.24, where longer lines are cut
 * without a word). */
char *lab_cell_cmdline(const struct lab_cell_plan *p, int ndisks, const struct lab_experiment *exp,
                       const char *virt_type)
{
    /* panic=1 turns a panic into a reboot, which ends the domain; loglevel
     * keeps the serial console (slow under TCG) short. A 2.4 kernel boots
     * an ext2 initrd as its root and runs /init from it. 2.6-era kernels
     * boot on machine pc only with noapic (measured here, 2.6.10-2.6.36);
     * the words that depend on the version are kernels/rules.c's.
     * profile=2 makes the kernel count ticks per 4-byte text slot into
     * /proc/profile for the experiments that read it. The experiment's
     * boot_args come last, so a word of theirs wins over the lab's. */
    char root[96] = "";
    if (p->era.boot == LAB_BOOT_EXT2_INITRD)
        snprintf(root, sizeof root, " root=/dev/ram0 rw init=/init ramdisk_size=%d",
                 LAB_INITRD_KIB);
    /* Under TCG only: KVM's TSC-deadline timer needs no calibration and
     * stays (docs/notebook.md, "fast cells"). */
    const char *tcg = virt_type && strcmp(virt_type, "qemu") == 0 ? p->rules.tcg_words : "";
    const char *prof = exp->kprofile ? " profile=2" : "";
    char noprobe[128];
    ide_noprobe(p, ndisks, noprobe, sizeof noprobe);
    return lab_asprintf("console=ttyS0 panic=1 loglevel=%u%s%s%s%s%s%s%s%s%s%s%s%s",
                        console_loglevel(), root, p->rules.noapic, p->rules.console_words, tcg,
                        no_pci_irq_routing(p), noprobe, prof, p->sched.boot_param[0] ? " " : "",
                        p->sched.boot_param, p->ide.words, exp->boot_args ? " " : "",
                        exp->boot_args ? exp->boot_args : "");
}

/* A kernel cuts a longer command line at COMMAND_LINE_SIZE without a word
 * (256 bytes before 2.6.24), losing the last words: the experiment's
 * boot_args. The longest line a cell can get (TCG, two disks) must fit. */
int lab_cell_cmdline_check(const struct lab_cell_plan *plan, const struct lab_experiment *exp,
                           char *reason, size_t len)
{
    char *line = lab_cell_cmdline(plan, 2, exp, "qemu");
    size_t n = strlen(line);
    free(line);
    if (n < plan->era.cmdline_max)
        return 0;
    snprintf(reason, len,
             "the kernel command line would be %zu bytes and this kernel keeps %zu "
             "(COMMAND_LINE_SIZE); shorten boot_args",
             n, plan->era.cmdline_max - 1);
    return -1;
}

/* The bus's machine, with the rules table's pinned pc for the kernels that
 * need one (docs/era-facts.md, "The machine type"). */
static const char *machine_for(const struct lab_cell_plan *p)
{
    if (strcmp(p->bus->machine, "pc") == 0 && p->rules.machine_pc)
        return p->rules.machine_pc;
    return p->bus->machine;
}

/* Guest RAM: the profile's era-true figure, but never below what the
 * kernel needs to boot at all (Debian's 6.x kernels with their initramfs
 * die silently in 64 MiB). A page cache smaller than the test file keeps
 * the runs honest either way. */
static unsigned memory_mib(const struct lab_cell_plan *p, const struct lab_profile *profile)
{
    unsigned want = profile && profile->memory_mib ? profile->memory_mib : 512;
    return p->rules.memory_floor_mib > want ? p->rules.memory_floor_mib : want;
}

/* The firmware: qboot, which Debian's QEMU ships beside SeaBIOS, boots a
 * kernel straight from fw_cfg without SeaBIOS's device scan (docs/notebook.md:
 * "Fast cells"), where the rules table says so: by default (6.x), or when
 * LAB_FIRMWARE=qboot asks (2.4 up to 2.6.12, on a CPU without a local APIC:
 * see lab_cell_domain). LAB_FIRMWARE=seabios keeps QEMU's default for
 * every kernel. */
static const char *firmware(const struct lab_cell_plan *p)
{
    const char *want = getenv("LAB_FIRMWARE");
    if (want && strcmp(want, "seabios") == 0)
        return NULL;
    if (strcmp(p->rules.qboot, "qboot") == 0)
        return LAB_QBOOT_ROM;
    int asked = want && strcmp(want, "qboot") == 0;
    return asked && strcmp(p->rules.qboot, "asked") == 0 ? LAB_QBOOT_ROM : NULL;
}

char *lab_cell_domain(const struct lab_cell_plan *p, const struct lab_profile *profile,
                      const struct lab_experiment *exp, const char *virt_type,
                      const struct lab_cell_paths *paths, struct lab_domain_spec *ds)
{
    const struct lab_bus *bus = p->bus;
    int ndisks = paths->disk2_socket ? 2 : 1;
    char *cmdline = lab_cell_cmdline(p, ndisks, exp, virt_type);
    const char *fw = firmware(p);
    *ds = (struct lab_domain_spec){
        .name = paths->name,
        .virt_type = virt_type,
        .arch = p->era.arch,
        .machine = machine_for(p),
        .memory_mib = memory_mib(p, profile),
        .vcpus = 1,
        .firmware = fw,
        /* qboot leaves LINT0 masked: a kernel that boots without the APIC
         * (the noapic rule's kernels) gets a CPU without one, so its timer
         * reaches it through the 8259. */
        .no_lapic = fw && p->rules.noapic[0],
        .kernel = paths->kernel,
        .initrd = paths->initrd,
        .cmdline = cmdline,
        .console_log = paths->console_log,
        .agent_socket = paths->agent_socket,
        .channel = p->channel,
        .ndisks = ndisks,
        .scsi_model = bus->scsi_model,
    };
    ds->disks[0] = (struct lab_domain_disk){
        .nbd_socket = paths->disk_socket,
        .format = "raw",
        .bus = bus->libvirt_bus,
        .target = bus->target,
        .rotation_rate = profile ? profile->rpm : 0,
        .iotune_bytes_sec = profile ? profile->iotune_bytes : 0,
        .iotune_iops_sec = profile ? profile->iotune_iops : 0,
    };
    if (paths->disk2_socket) {
        ds->disks[1] = ds->disks[0];
        ds->disks[1].nbd_socket = paths->disk2_socket;
        ds->disks[1].target = bus->target2;
    }
    return cmdline;
}
