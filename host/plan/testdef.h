/* One definition per agent test, on the host: the data disks it takes,
 * how its work grows (the derived timeout), the agent parameters it reads,
 * the figures it gives a bisection, and the shape of its report. Everything
 * on the host that asks "what does test X do" reads this table: experiment
 * files (the test's disks), the cell plan (timeout, what the guest mounts),
 * the run model and its outputs (the shape), `lab bisect` (its metrics).
 *
 * Also here: the figures a run can show (name, unit, which way is better,
 * and for the few a bisection measures per sample, the formula), and the
 * one reader of a sample's extra keys. */
#ifndef LAB_TESTDEF_H
#define LAB_TESTDEF_H

#include <stddef.h>

struct lab_sample;

/* Per-sample figures a report row holds. */
enum lab_fig {
    LAB_FIG_SECS,
    LAB_FIG_MBPS,
    LAB_FIG_IOPS,
    LAB_FIG_USER,
    LAB_FIG_SYS,
    LAB_FIG_LAT_MEAN,
    LAB_FIG_LAT_P50,
    LAB_FIG_LAT_P99,
    LAB_FIG_CPU_USER,
    LAB_FIG_CPU_SYS,
    LAB_FIG_CPU_IDLE,
    LAB_FIG_CPU_IOWAIT,
    LAB_FIG_HOST_SECS,
    LAB_FIG_FILES,
    LAB_FIG_LOADS,    /* background load units completed during the run */
    LAB_FIG_FG_CPU,   /* the foreground's CPU share of the run, % (rusage) */
    LAB_FIG_LOAD_CPU, /* the rest of the busy CPU, % (/proc/stat minus rusage) */
    LAB_FIG_OPS,      /* overwrite: operations per second */
    LAB_FIG_RATIO,    /* time against the same kernel's run without load */
    LAB_FIG_LOAD_MB,  /* MB the background load moved during the run */
    LAB_FIG_COUNT
};

/* A figure: what a run measures. A metric is a figure a bisection can
 * compute from one stored sample (formula non-NULL): mbps, iops, secs. */
struct lab_metric {
    const char *name;     /* machine name, JSON key: "mbps" */
    const char *unit;     /* "MB/s" */
    const char *formula;  /* how it comes from a sample, for --help; NULL: not a metric */
    int higher_is_better; /* 1: a drop is a regression (0: a time, a latency) */
};

const struct lab_metric *lab_fig(enum lab_fig f); /* NULL past the end */
const char *lab_fig_name(enum lab_fig f);         /* "?" past the end */
const char *lab_fig_unit(enum lab_fig f);

/* The bisection's metrics by name ("mbps", "iops", "secs"); NULL if the
 * figure is not one. */
const struct lab_metric *lab_test_metric(const char *name);
const struct lab_metric *lab_test_metric_at(size_t i); /* NULL past the end */
/* The metric's value of one sample; NAN when the sample cannot give it
 * (zero time, no request count). */
double lab_metric_value(const struct lab_metric *m, const struct lab_sample *s);

/* A number from a sample's extra keys ("k=v k=v"); NAN when the key is
 * absent. The only reader of those keys: a caller that wants a default
 * for a missing key says so where it reads. */
double lab_extra_num(const char *extra, const char *key);

/* ---- report shapes ---- */

struct lab_column {
    enum lab_fig m;
    const char *title;
    int decimals;
    int stats; /* 1: min mean max stddev; 0: mean only */
};

/* How a test's runs are shown and compared. Which way is better is the
 * compared figure's (lab_shape_lower_is_better). */
struct lab_shape {
    int bytes_per_run; /* the header says how much each run read */
    const char *unit_note;
    enum lab_fig compare; /* the figure kernels are compared on */
    const char *compare_name;
    struct lab_column cols[8]; /* ends at the first NULL title */
};

/* 1 when the compared figure is a time (a rise is a slowdown). */
int lab_shape_lower_is_better(const struct lab_shape *sh);

/* ---- tests ---- */

/* How one run's work grows with the experiment: the derived timeout. */
enum lab_work {
    LAB_WORK_FILE,     /* reads file_size bytes */
    LAB_WORK_DEVICE,   /* reads read_size bytes of the device (0: disk_size, or 1 GiB) */
    LAB_WORK_REQUESTS, /* count requests */
    LAB_WORK_TREE,     /* tree_files files of about 16 KiB, 1 + cpu_rounds passes */
};

struct lab_testdef {
    const char *name;         /* lab.test: "seqread" */
    const char *default_disk; /* the data disk without a disk key */
    const char *disks;        /* the data disks it can use, space-separated */
    int mounts;               /* the agent mounts the data disk (else reads the device) */
    enum lab_work work;
    const char *metrics; /* the bisection metrics it gives, space-separated */
    const char *params;  /* the agent parameters it reads beyond every test's (below) */
    struct lab_shape shape;
};

/* What every test reads: the driver's and the tuning's parameters. */
#define LAB_TEST_COMMON_PARAMS                                                                     \
    "lab.test lab.reps lab.ra lab.ra_list lab.fs lab.load lab.load_size lab.sysfs lab.elvtune "    \
    "lab.kprofile"

const struct lab_testdef *lab_test_find(const char *name); /* NULL if unknown */
const struct lab_testdef *lab_test_at(size_t i);           /* NULL past the end */
/* "seqread, devread, ..." (malloc'd): for an error naming the known tests. */
char *lab_test_names(const char *sep);

/* 1 if the test gives the metric, 0 if not. */
int lab_test_gives(const struct lab_testdef *t, const struct lab_metric *m);
/* The tests that give metric m, "seqread or devread" (malloc'd). */
char *lab_metric_tests(const struct lab_metric *m);
/* 1 if the test can use data disk `disk`. */
int lab_test_takes_disk(const struct lab_testdef *t, const char *disk);

#endif
