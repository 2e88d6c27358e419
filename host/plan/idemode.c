/* Where ide_dma and ide_xfer take effect; see idemode.h. */
#include "host/plan/idemode.h"

#include <stdio.h>
#include <string.h>

static int asked(const char *v)
{
    return v && strcmp(v, "auto") != 0;
}

int lab_ide_mode_plan(const struct lab_era *era, const struct lab_bus *bus,
                      const struct lab_run_rules *rules, const struct lab_experiment *e,
                      struct lab_ide_boot *out, char *reason, size_t len)
{
    memset(out, 0, sizeof *out);
    int dma = asked(e->ide_dma), xfer = asked(e->ide_xfer);
    if (!dma && !xfer)
        return 0;
    const char *key = xfer ? "ide_xfer" : "ide_dma", *value = xfer ? e->ide_xfer : e->ide_dma;
    int ata = strcmp(bus->name, "ide") == 0 || strcmp(bus->name, "sata") == 0;
    if (!ata) {
        snprintf(reason, len, "%s = %s: the %s bus's disk is not an ATA disk", key, value,
                 bus->name);
        return -1;
    }
    if (strcmp(bus->name, "ide") == 0 && !era->ide_libata)
        return 0; /* drivers/ide: the agent's ioctls */
    out->at_boot = 1;
    size_t at = 0;
    if (dma && strcmp(e->ide_dma, "off") == 0) {
        if (!rules->libata_dma[0]) {
            snprintf(reason, len,
                     "ide_dma = off: this kernel (%s) drives the disk with libata, which has "
                     "no run-time DMA switch and no libata.dma= before 2.6.23",
                     era->version_str);
            return -1;
        }
        at += (size_t)snprintf(out->words + at, sizeof out->words - at, " %s0", rules->libata_dma);
    }
    if (xfer) {
        if (!rules->libata_force[0] || strncmp(e->ide_xfer, "sdma", 4) == 0) {
            snprintf(reason, len,
                     "ide_xfer = %s: this kernel (%s) drives the disk with libata, which "
                     "sets modes only at boot, by libata.force= (2.6.28 on; no single-word "
                     "DMA)",
                     e->ide_xfer, era->version_str);
            return -1;
        }
        snprintf(out->words + at, sizeof out->words - at, " %s%s", rules->libata_force,
                 e->ide_xfer);
    }
    return 0;
}
