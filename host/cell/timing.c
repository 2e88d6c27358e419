/* Where a cell's time goes. See timing.h. */
#include "host/cell/timing.h"
#include "common/clock.h"
#include "common/str.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <time.h>
#include <unistd.h>

void lab_timing_init(struct lab_timing *t)
{
    memset(t, 0, sizeof *t);
}

void lab_timing_mark(struct lab_timing *t, enum lab_timing_mark m)
{
    if (m >= 0 && m < LAB_MARK_COUNT)
        t->mark[m] = lab_now_ns();
}

/* "[    1.234567] ..." -> 1234567000 ns; -1 if the line has no printk time. */
static int64_t printk_time(const char *s)
{
    if (*s++ != '[')
        return -1;
    while (*s == ' ')
        s++;
    int64_t sec = 0, us = 0;
    int digits = 0;
    for (; isdigit((unsigned char)*s) && digits < 12; s++, digits++)
        sec = sec * 10 + (*s - '0');
    if (!digits || *s++ != '.')
        return -1;
    for (digits = 0; isdigit((unsigned char)*s) && digits < 6; s++, digits++)
        us = us * 10 + (*s - '0');
    if (digits != 6 || *s != ']')
        return -1;
    return sec * 1000000000LL + us * 1000;
}

void lab_timing_console_line(struct lab_console_marks *m, const char *line, int64_t ns)
{
    if (!m->first)
        m->first = ns;
    int64_t pt = printk_time(line);
    if (pt >= 0) {
        m->printk_lines++;
        /* The line was printed no later than it arrived: the smallest
         * difference is the tightest estimate of printk's time zero. */
        if (!m->k0 || ns - pt < m->k0)
            m->k0 = ns - pt;
    }
    if (!m->decompress && strstr(line, "ompressing Linux")) /* De-, Un- (2.x) */
        m->decompress = ns;
    if (!m->booting && strcasestr(line, "booting the kernel"))
        m->booting = ns;
    if (!m->kernel && strstr(line, "Linux version "))
        m->kernel = ns;
    if (!m->init && strncmp(line, "lab-agent ", 10) == 0 && strstr(line, " starting"))
        m->init = ns;
}

/* The watcher: woken by inotify on the run directory (the console file may
 * not exist yet), it reads what QEMU appended and stamps each line with
 * the time its first byte was seen. At most one read per 2 ms, so a chatty
 * console costs the host little; it stops by itself once /init runs
 * (nothing later is needed) or when told. */
static void *watch(void *arg)
{
    struct lab_timing *t = arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals are the main thread's */
    int in = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
    if (in >= 0 && inotify_add_watch(in, t->dir, IN_MODIFY | IN_CREATE) < 0) {
        close(in);
        in = -1;
    }
    int fd = -1;
    off_t off = 0;
    char line[512], buf[8192];
    size_t len = 0;
    int64_t line_ns = 0;
    for (;;) {
        int stopping = t->stop;
        if (fd < 0)
            fd = open(t->console, O_RDONLY | O_CLOEXEC);
        ssize_t n;
        while (fd >= 0 && (n = pread(fd, buf, sizeof buf, off)) > 0) {
            int64_t now = lab_now_ns();
            off += n;
            for (ssize_t i = 0; i < n; i++) {
                if (len == 0)
                    line_ns = now;
                if (buf[i] == '\n' || buf[i] == '\r') {
                    if (len) {
                        line[len] = '\0';
                        lab_timing_console_line(&t->con, line, line_ns);
                    }
                    len = 0;
                } else if (len < sizeof line - 1) {
                    line[len++] = buf[i];
                }
            }
        }
        if (stopping || t->con.init)
            break;
        struct pollfd p = {.fd = in, .events = POLLIN};
        if (in >= 0 && poll(&p, 1, 50) > 0)
            while (read(in, buf, sizeof buf) > 0)
                ;
        else if (in < 0)
            usleep(10 * 1000);
        struct timespec gap = {0, 2 * 1000 * 1000};
        nanosleep(&gap, NULL);
    }
    if (fd >= 0)
        close(fd);
    if (in >= 0)
        close(in);
    return NULL;
}

