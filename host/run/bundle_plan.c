/* The plan a cell job carries (issue 20): what the controller decided about
 * the cell, as text, and its SHA-256. The controller writes it into
 * CELL.json; the worker plans the cell again from what the job carries
 * (the experiment's resolved text, the profile's text) and runs it only if
 * its plan hashes the same; the bundle's manifest records the hash, and
 * the controller's import checks it against the one it dispatched. */
#include "host/run/bundle.h"
#include "host/plan/cellplan.h"
#include "host/plan/celldomain.h"
#include "kernels/user.h"
#include "common/file.h"
#include "common/hash.h"
#include "common/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The decisions lab_cell_plan makes, the agent's parameters and the
 * kernel's command line; or why the cell cannot be planned. */
static char *decided(const struct lab_cell_spec *spec)
{
    struct lab_era era;
    struct lab_cell_plan plan;
    char reason[512];
    int have_era = lab_kernel_era(spec->kernel, &era) == 0;
    if (lab_cell_plan(spec, have_era ? &era : NULL, &plan, reason, sizeof reason) < 0)
        return lab_asprintf("cannot plan: %s\n", reason);
    char *cell = lab_cell_plan_describe(&plan);
    char *params = lab_cell_agent_params(&plan, spec->exp);
    /* Only the command line is read: the paths are this host's. */
    struct lab_cell_paths paths = {"cell", "bzImage", "initrd", "console", "agent", "disk", NULL};
    struct lab_domain_spec ds;
    char *cmdline = lab_cell_domain(&plan, spec->profile, spec->exp, spec->virt_type, &paths, &ds);
    char *out = lab_asprintf("%sagent parameters: %skernel command line: %s\n", cell, params,
                             cmdline ? cmdline : "?");
    free(cell);
    free(params);
    free(cmdline);
    return out;
}

char *lab_cell_job_plan_text(const struct lab_cell_spec *spec)
{
    char *exp = lab_experiment_format(spec->exp), *rest = decided(spec);
    const struct lab_profile *p = spec->profile;
    char *out = lab_asprintf(
        "kernel %s\nexperiment %s\n%sprofile %s\nbus %s\nchannel %s\n"
        "cpu %s\nvirt_type %s\ntimeout_s %u\n%s",
        spec->kernel->name, spec->exp->name ? spec->exp->name : "?", exp, p ? p->name : "fast",
        spec->bus ? spec->bus->name : "(profile's)", spec->channel ? spec->channel : "(era's)",
        spec->cpu ? spec->cpu->name : "fast", spec->virt_type, spec->timeout_s, rest);
    free(exp);
    free(rest);
    return out;
}

int lab_cell_job_plan_hash(const struct lab_cell_spec *spec, char hex[65])
{
    struct lab_hash h;
    if (lab_hash_init(&h) < 0)
        return -1;
    char *text = lab_cell_job_plan_text(spec);
    lab_hash_str(&h, text);
    free(text);
    /* A model profile's numbers are part of the plan, not just its name. */
    if (spec->profile && spec->profile->kind == LAB_PROFILE_MODEL &&
        lab_hash_file(&h, spec->profile->path) < 0) {
        lab_hash_abort(&h);
        return -1;
    }
    return lab_hash_final(&h, hex);
}
