/* The tests, their figures and the reader of a sample's extra keys; see
 * testdef.h. */
#include "host/plan/testdef.h"
#include "host/store/store.h"
#include "common/str.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Indexed by figure: the JSON keys, the plots' axes, which way is better,
 * and the bisection's formulas. */
static const struct lab_metric figs[LAB_FIG_COUNT] = {
    [LAB_FIG_SECS] = {"secs", "s", "real_ns / 10^9, the guest's wall time of a run (any test)", 0},
    [LAB_FIG_MBPS] = {"mbps", "MB/s",
                      "bytes / real_ns * 1000 (10^6 bytes/s; seqread, devread, reread)", 1},
    [LAB_FIG_IOPS] = {"iops", "IOPS", "count (from the sample's extra) / real seconds (randread)",
                      1},
    [LAB_FIG_USER] = {"user_secs", "s", NULL, 0},
    [LAB_FIG_SYS] = {"sys_secs", "s", NULL, 0},
    [LAB_FIG_LAT_MEAN] = {"lat_mean_ms", "ms", NULL, 0},
    [LAB_FIG_LAT_P50] = {"lat_p50_ms", "ms", NULL, 0},
    [LAB_FIG_LAT_P99] = {"lat_p99_ms", "ms", NULL, 0},
    [LAB_FIG_CPU_USER] = {"cpu_user_pct", "%", NULL, 0},
    [LAB_FIG_CPU_SYS] = {"cpu_sys_pct", "%", NULL, 0},
    [LAB_FIG_CPU_IDLE] = {"cpu_idle_pct", "%", NULL, 1},
    [LAB_FIG_CPU_IOWAIT] = {"cpu_iowait_pct", "%", NULL, 0},
    [LAB_FIG_HOST_SECS] = {"host_secs", "s", NULL, 0},
    [LAB_FIG_FILES] = {"files", "files", NULL, 1},
    [LAB_FIG_LOADS] = {"load_units", "units", NULL, 1},
    [LAB_FIG_FG_CPU] = {"fg_cpu_pct", "%", NULL, 1},
    [LAB_FIG_LOAD_CPU] = {"load_cpu_pct", "%", NULL, 1},
    [LAB_FIG_OPS] = {"ops_per_sec", "ops/s", NULL, 1},
    [LAB_FIG_RATIO] = {"ratio", "x", NULL, 0},
    [LAB_FIG_LOAD_MB] = {"load_mb", "MB", NULL, 1},
};

/* The bisection's metrics, in the order --help lists them. */
static const enum lab_fig metric_figs[] = {LAB_FIG_MBPS, LAB_FIG_IOPS, LAB_FIG_SECS};
#define NMETRICS (sizeof metric_figs / sizeof metric_figs[0])

/* The tests, in the order errors list them. Seeds 001 and 003 name their
 * columns: contest's Time, CPU%, Loads, LCPU%, Ratio; treeread's min, avg,
 * max, stddev of the run time and the CPU split with the copy's progress. */
