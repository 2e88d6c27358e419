/* The interleaved order of a run's cells: see order.h. */
#include "host/plan/order.h"

size_t lab_plan_order(size_t nk, size_t nv, unsigned boots, struct lab_plan_slot *out, size_t max)
{
    size_t n = 0;
    if (nv == 0)
        nv = 1;
    if (nk == 0 || boots == 0 || boots > LAB_PLAN_MAX_BOOTS || nk * nv * boots > max)
        return 0;
    /* Kernels innermost: the cells compared with each other are neighbours
     * in time. */
    for (unsigned b = 1; b <= boots; b++)
        for (size_t v = 0; v < nv; v++)
            for (size_t k = 0; k < nk; k++)
                out[n++] = (struct lab_plan_slot){.kernel = k, .variant = v, .boot = b};
    return n;
}
