/* A cell's domain XML and command line per era, against golden files: the
 * era table decides the arch, boot image, disk name and agent channel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "host/plan/celldomain.h"
#include "tests/unit/golden.h"
#include "host/plan/iosched.h"
#include "guest-agent/protocol.h"

static const struct lab_cell_paths paths = {
    .name = "lab-1234-0-k",
    .kernel = "/var/cache/lab/kernels/k/boot/bzImage",
    .initrd = "/var/cache/lab/images/boot-0123456789abcdef.img",
    .console_log = "/run/lab/1234-0/console.log",
    .agent_socket = "/run/lab/1234-0/agent.sock",
    .disk_socket = "/run/lab/1234-0/disk0.sock",
};

/* A plan of era, bus and channel for exp, with the rules table applied
 * (the rest of lab_cell_plan is not needed for the domain). */
static struct lab_cell_plan plan_of(const struct lab_era *era, const struct lab_bus *bus,
                                    enum lab_channel_kind ch, const struct lab_experiment *exp)
{
    struct lab_cell_plan p = {.era = *era, .bus = bus, .channel = ch};
    char why[256];
    if (lab_cell_plan_rules(&p, exp, why, sizeof why) < 0)
        fail_msg("%s", why);
    return p;
}

static char *cell_xml(const char *version, const char *arch, const char *bus_name,
                      const char *profile_name, char **cmdline, char **params)
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
    struct lab_cell_plan plan = plan_of(&era, bus, ch, &exp);
    *cmdline = lab_cell_domain(&plan, &profile, &exp, "qemu", &paths, &ds);
    *params = lab_cell_agent_params(&plan, &exp);
    char *xml = lab_domain_xml(&ds);
    lab_experiment_free(&exp);
    return xml;
}

static void test_linux_2_4(void **state)
{
    char *cmdline, *params,
        *xml = cell_xml("2.4.26", "i686", "ide", "pata-1999", &cmdline, &params);
    /* 2.x kernels get the pinned board (QEMU 7.2 pc breaks x86_64 2.6.12) */
    assert_non_null(strstr(xml, "arch=\"i686\" machine=\"pc-i440fx-7.0\""));
    assert_non_null(strstr(xml, "<target port=\"1\"/>")); /* the agent's UART */
    assert_null(strstr(xml, "virtio"));
    assert_non_null(strstr(cmdline, "root=/dev/ram0"));
    assert_non_null(strstr(params, "lab.dev=hda lab.dev2=hdc lab.chan=ttyS1"));
    assert_null(strstr(cmdline, "lab."));
    /* 2.4: file readahead is BLKFRASET; 2.6 on: BLKRASET */
    assert_non_null(strstr(params, "lab.ra_blkfra=1"));
    /* drivers/ide probes only hda, the cell's one disk; SeaBIOS */
    assert_non_null(strstr(cmdline, " hdb=noprobe hdc=noprobe hdd=noprobe ide2=noprobe"));
    assert_null(strstr(xml, "qboot.rom"));
    assert_null(strstr(xml, "<cpu"));
    assert_golden("cell-2.4.26-i686-ide.xml", xml);
    free(xml);
    free(cmdline);
    free(params);
}

/* The era boot's cuts. By default drivers/ide probes only hda (one data
 * disk; the other positions and 2.4's four ISA interfaces are skipped),
 * where ide_setup() was read (up to 2.6.20); LAB_IDE_PROBE=all gives the
 * full probe back. qboot on a CPU without a local APIC (the 8259 wired
 * to the CPU) when asked, up to 2.6.12. */
