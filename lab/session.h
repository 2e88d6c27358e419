/* What every measuring command (run, bisect) opens before its first cell:
 * the libvirt connection (stale lab domains swept), the result store with
 * a new run recording the command line, the run's log directory, and the
 * signal handlers that turn Ctrl-C into a clean stop. */
#ifndef LAB_SESSION_H
#define LAB_SESSION_H

#include <stdint.h>

#include "host/cell/cell.h"

struct lab_session {
    struct lab_cell_env env; /* conn, store, run id and log dir for lab_cell_run */
    char command_line[2048];
    char *log_dir;
};

/* 0, or -1 with the error printed and nothing left open (also when the
 * store cannot record the run: no run is measured unstored). Runs of labs
 * that were killed are reconciled first (host/run/reconcile.h). */
int lab_session_open(struct lab_session *s, int argc, char **argv, const char *experiment,
                     const char *profile);
void lab_session_close(struct lab_session *s);

/* Whether the next cell may boot: LAB_GO, or why not in `why` (Ctrl-C, a
 * store that can no longer be written, naming it, or a lost libvirt). */
enum lab_session_stop { LAB_GO, LAB_STOP_INTERRUPTED, LAB_STOP_STORE, LAB_STOP_LIBVIRT };
enum lab_session_stop lab_session_check(struct lab_session *s, char *why, size_t len);

#endif
