/* The transfer-mode record and the kernel's failure of a cell (cellfail.h). */
#include "host/cell/cellfail.h"
#include "host/cell/oops.h"
#include "host/cell/proto.h"
#include "host/store/store.h"

#include "common/file.h"
#include "common/msg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The record's keys kept as facts, in the order they are sent. */
static const char *const xfer_keys[] = {"ide_dev",         "ide_stack", "ide_dma",  "ide_mode",
                                        "ide_dma_capable", "ide_best",  "ide_model"};

int lab_cell_note_xfer(struct lab_store *st, int64_t cell, const char *kernel,
                       const struct lab_record *rec)
{
    const char *msg = lab_record_get(rec, "msg");
    if (!msg || strcmp(msg, "ide transfer mode") != 0)
        return 0;
    for (size_t i = 0; st && i < sizeof xfer_keys / sizeof xfer_keys[0]; i++)
        if (lab_record_get(rec, xfer_keys[i]))
            lab_store_cell_set(st, cell, xfer_keys[i], lab_record_get(rec, xfer_keys[i]));
    const char *stack = lab_record_get(rec, "ide_stack"), *dma = lab_record_get(rec, "ide_dma");
    const char *capable = lab_record_get(rec, "ide_dma_capable");
    const char *mode = lab_record_get(rec, "ide_mode");
    if (stack && strcmp(stack, "ide") == 0 && dma && strcmp(dma, "0") == 0 && capable &&
        strcmp(capable, "1") == 0)
        lab_warn("%s: %s runs in PIO (%s) on a controller and drive with DMA; its .config or "
                 "command line left DMA off (--set ide_dma=on, as hdparm -d1)",
                 kernel,
                 lab_record_get(rec, "ide_dev") ? lab_record_get(rec, "ide_dev") : "the disk",
                 mode ? mode : "?");
    return 1;
}

/* The trace as one text, innermost first: "a <- b <- c". */
static void join_trace(const struct lab_oops *o, char *out, size_t len)
{
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; i < o->ntrace && at < len; i++)
        at += (size_t)snprintf(out + at, len - at, "%s%s", i ? " <- " : "", o->trace[i]);
}

int lab_cell_kernel_failure(struct lab_store *st, int64_t cell, const char *console,
                            const char *system_map, char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    char *text = lab_read_file(console, &n);
    if (!text)
        return 0;
    struct lab_oops *o = calloc(1, sizeof *o);
    int found = o && lab_oops_parse(text, n, o);
    free(text);
    if (found && system_map) {
        size_t mn = 0;
        char *map = lab_read_file(system_map, &mn);
        if (map)
            lab_oops_resolve(o, map, mn);
        free(map);
    }
    if (found) {
        lab_oops_summary(o, out, len);
        char trace[LAB_OOPS_TRACE_MAX * 112];
        join_trace(o, trace, sizeof trace);
        struct lab_cell_failure f = {
            .headline = o->headline,
            .function = o->function,
            .offset = o->offset,
            .trace = trace,
            .bug_file = o->bug_file,
            .bug_line = o->bug_line,
            .panic = o->panic,
            .phase = o->phase,
            .avoid_key = lab_oops_key(o),
        };
        if (st)
            lab_store_set_failure(st, cell, &f);
    }
    free(o);
    return found;
}
