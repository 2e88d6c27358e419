/* The status line and its ticker. One mutex guards the line: the ticker
 * redraws it, the run's log lines clear it first, and lab's own messages
 * (lab_error from a cell) clear it through util's message hook. */
#include "host/run/progress.h"
#include "kernels/fetch.h"
#include "common/clock.h"
#include "common/msg.h"
#include "common/file.h"
#include "common/str.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TICK_MS   250
#define MAX_PLAN  256
#define MAX_SLOTS 16 /* cells running at once (--jobs) */
#define CLEAR_EOL "\r\033[K"

/* A running cell: what it is, where its phase is read. */
struct slot {
    int used;
    size_t cell;
    const struct lab_kernel *kernel;
    char what[128];
    unsigned runs;
    int64_t start;
    char source[4096];   /* the cell's own store (a bundle's), "" the run's */
    char phase[32];      /* read by the ticker */
    char phase_said[32]; /* the last phase printed (plain mode) */
};

struct lab_progress {
    FILE *out;
    int tty;
    int ticking; /* a ticker thread runs (not with LAB_PROGRESS=off) */
    struct lab_store *st;
    int64_t run;
    size_t ncells;
    int64_t expect_ns[MAX_PLAN]; /* per cell, from history; -1 unknown */
    int64_t run_start;
    struct slot slots[MAX_SLOTS];
    /* The ticker's own: a store opened on each slot's source, and its path. */
    struct lab_store *src_st[MAX_SLOTS];
    char src_open[MAX_SLOTS][4096];
    size_t next;    /* the first cell not started yet */
    char line[512]; /* what is on the terminal now ("" none) */
    int stopping;
    pthread_t ticker;
    pthread_mutex_t lock;
    pthread_cond_t wake;
};

static struct lab_progress *active; /* for the message hook */

void lab_progress_clock(char *buf, size_t len, int64_t ns)
{
    if (ns < 0) {
        snprintf(buf, len, "?");
        return;
    }
    long s = (long)(ns / 1000000000);
    if (s >= 3600)
        snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(buf, len, "%ld:%02ld", s / 60, s % 60);
}

enum mode { MODE_OFF, MODE_PLAIN, MODE_TTY };

static enum mode want_mode(FILE *out)
{
    const char *mode = getenv("LAB_PROGRESS"), *term = getenv("TERM");
    static const struct {
        const char *name;
        enum mode m;
    } names[] = {{"tty", MODE_TTY}, {"plain", MODE_PLAIN}, {"off", MODE_OFF}};
    for (size_t i = 0; mode && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(mode, names[i].name) == 0)
            return names[i].m;
    return isatty(fileno(out)) && !(term && strcmp(term, "dumb") == 0) ? MODE_TTY : MODE_PLAIN;
}

/* ---- the phase, from the store ---- */

struct cell_state {
    int64_t id;
    int found;
};

static int last_running(const struct lab_cell_info *ci, void *arg)
{
    struct cell_state *c = arg;
    if (strcmp(ci->status, "running") == 0) {
        c->id = ci->id;
        c->found = 1;
    }
    return 0;
}

static int count_sample(const struct lab_sample *s, void *arg)
{
    (*(unsigned *)arg)++;
    return 0;
}

/* Store reads only: called without the line's lock, so a store error's
 * message (which clears the line) cannot deadlock against the ticker. */
static void read_phase(struct lab_store *st, int64_t run, const struct lab_kernel *k, unsigned runs,
                       char *buf, size_t len)
{
    struct cell_state c = {0};
    char fact[64];
    unsigned samples = 0;
    if (st)
        lab_store_foreach_cell(st, run, last_running, &c);
    if (!c.found || !lab_store_cell_get(st, c.id, "bus", fact, sizeof fact)) {
        snprintf(buf, len, "%s", lab_kernel_is_cached(k) ? "image" : "fetch");
        return;
    }
    if (!lab_store_cell_get(st, c.id, "boot_to_agent_ns", fact, sizeof fact)) {
        snprintf(buf, len, "boot");
        return;
    }
    lab_store_foreach_sample(st, c.id, count_sample, &samples);
    if (samples < runs)
        snprintf(buf, len, "run %u/%u", samples + 1, runs);
    else
        snprintf(buf, len, "teardown");
}

/* The store a running cell writes: its bundle's (opened read-only by the
 * ticker once the file exists) or the run's. The ticker alone touches
 * src_st. */
