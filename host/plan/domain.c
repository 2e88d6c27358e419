/* Libvirt domain XML for one cell, written with libxml2's text writer so
 * every path and command line is escaped correctly. */
#include "host/plan/domain.h"
#include "guest-agent/protocol.h"
#include "common/msg.h"
#include "common/str.h"

#include <libxml/xmlwriter.h>
#include <string.h>

#define W(call)                                                                                    \
    do {                                                                                           \
        if ((call) < 0)                                                                            \
            goto fail;                                                                             \
    } while (0)
#define X(s) ((const xmlChar *)(s))

static int elem_text(xmlTextWriterPtr w, const char *name, const char *text)
{
    return xmlTextWriterWriteElement(w, X(name), X(text));
}

static int attr(xmlTextWriterPtr w, const char *name, const char *value)
{
    return xmlTextWriterWriteAttribute(w, X(name), X(value));
}

/* <name attr1='v1' .../> from a NULL-terminated list of pairs. */
static int empty_elem(xmlTextWriterPtr w, const char *name, const char *const *pairs)
{
    if (xmlTextWriterStartElement(w, X(name)) < 0)
        return -1;
    for (; pairs && pairs[0]; pairs += 2)
        if (attr(w, pairs[0], pairs[1]) < 0)
            return -1;
    return xmlTextWriterEndElement(w);
}

static int write_iotune(xmlTextWriterPtr w, const struct lab_domain_disk *d)
{
    char num[32];
    if (!d->iotune_bytes_sec && !d->iotune_iops_sec)
        return 0;
    W(xmlTextWriterStartElement(w, X("iotune")));
    if (d->iotune_bytes_sec) {
        snprintf(num, sizeof num, "%llu", d->iotune_bytes_sec);
        W(elem_text(w, "total_bytes_sec", num));
    }
    if (d->iotune_iops_sec) {
        snprintf(num, sizeof num, "%llu", d->iotune_iops_sec);
        W(elem_text(w, "total_iops_sec", num));
    }
    W(xmlTextWriterEndElement(w));
    return 0;
fail:
    return -1;
}

static int write_disk(xmlTextWriterPtr w, const struct lab_domain_disk *d)
{
    char rpm[16];
    /* cache='none': what the guest reads reaches the image (O_DIRECT for a
     * file; for NBD, nbdkit and its filters decide), so the host's page
     * cache cannot make one cell faster than another. */
    W(xmlTextWriterStartElement(w, X("disk")));
    W(attr(w, "type", d->nbd_socket ? "network" : "file"));
    W(attr(w, "device", "disk"));
    W(empty_elem(w, "driver",
                 (const char *[]){"name", "qemu", "type", d->format ? d->format : "raw", "cache",
                                  "none", NULL}));
    if (d->nbd_socket) {
        W(xmlTextWriterStartElement(w, X("source")));
        W(attr(w, "protocol", "nbd"));
        W(empty_elem(w, "host",
                     (const char *[]){"transport", "unix", "socket", d->nbd_socket, NULL}));
        W(xmlTextWriterEndElement(w));
    } else {
        W(empty_elem(w, "source", (const char *[]){"file", d->path, NULL}));
    }
    snprintf(rpm, sizeof rpm, "%u", d->rotation_rate);
    W(empty_elem(w, "target",
                 (const char *[]){"dev", d->target, "bus", d->bus,
                                  d->rotation_rate ? "rotation_rate" : NULL, rpm, NULL}));
    W(write_iotune(w, d));
    W(xmlTextWriterEndElement(w));
    return 0;
fail:
    return -1;
}

/* libvirt adds an AHCI controller for sata disks by itself; a SCSI bus
 * needs its controller model named. */
static int write_controllers(xmlTextWriterPtr w, const struct lab_domain_spec *s)
{
    for (size_t i = 0; i < s->ndisks; i++) {
        if (strcmp(s->disks[i].bus, "scsi") == 0)
            return empty_elem(w, "controller",
                              (const char *[]){"type", "scsi", "index", "0", "model",
                                               s->scsi_model ? s->scsi_model : "lsilogic", NULL});
    }
    return 0;
}

