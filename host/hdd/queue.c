/* Command queueing: FIFO for queue_depth 1, else shortest positioning time
 * first among the first queue_depth pending requests, with aging. */
#include <stdint.h>

#include "host/hdd/model_int.h"

int hdd_queue_submit(struct hdd_model *m, int op, uint64_t offset, uint32_t len, int fua,
                     int64_t arrival_ns)
{
    for (int i = 0; i < HDD_MAX_QUEUE; i++) {
        struct hdd_qreq *q = &m->q[i];
        if (q->used)
            continue;
        *q = (struct hdd_qreq){.used = 1,
                               .ticket = m->next_ticket,
                               .op = op,
                               .fua = fua,
                               .lba = offset,
                               .nsect = len,
                               .arrival = arrival_ns};
        m->next_ticket = m->next_ticket == INT32_MAX ? 0 : m->next_ticket + 1;
        return q->ticket;
    }
    return -1;
}

int64_t hdd_queue_free_at(const struct hdd_model *m)
{
    return (int64_t)m->busy_until;
}

int hdd_queue_pending(const struct hdd_model *m)
{
    int n = 0;
    for (int i = 0; i < HDD_MAX_QUEUE; i++)
        n += m->q[i].used && !m->q[i].done;
    return n;
}

int hdd_queue_next(struct hdd_model *m, int64_t now_ns)
{
    /* (lba holds the byte offset and nsect the byte length here.) */
    int cand[HDD_MAX_QUEUE], n = 0;
    int64_t first = INT64_MAX;
    for (int i = 0; i < HDD_MAX_QUEUE; i++)
        if (m->q[i].used && !m->q[i].done && m->q[i].arrival < first)
            first = m->q[i].arrival;
    if (first == INT64_MAX)
        return -1;
    int64_t busy = (int64_t)m->busy_until;
    int64_t t_dec = busy > first ? busy : first;
    if (t_dec > now_ns)
        return -1;
    /* Candidates: arrived by the decision time, the oldest queue_depth. */
    for (int i = 0; i < HDD_MAX_QUEUE; i++)
        if (m->q[i].used && !m->q[i].done && m->q[i].arrival <= t_dec)
            cand[n++] = i;
    for (int i = 1; i < n; i++) { /* insertion sort by arrival, then ticket */
        int c = cand[i], j = i - 1;
        while (j >= 0 && (m->q[cand[j]].arrival > m->q[c].arrival ||
                          (m->q[cand[j]].arrival == m->q[c].arrival &&
                           m->q[cand[j]].ticket > m->q[c].ticket))) {
            cand[j + 1] = cand[j];
            j--;
        }
        cand[j + 1] = c;
    }
    if (n > m->p.queue_depth)
        n = m->p.queue_depth;
    int pick = cand[0];
    double maxwait = m->p.max_wait_ms * 1e6;
    if (n > 1 && (double)(t_dec - m->q[cand[0]].arrival) <= maxwait) {
        /* Nobody aged past max_wait (the oldest is cand[0]): SPTF. */
        double best = 0;
        for (int k = 0; k < n; k++) {
            struct hdd_qreq *q = &m->q[cand[k]];
            double e =
                hdd_position_estimate(m, q->op, q->lba, (uint32_t)q->nsect, q->fua, (double)t_dec);
            if (k == 0 || e < best) {
                best = e;
                pick = cand[k];
            }
        }
    }
    struct hdd_qreq *q = &m->q[pick];
    hdd_serve(m, q->op, q->lba, (uint32_t)q->nsect, q->fua, q->arrival, t_dec, &q->res);
    q->done = 1;
    return q->ticket;
}

int hdd_queue_done(struct hdd_model *m, int ticket, struct hdd_result *out)
{
    for (int i = 0; i < HDD_MAX_QUEUE; i++) {
        struct hdd_qreq *q = &m->q[i];
        if (q->used && q->ticket == ticket) {
            if (!q->done)
                return 0;
            *out = q->res;
            q->used = 0;
            return 1;
        }
    }
    return -1;
}