static const struct lab_testdef tests[] = {
    {"seqread",
     "ext2",
     "ext2 ext3tree",
     1,
     LAB_WORK_FILE,
     "mbps secs",
     "lab.bs lab.size lab.verify lab.file",
     {1,
      "time in s, guest clock; MB/s = 10^6 bytes/s",
      LAB_FIG_MBPS,
      "MB/s",
      {{LAB_FIG_SECS, "time", 3, 1},
       {LAB_FIG_MBPS, "MB/s", 1, 1},
       {LAB_FIG_USER, "user", 3, 0},
       {LAB_FIG_SYS, "sys", 3, 0}}}},
    {"devread",
     "raw",
     "raw ext2 ext3tree",
     0,
     LAB_WORK_DEVICE,
     "mbps secs",
     "lab.bs lab.size lab.verify lab.direct",
     {1,
      "time in s; MB/s = 10^6 bytes/s; CPU % from /proc/stat over each run",
      LAB_FIG_MBPS,
      "MB/s",
      {{LAB_FIG_SECS, "time", 3, 1},
       {LAB_FIG_MBPS, "MB/s", 1, 1},
       {LAB_FIG_CPU_USER, "%user", 1, 0},
       {LAB_FIG_CPU_SYS, "%sys", 1, 0},
       {LAB_FIG_CPU_IOWAIT, "%iowait", 1, 0},
       {LAB_FIG_CPU_IDLE, "%idle", 1, 0}}}},
    {"randread",
     "raw",
     "raw ext2 ext3tree",
     0,
     LAB_WORK_REQUESTS,
     "iops secs",
     "lab.bs lab.count lab.direct lab.qd lab.span lab.offset lab.verify",
     {0,
      "IOPS per run; latency per request in ms, in the guest",
      LAB_FIG_IOPS,
      "IOPS",
      {{LAB_FIG_IOPS, "IOPS", 1, 1},
       {LAB_FIG_LAT_MEAN, "lat mean", 3, 0},
       {LAB_FIG_LAT_P50, "p50", 3, 0},
       {LAB_FIG_LAT_P99, "p99", 3, 0},
       {LAB_FIG_CPU_SYS, "%sys", 1, 0},
       {LAB_FIG_CPU_IOWAIT, "%iowait", 1, 0}}}},
    {"treeread",
     "ext3tree",
     "ext3tree",
     1,
     LAB_WORK_TREE,
     "secs",
     "lab.bs",
     {1,
      "time in s to read every file of a tree; CPU % from /proc/stat",
      LAB_FIG_SECS,
      "time",
      {{LAB_FIG_SECS, "time", 3, 1},
       {LAB_FIG_FILES, "files", 0, 0},
       {LAB_FIG_CPU_USER, "%user", 1, 0},
       {LAB_FIG_CPU_SYS, "%system", 1, 0},
       {LAB_FIG_CPU_IOWAIT, "%iowait", 1, 0},
       {LAB_FIG_LOAD_MB, "load MB", 1, 0}}}},
    {"overwrite",
     "ext3tree",
     "ext3tree",
     1,
     LAB_WORK_REQUESTS,
     "secs",
     "lab.bs lab.count lab.direct lab.file lab.verify lab.write_pct",
     {0,
      "4 KiB O_DIRECT random reads and writes in the big file; latency in ms",
      LAB_FIG_OPS,
      "ops/s",
      {{LAB_FIG_SECS, "time", 3, 1},
       {LAB_FIG_OPS, "ops/s", 1, 0},
       {LAB_FIG_LAT_P50, "p50", 3, 0},
       {LAB_FIG_LAT_P99, "p99", 3, 0},
       {LAB_FIG_CPU_SYS, "%system", 1, 0},
       {LAB_FIG_CPU_IOWAIT, "%iowait", 1, 0},
       {LAB_FIG_LOAD_MB, "load MB", 1, 0}}}},
    {"contest",
     "ext3tree",
     "ext3tree",
     1,
     LAB_WORK_TREE,
     "secs",
     "lab.bs lab.cpu_rounds",
     {0,
      "contest: the foreground job's time under each load, Ratio against no load",
      LAB_FIG_SECS,
      "time",
      {{LAB_FIG_SECS, "Time", 2, 1},
       {LAB_FIG_FG_CPU, "CPU%", 1, 0},
       {LAB_FIG_LOADS, "Loads", 1, 0},
       {LAB_FIG_LOAD_CPU, "LCPU%", 1, 0},
       {LAB_FIG_RATIO, "Ratio", 2, 0}}}},
    {"reread",
     "ext2",
     "ext2 ext3tree",
     1,
     LAB_WORK_FILE,
     "mbps secs",
     "lab.bs lab.size lab.verify lab.file",
     {1,
      "the file read again from the page cache: no disk IO, only the read path and its copy "
      "to user space; MB/s = 10^6 bytes/s",
      LAB_FIG_MBPS,
      "MB/s",
      {{LAB_FIG_SECS, "time", 3, 1},
       {LAB_FIG_MBPS, "MB/s", 1, 1},
       {LAB_FIG_USER, "user", 3, 0},
       {LAB_FIG_SYS, "sys", 3, 0}}}},
};
#define NTESTS (sizeof tests / sizeof tests[0])

