/* Pure arithmetic of the agent's block-device tests: 64-bit division without
 * libgcc, the random-offset generator of randread, and latency figures
 * (sort, mean, nearest-rank percentiles). Compiled for the guest and, for the
 * unit tests, for the host. */
#ifndef LAB_AGENT_FIGURES_H
#define LAB_AGENT_FIGURES_H

#include <stddef.h>
#include <stdint.h>

/* n / d (and n % d in *rem if rem) by shift and subtract: i386 has no libgcc
 * for a 64-bit divide. d == 0 gives 0 and *rem = n. */
uint64_t agent_udiv64(uint64_t n, uint64_t d, uint64_t *rem);

/* xorshift64 (Marsaglia): a deterministic generator; the state is never 0. */
struct agent_rng {
    uint64_t s;
};
/* Seeds from lab.seed and the run's rep number (splitmix64 of both), so every
 * rep reads a different but reproducible sequence. */
void agent_rng_seed(struct agent_rng *r, uint64_t seed, uint64_t rep);
uint64_t agent_rng_next(struct agent_rng *r);

/* The blocks randread picks from: every bs-aligned block [o, o + bs) that lies
 * wholly inside [offset, offset + span). Offsets are aligned to bs from byte
 * 0 of the device (so an O_DIRECT-friendly bs gives O_DIRECT-friendly
 * offsets), the first one at offset rounded up to a multiple of bs. */
struct agent_randrange {
    uint64_t first;   /* byte offset of the first block */
    uint64_t nblocks; /* how many blocks there are to choose from */
    uint64_t bs;
};
/* Returns 0, or -1 when no block fits (bs 0, span shorter than a block after
 * alignment, or offset + span beyond 2^64). */
int agent_randrange_init(struct agent_randrange *rr, uint64_t offset, uint64_t span, uint64_t bs);
/* The next offset, uniform over the blocks (modulo bias < nblocks / 2^64). */
uint64_t agent_randrange_next(const struct agent_randrange *rr, struct agent_rng *r);

/* Sorts a[0..n) ascending in place (heapsort: no recursion, O(n log n)). */
void agent_sort_u64(uint64_t *a, size_t n);

/* Nearest-rank percentile of sorted a[0..n), n >= 1, p in 1..100: the value
 * at rank ceil(p * n / 100), i.e. a[ceil(p * n / 100) - 1]; the smallest
 * value with at least p% of the samples at or below it. */
uint64_t agent_percentile(const uint64_t *sorted, size_t n, unsigned p);

struct agent_latsum {
    uint64_t n, mean, min, p50, p99, max; /* mean truncated to an integer */
};
/* Sorts a[0..n) and summarises it; n == 0 gives all zeros. */
void agent_latency_summary(uint64_t *a, size_t n, struct agent_latsum *s);

#endif