static void test_era_cuts(void **state)
{
    setenv("LAB_FIRMWARE", "qboot", 1);
    const char *versions[] = {"2.4.22", "2.6.11", "2.6.20"};
    for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++) {
        char *cmdline, *params,
            *xml = cell_xml(versions[i], "i686", "ide", "pata-2003", &cmdline, &params);
        assert_non_null(strstr(cmdline, " hdb=noprobe hdc=noprobe hdd=noprobe ide2=noprobe "
                                        "ide3=noprobe ide4=noprobe ide5=noprobe"));
        assert_null(strstr(cmdline, "hda=noprobe"));
        int qboot = i < 2; /* checked up to 2.6.12 */
        assert_int_equal(strstr(xml, "qboot.rom") != NULL, qboot);
        assert_int_equal(strstr(xml, "<feature policy=\"disable\" name=\"apic\"/>") != NULL, qboot);
        free(xml);
        free(cmdline);
        free(params);
    }
    unsetenv("LAB_FIRMWARE");
    setenv("LAB_IDE_PROBE", "all", 1);
    char *cmdline, *params,
        *xml = cell_xml("2.4.22", "i686", "ide", "pata-2003", &cmdline, &params);
    assert_null(strstr(cmdline, "noprobe"));
    free(xml);
    free(cmdline);
    free(params);
    unsetenv("LAB_IDE_PROBE");
}

/* Where the words would not reach ide_setup(): libata (sdX), a drivers/ide
 * kernel past the versions read (2.6.21 on), a modular drivers/ide (the
 * words would become /init's environment). A SATA cell on a built-in 2.6
 * kernel still skips all four PIIX positions. */
