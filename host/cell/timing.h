/* Where a cell's time goes: the host's own work before the domain starts,
 * the boot (firmware, decompression, kernel init, the agent's set-up), the
 * runs and the teardown, on the host's monotonic clock.
 *
 * host/cell/cell.c calls lab_timing_mark at its phase boundaries and
 * lab_timing_console_start/stop around the boot; a thread stamps each
 * console line as it arrives, which gives the boot's parts from the
 * console's markers and printk times (where the kernel prints them). The
 * runs come from the samples' host stamps. lab_timing_finish stores one
 * row per phase (store.h: cell_phases); a phase the console could not show
 * (no printk times, a decompressor that prints nothing) is stored without
 * a figure and with the reason, never guessed. */
#ifndef LAB_TIMING_H
#define LAB_TIMING_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "host/plan/warmup.h"
#include "host/store/store.h"

/* Host-side boundaries, in the order a cell passes them. */
enum lab_timing_mark {
    LAB_MARK_START,     /* the cell begins */
    LAB_MARK_IMAGES,    /* kernel, boot image and data disk(s) ready */
    LAB_MARK_DISKS,     /* nbdkit serving the data disk(s) */
    LAB_MARK_XML,       /* domain XML written: the domain is started now */
    LAB_MARK_DOMAIN,    /* libvirt's create returned: the guest runs */
    LAB_MARK_AGENT_END, /* the agent's last record (bye) or the end of reading it */
    LAB_MARK_END,       /* teardown done */
    LAB_MARK_COUNT
};

/* What the console showed, in host ns (0: not seen). */
struct lab_console_marks {
    int64_t first;      /* the first byte (firmware or kernel) */
    int64_t decompress; /* "Decompressing Linux" / "Uncompressing Linux" */
    int64_t booting;    /* "Booting the kernel" (the decompressor is done) */
    int64_t kernel;     /* "Linux version": the kernel's first line */
    int64_t k0;         /* printk time zero on the host clock: min(arrival - printk time) */
    int64_t init;       /* "lab-agent ... starting": /init runs */
    unsigned printk_lines;
};

struct lab_timing {
    int64_t mark[LAB_MARK_COUNT];
    struct lab_console_marks con;
    /* The kernel's clock as /init began (the hello's up_cs, /proc/uptime),
     * ns; 0: not reported. Dates the kernel's clock where the console shows
     * neither printk times nor the banner. */
    int64_t init_uptime_ns;
    /* the console watcher */
    pthread_t thread;
    int watching;
    volatile int stop;
    char *console, *dir;
};

/* One phase of a cell, in order. ns < 0: not measured (note says why). */
#define LAB_PHASE_NAME_MAX 48
#define LAB_PHASE_NOTE_MAX 160
struct lab_phase {
    char name[LAB_PHASE_NAME_MAX];
    int64_t ns;
    char note[LAB_PHASE_NOTE_MAX];
};
#define LAB_PHASES_MAX 20

/* A run of the agent: its host stamps (begin and end record arrivals). */
struct lab_timing_run {
    int rep;
    int64_t begin_ns, end_ns;
};

void lab_timing_init(struct lab_timing *t);
void lab_timing_mark(struct lab_timing *t, enum lab_timing_mark m); /* now */

/* Stamps the console's lines from now on: `console` is the log file QEMU
 * writes (it need not exist yet; `dir` holding it must). Stop joins the
 * thread after reading what is there. Both are safe to call when not
 * started. */
void lab_timing_console_start(struct lab_timing *t, const char *dir, const char *console);
/* The domain is about to start: mark LAB_MARK_XML and start the watcher. */
void lab_timing_boot(struct lab_timing *t, const char *dir, const char *console);
void lab_timing_console_stop(struct lab_timing *t);

/* One console line seen at host time `ns` (the watcher's parser; pure). */
void lab_timing_console_line(struct lab_console_marks *m, const char *line, int64_t ns);

/* The phases from the marks, the console, the hello's arrival (0: none)
 * and the runs (the warm-ups are those lab_warmup_is says). Pure.
 * Returns the number of phases written to out. */
int lab_timing_phases(const struct lab_timing *t, int64_t hello_ns,
                      const struct lab_timing_run *runs, int nruns, struct lab_warmup warmup,
                      struct lab_phase *out, int max);

/* Computes the phases (runs from the cell's stored samples) and stores
 * them; stops the console watcher first. */
int lab_timing_finish(struct lab_timing *t, struct lab_store *st, int64_t cell, int64_t hello_ns,
                      struct lab_warmup warmup);

/* `lab show --timing`: the run's phases per kernel (median over its cells,
 * min and max with two or more), then what could not be measured and why.
 * 0, 1 if the run has no stored phases (a store older than schema 4), -1
 * on error. */
int lab_timing_report(FILE *out, struct lab_store *st, int64_t run);

#endif
