/* Domain XML for each kind of cell, compared against golden files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "host/plan/domain.h"
#include "tests/unit/golden.h"

static struct lab_domain_spec ide_cell(void)
{
    struct lab_domain_spec s = {
        .name = "lab-1234-0-6.1.0-47",
        .virt_type = "qemu",
        .arch = "x86_64",
        .machine = "pc",
        .memory_mib = 512,
        .vcpus = 1,
        .kernel = "/var/cache/lab/kernels/6.1.0-47/boot/vmlinuz-6.1.0-47-amd64",
        .initrd = "/var/cache/lab/images/initramfs-0123456789abcdef.cpio",
        .cmdline = "console=ttyS0 panic=1 lab.test=seqread lab.reps=3",
        .console_log = "/run/lab/1234-0/console.log",
        .agent_socket = "/run/lab/1234-0/agent.sock",
        .channel = LAB_CHANNEL_VIRTIO_SERIAL,
        .ndisks = 1,
    };
    s.disks[0] = (struct lab_domain_disk){
        .path = "/var/cache/lab/images/data-fedcba9876543210.img",
        .format = "raw",
        .bus = "ide",
        .target = "hda",
    };
    return s;
}

static void test_ide_virtio_serial(void **state)
{
    struct lab_domain_spec s = ide_cell();
    char *xml = lab_domain_xml(&s);
    assert_non_null(xml);
    assert_golden("domain-ide-virtio.xml", xml);
    free(xml);
}

static void test_uart_channel(void **state)
{
    struct lab_domain_spec s = ide_cell();
    s.channel = LAB_CHANNEL_UART;
    char *xml = lab_domain_xml(&s);
    assert_non_null(xml);
    assert_null(strstr(xml, "virtio-serial"));
    assert_golden("domain-ide-uart.xml", xml);
    free(xml);
}

/* Era disks: NBD over a unix socket on each bus, with the drive's rpm. */
static void test_nbd_buses(void **state)
{
    static const struct {
        const char *bus, *target, *scsi_model, *golden;
        unsigned rpm;
    } cases[] = {
        {"ide", "hda", NULL, "domain-nbd-ide.xml", 7200},
        {"sata", "sda", NULL, "domain-nbd-sata.xml", 7200},
        {"scsi", "sda", "lsilogic", "domain-nbd-lsilogic.xml", 10000},
        {"scsi", "sda", "virtio-scsi", "domain-nbd-virtio-scsi.xml", 15000},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct lab_domain_spec s = ide_cell();
        s.disks[0] = (struct lab_domain_disk){
            .nbd_socket = "/run/lab/1234-0/disk0.sock",
            .format = "raw",
            .bus = cases[i].bus,
            .target = cases[i].target,
            .rotation_rate = cases[i].rpm,
        };
        s.scsi_model = cases[i].scsi_model;
        char *xml = lab_domain_xml(&s);
        assert_non_null(xml);
        assert_non_null(strstr(xml, "protocol=\"nbd\""));
        assert_golden(cases[i].golden, xml);
        free(xml);
    }
}

static void test_iotune(void **state)
{
    struct lab_domain_spec s = ide_cell();
    s.disks[0].iotune_bytes_sec = 30000000;
    s.disks[0].iotune_iops_sec = 120;
    char *xml = lab_domain_xml(&s);
    assert_non_null(xml);
    assert_golden("domain-iotune.xml", xml);
    free(xml);
}

/* Real-time cell: vCPU and emulator threads SCHED_FIFO through <cputune>;
 * with no priority there is no <cputune> at all. */
static void test_realtime(void **state)
{
    struct lab_domain_spec s = ide_cell();
    char *xml = lab_domain_xml(&s);
    assert_null(strstr(xml, "cputune"));
    free(xml);
    s.rt_priority = 10;
    xml = lab_domain_xml(&s);
    assert_non_null(xml);
    assert_non_null(strstr(xml, "<vcpusched vcpus=\"0\" scheduler=\"fifo\" priority=\"10\"/>"));
    assert_golden("domain-rt.xml", xml);
    free(xml);
    s.vcpus = 2;
    xml = lab_domain_xml(&s);
    assert_non_null(strstr(xml, "vcpus=\"0-1\""));
    free(xml);
}

/* A CPU profile: QEMU's instruction counter through the QEMU namespace
 * (host/plan/cpu.h); without one, neither the namespace nor the element. */
static void test_icount(void **state)
{
    struct lab_domain_spec s = ide_cell();
    char *xml = lab_domain_xml(&s);
    assert_null(strstr(xml, "qemu:"));
    free(xml);
    s.icount = "shift=3,align=on,sleep=on";
    xml = lab_domain_xml(&s);
    assert_non_null(xml);
    assert_non_null(strstr(xml, "xmlns:qemu=\"http://libvirt.org/schemas/domain/qemu/1.0\""));
    assert_non_null(strstr(xml, "<qemu:arg value=\"-icount\"/>"));
    assert_golden("domain-icount.xml", xml);
    free(xml);
}

static void test_escaping(void **state)
{
    struct lab_domain_spec s = ide_cell();
    s.cmdline = "lab.file=a<b&c'd\"";
    char *xml = lab_domain_xml(&s);
    assert_non_null(xml);
    assert_non_null(strstr(xml, "a&lt;b&amp;c"));
    assert_null(strstr(xml, "a<b"));
    free(xml);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ide_virtio_serial),
        cmocka_unit_test(test_uart_channel),
        cmocka_unit_test(test_nbd_buses),
        cmocka_unit_test(test_iotune),
        cmocka_unit_test(test_escaping),
        cmocka_unit_test(test_realtime),
        cmocka_unit_test(test_icount),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