static struct lab_store *phase_store(struct lab_progress *p, size_t slot, const char *source,
                                     int64_t *run)
{
    struct lab_store **st = &p->src_st[slot];
    char *open = p->src_open[slot];
    if (!source[0]) {
        *run = p->run;
        return p->st;
    }
    *run = LAB_STORE_ALL_RUNS;
    if (*st && (strcmp(open, source) != 0 || !lab_file_exists(source))) {
        lab_store_close(*st);
        *st = NULL;
    }
    if (!*st && lab_file_exists(source) && lab_store_open_readonly(source, st) == 0)
        snprintf(open, sizeof p->src_open[slot], "%s", source);
    return *st;
}

/* What is left: the rest of the running cells, then every cell not
 * started, shared among the cells running at once. */
static int64_t eta_ns(const struct lab_progress *p, int64_t now)
{
    int64_t left = 0;
    unsigned running = 0;
    for (size_t s = 0; s < MAX_SLOTS; s++) {
        const struct slot *sl = &p->slots[s];
        if (!sl->used)
            continue;
        if (sl->cell >= MAX_PLAN || p->expect_ns[sl->cell] < 0)
            return -1;
        int64_t done = now - sl->start;
        left += done < p->expect_ns[sl->cell] ? p->expect_ns[sl->cell] - done : 0;
        running++;
    }
    for (size_t i = p->next; i < p->ncells && i < MAX_PLAN; i++) {
        if (p->expect_ns[i] < 0)
            return -1;
        left += p->expect_ns[i];
    }
    return running > 1 ? left / running : left;
}

/* ---- drawing (with the lock held) ---- */

static void clear_line(struct lab_progress *p)
{
    if (p->tty && p->line[0]) {
        fputs(CLEAR_EOL, p->out);
        fflush(p->out);
    }
    p->line[0] = '\0';
}

/* "[1/4] 6.12.113 seqread: run 2/3  0:12" */
static void slot_text(const struct lab_progress *p, const struct slot *sl, int64_t now, char *buf,
                      size_t len)
{
    char cell_t[16];
    lab_progress_clock(cell_t, sizeof cell_t, now - sl->start);
    snprintf(buf, len, "[%zu/%zu] %s %s: %s  %s", sl->cell + 1, p->ncells, sl->kernel->name,
             sl->what, sl->phase, cell_t);
}

static void draw(struct lab_progress *p)
{
    int64_t now = lab_now_ns();
    char run_t[16], eta[16], one[300], text[sizeof p->line] = "lab: ";
    lab_progress_clock(run_t, sizeof run_t, now - p->run_start);
    lab_progress_clock(eta, sizeof eta, eta_ns(p, now));
    for (size_t s = 0; s < MAX_SLOTS; s++) {
        struct slot *sl = &p->slots[s];
        if (!sl->used || !sl->phase[0])
            continue;
        slot_text(p, sl, now, one, sizeof one);
        if (!p->tty && strcmp(sl->phase, sl->phase_said) != 0) {
            /* A log gets one line per phase of each cell, not one per second. */
            fprintf(p->out, "lab: %s (run %s), ETA %s\n", one, run_t, eta);
            fflush(p->out);
            snprintf(sl->phase_said, sizeof sl->phase_said, "%s", sl->phase);
        }
        size_t at = strlen(text);
        snprintf(text + at, sizeof text - at, "%s%s", at > 5 ? " | " : "", one);
    }
    if (!p->tty || strlen(text) <= 5)
        return;
    size_t at = strlen(text);
    snprintf(text + at, sizeof text - at, " (run %s), ETA %s", run_t, eta);
    if (strcmp(text, p->line) == 0)
        return;
    fprintf(p->out, CLEAR_EOL "%s", text);
    fflush(p->out);
    snprintf(p->line, sizeof p->line, "%s", text);
}

static void wait_tick(struct lab_progress *p)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += TICK_MS * 1000000L;
    ts.tv_sec += ts.tv_nsec / 1000000000L;
    ts.tv_nsec %= 1000000000L;
    pthread_cond_timedwait(&p->wake, &p->lock, &ts);
}

/* Reads one slot's phase without the lock; 1 when it is still that cell. */
static int update_slot(struct lab_progress *p, size_t slot)
{
    struct slot *sl = &p->slots[slot];
    size_t cell = sl->cell;
    const struct lab_kernel *k = sl->kernel;
    unsigned runs = sl->runs;
    char phase[32], source[sizeof sl->source];
    snprintf(source, sizeof source, "%s", sl->source);
    pthread_mutex_unlock(&p->lock);
    int64_t run = p->run;
    if (source[0] && source[0] != '/') /* a phase of the engine's own ("queued") */
        snprintf(phase, sizeof phase, "%.31s", source);
    else {
        struct lab_store *st = phase_store(p, slot, source, &run); /* sets run first */
        read_phase(st, run, k, runs, phase, sizeof phase);
    }
    pthread_mutex_lock(&p->lock);
    if (p->stopping || !sl->used || sl->cell != cell)
        return 0;
    snprintf(sl->phase, sizeof sl->phase, "%s", phase);
    return 1;
}

