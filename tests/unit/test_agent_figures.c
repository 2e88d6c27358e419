/* Unit tests of the agent's pure arithmetic for devread and randread:
 * 64-bit division, the random-offset generator, sort and percentiles. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "guest-agent/figures.h"

static void test_udiv64(void **state)
{
    static const uint64_t n[] = {
        0, 1, 99, 100, 12345678901234567ULL, UINT64_MAX, 0x8000000000000000ULL, 1ULL << 40};
    static const uint64_t d[] = {1,
                                 2,
                                 3,
                                 7,
                                 100,
                                 4096,
                                 65536,
                                 1000000007ULL,
                                 UINT64_MAX,
                                 0x8000000000000001ULL,
                                 0x8000000000000000ULL};
    for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++)
        for (size_t j = 0; j < sizeof(d) / sizeof(d[0]); j++) {
            uint64_t r = 7;
            uint64_t q = agent_udiv64(n[i], d[j], &r);
            assert_true(q == n[i] / d[j]);
            assert_true(r == n[i] % d[j]);
        }
    uint64_t r;
    assert_true(agent_udiv64(5, 0, &r) == 0 && r == 5);
    assert_true(agent_udiv64(10, 3, NULL) == 3);
}

/* The nearest-rank definition, written out independently: the value at
 * 1-based rank ceil(p * n / 100). */
static uint64_t nearest_rank(const uint64_t *sorted, size_t n, unsigned p)
{
    size_t rank = (p * n + 99) / 100;
    return sorted[(rank ? rank : 1) - 1];
}

static void test_percentiles_small(void **state)
{
    uint64_t one[] = {42};
    assert_true(agent_percentile(one, 1, 50) == 42);
    assert_true(agent_percentile(one, 1, 99) == 42);

    uint64_t four[] = {10, 20, 30, 40};
    /* p50: rank ceil(2) = 2 -> 20; p99: rank ceil(3.96) = 4 -> 40. */
    assert_true(agent_percentile(four, 4, 50) == 20);
    assert_true(agent_percentile(four, 4, 99) == 40);
    assert_true(agent_percentile(four, 4, 25) == 10);
    assert_true(agent_percentile(four, 4, 26) == 20);
    assert_true(agent_percentile(four, 4, 100) == 40);

    uint64_t five[] = {1, 2, 3, 4, 5};
    /* p50: rank ceil(2.5) = 3 -> 3 (the median). */
    assert_true(agent_percentile(five, 5, 50) == 3);
    assert_true(agent_percentile(five, 5, 99) == 5);

    /* 1..100: p50 is 50, p99 is 99. 1..200: p99 is rank 198. */
    uint64_t h[200];
    for (unsigned i = 0; i < 200; i++)
        h[i] = i + 1;
    assert_true(agent_percentile(h, 100, 50) == 50);
    assert_true(agent_percentile(h, 100, 99) == 99);
    assert_true(agent_percentile(h, 200, 99) == 198);
    assert_true(agent_percentile(h, 101, 99) == 100); /* ceil(99.99) = 100 */
    for (size_t n = 1; n <= 200; n++)
        for (unsigned p = 1; p <= 100; p++)
            assert_true(agent_percentile(h, n, p) == nearest_rank(h, n, p));
}

static void test_summary(void **state)
{
    uint64_t a[] = {500, 100, 300, 200, 400, 100, 900, 700, 600, 800};
    struct agent_latsum s;
    agent_latency_summary(a, 10, &s);
    assert_true(s.n == 10);
    assert_true(s.min == 100);
    assert_true(s.max == 900);
    assert_true(s.mean == 460);     /* 4600 / 10 */
    assert_true(s.p50 == 400);      /* rank 5 of 100 100 200 300 400 500 ... */
    assert_true(s.p99 == 900);      /* rank ceil(9.9) = 10 */
    for (size_t i = 1; i < 10; i++) /* and sorted in place */
        assert_true(a[i - 1] <= a[i]);

    uint64_t b[] = {7, 8};
    agent_latency_summary(b, 2, &s);
    assert_true(s.mean == 7); /* truncated */
    agent_latency_summary(b, 0, &s);
    assert_true(s.n == 0 && s.min == 0 && s.max == 0 && s.mean == 0);
}

