/* Unit tests of the agent's pure formatting: numbers, percent-encoding, records. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "guest-agent/fmt.h"

static void test_u64_zero_and_max(void **state)
{
    char b[AGENT_U64_BUF];
    assert_int_equal(agent_fmt_u64(b, 0), 1);
    assert_string_equal(b, "0");
    assert_int_equal(agent_fmt_u64(b, UINT64_MAX), 20);
    assert_string_equal(b, "18446744073709551615");
    assert_int_equal(agent_fmt_u64(b, 10), 2);
    assert_string_equal(b, "10");
    agent_fmt_u64(b, 4294967296ULL);
    assert_string_equal(b, "4294967296");
}

static void test_u64_matches_printf(void **state)
{
    char b[AGENT_U64_BUF], want[32];
    uint64_t x = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 100000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint64_t v = x >> (i % 64); /* all magnitudes */
        snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
        agent_fmt_u64(b, v);
        assert_string_equal(b, want);
    }
    for (uint64_t v = UINT64_MAX - 1000; v != 0; v++) {
        snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
        agent_fmt_u64(b, v);
        assert_string_equal(b, want);
    }
}

static void test_divmod10(void **state)
{
    unsigned r;
    assert_true(agent_divmod10(UINT64_MAX, &r) == UINT64_MAX / 10);
    assert_int_equal(r, 5);
    assert_true(agent_divmod10(99, &r) == 9);
    assert_int_equal(r, 9);
    assert_true(agent_divmod10(0, &r) == 0);
    assert_int_equal(r, 0);
}

static void test_pct_encode(void **state)
{
    char out[64];
    assert_int_equal(agent_pct_encode(out, sizeof(out), "Az09._/:,+-", 11), 11);
    assert_string_equal(out, "Az09._/:,+-");
    assert_int_equal(agent_pct_encode(out, sizeof(out), "a b=c%\n", 7), 15);
    assert_string_equal(out, "a%20b%3Dc%25%0A");
    const char raw[] = {(char)0xff, 0, '~'};
    assert_int_equal(agent_pct_encode(out, sizeof(out), raw, 3), 9);
    assert_string_equal(out, "%FF%00%7E");
    assert_int_equal(agent_pct_encode(out, sizeof(out), "", 0), 0);
    assert_string_equal(out, "");
}

static void test_pct_encode_every_byte(void **state)
{
    for (int c = 0; c < 256; c++) {
        char in = (char)c, out[8];
        long n = agent_pct_encode(out, sizeof(out), &in, 1);
        int plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    (c && strchr("._/:,+-", c));
        if (plain) {
            assert_int_equal(n, 1);
            assert_int_equal((unsigned char)out[0], c);
        } else {
            char want[4];
            snprintf(want, sizeof(want), "%%%02X", c);
            assert_int_equal(n, 3);
            assert_string_equal(out, want);
        }
    }
}

static void test_pct_encode_no_room(void **state)
{
    char out[4];
    assert_int_equal(agent_pct_encode(out, sizeof(out), "abc", 3), 3);
    assert_int_equal(agent_pct_encode(out, sizeof(out), "abcd", 4), -1);
    assert_int_equal(agent_pct_encode(out, sizeof(out), "a b", 3), -1); /* needs 5+NUL */
    assert_int_equal(agent_pct_encode(out, sizeof(out), " ", 1), 3);
}

static void test_record_exact(void **state)
{
    struct agent_line l;
    agent_line_start(&l, 7, "end");
    agent_line_str(&l, "test", "seqread");
    agent_line_u64(&l, "rep", 0);
    agent_line_u64(&l, "bytes", UINT64_MAX);
    agent_line_str(&l, "msg", "no such file");
    long n = agent_line_end(&l);
    const char *want =
        "LAB1 7 end test=seqread rep=0 bytes=18446744073709551615 msg=no%20such%20file\n";
    assert_int_equal(n, (long)strlen(want));
    assert_memory_equal(l.buf, want, (size_t)n);
}

