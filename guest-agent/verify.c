/* Pure content check (see verify.h). */
#include "verify.h"
#include "protocol.h"

void agent_verify_init_at(struct agent_verify *v, uint64_t seed, uint64_t off)
{
    v->seed = seed;
    v->off = off;
    v->errors = 0;
    v->plen = 0;
}

void agent_verify_init(struct agent_verify *v, uint64_t seed)
{
    agent_verify_init_at(v, seed, 0);
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t w = 0;
    for (int i = 7; i >= 0; i--)
        w = (w << 8) | p[i];
    return w;
}

void agent_verify_feed(struct agent_verify *v, const void *buf, size_t n)
{
    const uint8_t *p = buf;
    size_t i = 0;
    /* Complete a word begun in an earlier block. */
    while (v->plen && i < n) {
        v->part[v->plen++] = p[i++];
        if (v->plen == 8) {
            if (le64(v->part) != lab_content_word(v->seed, (v->off + i - 8) >> 3))
                v->errors++;
            v->plen = 0;
        }
    }
    uint64_t word = (v->off + i) >> 3;
    for (; i + 8 <= n; i += 8, word++)
        if (le64(p + i) != lab_content_word(v->seed, word))
            v->errors++;
    while (i < n)
        v->part[v->plen++] = p[i++];
    v->off += n;
}

uint64_t agent_verify_finish(struct agent_verify *v)
{
    if (v->plen) {
        uint64_t want = lab_content_word(v->seed, v->off >> 3);
        for (unsigned k = 0; k < v->plen; k++)
            if (v->part[k] != (uint8_t)(want >> (8 * k))) {
                v->errors++;
                break;
            }
        v->plen = 0;
    }
    return v->errors;
}
