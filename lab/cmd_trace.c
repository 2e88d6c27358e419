/* lab trace [RUN] [KERNEL]: summaries of the era disk's request traces. */
#include "commands.h"
#include "store.h"
#include "trace.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

struct trace_ctx {
    struct lab_store *st;
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
    t->window = lab_trace_cell_window(t->st, ci->id);
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
    printf("%s%s, the %s runs after the warm-up:\n", t->shown ? "\n" : "", ci->kernel,
           t->window.to_ns ? "counted" : "(no timestamps) whole cell, not only");
    lab_trace_print(stdout, &s);
    t->shown++;
    return 0;
}

int cmd_trace(int argc, char **argv)
{
    struct lab_store *st;
    struct trace_ctx t = {0};
    int64_t run;
    char *end;
    if (lab_store_open(lab_store_path(), &st) < 0)
        return 1;
    run = argc > 1 ? strtoll(argv[1], &end, 10) : lab_store_last_run(st);
    if (argc > 1 && (*end || run <= 0)) {
        lab_store_close(st);
        lab_error("not a run number: '%s' (see `lab runs`)", argv[1]);
        return 2;
    }
    t.st = st;
    t.kernel = argc > 2 ? argv[2] : NULL;
    printf("run %lld: requests the guest sent to the era disk (from the hdd filter's trace)\n\n",
           (long long)run);
    lab_store_foreach_cell(st, run, show_cell, &t);
    lab_store_close(st);
    if (!t.shown) {
        lab_error("run %lld has no disk trace (only era-disk profiles are traced)", (long long)run);
        return 1;
    }
    return 0;
}
