/* A cell's plan: everything decided about a cell before it boots, decided
 * once. From the spec (kernel, experiment, profile, bus and channel asked
 * for) and the kernel's era: the bus, the agent's channel, the filesystem
 * the guest mounts, the data disks and how they are built, the modules the
 * boot image loads, and the cell's deadline; or why the era cannot run it.
 * lab_cell_check and the cell's preparation (host/cell/cell.c) both take it
 * from here. Pure: golden-tested (tests/golden/cellplan-*.txt). */
#ifndef LAB_CELLPLAN_H
#define LAB_CELLPLAN_H

#include <stddef.h>

#include "host/plan/spec.h"
#include "host/plan/domain.h"
#include "host/plan/idemode.h"
#include "host/plan/iosched.h"
#include "images/datadisk.h"
#include "images/fsimage.h"
#include "kernels/era.h"
#include "kernels/rules.h"

#define LAB_CELL_PLAN_MAX_MODULES 16

struct lab_cell_plan {
    struct lab_era era;
    const struct lab_bus *bus;
    enum lab_channel_kind channel;
    const char *fs; /* what the guest mounts on the data disk: "ext2", "ext3", or "raw" */
    /* The data disk: a tree image (ext3tree) or a data disk (ext2, raw). */
    int tree_disk;
    struct lab_datadisk_recipe data; /* unless tree_disk */
    struct lab_fsimage_recipe tree;  /* if tree_disk */
    /* io_other's second disk: an empty ext3 scratch disk of the same drive. */
    int second_disk;
    struct lab_fsimage_recipe scratch; /* if second_disk */
    const char *modules[LAB_CELL_PLAN_MAX_MODULES];
    size_t nmodules; /* 0: a kernel whose drivers are built in */
    unsigned timeout_s;
    /* The kernel-version rules table (kernels/rules.h) applied to the era:
     * machine, command-line words, memory floor, firmware; and how the
     * experiment's scheduler is selected. The domain and the agent's
     * parameters (host/plan/celldomain.h) read them from here. */
    struct lab_run_rules rules;
    struct lab_sched_plan sched;
    /* ide_dma / ide_xfer: by the agent (drivers/ide) or as libata's boot
     * words (host/plan/idemode.h). */
    struct lab_ide_boot ide;
};

/* Plans the cell on era (the kernel's, lab_kernel_era; NULL when there
 * are no era facts for it). 0, or -1 with why the cell cannot run here in
 * reason (an unknown bus, no era facts, a bus, scheduler, tunable,
 * O_DIRECT or channel the era lacks, an unverified lab build). */
int lab_cell_plan(const struct lab_cell_spec *spec, const struct lab_era *era,
                  struct lab_cell_plan *out, char *reason, size_t len);

/* The rules table and the experiment's scheduler applied to p->era (p->rules,
 * p->sched): part of lab_cell_plan, and for a plan built by hand (tests).
 * 0, or -1 with why (a scheduler the era lacks) in reason. */
int lab_cell_plan_rules(struct lab_cell_plan *p, const struct lab_experiment *e, char *reason,
                        size_t len);

/* The cell's deadline in seconds: --timeout, the experiment's timeout, or a
 * boot allowance plus each run's work at era-disk speeds with a wide
 * margin (2 MB/s streaming, 100 ms per random request). */
unsigned lab_cell_plan_timeout(const struct lab_cell_spec *spec);

/* The plan as text, one decision a line (golden files, logs; malloc'd). */
char *lab_cell_plan_describe(const struct lab_cell_plan *p);

#endif
