/* Ctrl-C, SIGTERM and SIGHUP as a flag the lab's loops check. */
#ifndef LAB_COMMON_INTERRUPT_H
#define LAB_COMMON_INTERRUPT_H

/* Set by SIGINT/SIGTERM/SIGHUP once lab_install_signal_handlers ran, which
 * also ignores SIGPIPE (a lost peer is an error return, EPIPE). */
extern volatile int lab_interrupted;
void lab_install_signal_handlers(void);

#endif
