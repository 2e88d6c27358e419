/* lab cell: one cell job into a result bundle, on this host (issue 11).
 * What every engine runs; `lab run` runs the same code in-process. */
#include "lab/commands.h"
#include "host/bundle.h"
#include "common/interrupt.h"
#include "common/msg.h"
#include "common/str.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static void cell_usage(FILE *out)
{
    fprintf(out, "usage: lab cell --spec CELL.json --out DIR [--attempt N]\n"
                 "  runs the cell job CELL.json here (local libvirt, nbdkit and clocks) and\n"
                 "  writes its result bundle into DIR (MANIFEST.json last); exit 0 when the\n"
                 "  cell is ok, 1 when it failed, 130 when interrupted; `lab import DIR`\n"
                 "  loads it into a store\n");
}

int cmd_cell(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"spec", required_argument, NULL, 's'},
        {"out", required_argument, NULL, 'o'},
        {"attempt", required_argument, NULL, 'a'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *spec = NULL, *out = NULL;
    uint64_t attempt = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "s:o:h", longopts, NULL)) != -1) {
        if (ch == 's')
            spec = optarg;
        else if (ch == 'o')
            out = optarg;
        else if (ch == 'a' && lab_parse_u64(optarg, 1, 1000, &attempt) < 0)
            return lab_error("--attempt wants a number from 1 to 1000, not '%s'", optarg), 2;
        else if (ch == 'h')
            return cell_usage(stdout), 0;
        else if (ch != 'a')
            return cell_usage(stderr), 2;
    }
    if (!spec || !out || optind < argc)
        return cell_usage(stderr), 2;
    struct lab_cell_job job;
    if (lab_cell_job_read(spec, &job) < 0)
        return 2;
    if (attempt)
        job.attempt = (unsigned)attempt;
    lab_install_signal_handlers();
    struct lab_cell_result res;
    int rc = lab_bundle_run(&job, out, &res);
    lab_cell_job_free(&job);
    if (rc < 0)
        return 1;
    if (res.status != LAB_CELL_OK)
        lab_error("cell %s on %s %s: %s", job.key, lab_bundle_host(),
                  lab_cell_status_name(res.status), res.reason);
    else
        fprintf(stderr, "lab: cell %s on %s: %u sample(s), cell %.1f s; bundle %s\n", job.key,
                lab_bundle_host(), res.samples, (double)res.total_ns / 1e9, out);
    return res.status == LAB_CELL_OK ? 0 : res.status == LAB_CELL_INTERRUPTED ? 130 : 1;
}
