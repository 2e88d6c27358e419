/* The emulated disk buses: how each appears in libvirt and in the guest. */
#ifndef LAB_BUS_H
#define LAB_BUS_H

struct lab_bus {
    const char *name;        /* what the user types: ide, sata, scsi, virtio-scsi */
    const char *libvirt_bus; /* <target bus=...> */
    const char *target;      /* <target dev=...> for the first data disk */
    const char *target2;     /* and for the second (IDE: the secondary master) */
    const char *scsi_model;  /* controller model, for SCSI buses */
    const char *machine;     /* QEMU machine type that has the controller */
    const char *description;
    /* Its controller's interrupt needs no PCI interrupt routing under a
     * kernel with MSI: PIIX IDE's legacy ISA IRQs 14 and 15, AHCI's MSI,
     * virtio-scsi's MSI-X. The LSI53C895A has a pin (INTx) only. */
    int msi_or_isa;
};

/* NULL, with an error listing the known buses, for an unknown name. */
const struct lab_bus *lab_bus_find(const char *name);

#endif
