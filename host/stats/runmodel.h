/* A stored run read into rows and comparisons: what the text table, the
 * JSON document, the JUnit file, the HTML page and `lab compare` all show,
 * computed once so they cannot disagree. A row is a cell, or in a
 * readahead sweep a cell at one setting; warm-up samples are left out of
 * the rows (the JSON lists them, marked). */
#ifndef LAB_RUNMODEL_H
#define LAB_RUNMODEL_H

#include <stddef.h>
#include <stdint.h>

#include "host/stats/bootstats.h"
#include "host/stats/stats.h"
#include "host/store/store.h"
#include "host/plan/testdef.h"
#include "host/plan/warmup.h"

#define LAB_MODEL_MAX_ROWS  64
#define LAB_MODEL_MAX_BOOTS 20 /* cells (boots) merged into one row */

/* A row merges the boots of one kernel and variant: every cell of the run
 * with the same kernel, load and scheduler (in a sweep, at one setting). */
struct lab_model_row {
    int64_t cell;                       /* the first boot's cell */
    int64_t cells[LAB_MODEL_MAX_BOOTS]; /* every boot's cell, in run order */
    size_t ncells;
    long ra;    /* readahead of the row's samples in a sweep; -1 otherwise */
    int warmup; /* warm-ups per group (lab_warmup_is): left out */
    char kernel[128];
    char label[160];    /* what the row is called in the table */
    char load[32];      /* the background load ("" none; contest: "no_load") */
    char scheduler[32]; /* the IO scheduler asked for ("" the kernel's own) */
    char variant[64];   /* load and scheduler: rows compare across kernels with the same */
    char status[32];
    char reason[1024];
    char cpu[32];              /* the CPU profile of its cells (host/plan/cpu.h): "fast" ... */
    double mips_min, mips_max; /* the calibration loop's speed over its boots */
    unsigned nmips;            /* boots that reported it */
    size_t n;
    double *v[LAB_FIG_COUNT];
    unsigned *boot;      /* the boot of each counted sample (the cell's "boot" fact, else its
                            position among the row's cells, from 1) */
    unsigned nboots;     /* distinct boots with counted samples */
    unsigned flagged;    /* runs over a contention threshold (host_flag=1): left out when
                            at least 2 others remain, else kept and contended = 1 */
    int contended;       /* every run (but at most 1) was flagged: kept, and said so */
    unsigned char *flag; /* per counted sample while loading: flagged */
    uint64_t bytes;
    char xfer[24];            /* the IDE data disk's transfer mode over the row's boots (the cells'
                                 ide_mode fact: "mwdma2", "pio4"; "mixed"; "" not recorded) */
    int xfer_pio;             /* 1: a boot ran its disk without DMA (ide_dma=0) */
    int xfer_pio_dma_capable; /* ... on a drive and stack that could do DMA */
    /* What its cells measured with, for comparing runs: the agent's
     * parameters (params) less those that only count or name (reps,
     * warm-ups, timeout, device and channel names), then the boot_args
     * words (never lab.*); "mixed" when its boots differ. */
    char settings[1024];
    char rt[8]; /* its cells' real-time scheduling (the "rt" fact, host/cell/rt.h): "on",
                   "off", "mixed"; "" not recorded */
};

enum lab_verdict {
    LAB_VERDICT_TOO_FEW, /* fewer than 2 samples on a side: not compared */
    LAB_VERDICT_SAME,    /* no significant difference */
    LAB_VERDICT_SLOWER,  /* significant, in the bad direction */
    LAB_VERDICT_FASTER,
};
const char *lab_verdict_name(enum lab_verdict v); /* "too-few", "same", "slower", "faster" */
/* SAME, SLOWER or FASTER: slower is a drop of a throughput, a rise of a time. */
enum lab_verdict lab_verdict_of(const struct lab_comparison *c, int lower_is_better);

/* A row against the first kernel's row at the same setting and load. */
struct lab_model_cmp {
    size_t row, base; /* indexes into rows */
    enum lab_verdict verdict;
    struct lab_comparison c; /* valid unless verdict is TOO_FEW; the change, its CI and
                                significance by `method` (host/stats/bootstats.h) */
    enum lab_boot_method method;
    unsigned boots_a, boots_b; /* base's and row's boots */
    double p;                  /* the method's p (= c.welch_p with runs as units) */
    double runs_p;             /* Welch's p with runs as units */
};

struct lab_model {
    struct lab_store *st; /* the store it was read from */
    int64_t run;
    char experiment[128];
    char test[32];
    int sweep;                     /* rows per readahead setting */
    const struct lab_shape *shape; /* the test's (host/plan/testdef.h) */
    struct lab_model_row rows[LAB_MODEL_MAX_ROWS];
    size_t nrows;
    struct lab_model_cmp cmps[LAB_MODEL_MAX_ROWS];
    size_t ncmps;
    /* while loading: the row of the cell being read, its boot and warm-up */
    struct lab_model_row *cur;
    unsigned cur_boot;
    struct lab_warmup cur_warmup; /* the cell being read */
};

/* Reads run `run`. NULL with an error when the run has no cells. */
struct lab_model *lab_model_load(struct lab_store *st, int64_t run);
void lab_model_free(struct lab_model *m); /* NULL is fine */

/* The summary of figure f over a row's counted samples; -1 when n == 0. */
int lab_model_summary(const struct lab_model_row *r, enum lab_fig f, struct lab_summary *out);

/* Within- and between-boot variation of figure f over a row's counted
 * samples; -1 when n == 0. */
int lab_model_boot_variation(const struct lab_model_row *r, enum lab_fig f,
                             struct lab_boot_var *out);

/* 1 when a comparison is significant, in the bad direction, and at least
 * threshold_pct large: what CI should fail on. */
int lab_model_regressed(const struct lab_model_cmp *c, double threshold_pct);

/* What `lab run --fail-on` gates on: a significant comparison at least
 * threshold_pct large that is slower, faster, or either (change). */
enum lab_gate { LAB_GATE_NONE, LAB_GATE_SLOWER, LAB_GATE_FASTER, LAB_GATE_CHANGE };

/* "slower", "faster", "change" -> the gate; -1 for anything else. */
int lab_gate_parse(const char *name, enum lab_gate *out);

/* 1 when comparison c trips gate g at threshold_pct. */
int lab_model_gate_trips(const struct lab_model_cmp *c, enum lab_gate g, double threshold_pct);

#endif
