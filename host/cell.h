/* One cell: one kernel running one experiment in one guest, end to end:
 * images, domain, agent records into the store, teardown always. */
#ifndef LAB_CELL_H
#define LAB_CELL_H

#include <libvirt/libvirt.h>
#include <stdint.h>

#include "host/bus.h"
#include "host/experiment.h"
#include "host/profile.h"
#include "host/store.h"

struct lab_kernel;

enum lab_cell_status { LAB_CELL_OK, LAB_CELL_FAILED, LAB_CELL_INTERRUPTED };

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
    int smoke_test; /* the IO smoke test itself: runs a build that has not passed it yet */
    int rt_priority;     /* SCHED_FIFO for QEMU (nbdkit one above, host/rt.h); 0 = none */
    unsigned boot;       /* which boot of its kernel and variant (1..); 0: not stored */
    const char *rt_note; /* stored as the cell's "rt" fact (lab_rt_plan's note), or NULL */
    unsigned pin_cpu;    /* 1 + the host CPU QEMU's threads are pinned to (--jobs); 0: any */
};

struct lab_cell_result {
    enum lab_cell_status status;
    char reason[1024];
    int64_t hello_ns; /* domain start to the agent's hello (boot-to-agent) */
    int64_t total_ns;
    unsigned samples;
    unsigned flagged; /* samples over a contention threshold (host/contention.h) */
};

struct lab_cell_env {
    virConnectPtr conn;
    struct lab_store *store; /* may be NULL (benchmarks, probes) */
    int64_t run_id;
    const char *log_dir; /* console logs are kept here */
};

int lab_cell_run(const struct lab_cell_env *env, const struct lab_cell_spec *spec,
                 struct lab_cell_result *res);

const char *lab_cell_status_name(enum lab_cell_status s);

/* The guest agent binary for an arch ($LAB_AGENT, else the build's). */
const char *lab_agent_path(const char *arch);

/* Checks before any boot that the cell can run (the kernel's era has the
 * bus and the channel). 0, or -1 with the reason in `reason`. */
int lab_cell_check(const struct lab_cell_spec *spec, char *reason, size_t len);

#endif
