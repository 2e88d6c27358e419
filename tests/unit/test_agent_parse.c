/* Unit tests of the agent's /proc and /sys parsers and its content check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "guest-agent/parse.h"
#include "guest-agent/protocol.h"
#include "guest-agent/verify.h"

static const char partitions[] = "major minor  #blocks  name\n"
                                 "\n"
                                 "   8        0      65536 sda\n"
                                 "   8        1      65535 sda1\n"
                                 " 259   1048575     1024 nvme0n1p300\n"
                                 "   3       64    1000 hdb\n";

static void test_partitions_find(void **state)
{
    unsigned maj = 0, min = 0;
    size_t n = strlen(partitions);
    assert_int_equal(agent_partitions_find(partitions, n, "sda", &maj, &min), 0);
    assert_int_equal(maj, 8);
    assert_int_equal(min, 0);
    assert_int_equal(agent_partitions_find(partitions, n, "sda1", &maj, &min), 0);
    assert_int_equal(min, 1);
    assert_int_equal(agent_partitions_find(partitions, n, "hdb", &maj, &min), 0);
    assert_int_equal(maj, 3);
    assert_int_equal(min, 64);
    assert_int_equal(agent_partitions_find(partitions, n, "nvme0n1p300", &maj, &min), 0);
    assert_int_equal(maj, 259);
    assert_int_equal(min, 1048575);
    assert_int_equal(agent_partitions_find(partitions, n, "sd", &maj, &min), -1);
    assert_int_equal(agent_partitions_find(partitions, n, "name", &maj, &min), -1);
    assert_int_equal(agent_partitions_find(partitions, n, "sdb", &maj, &min), -1);
}

static void test_partitions_2_4_stats(void **state)
{
    /* 2.4 with CONFIG_BLK_STATS appends counters after the name. */
    const char *p = "major minor  #blocks  name     rio rmerge rsect ruse\n\n"
                    "   3     0    65536 hda 12 0 96 10\n";
    unsigned maj, min;
    assert_int_equal(agent_partitions_find(p, strlen(p), "hda", &maj, &min), 0);
    assert_int_equal(maj, 3);
    assert_int_equal(min, 0);
}

static void test_devices(void **state)
{
    const char *d = "Character devices:\n  1 mem\n  4 /dev/vc/0\n  4 tty\n  4 ttyS\n"
                    "  5 /dev/tty\n\nBlock devices:\n  8 sd\n 4 ttyX\n";
    assert_int_equal(agent_devices_char_major(d, strlen(d), "ttyS"), 4);
    assert_int_equal(agent_devices_char_major(d, strlen(d), "mem"), 1);
    assert_int_equal(agent_devices_char_major(d, strlen(d), "sd"), -1); /* block, not char */
    assert_int_equal(agent_devices_char_major(d, strlen(d), "ttyX"), -1);
    assert_int_equal(agent_devices_char_major(d, strlen(d), "tt"), -1);
}

static void test_majmin(void **state)
{
    unsigned a, b;
    assert_int_equal(agent_parse_majmin("249:1\n", 6, &a, &b), 0);
    assert_int_equal(a, 249);
    assert_int_equal(b, 1);
    assert_int_equal(agent_parse_majmin("249\n", 4, &a, &b), -1);
    assert_int_equal(agent_parse_majmin(":1\n", 3, &a, &b), -1);
    assert_int_equal(agent_parse_majmin("4:\n", 3, &a, &b), -1);
}

static void test_lines(void **state)
{
    const char *t = "  /lib/a.ko  \n\n#c\n/lib/b.ko";
    size_t pos = 0, len;
    const char *l = agent_next_line(t, strlen(t), &pos, &len);
    assert_non_null(l);
    assert_int_equal(len, 9);
    assert_memory_equal(l, "/lib/a.ko", 9);
    l = agent_next_line(t, strlen(t), &pos, &len);
    assert_int_equal(len, 0);
    l = agent_next_line(t, strlen(t), &pos, &len);
    assert_int_equal(len, 2);
    l = agent_next_line(t, strlen(t), &pos, &len);
    assert_int_equal(len, 9);
    assert_memory_equal(l, "/lib/b.ko", 9);
    assert_null(agent_next_line(t, strlen(t), &pos, &len));
}

