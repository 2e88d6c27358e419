/* What one cell is asked to run: a kernel, an experiment, a profile and a
 * bus, with the run's choices for it. Pure (no libvirt): the planner
 * (host/plan/cellplan.h) decides from it, host/cell/ runs it. */
#ifndef LAB_PLAN_SPEC_H
#define LAB_PLAN_SPEC_H

#include "host/plan/bus.h"
#include "host/plan/cpu.h"
#include "host/plan/experiment.h"
#include "host/plan/profile.h"

struct lab_kernel;

struct lab_cell_spec {
    int index; /* position in the run's matrix */
    const struct lab_kernel *kernel;
    const struct lab_experiment *exp;
    const struct lab_profile *profile; /* NULL: fast */
    const struct lab_bus *bus;         /* NULL: the profile's bus */
    const char *channel;               /* NULL: the era's; "virtio-port" or "uart" to force */
    const char *virt_type;             /* "qemu" (TCG) or "kvm" */
    unsigned timeout_s;                /* whole cell; 0 = derived from the work */
    int hello_only;                    /* stop at the agent's hello (probes, boot benchmarks) */
    int calib_only;      /* stop at the agent's calibration record (the CPU headroom probe) */
    int smoke_test;      /* the IO smoke test itself: runs a build that has not passed it yet */
    int rt_priority;     /* SCHED_FIFO for QEMU (nbdkit one above, host/cell/rt.h); 0 = none */
    unsigned boot;       /* which boot of its kernel and variant (1..); 0: not stored */
    const char *rt_note; /* stored as the cell's "rt" fact (lab_rt_plan's note), or NULL */
    unsigned pin_cpu;    /* 1 + the host CPU QEMU's threads are pinned to (--jobs); 0: any */
    const struct lab_cpu *cpu; /* the CPU profile (host/plan/cpu.h); NULL: fast */
};

#endif
