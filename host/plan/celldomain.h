/* What a cell looks like to libvirt and to the guest, from the cell's plan
 * (host/plan/cellplan.h: its era, bus, channel and the kernel-version
 * rules applied to it) and the profile alone (pure, golden-tested). */
#ifndef LAB_CELLDOMAIN_H
#define LAB_CELLDOMAIN_H

#include "host/plan/bus.h"
#include "host/plan/cellplan.h"
#include "host/plan/domain.h"
#include "kernels/era.h"
#include "host/plan/experiment.h"
#include "host/plan/profile.h"

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
char *lab_cell_agent_params(const struct lab_cell_plan *p, const struct lab_experiment *exp);

/* The kernel command line of a cell of plan p with ndisks data disks under
 * virt_type ("qemu" for TCG, "kvm"): only what the kernel reads, the
 * experiment's boot_args last. malloc'd. lab_cell_domain uses it; the cell
 * check measures it against p->era.cmdline_max. */
char *lab_cell_cmdline(const struct lab_cell_plan *p, int ndisks, const struct lab_experiment *exp,
                       const char *virt_type);

/* 0 when the longest command line a cell of plan p can get (TCG, two
 * disks) fits the kernel's COMMAND_LINE_SIZE, which cuts a longer one
 * without a word (256 bytes before 2.6.24); -1 with why in reason. */
int lab_cell_cmdline_check(const struct lab_cell_plan *p, const struct lab_experiment *exp,
                           char *reason, size_t len);

/* Fills `ds` (pointing into `paths`, the plan and the arguments) and
 * returns the kernel command line (malloc'd), which ds->cmdline points to;
 * it holds only what the kernel reads and fits p->era.cmdline_max. Every
 * version-dependent choice is the plan's (p->rules, p->sched). */
char *lab_cell_domain(const struct lab_cell_plan *p, const struct lab_profile *profile,
                      const struct lab_experiment *exp, const char *virt_type,
                      const struct lab_cell_paths *paths, struct lab_domain_spec *ds);

#endif
