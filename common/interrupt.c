/* Ctrl-C, SIGTERM and SIGHUP as a flag the lab's loops check. */
#include "common/interrupt.h"

#include <sys/wait.h>

volatile int lab_interrupted;

static void on_signal(int sig)
{
    lab_interrupted = sig;
}

void lab_install_signal_handlers(void)
{
    struct sigaction sa = {0};
    sa.sa_handler = on_signal; /* no SA_RESTART: blocking calls return EINTR */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    /* A peer that went away (libvirtd stopped mid-cell, a closed socket)
     * must be an EPIPE the caller reports, not a silent death with the
     * run left "running" and its guest outliving us. */
    signal(SIGPIPE, SIG_IGN);
}
