/* The emulated disk buses, as one table. */
#include "host/plan/bus.h"
#include "common/msg.h"

#include <string.h>

static const struct lab_bus buses[] = {
    {"ide", "ide", "hda", "hdc", NULL, "pc", "PIIX3 IDE on i440FX (ata_piix, or legacy piix)", 1},
    {"sata", "sata", "sda", "sdb", NULL, "pc", "AHCI (ich9-ahci; libvirt adds the controller)", 1},
    {"scsi", "scsi", "sda", "sdb", "lsilogic", "pc", "LSI53C895A (sym53c8xx)", 0},
    {"virtio-scsi", "scsi", "sda", "sdb", "virtio-scsi", "pc", "virtio-scsi (Linux 3.4+)", 1},
};

const struct lab_bus *lab_bus_find(const char *name)
{
    for (size_t i = 0; i < sizeof buses / sizeof buses[0]; i++)
        if (strcmp(buses[i].name, name) == 0)
            return &buses[i];
    lab_error("unknown bus '%s' (known: ide, sata, scsi, virtio-scsi)", name);
    return NULL;
}