static void test_record_hello(void **state)
{
    struct agent_line l;
    agent_line_start(&l, 0, "hello");
    agent_line_u64(&l, "v", 1);
    agent_line_str(&l, "agent", "0.1");
    agent_line_str(&l, "uname", "6.1.0-47-amd64");
    agent_line_str(&l, "arch", "x86_64");
    long n = agent_line_end(&l);
    const char *want = "LAB1 0 hello v=1 agent=0.1 uname=6.1.0-47-amd64 arch=x86_64\n";
    assert_int_equal(n, (long)strlen(want));
    assert_memory_equal(l.buf, want, (size_t)n);
}

static void test_record_length_limit(void **state)
{
    /* Fill a record to exactly 4096 bytes with the '\n', then one more byte. */
    static char val[LAB_PROTO_MAX_LINE];
    struct agent_line l;
    const char *head = "LAB1 1 log msg=";
    size_t room = LAB_PROTO_MAX_LINE - 1 - strlen(head);
    memset(val, 'x', room);
    agent_line_start(&l, 1, "log");
    agent_line_strn(&l, "msg", val, room);
    assert_int_equal(agent_line_end(&l), LAB_PROTO_MAX_LINE);
    assert_int_equal(l.buf[LAB_PROTO_MAX_LINE - 1], '\n');

    agent_line_start(&l, 1, "log");
    agent_line_strn(&l, "msg", val, room + 1);
    assert_int_equal(agent_line_end(&l), -1);

    /* Percent-encoding counts: room/3 spaces become exactly what fits... */
    memset(val, ' ', room);
    agent_line_start(&l, 1, "log");
    agent_line_strn(&l, "msg", val, room / 3 + 1);
    assert_int_equal(agent_line_end(&l), -1);
    /* ...and the error sticks through later, short keys. */
    agent_line_start(&l, 1, "log");
    agent_line_strn(&l, "msg", val, room);
    agent_line_u64(&l, "n", 1);
    assert_int_equal(agent_line_end(&l), -1);
}

static void test_record_bad_names(void **state)
{
    struct agent_line l;
    agent_line_start(&l, 1, "log");
    agent_line_u64(&l, "Bad", 1);
    assert_int_equal(agent_line_end(&l), -1);
    agent_line_start(&l, 1, "log");
    agent_line_u64(&l, "a=b", 1);
    assert_int_equal(agent_line_end(&l), -1);
    agent_line_start(&l, 1, "lo g");
    assert_int_equal(agent_line_end(&l), -1);
    agent_line_start(&l, 1, "log");
    agent_line_u64(&l, "ra_sectors2", 1);
    assert_true(agent_line_end(&l) > 0);
}

static void test_record_key_limit(void **state)
{
    struct agent_line l;
    agent_line_start(&l, 3, "end");
    for (int i = 0; i < LAB_PROTO_MAX_KEYS; i++)
        agent_line_u64(&l, "k", (uint64_t)i);
    assert_true(agent_line_end(&l) > 0);
    agent_line_start(&l, 3, "end");
    for (int i = 0; i < LAB_PROTO_MAX_KEYS + 1; i++)
        agent_line_u64(&l, "k", (uint64_t)i);
    assert_int_equal(agent_line_end(&l), -1);
}

static void test_cat(void **state)
{
    char m[16];
    size_t at = agent_cat(m, sizeof(m), 0, "errno ");
    at = agent_cat_i64(m, sizeof(m), at, -22);
    assert_string_equal(m, "errno -22");
    assert_int_equal(at, 9);
    at = agent_cat(m, sizeof(m), at, "0123456789");
    assert_int_equal(at, 15);
    assert_string_equal(m, "errno -22012345");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_u64_zero_and_max),
        cmocka_unit_test(test_u64_matches_printf),
        cmocka_unit_test(test_divmod10),
        cmocka_unit_test(test_pct_encode),
        cmocka_unit_test(test_pct_encode_every_byte),
        cmocka_unit_test(test_pct_encode_no_room),
        cmocka_unit_test(test_record_exact),
        cmocka_unit_test(test_record_hello),
        cmocka_unit_test(test_record_length_limit),
        cmocka_unit_test(test_record_bad_names),
        cmocka_unit_test(test_record_key_limit),
        cmocka_unit_test(test_cat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
