/* A cell's domain and kernel command line from its era, bus and profile. */
#include "celldomain.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static const char *guest_disk(const struct lab_era *era, const struct lab_bus *bus)
{
    /* Before libata drove PIIX3 (2.6.21) the IDE disk was hda. */
    return strcmp(bus->name, "ide") == 0 && !era->ide_libata ? "hda" : "sda";
}

static char *kernel_cmdline(const struct lab_era *era, const struct lab_bus *bus,
                            enum lab_channel_kind channel, const struct lab_experiment *exp)
{
    char *agent = lab_experiment_cmdline(exp);
    /* panic=1 turns a panic into a reboot, which ends the domain; loglevel
     * keeps the serial console (slow under TCG) short. A 2.4 kernel boots
     * an ext2 initrd as its root and runs /init from it. 2.6-era kernels
     * boot on machine pc only with noapic (measured here, 2.6.10-2.6.36). */
    const char *root = era->boot == LAB_BOOT_EXT2_INITRD ? " root=/dev/ram0 rw init=/init" : "";
    const char *noapic = era->version < LAB_KV(3, 0, 0) ? " noapic" : "";
    char *cmd = lab_asprintf("console=ttyS0 panic=1 loglevel=4%s%s %s lab.dev=%s lab.chan=%s", root,
                             noapic, agent, guest_disk(era, bus),
                             channel == LAB_CHANNEL_UART ? "ttyS1" : "virtio");
    free(agent);
    return cmd;
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

char *lab_cell_domain(const struct lab_era *era, const struct lab_bus *bus,
                      enum lab_channel_kind channel, const struct lab_profile *profile,
                      const struct lab_experiment *exp, const char *virt_type,
                      const struct lab_cell_paths *paths, struct lab_domain_spec *ds)
{
    char *cmdline = kernel_cmdline(era, bus, channel, exp);
    *ds = (struct lab_domain_spec){
        .name = paths->name,
        .virt_type = virt_type,
        .arch = era->arch,
        .machine = bus->machine,
        .memory_mib = memory_mib(era, profile),
        .vcpus = 1,
        .kernel = paths->kernel,
        .initrd = paths->initrd,
        .cmdline = cmdline,
        .console_log = paths->console_log,
        .agent_socket = paths->agent_socket,
        .channel = channel,
        .ndisks = 1,
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
    return cmdline;
}