static void test_blockstat(void **state)
{
    const char *sys = "     120        0    32900      100        0        0        0        0 "
                      "       0      120      100\n";
    const char *disk = "   8       0 sda 120 0 32900 100 0 0 0 0 0 120 100\n"
                       "   8       1 sda1 1 0 8 0 0 0 0 0 0 0 0\n";
    uint64_t s = 0;
    assert_int_equal(agent_blockstat_sectors_read(sys, strlen(sys), NULL, &s), 0);
    assert_true(s == 32900);
    assert_int_equal(agent_blockstat_sectors_read(disk, strlen(disk), "sda1", &s), 0);
    assert_true(s == 8);
    assert_int_equal(agent_blockstat_sectors_read(disk, strlen(disk), "sdb", &s), -1);
}

/* A file of n bytes of the lab's content. */
static void content(uint8_t *b, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++)
        b[i] = (uint8_t)(lab_content_word(seed, i / 8) >> (8 * (i % 8)));
}

static void test_verify_blocks_of_any_size(void **state)
{
    static uint8_t buf[10007];
    content(buf, sizeof(buf), 42);
    static const size_t sizes[] = {1, 3, 7, 8, 9, 4096, 10007};
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        struct agent_verify v;
        agent_verify_init(&v, 42);
        for (size_t at = 0; at < sizeof(buf); at += sizes[k]) {
            size_t n = sizeof(buf) - at < sizes[k] ? sizeof(buf) - at : sizes[k];
            agent_verify_feed(&v, buf + at, n);
        }
        assert_true(agent_verify_finish(&v) == 0);
    }
}

/* A read that starts into the file (a warm-up's tail) checks against the
 * words at its own offsets, not the file's first ones. */
static void test_verify_from_an_offset(void **state)
{
    static uint8_t buf[16384];
    content(buf, sizeof(buf), 42);
    struct agent_verify v;
    agent_verify_init_at(&v, 42, 4096);
    agent_verify_feed(&v, buf + 4096, sizeof(buf) - 4096);
    assert_true(agent_verify_finish(&v) == 0);
    agent_verify_init(&v, 42); /* the same bytes taken for the file's start */
    agent_verify_feed(&v, buf + 4096, sizeof(buf) - 4096);
    assert_true(agent_verify_finish(&v) == (sizeof(buf) - 4096) / 8);
}

static void test_verify_counts_words(void **state)
{
    static uint8_t buf[8003];
    content(buf, sizeof(buf), 7);
    buf[0] ^= 1;     /* word 0 */
    buf[15] ^= 0x80; /* word 1 */
    buf[17] ^= 1;    /* word 2 */
    buf[18] ^= 1;    /* word 2 again: still one word */
    buf[8002] ^= 1;  /* trailing partial word */
    struct agent_verify v;
    agent_verify_init(&v, 7);
    agent_verify_feed(&v, buf, 13);
    agent_verify_feed(&v, buf + 13, sizeof(buf) - 13);
    assert_true(agent_verify_finish(&v) == 4);

    /* The wrong seed: every word differs (1001 words, the last partial). */
    content(buf, sizeof(buf), 7);
    agent_verify_init(&v, 8);
    agent_verify_feed(&v, buf, sizeof(buf));
    assert_true(agent_verify_finish(&v) == 1001);
}

/* /proc/stat's cpu line in the three shapes the agent meets. */
static void test_procstat_24(void **state)
{
    /* Linux 2.4: user nice system idle, then per-CPU lines and the rest. */
    static const char t[] = "cpu  1234 5 678 91011\n"
                            "cpu0 1234 5 678 91011\n"
                            "page 100 200\n"
                            "intr 12345 0 0\n";
    struct agent_cpustat s;
    assert_int_equal(agent_procstat_cpu(t, strlen(t), &s), 0);
    assert_int_equal(s.fields, 4);
    assert_true(s.v[AGENT_CPU_USER] == 1234);
    assert_true(s.v[AGENT_CPU_NICE] == 5);
    assert_true(s.v[AGENT_CPU_SYSTEM] == 678);
    assert_true(s.v[AGENT_CPU_IDLE] == 91011);
    assert_true(s.v[AGENT_CPU_IOWAIT] == 0);
    assert_true(s.v[AGENT_CPU_STEAL] == 0);
}

