/* The connection, store and run every measuring command starts with. */
#include "session.h"
#include "commands.h"
#include "util.h"
#include "vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lab_session_open(struct lab_session *s, int argc, char **argv, const char *experiment,
                     const char *profile)
{
    memset(s, 0, sizeof *s);
    s->env.conn = lab_vm_connect();
    if (!s->env.conn)
        return -1;
    lab_vm_sweep_stale(s->env.conn);
    if (lab_mkdir_p(lab_home(), 0755) < 0 || lab_store_open(lab_store_path(), &s->env.store) < 0) {
        virConnectClose(s->env.conn);
        return -1;
    }
    snprintf(s->command_line, sizeof s->command_line, "lab");
    for (int i = 0; i < argc; i++) {
        size_t len = strlen(s->command_line);
        snprintf(s->command_line + len, sizeof s->command_line - len, " %s", argv[i]);
    }
    s->env.run_id = lab_store_run_begin(s->env.store, s->command_line, experiment, profile);
    s->log_dir = lab_asprintf("%s/logs/run-%lld", lab_home(), (long long)s->env.run_id);
    s->env.log_dir = s->log_dir;
    lab_install_signal_handlers();
    return 0;
}

void lab_session_close(struct lab_session *s)
{
    free(s->log_dir);
    lab_store_close(s->env.store);
    virConnectClose(s->env.conn);
    memset(s, 0, sizeof *s);
}
