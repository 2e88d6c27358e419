/* One cell: one kernel running one experiment in one guest, end to end:
 * images, domain, agent records into the store, teardown always. */
#ifndef LAB_CELL_H
#define LAB_CELL_H

#include <libvirt/libvirt.h>
#include <stdint.h>

#include "host/plan/spec.h"
#include "host/store/store.h"

enum lab_cell_status { LAB_CELL_OK, LAB_CELL_FAILED, LAB_CELL_INTERRUPTED };

struct lab_cell_result {
    enum lab_cell_status status;
    char reason[1024];
    int64_t hello_ns; /* domain start to the agent's hello (boot-to-agent) */
    int64_t total_ns;
    unsigned samples;
    unsigned flagged; /* samples over a contention threshold (host/cell/contention.h) */
    double cpu_mips;  /* the agent's calibration loop (host/cell/cpucheck.h); 0: none */
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
