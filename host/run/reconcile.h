/* Runs whose lab process is gone (SIGKILL, a crash, a power cut): at the
 * start of every command that reads or writes runs, they are marked
 * "abandoned" with the time, their run directories (sockets, nbdkit and
 * console logs) are swept, and their console logs kept in the run's log
 * directory, as a finished run's are; bundles left in their spools are
 * imported. */
#ifndef LAB_RECONCILE_H
#define LAB_RECONCILE_H

#include "host/store/store.h"

/* Reconciles the store's runs and sweeps the run directories of labs that
 * no longer run (st may be NULL: directories only), then their spools
 * (lab_reconcile_spools). Returns the number of runs marked abandoned.
 * Problems are warnings: this never stops a command. */
int lab_reconcile(struct lab_store *st);

/* The spools ($LAB_HOME/spool/PID) of labs of this host that no longer
 * run (reconcile_spool.c): each bundle there this store dispatched and
 * never imported is imported into its run, once; a partial or corrupt one
 * is refused, said, its logs kept in $LAB_HOME/logs/orphans/spool-PID; a
 * bundle the store cannot take stays, said. The spool is removed once
 * nothing in it is left to import. st NULL: nothing. */
void lab_reconcile_spools(struct lab_store *st);

#endif
