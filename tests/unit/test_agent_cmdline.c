/* Unit tests of the agent's lab.* command-line parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "guest-agent/cmdline.h"
#include "guest-agent/protocol.h"

static unsigned parse(struct agent_config *c, const char *s)
{
    agent_config_defaults(c);
    return agent_config_parse(c, s, strlen(s));
}

static void test_defaults(void **state)
{
    struct agent_config c;
    assert_int_equal(parse(&c, "console=ttyS0 panic=-1 root=/dev/sda\n"), 0);
    assert_string_equal(c.test, "seqread");
    assert_true(c.reps == 1);
    assert_true(c.bs == 1048576);
    assert_true(c.ra == 0);
    assert_string_equal(c.dev, "sda");
    assert_string_equal(c.fs, "ext2");
    assert_string_equal(c.file, "big_file");
    assert_true(c.size == 0);
    assert_true(c.verify == 0);
    assert_true(c.seed == LAB_CONTENT_SEED_DEFAULT);
    assert_int_equal(c.chan, AGENT_CHAN_VIRTIO);
    assert_true(c.timeout == 30);
    assert_true(c.direct == 0);
    assert_true(c.count == 2000);
    assert_true(c.qd == 1);
    assert_true(c.span == 0);
    assert_true(c.offset == 0);
    assert_int_equal(c.errors, 0);
}

static void test_block_keys(void **state)
{
    struct agent_config c;
    assert_int_equal(parse(&c, "lab.test=devread lab.direct=1 lab.count=65536 lab.qd=64 "
                               "lab.span=0x40000000 lab.offset=1048576"),
                     0);
    assert_string_equal(c.test, "devread");
    assert_true(c.direct == 1);
    assert_true(c.count == 65536);
    assert_true(c.qd == 64);
    assert_true(c.span == 1073741824ULL);
    assert_true(c.offset == 1048576);
    assert_true(c.bs == 1048576); /* devread keeps the sequential default */
    assert_int_equal(parse(&c, "lab.qd=1 lab.count=1 lab.direct=0 lab.span=18446744073709551615"),
                     0);
    assert_true(c.qd == 1 && c.count == 1 && c.direct == 0 && c.span == UINT64_MAX);
}

static void test_block_keys_rejected(void **state)
{
    struct agent_config c;
    assert_int_equal(parse(&c, "lab.qd=0 lab.qd=65 lab.count=0 lab.count=65537 lab.direct=2"), 5);
    assert_true(c.qd == 1);
    assert_true(c.count == 2000);
    assert_true(c.direct == 0);
    assert_string_equal(c.err, "out of range: lab.qd");
    assert_int_equal(parse(&c, "lab.span=1G lab.offset=-1 lab.direct=yes lab.qd=0x"), 4);
    assert_true(c.span == 0 && c.offset == 0 && c.direct == 0 && c.qd == 1);
    assert_string_equal(c.err, "not a number: lab.span");
}

/* randread's defaults (4096-byte blocks, O_DIRECT) apply wherever lab.test
 * stands, and only to keys the command line did not set. */
static void test_randread_defaults(void **state)
{
    struct agent_config c;
    assert_int_equal(parse(&c, "lab.test=randread"), 0);
    assert_true(c.bs == 4096);
    assert_true(c.direct == 1);
    assert_true(c.count == 2000 && c.qd == 1);
    assert_int_equal(parse(&c, "lab.bs=65536 lab.direct=0 lab.test=randread"), 0);
    assert_true(c.bs == 65536);
    assert_true(c.direct == 0);
    /* A rejected value is not "given": the test's default still applies. */
    assert_int_equal(parse(&c, "lab.test=randread lab.bs=0 lab.direct=7"), 2);
    assert_true(c.bs == 4096);
    assert_true(c.direct == 1);
    assert_int_equal(parse(&c, "lab.test=seqread"), 0);
    assert_true(c.bs == 1048576 && c.direct == 0);
}

static void test_all_keys(void **state)
{
    struct agent_config c;
    const char *s = "console=ttyS0 lab.test=seqread lab.reps=5 lab.bs=65536 lab.ra=512 "
                    "lab.dev=hda lab.fs=ext3 lab.file=dir/f_1.bin lab.size=1000000 "
                    "lab.verify=1 lab.seed=0x10 lab.chan=ttyS1 lab.timeout=7\n";
    assert_int_equal(parse(&c, s), 0);
    assert_true(c.reps == 5);
    assert_true(c.bs == 65536);
    assert_true(c.ra == 512);
    assert_string_equal(c.dev, "hda");
    assert_string_equal(c.fs, "ext3");
    assert_string_equal(c.file, "dir/f_1.bin");
    assert_true(c.size == 1000000);
    assert_true(c.verify == 1);
    assert_true(c.seed == 16);
    assert_int_equal(c.chan, AGENT_CHAN_TTYS1);
    assert_true(c.timeout == 7);
}

static void test_last_wins_and_unknown_refused(void **state)
{
    struct agent_config c;
    /* Words that are not lab.KEY=VALUE are not ours; a lab key the table
     * does not have is refused, and named. */
    assert_int_equal(parse(&c, "lab.reps=2 lab.reps=9 xlab.reps=4 lab.bs quiet"), 0);
    assert_true(c.reps == 9);
    assert_true(c.bs == 1048576);
    assert_int_equal(c.unknown, 0);
    assert_int_equal(parse(&c, "lab.reps=2 lab.newkey=zz lab.reps=9 lab.Reps=1 lab.bs=4096"), 2);
    assert_true(c.reps == 9);
    assert_true(c.bs == 4096);
    assert_int_equal(c.unknown, 2);
    assert_string_equal(c.unknown_key, "newkey");
    assert_string_equal(c.err, "unknown key: lab.newkey");
    assert_int_equal(parse(&c, "lab.dev=sdb\tlab.dev=sdc"), 0);
    assert_string_equal(c.dev, "sdc");
}

