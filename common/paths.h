/* Where the lab keeps things: its cache and its run directory. */
#ifndef LAB_COMMON_PATHS_H
#define LAB_COMMON_PATHS_H

#include <stdint.h>

/* The lab's cache ($LAB_HOME, default /var/cache/lab for root, else
 * ~/.cache/lab) and its run directory for sockets and logs ($LAB_RUN_DIR,
 * else /run/lab for root, $XDG_RUNTIME_DIR/lab, or a private /tmp/lab-UID
 * (0700, checked to be the user's own) without XDG_RUNTIME_DIR). Both are
 * reachable by the libvirt-qemu user when running as root. */
const char *lab_home(void);
const char *lab_run_root(void);
/* Where run N of the store at store_path keeps its logs (malloc'd):
 * $LAB_HOME/logs/run-N for the default store ($LAB_HOME/results.db),
 * $LAB_HOME/logs/store-HASH/run-N for any other, HASH the first 12 hex
 * digits of the SHA-256 of the store's absolute path (symlinks resolved),
 * so two stores never share a log directory. */
char *lab_run_log_dir(const char *store_path, int64_t run);

#endif
