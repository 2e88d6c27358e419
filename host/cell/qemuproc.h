/* A running cell's QEMU seen from /proc: its pid (found by the domain's
 * name on its command line, "guest=NAME,"), its threads and which of them
 * run vCPUs (libvirt starts QEMU with debug-threads=on, so a vCPU thread
 * is named "CPU N/TCG" or "CPU N/KVM"). */
#ifndef LAB_QEMUPROC_H
#define LAB_QEMUPROC_H

#include <stddef.h>
#include <sys/types.h>

/* The pid of the QEMU running domain `name`, or -1. */
pid_t lab_qemu_pid(const char *name);

/* The thread ids of pid into tids (at most max); returns how many, -1 on
 * error. vcpu_only: just the vCPU threads. */
int lab_qemu_threads(pid_t pid, int vcpu_only, pid_t *tids, size_t max);

/* Whether a thread name is a vCPU's ("CPU 0/TCG"). Pure. */
int lab_qemu_is_vcpu_name(const char *comm);

#endif
