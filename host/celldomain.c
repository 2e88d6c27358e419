/* A cell's domain and kernel command line from its era, bus and profile. */
#include "host/celldomain.h"
#include "guest-agent/keys.h"
#include "guest-agent/protocol.h"
#include "common/msg.h"
#include "images/initrd.h"
#include "host/iosched.h"
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

char *lab_cell_agent_params(const struct lab_era *era, const struct lab_bus *bus,
                            enum lab_channel_kind channel, const struct lab_experiment *exp)
{
    struct agent_config c;
    uint64_t sent = lab_experiment_agent_config(exp, &c);
    struct lab_sched_plan sched;
    char reason[256];
    /* lab_cell_check refused an impossible scheduler before we got here. */
    if (lab_sched_plan(era, exp->scheduler, &sched, reason, sizeof reason) < 0)
        memset(&sched, 0, sizeof sched);
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
 * (host/timing.h; `make bench` takes its breakdown boots so). */
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
 * agent in 1.06 s against 1.16 s with it (README "Fast cells"). The
 * disk's own interrupts are what they were: MSI, or IRQ 14 and 15. From
 * 3.0, where it was checked (6.x); 2.x keeps ACPI's routing. */
static int no_pci_irq_routing(const struct lab_era *era, const struct lab_bus *bus)
{
    return era->pci_msi && bus->msi_or_isa && era->version >= LAB_KV(3, 0, 0);
}

/* Only what the kernel itself reads: the agent's parameters are a file in
 * the boot image (lab_cell_agent_params), so the line fits every era's
 * COMMAND_LINE_SIZE (256 bytes before 2.6.24, where longer lines are cut
 * without a word). */
static char *kernel_cmdline(const struct lab_era *era, const struct lab_bus *bus,
                            const struct lab_experiment *exp, const char *virt_type)
{
    struct lab_sched_plan sched;
    char reason[256];
    if (lab_sched_plan(era, exp->scheduler, &sched, reason, sizeof reason) < 0)
        memset(&sched, 0, sizeof sched);
    /* panic=1 turns a panic into a reboot, which ends the domain; loglevel
     * keeps the serial console (slow under TCG) short. A 2.4 kernel boots
     * an ext2 initrd as its root and runs /init from it. 2.6-era kernels
     * boot on machine pc only with noapic (measured here, 2.6.10-2.6.36).
     * profile=2 makes the kernel count ticks per 4-byte text slot into
     * /proc/profile for the experiments that read it. */
    char root[96] = "";
    if (era->boot == LAB_BOOT_EXT2_INITRD)
        snprintf(root, sizeof root, " root=/dev/ram0 rw init=/init ramdisk_size=%d",
                 LAB_INITRD_KIB);
    const char *noapic = era->version < LAB_KV(3, 0, 0) ? " noapic" : "";
    /* From 3.0 (the IO-APIC in use): printk times on the console, which
     * date the kernel's own boot on the host clock (host/timing.h), and no
     * IO-APIC timer check, which under TCG on a loaded host panics ("IO-APIC
     * + timer doesn't work!", seen here at load 20 with 6.1 and 6.12). */
    const char *modern = era->version >= LAB_KV(3, 0, 0) ? " printk.time=1 no_timer_check" : "";
    /* Under TCG, from 3.0: no local APIC timer (the HPET gives the clock
     * events). The kernel calibrates that timer against the PIT for 0.1 s
     * of every boot, and under TCG it also cost more while it ran: the
     * lab's 6.1 build reached its agent in 1.18 s against 1.40 s with it
     * (README "Fast cells"). KVM's TSC-deadline timer needs no calibration
     * and stays. */
    const char *tcg = virt_type && strcmp(virt_type, "qemu") == 0 && era->version >= LAB_KV(3, 0, 0)
                          ? " noapictimer"
                          : "";
    const char *prof = exp->kprofile ? " profile=2" : "";
    const char *noirq = no_pci_irq_routing(era, bus) ? " acpi=noirq" : "";
    return lab_asprintf("console=ttyS0 panic=1 loglevel=%u%s%s%s%s%s%s%s%s", console_loglevel(),
                        root, noapic, modern, tcg, noirq, prof, sched.boot_param[0] ? " " : "",
                        sched.boot_param);
}

/* QEMU 7.2's pc (pc-i440fx-7.2) reserves e820 space at 0xfd00000000, and
 * x86_64 2.6.12 panics on it ("Cannot find space for the kernel page
 * tables", LAB-DESIGN.md); pc-i440fx-7.0 is the same board without it. The
 * lab pins it for every 2.x kernel: nothing else differs for a guest. */
static const char *machine_for(const struct lab_era *era, const struct lab_bus *bus)
{
    if (strcmp(bus->machine, "pc") == 0 && LAB_KV_MAJOR(era->version) == 2)
        return "pc-i440fx-7.0";
    return bus->machine;
}

/* Guest RAM: the profile's era-true figure, but never below what the
 * kernel needs to boot at all (Debian's 6.x kernels with their initramfs
 * die silently in 64 MiB). A page cache smaller than the test file keeps
 * the runs honest either way. */
static unsigned memory_mib(const struct lab_era *era, const struct lab_profile *profile)
{
    static const struct {
        lab_kver since;
        unsigned floor_mib;
    } floors[] = {{LAB_KV(5, 0, 0), 256}, {LAB_KV(3, 0, 0), 128}, {0, 32}};
    unsigned want = profile && profile->memory_mib ? profile->memory_mib : 512;
    for (size_t i = 0; i < sizeof floors / sizeof floors[0]; i++)
        if (era->version >= floors[i].since)
            return want > floors[i].floor_mib ? want : floors[i].floor_mib;
    return want;
}

/* The firmware: qboot, which Debian's QEMU ships beside SeaBIOS, boots a
 * kernel straight from fw_cfg without SeaBIOS's device scan (README:
 * "Fast cells"), for the kernels it was checked with (6.x on every bus).
 * 2.x kernels keep SeaBIOS: under qboot 2.4.22 hangs calibrating its delay
 * loop (no timer interrupt) and 2.6.12-rc2 prints nothing. LAB_FIRMWARE=
 * seabios keeps QEMU's default for every kernel. */
static const char *firmware(const struct lab_era *era)
{
    const char *want = getenv("LAB_FIRMWARE");
    if ((want && strcmp(want, "seabios") == 0) || LAB_KV_MAJOR(era->version) < 6)
        return NULL;
    return LAB_QBOOT_ROM;
}

char *lab_cell_domain(const struct lab_era *era, const struct lab_bus *bus,
                      enum lab_channel_kind channel, const struct lab_profile *profile,
                      const struct lab_experiment *exp, const char *virt_type,
                      const struct lab_cell_paths *paths, struct lab_domain_spec *ds)
{
    char *cmdline = kernel_cmdline(era, bus, exp, virt_type);
    *ds = (struct lab_domain_spec){
        .name = paths->name,
        .virt_type = virt_type,
        .arch = era->arch,
        .machine = machine_for(era, bus),
        .memory_mib = memory_mib(era, profile),
        .vcpus = 1,
        .firmware = firmware(era),
        .kernel = paths->kernel,
        .initrd = paths->initrd,
        .cmdline = cmdline,
        .console_log = paths->console_log,
        .agent_socket = paths->agent_socket,
        .channel = channel,
        .ndisks = paths->disk2_socket ? 2 : 1,
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
