/* The one warm-up rule; see warmup.h. */
#include "host/plan/warmup.h"
#include "host/plan/experiment.h"
#include "host/store/store.h"

#include <stdlib.h>
#include <string.h>

struct lab_warmup lab_warmup_of_experiment(const struct lab_experiment *e)
{
    return (struct lab_warmup){e->warmup, e->reps + e->warmup};
}

/* The number of word "lab.KEY=" in the agent's parameters, or dflt. */
static unsigned param_num(const char *params, const char *word, unsigned dflt)
{
    size_t n = strlen(word);
    for (const char *p = params; p && (p = strstr(p, word)); p += n)
        if (p == params || p[-1] == ' ')
            return (unsigned)strtoul(p + n, NULL, 10);
    return dflt;
}

struct lab_warmup lab_warmup_of_cell(struct lab_store *st, int64_t cell, const char *params)
{
    char buf[32];
    struct lab_warmup w = {param_num(params, "lab.warmup=", 0), param_num(params, "lab.reps=", 0)};
    if (st && lab_store_cell_get(st, cell, "warmup", buf, sizeof buf))
        w.warmup = (unsigned)strtoul(buf, NULL, 10);
    return w;
}

int lab_warmup_is(struct lab_warmup w, uint64_t rep)
{
    return (w.every ? rep % w.every : rep) < w.warmup;
}
