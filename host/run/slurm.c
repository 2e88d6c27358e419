/* Slurm's commands as the lab uses them; see slurm.h. */
#include "host/run/slurm.h"
#include "common/msg.h"
#include "common/proc.h"
#include "common/str.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int lab_slurm_check(const char *what)
{
    char buf[PATH_MAX];
    if (access(lab_tool_path("sbatch", buf, sizeof buf), X_OK) != 0)
        return lab_error("%s needs Slurm's sbatch and squeue here "
                         "(Debian: apt-get install slurm-client; see docs/scale-out.md)",
                         what);
    return 0;
}

void lab_slurm_feature(const char *partition, char *out, size_t len)
{
    const char *env = getenv("LAB_SLURM_FEATURE");
    out[0] = '\0';
    if (env) {
        snprintf(out, len, "%s", env);
        return;
    }
    char *q = partition ? lab_shell_quote(partition) : lab_xstrdup("");
    char *cmd = lab_asprintf("sinfo -h -o '%%f' %s%s 2>/dev/null", partition ? "-p " : "", q);
    char *got = lab_capture(cmd);
    if (got) {
        got[strcspn(got, ",\n ")] = '\0';
        if (strcmp(got, "(null)") != 0)
            snprintf(out, len, "%s", got);
    }
    free(got);
    free(cmd);
    free(q);
}

int lab_slurm_sbatch(const struct lab_slurm_submit *s, char id[LAB_SLURM_JOB_ID])
{
    /* Each optional word of the command line, present or not. */
    char array[32] = "";
    if (s->array)
        snprintf(array, sizeof array, "--array=0-%u", s->array - 1);
    char *part = s->partition ? lab_shell_quote(s->partition) : NULL;
    char *feat = s->feature && s->feature[0] ? lab_shell_quote(s->feature) : NULL;
    char *dep = s->after_ok
                    ? lab_asprintf("--dependency=afterok:%s --kill-on-invalid-dep=yes", s->after_ok)
                    : NULL;
    char *name = lab_shell_quote(s->name), *output = lab_shell_quote(s->output);
    char *script = lab_shell_quote(s->script);
    char *cmd = lab_asprintf("sbatch --parsable %s %s --cpus-per-task=1 --job-name=%s --output=%s "
                             "%s%s %s%s %s %s 2>&1",
                             s->requeue ? "--requeue" : "--no-requeue", array, name, output,
                             part ? "--partition=" : "", part ? part : "",
                             feat ? "--constraint=" : "", feat ? feat : "", dep ? dep : "", script);
    char *out = lab_capture(cmd);
    int rc = -1;
    if (out && out[0] >= '0' && out[0] <= '9') {
        out[strcspn(out, ";\n")] = '\0';
        snprintf(id, LAB_SLURM_JOB_ID, "%s", out);
        rc = 0;
    } else {
        if (out)
            out[strcspn(out, "\n")] = '\0';
        lab_error("sbatch refused %s: %s", s->name, out && *out ? out : "(no output)");
    }
    free(out);
    free(cmd);
    free(script);
    free(output);
    free(name);
    free(dep);
    free(feat);
    free(part);
    return rc;
}

char *lab_slurm_listed(const char (*jobs)[LAB_SLURM_JOB_ID], size_t n)
{
    if (!n)
        return lab_xstrdup("");
    size_t cap = n * (LAB_SLURM_JOB_ID + 1) + 1, len = 0;
    char *ids = lab_xcalloc(1, cap);
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(ids + len, cap - len, "%s%s", i ? "," : "", jobs[i]);
    char *cmd = lab_asprintf("squeue -h -r -o '%%i' -j %s 2>/dev/null", ids);
    char *out = lab_capture(cmd);
    free(cmd);
    free(ids);
    return out ? out : lab_xstrdup("");
}

int lab_slurm_is_listed(const char *lines, const char *task)
{
    size_t len = strlen(task);
    for (const char *p = lines; (p = strstr(p, task)); p += len)
        if ((p == lines || p[-1] == '\n') && (p[len] == '\n' || p[len] == '\0'))
            return 1;
    return 0;
}

void lab_slurm_cancel(const char *job)
{
    char *cmd = lab_asprintf("scancel --signal=INT --full %s >/dev/null 2>&1", job);
    free(lab_capture(cmd));
    free(cmd);
}