void lab_timing_console_start(struct lab_timing *t, const char *dir, const char *console)
{
    if (t->watching || !dir || !console)
        return;
    t->dir = lab_xstrdup(dir);
    t->console = lab_xstrdup(console);
    t->stop = 0;
    if (pthread_create(&t->thread, NULL, watch, t) == 0)
        t->watching = 1;
}

void lab_timing_boot(struct lab_timing *t, const char *dir, const char *console)
{
    lab_timing_console_start(t, dir, console);
    lab_timing_mark(t, LAB_MARK_XML);
}

void lab_timing_console_stop(struct lab_timing *t)
{
    if (t->watching) {
        t->stop = 1;
        pthread_join(t->thread, NULL);
        t->watching = 0;
    }
    free(t->dir);
    free(t->console);
    t->dir = t->console = NULL;
}

static int add(struct lab_phase *out, int n, int max, const char *name, int64_t ns,
               const char *note)
{
    if (n >= max)
        return n;
    struct lab_phase *p = &out[n];
    snprintf(p->name, sizeof p->name, "%s", name);
    p->ns = ns;
    snprintf(p->note, sizeof p->note, "%s", note ? note : "");
    return n + 1;
}

/* b - a when both were seen and in order, else -1. */
static int64_t span(int64_t a, int64_t b)
{
    return a && b && b >= a ? b - a : -1;
}

#define KERNEL_INIT_ROW "kernel init to /init"

/* No kernel is entered this soon after its CPU's reset: the fastest
 * firmware + decompression measured here took 0.11 s (4.19.48 under
 * SeaBIOS; the lab's 6.1 under qboot 0.15 s). A time zero earlier than
 * that is a clock that counts from somewhere else: 2.6.12-rc2's printk
 * clock at loglevel 4 put its zero 4 ms after the domain's start (its
 * late lines are timed from the CPU's reset), and its uptime read 1.12 s
 * at /init, 1.09 s after the domain started (docs/timing.md). */
#define ENTRY_FLOOR_NS (50 * 1000 * 1000LL)

/* The kernel's entry on the host clock, from the best mark the console
 * gave, and how it was obtained (stored with the figures it splits). */
static int64_t kernel_entry(const struct lab_timing *t, const char **how)
{
    const struct lab_console_marks *c = &t->con;
    int64_t floor = t->mark[LAB_MARK_DOMAIN] + ENTRY_FLOOR_NS;
    int64_t k0 = c->k0 && c->k0 >= floor ? c->k0 : 0;
    if (c->booting) {
        *how = "the decompressor's \"booting the kernel\" line";
        return c->booting;
    }
    if (k0) { /* setup_arch, just after the decompressor */
        *how = "printk times: printk's time zero is the smallest arrival minus printk time";
        return k0;
    }
    if (c->kernel) { /* 2.4, 2.6 before printk times */
        *how = "no printk times: the banner's arrival, shown once start_kernel starts the "
               "console, so decompression and the kernel's first steps count before it";
        return c->kernel;
    }
    int64_t clock0 = c->init - t->init_uptime_ns;
    if (c->init && t->init_uptime_ns && clock0 >= floor) {
        *how = "no printk times, no banner: /init's arrival minus the kernel's uptime then "
               "(/proc/uptime, 10 ms steps, counted from the timer's start in start_kernel)";
        return clock0;
    }
    *how = c->k0 ? "printk's time zero came within 50 ms of the CPU's reset, too soon to be the "
                   "kernel's entry; no banner, no usable uptime, no decompressor line"
                 : "no printk times, no banner and no decompressor line on the console";
    return 0;
}

/* The boot from libvirt's create to /init: firmware, decompression and the
 * kernel's init, split where the console shows the kernel's entry. */
static int boot_phases(const struct lab_timing *t, struct lab_phase *out, int n, int max)
{
    const int64_t *m = t->mark;
    const struct lab_console_marks *c = &t->con;
    const char *how;
    int64_t entry = kernel_entry(t, &how);
    const char *no_decomp = "the decompressor printed nothing on the serial console";
    n = add(out, n, max, "firmware (to the decompressor)", span(m[LAB_MARK_DOMAIN], c->decompress),
            c->decompress ? NULL : no_decomp);
    n = add(out, n, max, "decompression", span(c->decompress, c->booting),
            c->decompress && c->booting ? NULL : no_decomp);
    n = add(out, n, max, "= firmware + decompression", span(m[LAB_MARK_DOMAIN], entry), how);
    n = add(out, n, max, KERNEL_INIT_ROW, span(entry, c->init),
            c->init ? how : "the agent's first console line was not seen");
    return add(out, n, max, "= domain start to /init", span(m[LAB_MARK_DOMAIN], c->init),
               c->init ? NULL : "the agent's first console line was not seen");
}