static void test_procstat_26(void **state)
{
    /* 2.6.0 to 2.6.10: + iowait irq softirq. */
    static const char t[] = "cpu  10 20 30 40 50 60 70\ncpu0 10 20 30 40 50 60 70\n";
    struct agent_cpustat s;
    assert_int_equal(agent_procstat_cpu(t, strlen(t), &s), 0);
    assert_int_equal(s.fields, 7);
    assert_true(s.v[AGENT_CPU_IDLE] == 40);
    assert_true(s.v[AGENT_CPU_IOWAIT] == 50);
    assert_true(s.v[AGENT_CPU_IRQ] == 60);
    assert_true(s.v[AGENT_CPU_SOFTIRQ] == 70);
    assert_true(s.v[AGENT_CPU_STEAL] == 0);
}

static void test_procstat_modern(void **state)
{
    /* 2.6.33+: ten fields, the aggregate line not first in the buffer here. */
    static const char t[] = "intr 1 2\n"
                            "cpu0 1 1 1 1 1 1 1 1 1 1\n"
                            "cpu  4705 356 584 3699176 23060 0 277 5 6 7\n"
                            "ctxt 1990473\n";
    struct agent_cpustat s;
    assert_int_equal(agent_procstat_cpu(t, strlen(t), &s), 0);
    assert_int_equal(s.fields, 10);
    assert_true(s.v[AGENT_CPU_USER] == 4705);
    assert_true(s.v[AGENT_CPU_IDLE] == 3699176);
    assert_true(s.v[AGENT_CPU_IOWAIT] == 23060);
    assert_true(s.v[AGENT_CPU_SOFTIRQ] == 277);
    assert_true(s.v[AGENT_CPU_STEAL] == 5);
    assert_true(s.v[AGENT_CPU_GUEST] == 6);
    assert_true(s.v[AGENT_CPU_GUEST_NICE] == 7);
    /* An eleventh field of a future kernel is ignored. */
    static const char u[] = "cpu 1 2 3 4 5 6 7 8 9 10 11\n";
    assert_int_equal(agent_procstat_cpu(u, strlen(u), &s), 0);
    assert_int_equal(s.fields, 10);
    assert_true(s.v[AGENT_CPU_GUEST_NICE] == 10);
}

static void test_procstat_bad(void **state)
{
    struct agent_cpustat s;
    static const char three[] = "cpu 1 2 3\n";
    static const char word[] = "cpu 1 2 x 4\n";
    static const char none[] = "cpu0 1 2 3 4\ncpux 1 2 3 4\n";
    assert_int_equal(agent_procstat_cpu(three, strlen(three), &s), -1);
    assert_int_equal(agent_procstat_cpu(word, strlen(word), &s), -1);
    assert_int_equal(agent_procstat_cpu(none, strlen(none), &s), -1);
    assert_int_equal(agent_procstat_cpu("", 0, &s), -1);
}

static void test_cpustat_delta(void **state)
{
    static const char a[] = "cpu  100 0 50 1000 40\n";
    static const char b[] = "cpu  150 2 80 1100 30 1 2\n"; /* iowait stepped back */
    struct agent_cpustat x, y, d;
    assert_int_equal(agent_procstat_cpu(a, strlen(a), &x), 0);
    assert_int_equal(agent_procstat_cpu(b, strlen(b), &y), 0);
    agent_cpustat_delta(&x, &y, &d);
    assert_int_equal(d.fields, 5);
    assert_true(d.v[AGENT_CPU_USER] == 50);
    assert_true(d.v[AGENT_CPU_NICE] == 2);
    assert_true(d.v[AGENT_CPU_SYSTEM] == 30);
    assert_true(d.v[AGENT_CPU_IDLE] == 100);
    assert_true(d.v[AGENT_CPU_IOWAIT] == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_procstat_24),
        cmocka_unit_test(test_procstat_26),
        cmocka_unit_test(test_procstat_modern),
        cmocka_unit_test(test_procstat_bad),
        cmocka_unit_test(test_cpustat_delta),
        cmocka_unit_test(test_partitions_find),
        cmocka_unit_test(test_partitions_2_4_stats),
        cmocka_unit_test(test_devices),
        cmocka_unit_test(test_majmin),
        cmocka_unit_test(test_lines),
        cmocka_unit_test(test_blockstat),
        cmocka_unit_test(test_verify_blocks_of_any_size),
        cmocka_unit_test(test_verify_counts_words),
        cmocka_unit_test(test_verify_from_an_offset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
