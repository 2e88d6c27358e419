/* Pure arithmetic of the block-device tests (see figures.h). */
#include "figures.h"
#include "protocol.h"

uint64_t agent_udiv64(uint64_t n, uint64_t d, uint64_t *rem)
{
    if (d == 0) {
        if (rem)
            *rem = n;
        return 0;
    }
    uint64_t q = 0, r = 0;
    for (int i = 63; i >= 0; i--) {
        /* r < d before the shift, so r << 1 | bit can overflow only when d
         * has its top bit set; then r >= d is certain after the shift. */
        int carry = (r >> 63) != 0;
        r = (r << 1) | ((n >> i) & 1);
        if (carry || r >= d) {
            r -= d;
            q |= (uint64_t)1 << i;
        }
    }
    if (rem)
        *rem = r;
    return q;
}

void agent_rng_seed(struct agent_rng *r, uint64_t seed, uint64_t rep)
{
    r->s = lab_content_word(seed, rep);
    if (r->s == 0)
        r->s = 0x9E3779B97F4A7C15ULL;
}

uint64_t agent_rng_next(struct agent_rng *r)
{
    uint64_t x = r->s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    r->s = x;
    return x;
}

int agent_randrange_init(struct agent_randrange *rr, uint64_t offset, uint64_t span, uint64_t bs)
{
    rr->first = 0;
    rr->nblocks = 0;
    rr->bs = bs;
    if (bs == 0 || offset + span < offset)
        return -1;
    uint64_t rem, end = offset + span;
    agent_udiv64(offset, bs, &rem);
    uint64_t first = offset;
    if (rem) {
        if (first + (bs - rem) < first)
            return -1;
        first += bs - rem;
    }
    if (first >= end || end - first < bs)
        return -1;
    rr->first = first;
    rr->nblocks = agent_udiv64(end - first, bs, NULL);
    return 0;
}

uint64_t agent_randrange_next(const struct agent_randrange *rr, struct agent_rng *r)
{
    uint64_t k;
    agent_udiv64(agent_rng_next(r), rr->nblocks, &k);
    return rr->first + k * rr->bs;
}

static void sift_down(uint64_t *a, size_t root, size_t n)
{
    for (;;) {
        size_t c = 2 * root + 1;
        if (c >= n)
            return;
        if (c + 1 < n && a[c + 1] > a[c])
            c++;
        if (a[root] >= a[c])
            return;
        uint64_t t = a[root];
        a[root] = a[c];
        a[c] = t;
        root = c;
    }
}

void agent_sort_u64(uint64_t *a, size_t n)
{
    if (n < 2)
        return;
    for (size_t i = n / 2; i-- > 0;)
        sift_down(a, i, n);
    for (size_t end = n - 1; end > 0; end--) {
        uint64_t t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift_down(a, 0, end);
    }
}

uint64_t agent_percentile(const uint64_t *sorted, size_t n, unsigned p)
{
    if (n == 0)
        return 0;
    if (p == 0)
        p = 1;
    if (p > 100)
        p = 100;
    uint64_t rem, rank = agent_udiv64((uint64_t)p * n, 100, &rem);
    if (rem)
        rank++;
    if (rank == 0)
        rank = 1;
    return sorted[rank - 1];
}

void agent_latency_summary(uint64_t *a, size_t n, struct agent_latsum *s)
{
    s->n = n;
    s->mean = s->min = s->p50 = s->p99 = s->max = 0;
    if (n == 0)
        return;
    agent_sort_u64(a, n);
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += a[i];
    s->mean = agent_udiv64(sum, n, NULL);
    s->min = a[0];
    s->max = a[n - 1];
    s->p50 = agent_percentile(a, n, 50);
    s->p99 = agent_percentile(a, n, 99);
}
