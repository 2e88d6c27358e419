/* Runs whose lab process is gone (SIGKILL, a crash, a power cut): at the
 * start of every command that reads or writes runs, they are marked
 * "abandoned" with the time, their run directories (sockets, nbdkit and
 * console logs) are swept, and their console logs kept in the run's log
 * directory, as a finished run's are. */
#ifndef LAB_RECONCILE_H
#define LAB_RECONCILE_H

#include "host/store.h"

/* Reconciles the store's runs and sweeps the run directories of labs that
 * no longer run (st may be NULL: directories only). Returns the number of
 * runs marked abandoned. Problems are warnings: this never stops a command. */
int lab_reconcile(struct lab_store *st);

#endif
