/* The guest agent's main: PID 1 set-up, the channel, the experiment, power off. */
#include "agent.h"
#include "str.h"
#include "sys.h"

static char cmdline[4096];
static char params[LAB_PARAMS_MAX + 1];

/* A key the agent does not know means the host asked for something this
 * agent cannot do: an error record, and no test. */
static void refuse_unknown(const struct agent_config *c)
{
    char m[160];
    size_t at = agent_cat(m, sizeof(m), 0, "unknown key lab.");
    at = agent_cat(m, sizeof(m), at, c->unknown_key);
    if (c->unknown > 1) {
        at = agent_cat(m, sizeof(m), at, " (and ");
        at = agent_cat_u64(m, sizeof(m), at, c->unknown - 1);
        at = agent_cat(m, sizeof(m), at, " more)");
    }
    agent_cat(m, sizeof(m), at, ": refused, no test run");
    report_error(m, c->test, -1);
}

unsigned long agent_start_uptime_cs;

/* The kernel's own clock as /init begins: /proc/uptime ("12.34 ..."), which
 * every era has (2.4: jiffies since the timer started). The hello carries
 * it; the host dates the kernel's clock from it where the console shows
 * no printk times (host/cell/timing.h). */
static void read_start_uptime(void)
{
    char up[64];
    if (read_file("/proc/uptime", up, sizeof(up)) <= 0)
        return;
    unsigned long cs = 0;
    int frac = -1;
    for (const char *p = up; *p && *p != ' ' && frac < 2; p++) {
        if (*p == '.')
            frac = 0;
        else if (*p >= '0' && *p <= '9') {
            cs = cs * 10 + (unsigned long)(*p - '0');
            if (frac >= 0)
                frac++;
        } else
            return;
    }
    agent_start_uptime_cs = frac == 2 ? cs : 0;
}

int agent_main(int argc, char **argv, char **envp)
{
    struct agent_config cfg;
    char why[256];

    /* The host self-test (selftest.c); never as PID 1, whatever the kernel
     * passes init. Not PID 1 alone does not mean a host: a 2.4 initrd runs
     * /linuxrc with another PID. */
    if (argc >= 2 && !is_pid1()) {
        if (agent_streq(argv[1], "--selftest"))
            selftest_main(argc, argv);
        if (agent_streq(argv[1], "--selftest-probe"))
            selftest_probe();
    }

    con_puts("lab-agent " LAB_AGENT_VERSION " (" LAB_ARCH_NAME ") starting\n");
    if (is_pid1()) {
        setup_proc();
        read_start_uptime();
    }

    /* The lab's parameters come in the boot image: an old kernel cuts its
     * command line at 256 bytes. lab.* words on the command line still
     * count (a hand-made boot), and the file's win. */
    agent_config_defaults(&cfg);
    long n = read_file("/proc/cmdline", cmdline, sizeof(cmdline));
    if (n > 0 && agent_config_parse(&cfg, cmdline, (size_t)n))
        note(cfg.err);
    n = read_file(LAB_PARAMS_PATH, params, sizeof(params));
    if (n < 0)
        note("no " LAB_PARAMS_PATH "; using the command line and defaults");
    else if (n >= (long)sizeof(params) - 1)
        note(LAB_PARAMS_PATH " is too long; using the command line and defaults");
    else if (agent_config_parse(&cfg, params, (size_t)n))
        note(cfg.err);

    kprof_enable(cfg.kprofile != 0);
    if (is_pid1()) {
        setup_mounts(&cfg);
        setup_modules("/etc/lab/modules");
    }

    why[0] = 0;
    int fd = setup_channel(&cfg, why, sizeof(why));
    if (fd < 0) {
        con_puts("lab-agent: no report channel: ");
        con_puts(why);
        con_puts("\n");
        finish();
    }
    report_init(fd);
    report_hello();
    setup_report(&cfg);
    for (size_t i = 0; i < notes_count(); i++)
        report_log(notes_get(i));
    calib_report();

    uint64_t runs = 0;
    const struct agent_test *t = agent_test_find(cfg.test);
    if (cfg.unknown)
        refuse_unknown(&cfg);
    else if (!t)
        report_error("unknown lab.test", cfg.test, -1);
    else if (cfg.load == AGENT_LOAD_IO_OTHER && setup_disk_order(&cfg, why, sizeof(why)) < 0)
        report_error(why, t->name, -1);
    else if (setup_block_device(
                 &cfg, t->mount || (cfg.load != AGENT_LOAD_NONE && cfg.load != AGENT_LOAD_IO_OTHER),
                 why, sizeof(why)) < 0)
        report_error(why, t->name, -1);
    else if (cfg.load == AGENT_LOAD_IO_OTHER && setup_second_disk(&cfg, why, sizeof(why)) < 0)
        report_error(why, t->name, -1);
    else {
        tune_apply(&cfg);
        runs = agent_run_test(t, &cfg);
    }

    struct agent_line *l = report_start("bye");
    agent_line_u64(l, "runs", runs);
    report_send();
    finish();
}
