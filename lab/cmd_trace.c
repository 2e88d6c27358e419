/* lab trace [RUN] [KERNEL]: summaries of the era disk's request traces. */
#include "lab/commands.h"
#include "host/store/store.h"
#include "host/report/trace.h"
#include "common/msg.h"
#include "common/str.h"

#include <stdlib.h>
#include <string.h>

struct trace_ctx {
    struct lab_store *st;
    int64_t run;
    const char *kernel;
    int shown;
    struct lab_trace_window window;
};

static int show_cell(const struct lab_cell_info *ci, void *arg)
{
    struct trace_ctx *t = arg;
    char path[4096], err[128];
    struct lab_trace_summary s;
    if (t->kernel && strcmp(t->kernel, ci->kernel) != 0)
        return 0;
    if (!lab_store_cell_get(t->st, ci->id, "trace", path, sizeof path))
        return 0;
    t->window = lab_trace_cell_window(t->st, ci);
    FILE *f = fopen(path, "r");
    if (!f) {
        lab_warn("cannot open %s", path);
        return 0;
    }
    int rc = lab_trace_summarize(f, t->window, &s, err, sizeof err);
    fclose(f);
    if (rc < 0) {
        lab_warn("%s:%s", path, err);
        return 0;
    }
    if (!t->shown) /* the header only over something to show */
        printf("run %lld: requests the guest sent to the era disk (from the hdd filter's "
               "trace)\n\n",
               (long long)t->run);
    printf("%s%s, the %s runs after the warm-up:\n", t->shown ? "\n" : "", ci->kernel,
           t->window.to_ns ? "counted" : "(no timestamps) whole cell, not only");
    lab_trace_print(stdout, &s);
    t->shown++;
    return 0;
}

/* The kernels of a run, "a, b", to check and name the KERNEL argument. */
struct kernels_ctx {
    const char *want;
    int found;
    size_t cells;
    char names[512];
};

static int collect_kernel(const struct lab_cell_info *ci, void *arg)
{
    struct kernels_ctx *k = arg;
    size_t len = strlen(k->names);
    k->cells++;
    k->found |= k->want && strcmp(k->want, ci->kernel) == 0;
    if (!strstr(k->names, ci->kernel))
        snprintf(k->names + len, sizeof k->names - len, "%s%s", len ? ", " : "", ci->kernel);
    return 0;
}

/* Which run to show: the argument (an id in range) or the newest. 0, or
 * the exit code with the error said. */
static int pick_run(struct lab_store *st, int argc, char **argv, int64_t *run)
{
    if (argc > 1 && lab_parse_id(argv[1], run) < 0) {
        lab_error("not a run number: '%s' (see `lab runs`)", argv[1]);
        return 2;
    }
    if (argc <= 1 && (*run = lab_store_last_run(st)) < 0) {
        lab_error("the store %s holds no runs yet", lab_store_path());
        return 1;
    }
    return 0;
}

/* The run exists and has the kernel asked for; 0, or the exit code. */
static int check_run(struct lab_store *st, int64_t run, const char *kernel)
{
    struct kernels_ctx k = {.want = kernel};
    if (lab_store_foreach_cell(st, run, collect_kernel, &k) < 0)
        return 1;
    if (k.cells == 0) {
        if (run > lab_store_last_run(st))
            return lab_error("no run %lld in %s (see `lab runs`)", (long long)run,
                             lab_store_path()),
                   2;
        lab_error("run %lld has no cells", (long long)run);
        return 1;
    }
    if (kernel && !k.found) {
        lab_error("run %lld has no kernel '%s' (its kernels: %s)", (long long)run, kernel, k.names);
        return 1;
    }
    return 0;
}

int cmd_trace(int argc, char **argv)
{
    struct lab_store *st;
    struct trace_ctx t = {0};
    int64_t run = 0;
    if (lab_store_open(lab_store_path(), &st) < 0)
        return 1;
    t.st = st;
    t.kernel = argc > 2 ? argv[2] : NULL;
    int rc = pick_run(st, argc, argv, &run);
    if (rc == 0)
        rc = check_run(st, run, t.kernel);
    if (rc == 0) {
        t.run = run;
        lab_store_foreach_cell(st, run, show_cell, &t);
        if (!t.shown) {
            lab_error("run %lld has no disk trace (only era-disk profiles are traced)",
                      (long long)run);
            rc = 1;
        }
    }
    lab_store_close(st);
    return rc;
}