static int write_channel(xmlTextWriterPtr w, const struct lab_domain_spec *s)
{
    /* The console is always ttyS0, written to a file the host scans for panics. */
    W(xmlTextWriterStartElement(w, X("serial")));
    W(attr(w, "type", "file"));
    W(empty_elem(w, "source", (const char *[]){"path", s->console_log, NULL}));
    W(empty_elem(w, "target", (const char *[]){"port", "0", NULL}));
    W(xmlTextWriterEndElement(w));

    if (s->channel == LAB_CHANNEL_UART) {
        /* Pre-virtio kernels: the agent reports on ttyS1. */
        W(xmlTextWriterStartElement(w, X("serial")));
        W(attr(w, "type", "unix"));
        W(empty_elem(w, "source", (const char *[]){"mode", "bind", "path", s->agent_socket, NULL}));
        W(empty_elem(w, "target", (const char *[]){"port", "1", NULL}));
        W(xmlTextWriterEndElement(w));
        return 0;
    }
    W(empty_elem(w, "controller", (const char *[]){"type", "virtio-serial", "index", "0", NULL}));
    W(xmlTextWriterStartElement(w, X("channel")));
    W(attr(w, "type", "unix"));
    W(empty_elem(w, "source", (const char *[]){"mode", "bind", "path", s->agent_socket, NULL}));
    W(empty_elem(w, "target",
                 (const char *[]){"type", "virtio", "name", LAB_PROTO_PORT_NAME, NULL}));
    W(xmlTextWriterEndElement(w));
    return 0;
fail:
    return -1;
}

/* Real-time vCPU and emulator threads (host/cell/rt.h). The domain has no
 * <iothreads>, so there is no iothreadsched to set. */
/* QEMU's default CPU for the arch, without the local APIC. A local APIC
 * starts with LINT0 masked: the 8259's interrupts reach the CPU only once
 * something programs it for ExtINT (virtual wire). SeaBIOS does; qboot
 * does not, and a 2.x UP kernel never touches the local APIC, so under
 * qboot its timer interrupt never came (2.4.22 stopped in "Calibrating
 * delay loop"). Without a local APIC QEMU wires the 8259 to the CPU. */
static int write_cpu_no_lapic(xmlTextWriterPtr w, const struct lab_domain_spec *s)
{
    W(xmlTextWriterStartElement(w, X("cpu")));
    W(attr(w, "mode", "custom"));
    W(attr(w, "match", "exact"));
    W(attr(w, "check", "none"));
    W(xmlTextWriterStartElement(w, X("model")));
    W(attr(w, "fallback", "allow"));
    W(xmlTextWriterWriteString(w, X(strcmp(s->arch, "x86_64") == 0 ? "qemu64" : "qemu32")));
    W(xmlTextWriterEndElement(w));
    W(empty_elem(w, "feature", (const char *[]){"policy", "disable", "name", "apic", NULL}));
    W(xmlTextWriterEndElement(w));
    return 0;
fail:
    return -1;
}

static int write_cputune(xmlTextWriterPtr w, const struct lab_domain_spec *s)
{
    char prio[16], vcpus[32];
    if (!s->rt_priority)
        return 0;
    snprintf(prio, sizeof prio, "%u", s->rt_priority);
    if (s->vcpus > 1)
        snprintf(vcpus, sizeof vcpus, "0-%u", s->vcpus - 1);
    else
        snprintf(vcpus, sizeof vcpus, "0");
    W(xmlTextWriterStartElement(w, X("cputune")));
    W(empty_elem(w, "vcpusched",
                 (const char *[]){"vcpus", vcpus, "scheduler", "fifo", "priority", prio, NULL}));
    W(empty_elem(w, "emulatorsched",
                 (const char *[]){"scheduler", "fifo", "priority", prio, NULL}));
    W(xmlTextWriterEndElement(w));
    return 0;
fail:
    return -1;
}

/* libvirt 9.0 has no element for QEMU's instruction counter: the QEMU
 * namespace passes the argument through as it is (libvirt marks such a
 * domain "tainted: custom-argv", which changes nothing else). */
#define QEMU_NS "http://libvirt.org/schemas/domain/qemu/1.0"

