/* Experiment files: what a cell runs inside the guest, as "key = value"
 * lines. Every key is declared in one table with its type and range, so a
 * typo or an out-of-range value is refused with file, line and reason. */
#ifndef LAB_EXPERIMENT_H
#define LAB_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>

struct lab_reported;

/* An experiment file is a few dozen lines; anything longer is not one. */
#define LAB_EXPERIMENT_MAX_BYTES (64u << 10)

/* The longest a cell may take, in seconds (the timeout key, --timeout). */
#define LAB_TIMEOUT_MAX_S 86400

struct lab_experiment {
    char *name;           /* file name without .exp */
    char *path;           /* where it was read from */
    char *test;           /* agent test: "seqread" */
    char *summary;        /* one line for reports */
    unsigned reps;        /* runs per cell that count */
    unsigned warmup;      /* runs before those, stored but left out of statistics */
    uint64_t warmup_size; /* bytes a warm-up run reads (0: as a counted run) */
    uint64_t block_size;
    unsigned readahead;   /* sectors; 0 = the kernel's default */
    char *readahead_list; /* "256,128,64": a sweep, reps runs at each, in one boot */
    uint64_t file_size;
    unsigned verify;       /* agent checks every word it read */
    unsigned timeout;      /* seconds per cell; 0 = derived from the work */
    char *disk;            /* data disk: "ext2" (with the test file), "raw" or "ext3tree" */
    int disk_defaulted;    /* disk came from the test's default, not a key */
    uint64_t disk_size;    /* raw disk bytes; 0 = the profile's full capacity */
    uint64_t read_size;    /* devread: bytes per run; 0 = the whole device */
    unsigned direct;       /* O_DIRECT */
    unsigned qd;           /* randread queue depth */
    unsigned count;        /* randread requests per run */
    uint64_t span, offset; /* randread: where on the device; span 0 = all of it */
    /* Tree disks (disk = ext3tree): big_file of file_size and copies of a
     * synthetic source tree, /tree0 ... */
    unsigned tree_files, tree_dirs, tree_copies, tree_seed;
    uint64_t disk_free;   /* free space on a tree disk for copies and loads */
    char *load;           /* background load during each run: none, copy, io_load, ... */
    char *load_list;      /* "none,io_load,...": one cell per kernel and load (contest) */
    uint64_t load_size;   /* io_load/io_other: bytes per written file */
    unsigned write_pct;   /* overwrite: share of writes */
    unsigned cpu_rounds;  /* contest: CPU work per byte read */
    char *scheduler;      /* IO scheduler, by the era's means; NULL = the default */
    char *scheduler_list; /* "default,deadline": one cell per scheduler (like load_list) */
    char *sysfs;          /* queue tunables, "read_ahead_kb:128,iosched/quantum:4" */
    char *elvtune;        /* 2.4: "READ_LATENCY,WRITE_LATENCY" */
    unsigned kprofile;    /* 1: boot with profile=2, the kernel's /proc/profile per run */
    char *drop;           /* cache drop: NULL/"auto" (the era's), fadvise, remount, drop_caches */
    char *ide_dma;        /* hdparm -d on the IDE data disk: NULL/"auto", "on", "off" */
    char *ide_xfer;       /* hdparm -X: NULL/"auto", "pio4", "udma2", ... */
    char *boot_args;      /* words added to the kernel's command line ("clock=pit") */
    /* The seed thread's kernels and figures (host/plan/reported.h): the
     * kernels, reported and stand_in keys, parsed, and as text a run
     * stores with its cells; NULL when the file has none. */
    struct lab_reported *reported;
    char *reported_text;
};

/* NAME is a shipped experiment (lab/experiments/NAME.exp) or a path. */
int lab_experiment_load(const char *name_or_path, struct lab_experiment *out);
int lab_experiment_parse(const char *path, const char *text, struct lab_experiment *out);
/* Loads an experiment and applies the command line's --set overrides,
 * checking the result; -1 (nothing to free) on any error. */
int lab_experiment_prepare(const char *name_or_path, char *const *sets, size_t nsets,
                           struct lab_experiment *out);
/* Checks the keys fit together (a test's disk, a load's needs) and fills
 * the test's default disk; `where` names the file in errors. */
int lab_experiment_check(const char *where, struct lab_experiment *exp);
/* Applies one "key=value" override (from --set); `origin` names it in errors. */
int lab_experiment_set(struct lab_experiment *exp, const char *origin, const char *assignment);
void lab_experiment_free(struct lab_experiment *exp);
/* The experiment as it stands (file, --set, a variant's load or
 * scheduler): every key set, one "key = value" line each, in the key
 * table's order. lab_experiment_parse of it gives the same experiment: a
 * cell job carries it, so a worker runs what was planned without the file
 * (malloc'd). */
char *lab_experiment_format(const struct lab_experiment *exp);

/* The kernels the experiment's thread compared ("2.6.0,2.6.1-rc1",
 * malloc'd), NULL when it names none. */
char *lab_experiment_kernels(const struct lab_experiment *exp);

/* Directory of the shipped experiments ($LAB_EXPERIMENTS or the build's). */
const char *lab_experiments_dir(void);

/* The agent's parameter words ("lab.test=seqread lab.reps=3 ..."),
 * generated from the agent's own key table (guest-agent/keys.c); they
 * travel in the boot image (lab_cell_agent_params), not on the kernel's
 * command line. */
char *lab_experiment_cmdline(const struct lab_experiment *exp);
/* What those words mean to the agent: its configuration c (defaults, then
 * the experiment's values, each through the agent's parser) and the
 * AGENT_KEY bits of the keys sent. */
struct agent_config;
uint64_t lab_experiment_agent_config(const struct lab_experiment *exp, struct agent_config *c);

#endif