static void test_sort(void **state)
{
    static uint64_t a[5000];
    struct agent_rng r;
    agent_rng_seed(&r, 1, 2);
    for (size_t i = 0; i < 5000; i++)
        a[i] = agent_rng_next(&r) % 1000; /* many duplicates */
    uint64_t sum = 0;
    for (size_t i = 0; i < 5000; i++)
        sum += a[i];
    agent_sort_u64(a, 5000);
    uint64_t sum2 = a[0];
    for (size_t i = 1; i < 5000; i++) {
        assert_true(a[i - 1] <= a[i]);
        sum2 += a[i];
    }
    assert_true(sum == sum2);
    uint64_t desc[] = {5, 4, 3, 2, 1}, one[] = {9};
    agent_sort_u64(desc, 5);
    for (size_t i = 0; i < 5; i++)
        assert_true(desc[i] == i + 1);
    agent_sort_u64(one, 1);
    agent_sort_u64(NULL, 0);
    assert_true(one[0] == 9);
}

static void test_rng_deterministic(void **state)
{
    struct agent_rng a, b, c;
    agent_rng_seed(&a, 0x1234, 0);
    agent_rng_seed(&b, 0x1234, 0);
    agent_rng_seed(&c, 0x1234, 1);
    int differ = 0;
    for (int i = 0; i < 100; i++) {
        uint64_t x = agent_rng_next(&a), y = agent_rng_next(&b), z = agent_rng_next(&c);
        assert_true(x == y);
        assert_true(x != 0);
        differ |= x != z;
    }
    assert_true(differ); /* another rep, another sequence */
}

/* Every offset is a multiple of bs, and [o, o + bs) lies in [offset, offset + span). */
static void check_range(uint64_t offset, uint64_t span, uint64_t bs, int draws)
{
    struct agent_randrange rr;
    struct agent_rng r;
    assert_int_equal(agent_randrange_init(&rr, offset, span, bs), 0);
    agent_rng_seed(&r, offset ^ span, bs);
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int i = 0; i < draws; i++) {
        uint64_t o = agent_randrange_next(&rr, &r);
        assert_true(o % bs == 0);
        assert_true(o >= offset);
        assert_true(o + bs <= offset + span);
        lo = o < lo ? o : lo;
        hi = o > hi ? o : hi;
    }
    /* Enough draws reach both ends of a small range. */
    if (rr.nblocks <= 16) {
        assert_true(lo == rr.first);
        assert_true(hi == rr.first + (rr.nblocks - 1) * bs);
    }
}

static void test_randrange(void **state)
{
    check_range(0, 64ULL << 20, 4096, 20000);
    check_range(0, 4096 * 5, 4096, 2000);             /* five blocks */
    check_range(4096 * 3 + 100, 1 << 20, 4096, 5000); /* unaligned start */
    check_range(1 << 20, 3149821, 512, 5000);         /* unaligned end */
    check_range(12345, 100000, 1000, 5000);           /* bs not a power of two */
    check_range(1ULL << 40, 1ULL << 40, 1 << 20, 5000);
    check_range(0, UINT64_MAX - 4095, 4096, 5000); /* nblocks beyond 2^32 */

    struct agent_randrange rr;
    assert_int_equal(agent_randrange_init(&rr, 0, 4096, 4096), 0);
    assert_true(rr.nblocks == 1 && rr.first == 0);
    assert_int_equal(agent_randrange_init(&rr, 1, 4096, 4096), -1); /* no whole block */
    assert_int_equal(agent_randrange_init(&rr, 100, 8092, 4096), 0);
    assert_true(rr.first == 4096 && rr.nblocks == 1);
    assert_int_equal(agent_randrange_init(&rr, 0, 4095, 4096), -1);
    assert_int_equal(agent_randrange_init(&rr, 0, 4096, 0), -1);
    assert_int_equal(agent_randrange_init(&rr, UINT64_MAX, 2, 1), -1); /* wraps */
}

/* Uniform: 8 blocks, 80000 draws, each block within 5% of 10000. */
static void test_randrange_uniform(void **state)
{
    struct agent_randrange rr;
    struct agent_rng r;
    unsigned hits[8] = {0};
    assert_int_equal(agent_randrange_init(&rr, 8192, 8 * 512, 512), 0);
    agent_rng_seed(&r, 99, 0);
    for (int i = 0; i < 80000; i++)
        hits[(agent_randrange_next(&rr, &r) - 8192) / 512]++;
    for (int k = 0; k < 8; k++)
        assert_true(hits[k] > 9500 && hits[k] < 10500);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_udiv64),
        cmocka_unit_test(test_percentiles_small),
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_sort),
        cmocka_unit_test(test_rng_deterministic),
        cmocka_unit_test(test_randrange),
        cmocka_unit_test(test_randrange_uniform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