static int write_icount(xmlTextWriterPtr w, const struct lab_domain_spec *s)
{
    if (!s->icount)
        return 0;
    W(xmlTextWriterStartElement(w, X("qemu:commandline")));
    W(empty_elem(w, "qemu:arg", (const char *[]){"value", "-icount", NULL}));
    W(empty_elem(w, "qemu:arg", (const char *[]){"value", s->icount, NULL}));
    W(xmlTextWriterEndElement(w));
    return 0;
fail:
    return -1;
}

char *lab_domain_xml(const struct lab_domain_spec *s)
{
    xmlBufferPtr buf = xmlBufferCreate();
    xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
    char num[32];
    char *out = NULL;

    if (!w)
        goto fail;
    xmlTextWriterSetIndent(w, 1);
    xmlTextWriterSetIndentString(w, X("  "));

    W(xmlTextWriterStartElement(w, X("domain")));
    W(attr(w, "type", s->virt_type));
    if (s->icount)
        W(attr(w, "xmlns:qemu", QEMU_NS));
    W(elem_text(w, "name", s->name));
    W(xmlTextWriterStartElement(w, X("memory")));
    W(attr(w, "unit", "MiB"));
    snprintf(num, sizeof num, "%u", s->memory_mib);
    W(xmlTextWriterWriteString(w, X(num)));
    W(xmlTextWriterEndElement(w));
    snprintf(num, sizeof num, "%u", s->vcpus);
    W(elem_text(w, "vcpu", num));
    W(write_cputune(w, s));
    if (s->no_lapic)
        W(write_cpu_no_lapic(w, s));

    W(xmlTextWriterStartElement(w, X("os")));
    W(xmlTextWriterStartElement(w, X("type")));
    W(attr(w, "arch", s->arch));
    W(attr(w, "machine", s->machine));
    W(xmlTextWriterWriteString(w, X("hvm")));
    W(xmlTextWriterEndElement(w));
    if (s->firmware) { /* QEMU's -bios */
        W(xmlTextWriterStartElement(w, X("loader")));
        W(attr(w, "readonly", "yes"));
        W(attr(w, "type", "rom"));
        W(xmlTextWriterWriteString(w, X(s->firmware)));
        W(xmlTextWriterEndElement(w));
    }
    W(elem_text(w, "kernel", s->kernel));
    if (s->initrd)
        W(elem_text(w, "initrd", s->initrd));
    W(elem_text(w, "cmdline", s->cmdline));
    W(xmlTextWriterEndElement(w));

    /* ACPI lets the agent's power-off end the guest. */
    W(xmlTextWriterStartElement(w, X("features")));
    W(empty_elem(w, "acpi", NULL));
    W(xmlTextWriterEndElement(w));
    W(empty_elem(w, "clock", (const char *[]){"offset", "utc", NULL}));
    /* Any way the guest stops ends the domain: a panic reboots (panic=1). */
    W(elem_text(w, "on_poweroff", "destroy"));
    W(elem_text(w, "on_reboot", "destroy"));
    W(elem_text(w, "on_crash", "destroy"));

    W(xmlTextWriterStartElement(w, X("devices")));
    for (size_t i = 0; i < s->ndisks; i++)
        W(write_disk(w, &s->disks[i]));
    W(write_controllers(w, s));
    /* Without this libvirt adds a PIIX3 UHCI controller: a PCI function
     * every kernel enumerates and one with USB built in probes. */
    W(empty_elem(w, "controller", (const char *[]){"type", "usb", "model", "none", NULL}));
    W(write_channel(w, s));
    W(empty_elem(w, "memballoon", (const char *[]){"model", "none", NULL}));
    W(xmlTextWriterEndElement(w)); /* devices */
    W(write_icount(w, s));
    W(xmlTextWriterEndElement(w)); /* domain */
    W(xmlTextWriterEndDocument(w));
    xmlFreeTextWriter(w);
    w = NULL;
    out = lab_xstrdup((const char *)xmlBufferContent(buf));
    xmlBufferFree(buf);
    return out;
fail:
    if (w)
        xmlFreeTextWriter(w);
    if (buf)
        xmlBufferFree(buf);
    lab_error("cannot generate the domain XML for %s", s->name);
    return NULL;
}
