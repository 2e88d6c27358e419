/* A finished run's files, and --fail-on: the stored run's comparisons
 * against the gate, each one that trips said on stderr; see outputs.h. */
#include "lab/outputs.h"
#include "host/report/json.h"
#include "host/report/junit.h"
#include "host/stats/runmodel.h"
#include "common/exitcode.h"
#include "common/msg.h"

#include <stdio.h>

int lab_run_write_files(struct lab_store *st, int64_t run, const char *json, const char *junit,
                        double threshold_pct)
{
    int rc = 0;
    if (json && lab_json_write(st, run, json) < 0)
        rc = -1;
    if (junit && lab_junit_write_run(st, run, threshold_pct, junit) < 0)
        rc = -1;
    return rc;
}

int lab_gate_valid(const char *name)
{
    enum lab_gate gate;
    return lab_gate_parse(name, &gate) == 0;
}

int lab_gate_check(struct lab_store *st, int64_t run, const char *gate_name, double threshold_pct)
{
    enum lab_gate gate;
    struct lab_model *m;
    int tripped = 0;
    if (!gate_name)
        return LAB_EXIT_OK;
    if (lab_gate_parse(gate_name, &gate) < 0)
        return lab_error("--fail-on wants slower, faster or change, not '%s'", gate_name),
               LAB_EXIT_USAGE;
    if (!(m = lab_model_load(st, run)))
        return LAB_EXIT_FAILED;
    for (size_t i = 0; i < m->ncmps; i++) {
        const struct lab_model_cmp *c = &m->cmps[i];
        if (!lab_model_gate_trips(c, gate, threshold_pct))
            continue;
        tripped++;
        fprintf(stderr, "lab: --fail-on %s: %s is %s than %s by %+.1f%% (significant, p=%.3g)\n",
                gate_name, m->rows[c->row].label, lab_verdict_name(c->verdict),
                m->rows[c->base].label, c->c.diff_pct, c->p);
    }
    lab_model_free(m);
    if (tripped)
        fprintf(stderr, "lab: --fail-on %s: %d comparison(s) at least %.1f%%: exit %d\n", gate_name,
                tripped, threshold_pct, LAB_EXIT_CHANGED);
    return tripped ? LAB_EXIT_CHANGED : LAB_EXIT_OK;
}
