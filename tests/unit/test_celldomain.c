/* A cell's domain XML and command line per era, against golden files: the
 * era table decides the arch, boot image, disk name and agent channel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "celldomain.h"
#include "golden.h"

static const struct lab_cell_paths paths = {
    .name = "lab-1234-0-k",
    .kernel = "/var/cache/lab/kernels/k/boot/bzImage",
    .initrd = "/var/cache/lab/images/boot-0123456789abcdef.img",
    .console_log = "/run/lab/1234-0/console.log",
    .agent_socket = "/run/lab/1234-0/agent.sock",
    .disk_socket = "/run/lab/1234-0/disk0.sock",
};

static char *cell_xml(const char *version, const char *arch, const char *bus_name,
                      const char *profile_name, char **cmdline)
{
    struct lab_era era;
    struct lab_profile profile;
    struct lab_experiment exp;
    struct lab_domain_spec ds;
    assert_int_equal(lab_era_for(version, arch, &era), 0);
    assert_int_equal(lab_profile_resolve(profile_name, &profile), 0);
    assert_int_equal(lab_experiment_parse("t.exp", "test = seqread\nreps = 3\n", &exp), 0);
    const struct lab_bus *bus = lab_bus_find(bus_name);
    enum lab_channel_kind ch =
        era.channel == LAB_AGENT_CHAN_VIRTIO_PORT ? LAB_CHANNEL_VIRTIO_SERIAL : LAB_CHANNEL_UART;
    *cmdline = lab_cell_domain(&era, bus, ch, &profile, &exp, "qemu", &paths, &ds);
    char *xml = lab_domain_xml(&ds);
    lab_experiment_free(&exp);
    return xml;
}

static void test_linux_2_4(void **state)
{
    char *cmdline, *xml = cell_xml("2.4.26", "i686", "ide", "pata-1999", &cmdline);
    assert_non_null(strstr(xml, "arch=\"i686\" machine=\"pc\""));
    assert_non_null(strstr(xml, "<target port=\"1\"/>")); /* the agent's UART */
    assert_null(strstr(xml, "virtio"));
    assert_non_null(strstr(cmdline, "root=/dev/ram0"));
    assert_non_null(strstr(cmdline, "lab.dev=hda lab.dev2=hdc lab.chan=ttyS1"));
    assert_golden("cell-2.4.26-i686-ide.xml", xml);
    free(xml);
    free(cmdline);
}

static void test_linux_2_6_0(void **state)
{
    char *cmdline, *xml = cell_xml("2.6.0", "i686", "ide", "pata-2003", &cmdline);
    assert_null(strstr(cmdline, "root=/dev/ram0")); /* initramfs since 2.5.46 */
    assert_non_null(strstr(cmdline, "noapic"));
    assert_non_null(strstr(cmdline, "lab.dev=hda lab.dev2=hdc lab.chan=ttyS1"));
    assert_null(strstr(xml, "virtio"));
    assert_golden("cell-2.6.0-i686-ide.xml", xml);
    free(xml);
    free(cmdline);
}

static void test_linux_6_1_sata(void **state)
{
    char *cmdline, *xml = cell_xml("6.1.170", "x86_64", "sata", "sata-ncq-2005", &cmdline);
    assert_non_null(strstr(cmdline, "lab.dev=sda lab.dev2=sdb lab.chan=virtio"));
    assert_null(strstr(cmdline, "noapic"));
    assert_non_null(strstr(xml, "org.lab.agent.0"));
    assert_golden("cell-6.1-x86_64-sata.xml", xml);
    free(xml);
    free(cmdline);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linux_2_4),
        cmocka_unit_test(test_linux_2_6_0),
        cmocka_unit_test(test_linux_6_1_sata),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
