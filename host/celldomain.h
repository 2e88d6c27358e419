/* What a cell looks like to libvirt and to the guest, decided from the
 * kernel's era, the bus and the profile alone (pure, golden-tested). */
#ifndef LAB_CELLDOMAIN_H
#define LAB_CELLDOMAIN_H

#include "host/bus.h"
#include "host/domain.h"
#include "kernels/era.h"
#include "host/experiment.h"
#include "host/profile.h"

/* Debian's qboot (package qemu-system-data). */
#define LAB_QBOOT_ROM "/usr/share/qemu/qboot.rom"

/* Files and sockets of one cell on the host. */
struct lab_cell_paths {
    const char *name;
    const char *kernel, *initrd;
    const char *console_log, *agent_socket, *disk_socket;
    const char *disk2_socket; /* a second data disk (io_other), or NULL */
};

/* The agent's parameters ("lab.key=value" words, newline-terminated), which
 * travel as /etc/lab/params in the boot image: the experiment's keys, the
 * scheduler switch, the guest's disk names and the channel. malloc'd. */
char *lab_cell_agent_params(const struct lab_era *era, const struct lab_bus *bus,
                            enum lab_channel_kind channel, const struct lab_experiment *exp);

/* Fills `ds` (pointing into `paths` and the arguments) and returns the
 * kernel command line (malloc'd), which ds->cmdline points to; it holds
 * only what the kernel reads and fits era->cmdline_max. */
char *lab_cell_domain(const struct lab_era *era, const struct lab_bus *bus,
                      enum lab_channel_kind channel, const struct lab_profile *profile,
                      const struct lab_experiment *exp, const char *virt_type,
                      const struct lab_cell_paths *paths, struct lab_domain_spec *ds);

#endif