int lab_timing_phases(const struct lab_timing *t, int64_t hello_ns,
                      const struct lab_timing_run *runs, int nruns, struct lab_warmup warmup,
                      struct lab_phase *out, int max)
{
    const int64_t *m = t->mark;
    const struct lab_console_marks *c = &t->con;
    int n = 0;
    char note[LAB_PHASE_NOTE_MAX];

    n = add(out, n, max, "host: kernel, boot image, data disk",
            span(m[LAB_MARK_START], m[LAB_MARK_IMAGES]), NULL);
    n = add(out, n, max, "host: disk servers (nbdkit)", span(m[LAB_MARK_IMAGES], m[LAB_MARK_DISKS]),
            NULL);
    n = add(out, n, max, "host: domain XML", span(m[LAB_MARK_DISKS], m[LAB_MARK_XML]), NULL);
    n = add(out, n, max, "domain start (libvirt, QEMU)", span(m[LAB_MARK_XML], m[LAB_MARK_DOMAIN]),
            NULL);

    n = boot_phases(t, out, n, max);
    n = add(out, n, max, "agent: modules, devices, channel", span(c->init, hello_ns),
            !hello_ns ? "no hello"
            : c->init ? NULL
                      : "the agent's first console line was not seen");
    n = add(out, n, max, "= boot to agent (domain start to hello)", span(m[LAB_MARK_XML], hello_ns),
            hello_ns ? NULL : "no hello");

    int64_t first = 0, last = 0, warm = 0, counted = 0;
    unsigned nwarm = 0, ncount = 0;
    for (int i = 0; i < nruns; i++) {
        const struct lab_timing_run *r = &runs[i];
        if (!r->begin_ns || r->end_ns < r->begin_ns)
            continue;
        if (!first || r->begin_ns < first)
            first = r->begin_ns;
        if (r->end_ns > last)
            last = r->end_ns;
        if (lab_warmup_is(warmup, (uint64_t)r->rep))
            warm += r->end_ns - r->begin_ns, nwarm++;
        else
            counted += r->end_ns - r->begin_ns, ncount++;
    }
    n = add(out, n, max, "agent: data disk, tunables (to the first run)", span(hello_ns, first),
            first ? NULL : "no runs");
    snprintf(note, sizeof note, "%u run(s)", nwarm);
    n = add(out, n, max, "warm-up runs", first ? warm : -1, note);
    snprintf(note, sizeof note, "%u run(s)", ncount);
    n = add(out, n, max, "counted runs", first ? counted : -1, note);
    n = add(out, n, max, "between runs (cache drops, tunables)",
            first ? last - first - warm - counted : -1, first ? NULL : "no runs");
    n = add(out, n, max, "after the runs (to the bye)",
            span(last ? last : hello_ns, m[LAB_MARK_AGENT_END]), NULL);
    n = add(out, n, max, "teardown (power-off, destroy, nbdkit, logs)",
            span(m[LAB_MARK_AGENT_END], m[LAB_MARK_END]), NULL);
    int64_t total = span(m[LAB_MARK_START], m[LAB_MARK_END]);
    n = add(out, n, max, "= total", total, NULL);
    n = add(out, n, max, "= outside the counted runs", total >= 0 ? total - counted : -1, NULL);
    return n;
}

struct runs_ctx {
    struct lab_timing_run *runs;
    int n, cap;
};

static int collect_run(const struct lab_sample *s, void *ctx)
{
    struct runs_ctx *rc = ctx;
    if (rc->n == rc->cap) {
        int cap = rc->cap ? 2 * rc->cap : 16;
        struct lab_timing_run *more = lab_xcalloc((size_t)cap, sizeof *more);
        if (rc->n)
            memcpy(more, rc->runs, (size_t)rc->n * sizeof *more);
        free(rc->runs);
        rc->runs = more;
        rc->cap = cap;
    }
    rc->runs[rc->n++] = (struct lab_timing_run){s->rep, s->host_begin_ns, s->host_end_ns};
    return 0;
}

