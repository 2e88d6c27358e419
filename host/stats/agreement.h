/* A run read against what its seed's thread reported (host/plan/reported.h):
 * which lab kernel ran for each of the thread's, the thread's figures
 * beside the lab's rows, and for each of the thread's findings (a kernel
 * against the thread's first at the same row and figure) which way it
 * went, by how much, and whether the lab's comparison of the same figure
 * agrees. Computed once for the text, JSON and HTML outputs. */
#ifndef LAB_AGREEMENT_H
#define LAB_AGREEMENT_H

#include <stddef.h>

#include "host/plan/reported.h"
#include "host/stats/runmodel.h"
#include "host/stats/stats.h"

/* How a thread's kernel found its lab kernel. */
enum lab_seed_how {
    LAB_SEED_UNMAPPED, /* no lab kernel ran for it */
    LAB_SEED_SAME,     /* the lab ran a kernel of the same name */
    LAB_SEED_STAND_IN, /* the experiment's (or --set's) stand_in */
    LAB_SEED_POSITION, /* the run's kernels are not the thread's: in order */
};

struct lab_seed_map {
    char thread[LAB_REPORTED_NAME];
    char lab[128];
    enum lab_seed_how how;
};

enum lab_agreement {
    LAB_AGREE_NOT_RUN,     /* the lab has no row for one side */
    LAB_AGREE_TOO_FEW,     /* fewer than 2 lab runs on a side */
    LAB_AGREE_YES,         /* significant here, the thread's way */
    LAB_AGREE_OPPOSITE,    /* significant here, the other way */
    LAB_AGREE_UNCONFIRMED, /* the thread saw a change; no significant one here */
    LAB_AGREE_NEITHER,     /* neither the thread's nor the lab's is significant */
    LAB_AGREE_LAB_ONLY,    /* significant here, not in the thread's own runs */
};

/* One reported figure and the lab row of the same kernel and row. */
struct lab_seed_row {
    const struct lab_reported_fig *fig;
    const struct lab_model_row *lab; /* NULL: not run here */
};

struct lab_seed_finding {
    const struct lab_reported_fig *fig, *base; /* the thread's kernel, and its first */
    const struct lab_model_row *lab, *lab_base;
    double thread_pct;      /* (fig - base) / base * 100, of the means */
    int thread_tested;      /* each run listed on both sides: Welch on them */
    double thread_p;        /* when tested */
    int thread_significant; /* when tested */
    int lab_compared;       /* lab_c holds the lab's comparison (runs as units) */
    struct lab_comparison lab_c;
    enum lab_agreement agreement;
};

struct lab_seed_view {
    struct lab_reported rep;
    struct lab_seed_map maps[LAB_REPORTED_MAX_KERNELS * 2];
    size_t nmaps;
    struct lab_seed_row rows[LAB_REPORTED_MAX_FIGS];
    size_t nrows;
    struct lab_seed_finding findings[LAB_REPORTED_MAX_FIGS];
    size_t nfindings;
};

/* The view of run m against r (copied). Never NULL. */
struct lab_seed_view *lab_seed_view_build(const struct lab_model *m, const struct lab_reported *r);
/* The view from what the run's cells stored (the cell fact "reported");
 * NULL when they stored none (the experiment carries no thread). */
struct lab_seed_view *lab_seed_view_load(const struct lab_model *m);
void lab_seed_view_free(struct lab_seed_view *v); /* NULL is fine */

/* The lab's kernel for a thread's kernel; NULL when none ran. */
const struct lab_seed_map *lab_seed_map_of(const struct lab_seed_view *v, const char *thread);

const char *lab_seed_how_name(enum lab_seed_how h);   /* "same", "stand_in", "position", ... */
const char *lab_agreement_name(enum lab_agreement a); /* "agrees", "opposite", ... */
const char *lab_agreement_text(enum lab_agreement a); /* for people */
/* Which way a change of pct went for a figure: faster/slower for a time or
 * throughput, higher/lower otherwise, "no change" at 0. */
const char *lab_seed_direction(const struct lab_reported_kind *k, double pct);

#endif