const struct lab_metric *lab_fig(enum lab_fig f)
{
    return (unsigned)f < LAB_FIG_COUNT ? &figs[f] : NULL;
}

const char *lab_fig_name(enum lab_fig f)
{
    return lab_fig(f) ? figs[f].name : "?";
}

const char *lab_fig_unit(enum lab_fig f)
{
    return lab_fig(f) ? figs[f].unit : "?";
}

const struct lab_metric *lab_test_metric(const char *name)
{
    for (size_t i = 0; i < NMETRICS; i++)
        if (strcmp(figs[metric_figs[i]].name, name) == 0)
            return &figs[metric_figs[i]];
    return NULL;
}

const struct lab_metric *lab_test_metric_at(size_t i)
{
    return i < NMETRICS ? &figs[metric_figs[i]] : NULL;
}

double lab_extra_num(const char *extra, const char *key)
{
    size_t klen = strlen(key);
    for (const char *p = extra; p && *p;) {
        while (*p == ' ')
            p++;
        if (strncmp(p, key, klen) == 0 && p[klen] == '=')
            return strtod(p + klen + 1, NULL);
        p = strchr(p, ' ');
    }
    return NAN;
}

double lab_metric_value(const struct lab_metric *m, const struct lab_sample *s)
{
    double secs = (double)s->real_ns / 1e9;
    if (secs <= 0)
        return NAN;
    if (m == &figs[LAB_FIG_MBPS])
        return (double)s->bytes / secs / 1e6;
    if (m == &figs[LAB_FIG_IOPS]) {
        double count = lab_extra_num(s->extra, "count");
        return count > 0 ? count / secs : NAN;
    }
    if (m == &figs[LAB_FIG_SECS])
        return secs;
    return NAN;
}

int lab_shape_lower_is_better(const struct lab_shape *sh)
{
    return !figs[sh->compare].higher_is_better;
}

const struct lab_testdef *lab_test_find(const char *name)
{
    for (size_t i = 0; name && i < NTESTS; i++)
        if (strcmp(tests[i].name, name) == 0)
            return &tests[i];
    return NULL;
}

const struct lab_testdef *lab_test_at(size_t i)
{
    return i < NTESTS ? &tests[i] : NULL;
}

char *lab_test_names(const char *sep)
{
    char *out = lab_xstrdup("");
    for (size_t i = 0; i < NTESTS; i++) {
        char *next = lab_asprintf("%s%s%s", out, i ? sep : "", tests[i].name);
        free(out);
        out = next;
    }
    return out;
}

/* 1 if word is one of the space-separated words of list. */
static int has_word(const char *list, const char *word)
{
    size_t len = strlen(word);
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, " ");
        if (n == len && strncmp(p, word, len) == 0)
            return 1;
        p += n + (p[n] == ' ');
    }
    return 0;
}

int lab_test_gives(const struct lab_testdef *t, const struct lab_metric *m)
{
    return t && m && has_word(t->metrics, m->name);
}

int lab_test_takes_disk(const struct lab_testdef *t, const char *disk)
{
    return t && disk && has_word(t->disks, disk);
}

char *lab_metric_tests(const struct lab_metric *m)
{
    char *out = lab_xstrdup("");
    for (size_t i = 0; i < NTESTS; i++) {
        if (!lab_test_gives(&tests[i], m))
            continue;
        char *next = lab_asprintf("%s%s%s", out, *out ? " or " : "", tests[i].name);
        free(out);
        out = next;
    }
    return out;
}
