/* lab kernels era, and the era part of lab kernels show: what a kernel
 * version's era means for a cell (kernels/era.h, the rules table
 * kernels/rules.h) and which buses a kernel's .config can drive
 * (kernels/kconfig.h). */
#include "kernels/catalog.h"
#include "kernels/era.h"
#include "kernels/kconfig.h"
#include "kernels/rules.h"
#include "lab/cmd_kernels.h"
#include "common/msg.h"

#include <stdio.h>
#include <string.h>

/* The era decisions, the buses and the era table. */
void lab_kernels_print_era(const struct lab_era *era)
{
    printf("decisions (Linux %s, %s):\n", era->version_str, era->arch);
    printf("  %-16s %s\n", "boot image", lab_boot_image_name(era->boot));
    printf("  %-16s %s\n", "agent channel", lab_agent_channel_name(era->channel));
    printf("  %-16s %s\n", "cache drop", lab_cache_drop_name(era->drop));
    printf("  %-16s %s\n", "scheduler", lab_sched_iface_name(era->sched));
    printf("  %-16s %s\n", "device nodes", era->has_devtmpfs ? "devtmpfs" : "mknod by the agent");
    printf("  %-16s %s\n", "ide disk",
           era->ide_libata ? "ata_piix (libata), /dev/sdX" : "drivers/ide piix, /dev/hdX");
    struct lab_run_rules rules;
    lab_run_rules_for(era->version, &rules);
    if (!era->ide_libata)
        printf("  %-16s %s\n", "ide probe",
               rules.ide_noprobe[0] ? "the cell's disks only: hdX=noprobe, ideN=noprobe for the "
                                      "rest, when built in (LAB_IDE_PROBE=all: every position)"
                                    : "every position (no noprobe words read for this version)");
    printf("  %-16s %s\n", "PCI interrupts",
           !era->pci_msi         ? "ACPI routing (no MSI in the .config, or no .config)"
           : rules.acpi_noirq[0] ? "MSI (.config): acpi=noirq on ide, sata, virtio-scsi; ACPI "
                                   "routing on scsi"
                                 : "MSI (.config); ACPI routing kept on this era");
    printf("  %-16s %s\n", "machine (pc)", rules.machine_pc ? rules.machine_pc : "pc");
    printf("  %-16s%s%s (under TCG also%s)\n", "kernel words", rules.noapic, rules.console_words,
           rules.tcg_words[0] ? rules.tcg_words : " nothing");
    printf("  %-16s %u MiB\n", "memory floor", rules.memory_floor_mib);
    printf("  %-16s %s\n", "firmware",
           strcmp(rules.qboot, "qboot") == 0   ? "qboot"
           : strcmp(rules.qboot, "asked") == 0 ? "SeaBIOS (qboot with LAB_FIRMWARE=qboot)"
                                               : "SeaBIOS");
    printf("  %-16s %s\n", "modules",
           era->modules_loadable ? "loaded by the agent from the boot image"
                                 : "not loadable by the agent: drivers must be built in");
    printf("\nbuses:\n");
    for (size_t i = 0; lab_era_buses[i]; i++) {
        const char *bus = lab_era_buses[i];
        char reason[160];
        if (!lab_era_bus_supported(era, bus, reason, sizeof reason)) {
            printf("  %-12s no   %s\n", bus, reason);
            continue;
        }
        const char *mods[16];
        size_t n = lab_era_bus_modules(era, bus, mods, 16);
        printf("  %-12s yes  modules:", bus);
        if (n == 0)
            printf(" (built in)");
        for (size_t j = 0; j < n && j < 16; j++)
            printf(" %s", mods[j]);
        printf("\n");
    }
    printf("\n");
    lab_era_explain(era, stdout);
}

/* Which buses the kernel's .config can drive (kernels/kconfig.h). */
void lab_kernels_print_config_buses(const struct lab_kernel *k, const struct lab_era *era)
{
    struct lab_kconfig cfg;
    if (lab_kconfig_load(k->config_path, &cfg) < 0)
        return;
    cfg.kernel = k->name;
    cfg.have_modules = k->has_modules;
    printf("\nits .config (%s):\n", k->config_path);
    for (size_t i = 0; lab_era_buses[i]; i++) {
        char reason[200];
        int ok = lab_kconfig_bus_ok(&cfg, lab_era_buses[i], era, reason, sizeof reason);
        printf("  %-12s %-4s %s\n", lab_era_buses[i], ok == 1 ? "yes" : "no",
               ok == 1 ? lab_kconfig_bus_needs(lab_era_buses[i], era) : reason);
    }
    const enum lab_agent_channel chans[] = {LAB_AGENT_CHAN_VIRTIO_PORT, LAB_AGENT_CHAN_UART};
    for (size_t i = 0; i < 2; i++) {
        char reason[200];
        int ok = lab_kconfig_channel_ok(&cfg, chans[i], era, reason, sizeof reason);
        printf("  %-12s %-4s %s\n", i ? "uart" : "virtio", ok == 1 ? "yes" : "no",
               ok == 1 ? "agent channel" : reason);
    }
    char why[200];
    int dma = lab_kconfig_ide_dma_at_boot(&cfg, era, why, sizeof why);
    if (dma >= 0)
        printf("  %-12s %-4s %s\n", "ide dma", dma ? "yes" : "no",
               dma ? "DMA at boot on drivers/ide"
                   : "the IDE disk runs in PIO unless --set ide_dma=on (docs/ide.md):");
    if (dma == 0)
        printf("  %-17s %s\n", "", why);
    lab_kconfig_free(&cfg);
}

/* The era of any kernel version, catalog or not (user-supplied kernels). */
int lab_kernels_era(int argc, char **argv)
{
    if (argc < 1 || argc > 2) {
        lab_error("usage: lab kernels era VERSION [ARCH]");
        return 2;
    }
    struct lab_era era;
    if (lab_era_for(argv[0], argc > 1 ? argv[1] : "x86_64", &era) < 0)
        return 2;
    lab_kernels_print_era(&era);
    return 0;
}