static void *tick(void *arg)
{
    struct lab_progress *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->stopping) {
        int any = 0;
        for (size_t s = 0; s < MAX_SLOTS && !p->stopping; s++)
            if (p->slots[s].used)
                any |= update_slot(p, s);
        if (any && !p->stopping)
            draw(p);
        if (!p->stopping)
            wait_tick(p);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* Before lab_error and friends write: clear the line (util's hook). */
static void before_message(void)
{
    if (!active)
        return;
    pthread_mutex_lock(&active->lock);
    clear_line(active);
    pthread_mutex_unlock(&active->lock);
}

/* ---- the API ---- */

struct lab_progress *lab_progress_start(FILE *out, struct lab_store *st, int64_t run, size_t ncells)
{
    struct lab_progress *p = lab_xcalloc(1, sizeof *p);
    pthread_mutexattr_t attr;
    enum mode mode = want_mode(out);
    p->out = out;
    p->tty = mode == MODE_TTY;
    p->st = st;
    p->run = run;
    p->ncells = ncells;
    p->run_start = lab_now_ns();
    for (size_t i = 0; i < MAX_PLAN; i++)
        p->expect_ns[i] = -1;
    /* Recursive: a message from inside the ticker's store calls clears the
     * line under the lock it already holds. */
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&p->lock, &attr);
    pthread_mutexattr_destroy(&attr);
    pthread_cond_init(&p->wake, NULL);
    active = p;
    lab_message_hook = before_message;
    p->ticking = mode != MODE_OFF;
    if (p->ticking && pthread_create(&p->ticker, NULL, tick, p) != 0)
        abort();
    return p;
}

void lab_progress_plan(struct lab_progress *p, size_t index, const char *kernel, const char *params,
                       const char *profile)
{
    if (index < MAX_PLAN)
        p->expect_ns[index] =
            kernel ? lab_store_cell_history_ns(p->st, kernel, params, profile) : 0;
}

static struct slot *slot_of(struct lab_progress *p, size_t index)
{
    for (size_t s = 0; s < MAX_SLOTS; s++)
        if (p->slots[s].used && p->slots[s].cell == index)
            return &p->slots[s];
    return NULL;
}

void lab_progress_cell(struct lab_progress *p, size_t index, const struct lab_kernel *k,
                       const char *what, unsigned runs)
{
    pthread_mutex_lock(&p->lock);
    struct slot *sl = slot_of(p, index);
    for (size_t s = 0; !sl && s < MAX_SLOTS; s++)
        if (!p->slots[s].used)
            sl = &p->slots[s];
    if (sl) {
        *sl = (struct slot){
            .used = 1, .cell = index, .kernel = k, .runs = runs, .start = lab_now_ns()};
        snprintf(sl->what, sizeof sl->what, "%s", what);
    }
    if (index + 1 > p->next)
        p->next = index + 1;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
}

void lab_progress_cell_source(struct lab_progress *p, size_t index, const char *store_path)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    struct slot *sl = slot_of(p, index);
    if (sl)
        snprintf(sl->source, sizeof sl->source, "%s", store_path ? store_path : "");
    pthread_mutex_unlock(&p->lock);
}

/* A cell without history is expected to take as long as this one did:
 * the ETA of a first run improves as it goes. */
void lab_progress_cell_end(struct lab_progress *p, size_t index)
{
    pthread_mutex_lock(&p->lock);
    struct slot *sl = slot_of(p, index);
    if (sl) {
        int64_t took = lab_now_ns() - sl->start;
        for (size_t i = index + 1; i < p->ncells && i < MAX_PLAN; i++)
            if (p->expect_ns[i] < 0)
                p->expect_ns[i] = took;
        sl->used = 0;
        sl->source[0] = '\0';
    }
    clear_line(p);
    pthread_mutex_unlock(&p->lock);
}

struct lab_progress *lab_progress_current(void)
{
    return active;
}

void lab_progress_printf(struct lab_progress *p, const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&p->lock);
    clear_line(p);
    va_start(ap, fmt);
    vfprintf(p->out, fmt, ap);
    va_end(ap);
    fflush(p->out);
    pthread_cond_signal(&p->wake); /* redraw at once */
    pthread_mutex_unlock(&p->lock);
}

void lab_progress_stop(struct lab_progress *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->stopping = 1;
    clear_line(p);
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
    if (p->ticking)
        pthread_join(p->ticker, NULL);
    for (size_t s = 0; s < MAX_SLOTS; s++)
        lab_store_close(p->src_st[s]);
    lab_message_hook = NULL;
    active = NULL;
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p);
}
