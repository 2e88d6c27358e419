/* Where an experiment's ide_dma and ide_xfer (hdparm -d and -X) take
 * effect. On drivers/ide (hdX) the agent applies them with hdparm's ioctls
 * before the runs. libata (sdX: PIIX through ata_piix from 2.6.21, AHCI)
 * has no run-time setting, so there they become its boot parameters where
 * the kernel has them (kernels/rules.c): ide_dma = off as libata.dma=0,
 * ide_xfer = MODE as libata.force=MODE; ide_dma = on is libata's default.
 * The agent reads the mode back either way. A setting the kernel or the
 * bus cannot take is refused before boot. */
#ifndef LAB_IDEMODE_H
#define LAB_IDEMODE_H

#include "host/plan/bus.h"
#include "host/plan/experiment.h"
#include "kernels/era.h"
#include "kernels/rules.h"

#include <stddef.h>

struct lab_ide_boot {
    int at_boot;    /* 1: the settings are boot words; the agent is not sent them */
    char words[64]; /* " libata.dma=0 libata.force=udma2", or "" */
};

/* 0 with out filled, or -1 with why in reason. */
int lab_ide_mode_plan(const struct lab_era *era, const struct lab_bus *bus,
                      const struct lab_run_rules *rules, const struct lab_experiment *e,
                      struct lab_ide_boot *out, char *reason, size_t len);

#endif
