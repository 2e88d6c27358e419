/* The order of a run's cells (issue 13): every kernel boots `boots` times
 * per variant, and the cells of a comparison are interleaved, so a change
 * in the host's load falls on every kernel alike: boot 1 of each variant
 * for kernel A, B, C, then boot 2 ... (A1 B1 A2 B2 for two kernels).
 * Pure. */
#ifndef LAB_PLAN_ORDER_H
#define LAB_PLAN_ORDER_H

#include <stddef.h>

#define LAB_PLAN_MAX_BOOTS 20

struct lab_plan_slot {
    size_t kernel;  /* index into the kernels named */
    size_t variant; /* index into the variants (0 without variants) */
    unsigned boot;  /* 1 .. boots */
};

/* Fills out[0 .. nk*nv*boots-1] (nv 0 counts as 1) in run order and
 * returns how many; 0 when that is more than max or an argument is 0. */
size_t lab_plan_order(size_t nk, size_t nv, unsigned boots, struct lab_plan_slot *out, size_t max);

#endif