int lab_timing_finish(struct lab_timing *t, struct lab_store *st, int64_t cell, int64_t hello_ns,
                      struct lab_warmup warmup)
{
    lab_timing_console_stop(t);
    if (!st || cell <= 0)
        return 0;
    struct runs_ctx rc = {0};
    lab_store_foreach_sample(st, cell, collect_run, &rc);
    struct lab_phase ph[LAB_PHASES_MAX];
    int n = lab_timing_phases(t, hello_ns ? t->mark[LAB_MARK_XML] + hello_ns : 0, rc.runs, rc.n,
                              warmup, ph, LAB_PHASES_MAX);
    free(rc.runs);
    int rc2 = 0;
    for (int i = 0; i < n; i++)
        rc2 |= lab_store_add_phase(st, cell, i, ph[i].name, ph[i].ns,
                                   ph[i].note[0] ? ph[i].note : NULL);
    return rc2 ? -1 : 0;
}

/* ---- lab show --timing ---- */

#define MAX_KERNELS 16
#define MAX_ROWS    32
#define MAX_VALUES  256

struct row {
    char name[LAB_PHASE_NAME_MAX];
    int seq;
    int64_t v[MAX_KERNELS][MAX_VALUES];
    int nv[MAX_KERNELS];
    char note[MAX_KERNELS][LAB_PHASE_NOTE_MAX]; /* why not measured, first seen */
    char how[MAX_KERNELS][LAB_PHASE_NOTE_MAX];  /* how an estimate was obtained, first seen */
};

struct report {
    char kernel[MAX_KERNELS][64];
    int ncells[MAX_KERNELS];
    int nk;
    struct row *rows;
    int nrows;
    int cur; /* kernel of the cell being read */
    int phases;
};

static int phase_cb(int seq, const char *phase, int64_t ns, const char *note, void *ctx)
{
    struct report *r = ctx;
    int i;
    for (i = 0; i < r->nrows && strcmp(r->rows[i].name, phase) != 0; i++)
        ;
    if (i == r->nrows) {
        if (r->nrows == MAX_ROWS)
            return 0;
        memset(&r->rows[i], 0, sizeof r->rows[i]);
        snprintf(r->rows[i].name, sizeof r->rows[i].name, "%s", phase);
        r->rows[i].seq = seq;
        r->nrows++;
    }
    struct row *row = &r->rows[i];
    r->phases++;
    if (ns >= 0 && row->nv[r->cur] < MAX_VALUES)
        row->v[r->cur][row->nv[r->cur]++] = ns;
    if (ns < 0 && note && !row->note[r->cur][0])
        snprintf(row->note[r->cur], sizeof row->note[r->cur], "%s", note);
    else if (ns >= 0 && note && !row->how[r->cur][0])
        snprintf(row->how[r->cur], sizeof row->how[r->cur], "%s", note);
    return 0;
}

static int cell_cb(const struct lab_cell_info *ci, void *ctx)
{
    struct report *r = ctx;
    int k;
    for (k = 0; k < r->nk && strcmp(r->kernel[k], ci->kernel) != 0; k++)
        ;
    if (k == r->nk) {
        if (r->nk == MAX_KERNELS)
            return 0;
        snprintf(r->kernel[k], sizeof r->kernel[k], "%s", ci->kernel);
        r->nk++;
    }
    r->cur = k;
    return 0;
}

struct cell_list {
    int64_t id[1024];
    int kernel[1024];
    int n;
};

static int list_cb(const struct lab_cell_info *ci, void *ctx)
{
    struct report *r = ((void **)ctx)[0];
    struct cell_list *cl = ((void **)ctx)[1];
    cell_cb(ci, r);
    if (cl->n < 1024) {
        cl->id[cl->n] = ci->id;
        cl->kernel[cl->n] = r->cur;
        cl->n++;
    }
    return 0;
}

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_row(const void *a, const void *b)
{
    return ((const struct row *)a)->seq - ((const struct row *)b)->seq;
}

