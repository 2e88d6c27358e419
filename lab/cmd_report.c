/* lab report RUN [RUN ...] --html DIR: the HTML page of stored runs. */
#include "lab/commands.h"
#include "host/report/html.h"
#include "common/msg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RUNS 32

static void report_usage(FILE *out)
{
    fprintf(out, "usage: lab report RUN [RUN ...] --html DIR\n"
                 "  writes DIR/index.html: plots of each run (self-contained, no network)\n");
}

int cmd_report(int argc, char **argv)
{
    int64_t runs[MAX_RUNS];
    size_t n = 0;
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        char *end;
        if (strcmp(argv[i], "--html") == 0 && i + 1 < argc) {
            dir = argv[++i];
            continue;
        }
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            report_usage(stdout);
            return 0;
        }
        int64_t run = strtoll(argv[i], &end, 10);
        if (*end || run <= 0 || n == MAX_RUNS) {
            lab_error("not a run number: '%s' (see `lab runs`; at most %d)", argv[i], MAX_RUNS);
            return 2;
        }
        runs[n++] = run;
    }
    if (!n || !dir) {
        report_usage(stderr);
        return 2;
    }
    int figures = lab_html_report(lab_store_path(), runs, n, dir);
    if (figures < 0)
        return 1;
    printf("lab: wrote %s/index.html: %d figure(s) for %zu run(s)\n", dir, figures, n);
    return 0;
}
