/* The connection, store and run every measuring command starts with. */
#include "lab/session.h"
#include "lab/commands.h"
#include "host/run/reconcile.h"
#include "common/file.h"
#include "common/interrupt.h"
#include "common/paths.h"
#include "host/cell/vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void close_partial(struct lab_session *s)
{
    lab_store_close(s->env.store);
    virConnectClose(s->env.conn);
    memset(s, 0, sizeof *s);
}

int lab_session_open(struct lab_session *s, int argc, char **argv, const char *experiment,
                     const char *profile)
{
    memset(s, 0, sizeof *s);
    /* Before anything that can block: a Ctrl-C while connecting is a clean stop. */
    lab_install_signal_handlers();
    s->env.conn = lab_vm_connect();
    if (!s->env.conn)
        return -1;
    lab_vm_sweep_stale(s->env.conn);
    if (lab_mkdir_p(lab_home(), 0755) < 0 || lab_store_open(lab_store_path(), &s->env.store) < 0) {
        close_partial(s);
        return -1;
    }
    lab_reconcile(s->env.store);
    snprintf(s->command_line, sizeof s->command_line, "lab");
    for (int i = 0; i < argc; i++) {
        size_t len = strlen(s->command_line);
        snprintf(s->command_line + len, sizeof s->command_line - len, " %s", argv[i]);
    }
    s->env.run_id = lab_store_run_begin(s->env.store, s->command_line, experiment, profile);
    if (s->env.run_id < 0) {
        /* The store said why; a run that is not stored must not measure. */
        close_partial(s);
        return -1;
    }
    s->log_dir = lab_run_log_dir(lab_store_path(), s->env.run_id);
    s->env.log_dir = s->log_dir;
    return 0;
}

/* The reasons to stop before the next cell, first match wins. */
enum lab_session_stop lab_session_check(struct lab_session *s, char *why, size_t len)
{
    const char *failure = lab_store_failure(s->env.store);
    if (lab_interrupted) {
        snprintf(why, len, "interrupted by signal %d", lab_interrupted);
        return LAB_STOP_INTERRUPTED;
    }
    if (failure) {
        snprintf(why, len, "%s", failure);
        return LAB_STOP_STORE;
    }
    if (!lab_vm_alive(s->env.conn)) {
        snprintf(why, len, "lost the connection to libvirt at %s (libvirtd stopped?)",
                 lab_vm_uri());
        return LAB_STOP_LIBVIRT;
    }
    return LAB_GO;
}

void lab_session_close(struct lab_session *s)
{
    free(s->log_dir);
    close_partial(s);
}