/* Under the table: what each kernel's boot split was estimated from (a
 * note stored with a figure), then what was not measured and why. */
static void print_notes(FILE *out, const struct report *r)
{
    static const struct {
        const char *head;
        int measured;
    } kinds[] = {{"how the boot was split (the kernel's entry on the host clock):", 1},
                 {"n/a (not measured, not guessed):", 0}};
    for (size_t kind = 0; kind < sizeof kinds / sizeof kinds[0]; kind++) {
        int said = 0;
        for (int k = 0; k < r->nk; k++) {
            for (int i = 0; i < r->nrows; i++) {
                const struct row *row = &r->rows[i];
                int measured = row->nv[k] > 0;
                const char *text = measured ? row->how[k] : row->note[k];
                /* the split's how, once per kernel: the row after the entry */
                if (!r->ncells[k] || measured != kinds[kind].measured || !text[0] ||
                    (measured && strcmp(row->name, KERNEL_INIT_ROW) != 0))
                    continue;
                if (!said++)
                    fprintf(out, "\n%s\n", kinds[kind].head);
                if (measured)
                    fprintf(out, "  %s: %s\n", r->kernel[k], text);
                else
                    fprintf(out, "  %s, %s: %s\n", r->kernel[k], row->name, text);
            }
        }
    }
}

int lab_timing_report(FILE *out, struct lab_store *st, int64_t run)
{
    struct report *r = lab_xcalloc(1, sizeof *r);
    struct cell_list *cl = lab_xcalloc(1, sizeof *cl);
    r->rows = lab_xcalloc(MAX_ROWS, sizeof *r->rows);
    void *pair[2] = {r, cl};
    int rc = lab_store_foreach_cell(st, run, list_cb, pair) < 0 ? -1 : 0;
    for (int i = 0; rc == 0 && i < cl->n; i++) {
        r->cur = cl->kernel[i];
        int before = r->phases;
        if (lab_store_foreach_phase(st, cl->id[i], phase_cb, r) < 0)
            rc = -1;
        else if (r->phases > before)
            r->ncells[r->cur]++;
    }
    if (rc == 0 && r->phases == 0) {
        fprintf(out,
                "run %lld: no cell timing stored (a run from before the store's schema 4, or no "
                "cell ran)\n",
                (long long)run);
        rc = 1;
    }
    if (rc == 0) {
        qsort(r->rows, (size_t)r->nrows, sizeof *r->rows, cmp_row);
        fprintf(out,
                "run %lld: where each cell's time went (host clock, s; the median of a kernel's "
                "cells, [min-max] with two or more)\n\n",
                (long long)run);
        fprintf(out, "%-46s", "phase");
        for (int k = 0; k < r->nk; k++) {
            if (!r->ncells[k])
                continue;
            char head[96];
            snprintf(head, sizeof head, "%s (%d cell%s)", r->kernel[k], r->ncells[k],
                     r->ncells[k] == 1 ? "" : "s");
            fprintf(out, "  %-22s", head);
        }
        fputc('\n', out);
        for (int i = 0; i < r->nrows; i++) {
            struct row *row = &r->rows[i];
            fprintf(out, "%-46s", row->name);
            for (int k = 0; k < r->nk; k++) {
                if (!r->ncells[k])
                    continue;
                int nv = row->nv[k];
                char cell[64];
                if (!nv) {
                    snprintf(cell, sizeof cell, "n/a");
                } else {
                    qsort(row->v[k], (size_t)nv, sizeof row->v[k][0], cmp64);
                    double med =
                        nv % 2 ? (double)row->v[k][nv / 2]
                               : ((double)row->v[k][nv / 2 - 1] + (double)row->v[k][nv / 2]) / 2;
                    if (nv > 1)
                        snprintf(cell, sizeof cell, "%7.3f [%.3f-%.3f]", med / 1e9,
                                 (double)row->v[k][0] / 1e9, (double)row->v[k][nv - 1] / 1e9);
                    else
                        snprintf(cell, sizeof cell, "%7.3f", med / 1e9);
                }
                fprintf(out, "  %-22s", cell);
            }
            fputc('\n', out);
        }
        print_notes(out, r);
    }
    free(r->rows);
    free(r);
    free(cl);
    return rc;
}
