/* Hardware profiles: fast, iotune:BYTES,IOPS, or a timing-model file. */
#include "host/plan/profile.h"
#include "host/hdd/profile.h"
#include "common/datadir.h"
#include "common/file.h"
#include "common/msg.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

const char *lab_profiles_dir(void)
{
    return lab_data_dir(LAB_DATA_PROFILES);
}

/* "iotune:30M,120" -> bytes/s and IOPS (either may be 0 = unlimited). */
static int parse_iotune(const char *spec, struct lab_profile *p)
{
    char *end;
    const char *s = spec + strlen("iotune:");
    unsigned long long v = strtoull(s, &end, 10);
    static const struct {
        char c;
        unsigned long long mult;
    } units[] = {{'K', 1000}, {'M', 1000000}, {'G', 1000000000}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (*end == units[i].c) {
            v *= units[i].mult;
            end++;
        }
    if (end == s || *end != ',')
        return lab_error("profile '%s': expected iotune:BYTES_PER_S,IOPS (e.g. iotune:30M,120)",
                         spec);
    p->iotune_bytes = v;
    s = end + 1;
    p->iotune_iops = strtoull(s, &end, 10);
    if (end == s || *end)
        return lab_error("profile '%s': IOPS is not a number", spec);
    if (!p->iotune_bytes && !p->iotune_iops)
        return lab_error("profile '%s': give a byte rate, an IOPS limit or both", spec);
    return 0;
}

int lab_profile_resolve(const char *name, struct lab_profile *out)
{
    char err[512];
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", name);
    out->bus = "ide";
    if (strcmp(name, "fast") == 0) {
        out->kind = LAB_PROFILE_FAST;
        return 0;
    }
    if (strncmp(name, "iotune:", 7) == 0) {
        out->kind = LAB_PROFILE_IOTUNE;
        return parse_iotune(name, out);
    }
    out->kind = LAB_PROFILE_MODEL;
    if (strchr(name, '/'))
        snprintf(out->path, sizeof out->path, "%s", name);
    else
        snprintf(out->path, sizeof out->path, "%s/%s.profile", lab_profiles_dir(), name);
    if (!lab_file_exists(out->path))
        return lab_error("unknown profile '%s' (no file %s); `lab profiles` lists them", name,
                         out->path);
    if (hdd_profile_load(out->path, &out->params, err, sizeof err) < 0)
        return lab_error("%s", err);
    out->bus = hdd_bus_name(out->params.bus);
    out->rpm = (unsigned)out->params.rpm;
    out->memory_mib = out->params.memory_mib > 0 ? (unsigned)out->params.memory_mib : 0;
    /* An era machine as one name: the profile may name its CPU. */
    if (out->params.cpu[0] && !(out->cpu = lab_cpu_find(out->params.cpu)))
        return lab_error("%s: cpu = %s: unknown CPU profile; `lab cpus` lists them", out->path,
                         out->params.cpu);
    return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_profile(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return n > 8 && strcmp(d->d_name + n - 8, ".profile") == 0;
}

int lab_profiles_list(FILE *out)
{
    struct dirent **list;
    int n = scandir(lab_profiles_dir(), &list, is_profile, by_name), rc = 0;
    if (n < 0)
        return lab_error("cannot list %s", lab_profiles_dir());
    fprintf(out, "%-16s %-5s %s\n", "PROFILE", "BUS", "KEY FIGURES");
    fprintf(out, "%-16s %-5s %s\n", "fast", "ide",
            "no timing model: as fast as QEMU serves the image");
    fprintf(out, "%-16s %-5s %s\n", "iotune:B,IOPS", "ide",
            "QEMU throttling only (bytes/s, IOPS): no seek, rotation or drive cache");
    for (int i = 0; i < n; i++) {
        char name[256], figures[512];
        struct lab_profile p;
        snprintf(name, sizeof name, "%s", list[i]->d_name);
        name[strlen(name) - 8] = '\0';
        if (lab_profile_resolve(name, &p) == 0) {
            hdd_profile_summary(&p.params, figures, sizeof figures);
            fprintf(out, "%-16s %-5s %s\n", name, p.bus, figures);
        } else {
            rc = -1;
        }
        free(list[i]);
    }
    free(list);
    return rc;
}
