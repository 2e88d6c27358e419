/* One nbdkit process per data disk, serving the image over a private unix
 * socket: through the hdd timing filter for an era profile, and always
 * through the cow filter so a guest can never change the cached image. */
#ifndef LAB_NBD_H
#define LAB_NBD_H

#include <stddef.h>
#include <sys/types.h>

struct lab_nbd {
    pid_t pid;
    char *socket;
    char *log;
};

struct lab_nbd_spec {
    const char *image;
    const char *socket;  /* created by nbdkit; removed by lab_nbd_stop */
    const char *log;     /* nbdkit's stderr */
    const char *filter;  /* the hdd filter .so, or NULL for no timing model */
    const char *profile; /* profile file for the filter */
    const char *trace;   /* per-request trace file, or NULL */
    const char *stats;   /* the filter's deadline overrun counters (hdd/stats.h), or NULL */
    int rt_priority;     /* SCHED_FIFO priority of nbdkit and its threads; 0 = normal */
    unsigned pin_cpu;    /* 1 + the host CPU it runs on (--jobs); 0: any */
};

/* Starts nbdkit and waits until its socket accepts connections. */
int lab_nbd_start(const struct lab_nbd_spec *spec, struct lab_nbd *out);
/* Stops it (SIGTERM, then SIGKILL after 5 s) and removes the socket. Safe on
 * a zeroed or already stopped struct. */
void lab_nbd_stop(struct lab_nbd *nbd);

/* 1 if the server exited on its own (killed, crashed) since it started,
 * with how in `how` ("was killed by signal 9", "exited with status 1");
 * 0 while it runs or when it was never started. */
int lab_nbd_exited(struct lab_nbd *nbd, char *how, size_t len);

/* The hdd filter shipped with this build ($LAB_HDD_FILTER overrides). */
const char *lab_hdd_filter_path(void);

#endif
