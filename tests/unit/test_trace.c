/* Trace summaries: counts, sizes, sequentiality, idle gaps, cache outcomes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "host/report/trace.h"

static int summarize(const char *text, struct lab_trace_summary *s, char *err, size_t len)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    int rc = lab_trace_summarize(f, (struct lab_trace_window){0, 0}, s, err, len);
    fclose(f);
    return rc;
}

static void test_summary(void **state)
{
    /* Written in completion order: the 4 KiB read at 1000 arrived first. */
    const char *trace = "read\t4096\t131072\t2000\t3000\t5000\tpartial\n"
                        "read\t0\t4096\t1000\t1000\t3000\tmiss\n"
                        "read\t135168\t131072\t9000\t9000\t10000\thit\n"
                        "write\t1048576\t512\t10000\t10000\t12000\tmiss\n"
                        "flush\t0\t0\t20000\t20000\t21000\tmiss\n";
    struct lab_trace_summary s;
    char err[64];
    assert_int_equal(summarize(trace, &s, err, sizeof err), 0);
    assert_int_equal(s.requests, 5);
    assert_int_equal(s.reads, 3);
    assert_int_equal(s.writes, 1);
    assert_int_equal(s.flushes, 1);
    assert_int_equal(s.bytes_read, 4096 + 2 * 131072);
    assert_int_equal(s.bytes_written, 512);
    /* 0+4096 -> 4096, 4096+131072 -> 135168: two sequential; the write is not. */
    assert_int_equal(s.sequential, 2);
    assert_int_equal(s.hits, 1);
    assert_int_equal(s.partial, 1);
    assert_int_equal(s.misses, 1);
    assert_int_equal(s.size_hist[0], 1); /* 512 B */
    assert_int_equal(s.size_hist[3], 1); /* 4 KiB */
    assert_int_equal(s.size_hist[8], 2); /* 128 KiB */
    /* Busy until 5000, next arrival 9000: a 4000 ns gap; 12000 -> 20000: 8000 ns. */
    assert_int_equal(s.idle_gaps, 2);
    assert_int_equal(s.idle_ns, 12000);
    assert_int_equal(s.span_ns, 21000 - 1000);
    assert_int_equal(s.wait_ns, 1000);
}

static void test_malformed(void **state)
{
    struct lab_trace_summary s;
    char err[64];
    assert_int_equal(summarize("read\t0\t4096\t10\t5\t20\tmiss\n", &s, err, sizeof err), -1);
    assert_string_equal(err, "1: malformed trace line");
    assert_int_equal(summarize("read\t0\t4096\t1\t1\t2\tmiss\nread 0 x\n", &s, err, sizeof err),
                     -1);
    assert_string_equal(err, "2: malformed trace line");
}

/* Only requests that arrived inside the window count; t0 maps trace times
 * onto the host's clock and may change when nbdkit restarts. */
static void test_window(void **state)
{
    const char *trace = "# t0_ns=1000000\n"
                        "read\t0\t4096\t0\t0\t100\tmiss\n"
                        "read\t4096\t4096\t5000\t5000\t5100\thit\n"
                        "# t0_ns=2000000\n"
                        "read\t8192\t4096\t0\t0\t100\thit\n";
    struct lab_trace_summary s;
    char err[64];
    FILE *f = fmemopen((void *)trace, strlen(trace), "r");
    assert_int_equal(
        lab_trace_summarize(f, (struct lab_trace_window){1004000, 2000000}, &s, err, sizeof err),
        0);
    fclose(f);
    assert_int_equal(s.requests, 2); /* 1005000 and 2000000 */
    assert_int_equal(s.hits, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