static void test_ide_noprobe_where(void **state)
{
    struct lab_experiment exp;
    struct lab_profile profile;
    struct lab_domain_spec ds;
    assert_int_equal(lab_experiment_parse("t.exp", "test = seqread\n", &exp), 0);
    assert_int_equal(lab_profile_resolve("pata-2003", &profile), 0);
    static const struct {
        const char *version, *bus;
        int libata, nmodules, words;
    } cases[] = {
        {"2.6.11", "sata", 0, 0, 1}, {"2.6.20", "ide", 1, 0, 0},  {"2.6.24", "ide", 0, 0, 0},
        {"2.6.9", "ide", 0, 2, 0},   {"3.10.99", "ide", 1, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct lab_era era;
        assert_int_equal(lab_era_for(cases[i].version, "i686", &era), 0);
        era.ide_libata = cases[i].libata; /* as a kernel's .config may choose */
        struct lab_cell_plan p = plan_of(&era, lab_bus_find(cases[i].bus), LAB_CHANNEL_UART, &exp);
        p.nmodules = (size_t)cases[i].nmodules;
        char *cmd = lab_cell_domain(&p, &profile, &exp, "qemu", &paths, &ds);
        if ((strstr(cmd, "noprobe") != NULL) != cases[i].words)
            fail_msg("%s on %s: %s", cases[i].version, cases[i].bus, cmd);
        if (cases[i].words)
            assert_non_null(strstr(cmd, " hda=noprobe hdb=noprobe hdc=noprobe hdd=noprobe"));
        free(cmd);
    }
    lab_experiment_free(&exp);
}

static void test_linux_2_6_0(void **state)
{
    char *cmdline, *params, *xml = cell_xml("2.6.0", "i686", "ide", "pata-2003", &cmdline, &params);
    /* 2.6.0 unpacks a cpio but mounts root= after it: nothing runs /init
     * before 2.6.6, so the boot image is 2.4's ext2 initrd */
    assert_non_null(strstr(cmdline, "root=/dev/ram0"));
    assert_non_null(strstr(cmdline, "noapic"));
    assert_non_null(strstr(params, "lab.dev=hda lab.dev2=hdc lab.chan=ttyS1"));
    assert_null(strstr(cmdline, "lab."));
    /* 2.4: file readahead is BLKFRASET; 2.6 on, whatever the boot image: BLKRASET */
    assert_null(strstr(params, "lab.ra_blkfra=1"));
    assert_null(strstr(xml, "virtio"));
    assert_golden("cell-2.6.0-i686-ide.xml", xml);
    free(xml);
    free(cmdline);
    free(params);
}

/* Whether the command line has word, space-separated. */
static int has_word(const char *line, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(line, word); p; p = strstr(p + 1, word))
        if ((p == line || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
    return 0;
}

static void test_linux_6_1_sata(void **state)
{
    char *cmdline, *params,
        *xml = cell_xml("6.1.170", "x86_64", "sata", "sata-ncq-2005", &cmdline, &params);
    assert_non_null(strstr(params, "lab.dev=sda lab.dev2=sdb lab.chan=virtio"));
    assert_non_null(strstr(params, "lab.test=seqread lab.reps=4"));
    assert_null(strstr(cmdline, "lab."));
    assert_false(has_word(cmdline, "noapic"));
    assert_true(has_word(cmdline, "noapictimer")); /* under TCG (virt type qemu) */
    assert_null(strstr(cmdline, "noprobe"));       /* libata: no drivers/ide positions */
    assert_null(strstr(xml, "<cpu"));              /* the local APIC stays */
    assert_non_null(strstr(xml, "org.lab.agent.0"));
    assert_null(strstr(xml, "pc-i440fx-7.0"));
    assert_golden("cell-6.1-x86_64-sata.xml", xml);
    free(xml);
    free(cmdline);
    free(params);
}

/* acpi=noirq only where no device needs PCI interrupt routing: a kernel
 * with MSI in its .config, from 3.0, on a bus whose controller takes MSI
 * or an ISA IRQ; never on the LSI53C895A (INTx only). */
static void test_pci_irq_routing(void **state)
{
    static const struct {
        const char *version;
        int pci_msi;
        const char *bus;
        int noirq;
    } cases[] = {
        {"6.1.170", 1, "ide", 1},  {"6.1.170", 1, "sata", 1}, {"6.12.113", 1, "virtio-scsi", 1},
        {"6.1.170", 1, "scsi", 0}, {"6.1.170", 0, "sata", 0}, {"2.6.32", 1, "sata", 0},
    };
    struct lab_profile profile;
    struct lab_experiment exp;
    assert_int_equal(lab_profile_resolve("fast", &profile), 0);
    assert_int_equal(lab_experiment_parse("t.exp", "test = seqread\n", &exp), 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct lab_era era;
        struct lab_domain_spec ds;
        assert_int_equal(lab_era_for(cases[i].version, "x86_64", &era), 0);
        era.pci_msi = cases[i].pci_msi;
        struct lab_cell_plan plan =
            plan_of(&era, lab_bus_find(cases[i].bus), LAB_CHANNEL_VIRTIO_SERIAL, &exp);
        char *cmdline = lab_cell_domain(&plan, &profile, &exp, "qemu", &paths, &ds);
        if (has_word(cmdline, "acpi=noirq") != cases[i].noirq)
            fail_msg("%s, pci_msi %d, %s: %s", cases[i].version, cases[i].pci_msi, cases[i].bus,
                     cmdline);
        free(cmdline);
    }
    lab_experiment_free(&exp);
}

/* Every shipped experiment, with the words that lengthen a command line
 * (a boot-time scheduler, profile=2), on a kernel at each edge of every era
 * row and each arch and bus it supports: the kernel's command line fits its
 * COMMAND_LINE_SIZE (a longer one is cut without a word) and the agent's
 * parameters fit the file the agent reads. */
static void test_cmdline_fits_every_era(void **state)
{
    static const char *const exps[] = {"contest",
                                       "directread",
                                       "randread",
                                       "rawread-direct",
                                       "rawread",
                                       "readahead-sweep",
                                       "seqread",
                                       "tree-under-load-bigfile",
                                       "tree-under-load-overwrite",
                                       "tree-under-load"};
    static const char *const archs[] = {"i686", "x86_64"};
    static const char *const scheds[] = {NULL, "anticipatory", "deadline", "mq-deadline"};
    struct lab_profile profile;
    assert_int_equal(lab_profile_resolve("pata-2003", &profile), 0);
    /* the longest line: every noprobe word (the default) */
    size_t checked = 0;
    for (size_t r = 0; r < lab_era_row_count(); r++) {
        const struct lab_era_row *row = lab_era_row_at(r);
        lab_kver edges[] = {row->since, row->since - 256, row->until, row->until - 256};
        for (size_t v = 0; v < 4; v++) {
            char version[32];
            if (!edges[v] || edges[v] < LAB_KV(2, 4, 0) || edges[v] > LAB_KV(200, 0, 0))
                continue;
            lab_kver_format(edges[v], version, sizeof version);
            for (size_t a = 0; a < 2; a++) {
                struct lab_era era;
                assert_int_equal(lab_era_for(version, archs[a], &era), 0);
                for (size_t b = 0; lab_era_buses[b]; b++) {
                    if (!lab_era_bus_supported(&era, lab_era_buses[b], NULL, 0))
                        continue;
                    const struct lab_bus *bus = lab_bus_find(lab_era_buses[b]);
                    for (size_t e = 0; e < sizeof exps / sizeof exps[0]; e++) {
                        for (size_t sc = 0; sc < sizeof scheds / sizeof scheds[0]; sc++) {
                            struct lab_experiment exp;
                            struct lab_sched_plan plan;
                            char why[256];
                            if (lab_sched_plan(&era, scheds[sc], &plan, why, sizeof why) < 0)
                                continue;
                            assert_int_equal(lab_experiment_load(exps[e], &exp), 0);
                            assert_int_equal(lab_experiment_set(&exp, "t", "kprofile=1"), 0);
                            if (scheds[sc])
                                exp.scheduler = strdup(scheds[sc]);
                            struct lab_domain_spec ds;
                            struct lab_cell_plan cp = plan_of(&era, bus, LAB_CHANNEL_UART, &exp);
                            char *cmd = lab_cell_domain(&cp, &profile, &exp, "qemu", &paths, &ds);
                            char *params = lab_cell_agent_params(&cp, &exp);
                            if (strlen(cmd) + 1 > era.cmdline_max)
                                fail_msg("%s %s %s %s: command line of %zu bytes over %zu: %s",
                                         version, archs[a], bus->name, exps[e], strlen(cmd),
                                         era.cmdline_max, cmd);
                            assert_true(strlen(params) <= LAB_PARAMS_MAX);
                            assert_non_null(strstr(params, "lab.chan=ttyS1"));
                            assert_non_null(strstr(cmd, "profile=2"));
                            free(cmd);
                            free(params);
                            lab_experiment_free(&exp);
                            checked++;
                        }
                    }
                }
            }
        }
    }
    assert_true(checked > 500);
}

/* The limit itself, per era (include/asm-i386/param.h and friends). */
static void test_cmdline_limits(void **state)
{
    static const struct {
        const char *version;
        size_t max;
    } cases[] = {{"2.4.22", 256}, {"2.6.9", 256},   {"2.6.12-rc2", 256},
                 {"2.6.23", 256}, {"2.6.24", 2048}, {"6.12.113", 2048}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct lab_era era;
        assert_int_equal(lab_era_for(cases[i].version, "i686", &era), 0);
        assert_int_equal(era.cmdline_max, cases[i].max);
    }
}

/* boot_args: the experiment's words end the command line (so one of them
 * wins over the lab's), and a line longer than the era keeps is refused
 * before boot rather than cut by the kernel without a word. */
static void test_boot_args(void **state)
{
    struct lab_era era;
    struct lab_experiment exp;
    char why[256];
    assert_int_equal(lab_era_for("2.6.9", "i686", &era), 0);
    assert_int_equal(
        lab_experiment_parse("t.exp", "test = seqread\nboot_args = clock=pit  lpj=4096\n", &exp),
        0);
    struct lab_cell_plan plan = plan_of(&era, lab_bus_find("ide"), LAB_CHANNEL_UART, &exp);
    char *line = lab_cell_cmdline(&plan, 1, &exp, "qemu");
    const char *tail = " clock=pit  lpj=4096";
    assert_true(strlen(line) > strlen(tail));
    assert_string_equal(line + strlen(line) - strlen(tail), tail);
    assert_int_equal(lab_cell_cmdline_check(&plan, &exp, why, sizeof why), 0);
    free(line);
    lab_experiment_free(&exp);

    /* 200 bytes of words: over 2.6.9's 255, within 6.12's 2047. */
    char text[300] = "test = seqread\nboot_args = ";
    for (int i = 0; i < 20; i++)
        strcat(text, "quiet=1234 ");
    strcat(text, "\n");
    assert_int_equal(lab_experiment_parse("t.exp", text, &exp), 0);
    plan = plan_of(&era, lab_bus_find("ide"), LAB_CHANNEL_UART, &exp);
    assert_int_equal(lab_cell_cmdline_check(&plan, &exp, why, sizeof why), -1);
    assert_non_null(
        strstr(why, "and this kernel keeps 255 (COMMAND_LINE_SIZE); shorten boot_args"));
    assert_int_equal(lab_era_for("6.12.113", "x86_64", &era), 0);
    plan = plan_of(&era, lab_bus_find("ide"), LAB_CHANNEL_VIRTIO_SERIAL, &exp);
    assert_int_equal(lab_cell_cmdline_check(&plan, &exp, why, sizeof why), 0);
    lab_experiment_free(&exp);
}

/* ide_dma / ide_xfer: the agent's ioctls on drivers/ide, libata's boot
 * words where the kernel has them, refused before boot where not. */
static void test_ide_at_boot(void **state)
{
    static const struct {
        const char *version, *arch, *bus, *keys;
        int rc, at_boot;
        const char *words; /* or the refusal's text */
    } cases[] = {
        {"2.6.9", "i686", "ide", "ide_dma = off\nide_xfer = mwdma1\n", 0, 0, ""},
        {"6.12.113", "x86_64", "ide", "ide_dma = off\n", 0, 1, " libata.dma=0"},
        {"6.12.113", "x86_64", "sata", "ide_xfer = udma2\n", 0, 1, " libata.force=udma2"},
        {"6.12.113", "x86_64", "ide", "ide_dma = on\n", 0, 1, ""},
        {"2.6.26", "i686", "sata", "ide_dma = off\n", 0, 1, " libata.dma=0"},
        {"2.6.26", "i686", "sata", "ide_xfer = udma2\n", -1, 0, "by libata.force= (2.6.28 on"},
        {"2.6.22", "i686", "sata", "ide_dma = off\n", -1, 0, "no libata.dma= before 2.6.23"},
        {"6.12.113", "x86_64", "ide", "ide_xfer = sdma1\n", -1, 0, "no single-word DMA"},
        {"6.12.113", "x86_64", "scsi", "ide_dma = off\n", -1, 0,
         "ide_dma = off: the scsi bus's disk is not an ATA disk"},
        {"6.12.113", "x86_64", "scsi", "", 0, 0, ""},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct lab_era era;
        struct lab_experiment exp;
        struct lab_ide_boot ib;
        char why[256] = "", *text = lab_asprintf("test = seqread\n%s", cases[i].keys);
        assert_int_equal(lab_era_for(cases[i].version, cases[i].arch, &era), 0);
        assert_int_equal(lab_experiment_parse("t.exp", text, &exp), 0);
        const struct lab_bus *bus = lab_bus_find(cases[i].bus);
        struct lab_cell_plan plan = plan_of(&era, bus, LAB_CHANNEL_UART, &exp);
        int rc = lab_ide_mode_plan(&plan.era, bus, &plan.rules, &exp, &ib, why, sizeof why);
        if (rc != cases[i].rc ||
            (rc == 0 &&
             (ib.at_boot != cases[i].at_boot || strcmp(ib.words, cases[i].words) != 0)) ||
            (rc < 0 && !strstr(why, cases[i].words)))
            fail_msg("case %zu: rc %d at_boot %d words '%s' why '%s'", i, rc, ib.at_boot, ib.words,
                     why);
        if (rc == 0) { /* the words on the command line; the agent not sent the keys */
            plan.ide = ib;
            char *line = lab_cell_cmdline(&plan, 1, &exp, "qemu");
            char *params = lab_cell_agent_params(&plan, &exp);
            assert_non_null(strstr(line, ib.words));
            assert_int_equal(strstr(params, "lab.ide_") != NULL,
                             !ib.at_boot && cases[i].keys[0] != '\0');
            free(line);
            free(params);
        }
        lab_experiment_free(&exp);
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linux_2_4),
        cmocka_unit_test(test_linux_2_6_0),
        cmocka_unit_test(test_linux_6_1_sata),
        cmocka_unit_test(test_pci_irq_routing),
        cmocka_unit_test(test_era_cuts),
        cmocka_unit_test(test_ide_noprobe_where),
        cmocka_unit_test(test_cmdline_fits_every_era),
        cmocka_unit_test(test_cmdline_limits),
        cmocka_unit_test(test_boot_args),
        cmocka_unit_test(test_ide_at_boot),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