static void test_no_quoting(void **state)
{
    struct agent_config c;
    /* No shell-style quoting: words split at blanks and quotes stay part of
     * them, so neither '"sdb' nor 'ext4"' is a valid name. */
    assert_int_equal(parse(&c, "lab.dev=\"sdb lab.fs=ext4\""), 2);
    assert_string_equal(c.dev, "sda");
    assert_string_equal(c.fs, "ext2");
    /* A path takes the quote literally and ends at the blank. */
    assert_int_equal(parse(&c, "lab.file=\"a b\""), 0);
    assert_string_equal(c.file, "\"a");
}

static void test_non_numeric_rejected(void **state)
{
    struct agent_config c;
    assert_int_equal(parse(&c, "lab.reps=3x lab.bs=1M lab.ra=-1 lab.size= lab.seed=0xZZ"), 5);
    assert_true(c.reps == 1);
    assert_true(c.bs == 1048576);
    assert_true(c.ra == 0);
    assert_true(c.size == 0);
    assert_true(c.seed == LAB_CONTENT_SEED_DEFAULT);
    assert_string_equal(c.err, "not a number: lab.reps");
}

static void test_ranges(void **state)
{
    struct agent_config c;
    assert_int_equal(parse(&c, "lab.verify=2 lab.bs=0 lab.timeout=0 lab.chan=serial"), 4);
    assert_true(c.verify == 0);
    assert_true(c.bs == 1048576);
    assert_true(c.timeout == 30);
    assert_int_equal(c.chan, AGENT_CHAN_VIRTIO);
    assert_string_equal(c.err, "out of range: lab.verify");
}

static void test_u64_parse(void **state)
{
    uint64_t v;
    assert_int_equal(agent_parse_u64("18446744073709551615", 20, &v), 0);
    assert_true(v == UINT64_MAX);
    assert_int_equal(agent_parse_u64("18446744073709551616", 20, &v), -1);
    assert_int_equal(agent_parse_u64("99999999999999999999", 20, &v), -1);
    assert_int_equal(agent_parse_u64("0xffffffffffffffff", 18, &v), 0);
    assert_true(v == UINT64_MAX);
    assert_int_equal(agent_parse_u64("0x1ffffffffffffffff", 19, &v), -1);
    assert_int_equal(agent_parse_u64("0", 1, &v), 0);
    assert_true(v == 0);
    assert_int_equal(agent_parse_u64("", 0, &v), -1);
    assert_int_equal(agent_parse_u64("0x", 2, &v), -1);
    assert_int_equal(agent_parse_u64("+1", 2, &v), -1);
}

static void test_paths_and_names(void **state)
{
    struct agent_config c;
    assert_int_equal(parse(&c, "lab.file=../etc/x"), 1);
    assert_string_equal(c.file, "big_file");
    assert_int_equal(parse(&c, "lab.file=/abs"), 1);
    assert_int_equal(parse(&c, "lab.file=a/../b"), 1);
    assert_int_equal(parse(&c, "lab.file=a/..b/c"), 0);
    assert_string_equal(c.file, "a/..b/c");
    assert_int_equal(parse(&c, "lab.dev=../sda"), 1);
    assert_string_equal(c.dev, "sda");
    assert_int_equal(parse(&c, "lab.dev=0123456789012345678901234567890123456789"), 1);
    assert_string_equal(c.err, "too long: lab.dev");
}

static void test_not_nul_terminated(void **state)
{
    struct agent_config c;
    const char buf[] = {'l', 'a', 'b', '.', 'r', 'e', 'p', 's', '=', '4', '2'};
    agent_config_defaults(&c);
    /* Only the first 10 bytes count: "lab.reps=4". */
    assert_int_equal(agent_config_parse(&c, buf, 10), 0);
    assert_true(c.reps == 4);
}

/* Module parameters from the command line, as modprobe passes them. */
static void test_module_params(void **state)
{
    static const char cmd[] = "console=ttyS0 libata.dma=0 lab.reps=3 libata.force=udma2\n"
                              "ata_piix.prefer_ms_hyperv=0 libatax.dma=1 libata. libata\n";
    char out[64];
    (void)state;
    assert_int_equal(agent_module_params(cmd, strlen(cmd), "libata", out, sizeof out), 17);
    assert_string_equal(out, "dma=0 force=udma2");
    assert_int_equal(agent_module_params(cmd, strlen(cmd), "ata-piix", out, sizeof out), 18);
    assert_string_equal(out, "prefer_ms_hyperv=0");
    assert_int_equal(agent_module_params(cmd, strlen(cmd), "ahci", out, sizeof out), 0);
    assert_string_equal(out, "");
    assert_int_equal(agent_module_params(cmd, strlen(cmd), "libata", out, 10), -1);
    assert_string_equal(out, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_all_keys),
        cmocka_unit_test(test_block_keys),
        cmocka_unit_test(test_block_keys_rejected),
        cmocka_unit_test(test_randread_defaults),
        cmocka_unit_test(test_last_wins_and_unknown_refused),
        cmocka_unit_test(test_no_quoting),
        cmocka_unit_test(test_non_numeric_rejected),
        cmocka_unit_test(test_ranges),
        cmocka_unit_test(test_u64_parse),
        cmocka_unit_test(test_paths_and_names),
        cmocka_unit_test(test_not_nul_terminated),
        cmocka_unit_test(test_module_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
