/* Pure content check of the lab's deterministic test files: feeds the bytes
 * of a file in order, in blocks of any size, and counts the 8-byte words that
 * differ from lab_content_word(seed, i). */
#ifndef LAB_AGENT_VERIFY_H
#define LAB_AGENT_VERIFY_H

#include <stddef.h>
#include <stdint.h>

struct agent_verify {
    uint64_t seed;
    uint64_t off;    /* bytes fed so far */
    uint64_t errors; /* mismatching words */
    uint8_t part[8]; /* bytes of a word split across blocks */
    unsigned plen;
};

void agent_verify_init(struct agent_verify *v, uint64_t seed);
/* The same for bytes that start at off (a multiple of 8) into the file. */
void agent_verify_init_at(struct agent_verify *v, uint64_t seed, uint64_t off);
void agent_verify_feed(struct agent_verify *v, const void *buf, size_t n);
/* Checks a trailing partial word (file size not a multiple of 8) against the
 * low bytes of its expected word; returns the total error count. */
uint64_t agent_verify_finish(struct agent_verify *v);

#endif
