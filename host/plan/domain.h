/* Libvirt domain XML for one cell: a transient guest with direct kernel
 * boot, the data disks, a console log and the agent channel. */
#ifndef LAB_DOMAIN_H
#define LAB_DOMAIN_H

#include <stddef.h>

#define LAB_DOMAIN_MAX_DISKS 4

enum lab_channel_kind {
    LAB_CHANNEL_VIRTIO_SERIAL, /* named virtio-serial port (2.6.35+) */
    LAB_CHANNEL_UART,          /* a second 16550 UART, ttyS1 (any era) */
};

struct lab_domain_disk {
    const char *path;       /* image file, when QEMU opens it itself */
    const char *nbd_socket; /* else: the unix socket of the nbdkit serving it */
    const char *format;     /* "raw" */
    const char *bus;        /* "ide", "sata", "scsi" */
    const char *target;     /* "hda", "sda" */
    unsigned rotation_rate; /* rpm the guest is told; 0 = unset */
    unsigned long long iotune_bytes_sec, iotune_iops_sec; /* QEMU throttling; 0 = none */
};

struct lab_domain_spec {
    const char *name;
    const char *virt_type; /* "qemu" (TCG) or "kvm" */
    const char *arch;      /* "x86_64", "i686" */
    const char *machine;   /* "pc" */
    unsigned memory_mib;
    unsigned vcpus;
    const char *firmware; /* the BIOS ROM (-bios: qboot), NULL = QEMU's default (SeaBIOS) */
    int no_lapic;         /* a CPU without a local APIC (<cpu>, feature apic disabled): the
                             8259's interrupts reach the CPU with no BIOS set-up */
    const char *kernel;
    const char *initrd;
    const char *cmdline;
    const char *console_log;
    const char *agent_socket;
    enum lab_channel_kind channel;
    struct lab_domain_disk disks[LAB_DOMAIN_MAX_DISKS];
    size_t ndisks;
    const char *scsi_model; /* controller for bus "scsi": "lsilogic" or "virtio-scsi" */
    unsigned rt_priority;   /* SCHED_FIFO priority of the vCPU and emulator threads
                               (<cputune>); 0 = the host's normal policy */
    const char *icount;     /* QEMU's -icount argument (a CPU profile, host/plan/cpu.h),
                               passed through <qemu:commandline>; NULL = none */
};

/* Returns the domain XML (malloc'd) or NULL with an error printed. */
char *lab_domain_xml(const struct lab_domain_spec *spec);

#endif
