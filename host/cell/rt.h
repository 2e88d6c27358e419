/* Real-time scheduling of a cell (issue 13): under TCG the guest's CPU is
 * the host's, and the era disk sleeps until each request's deadline, so a
 * busy host moves the results. A cell's QEMU (vCPU and emulator threads,
 * through libvirt's <cputune>) and its nbdkit run under SCHED_FIFO at low
 * priorities, nbdkit one above QEMU so a deadline wake-up preempts a
 * spinning vCPU; the lab's channel reader runs just above normal threads
 * while it pumps records. The kernel's RT throttle (sched_rt_runtime_us)
 * is left as it is: it keeps a share of every period for normal threads. */
#ifndef LAB_RT_H
#define LAB_RT_H

#include <stddef.h>

#define LAB_RT_QEMU_PRIO   10 /* vCPU and emulator threads */
#define LAB_RT_NBD_PRIO    11 /* nbdkit: above QEMU */
#define LAB_RT_READER_PRIO 5  /* the lab's channel reader, while a cell runs */

/* Whether this process may use SCHED_FIFO (tried in a child, so nothing
 * here changes). 1 yes; 0 no, with why in `why` (non-root without
 * RLIMIT_RTPRIO, a container without CAP_SYS_NICE, the throttle off). */
int lab_rt_permitted(char *why, size_t len);

/* The run's decision, said once: the QEMU priority to use (0: none) and
 * the note every cell stores as its "rt" fact ("fifo qemu=10 nbdkit=11
 * reader=5", "off: --no-rt", "off: not permitted (...)"). disabled: --no-rt. */
int lab_rt_plan(int disabled, char *note, size_t len);

/* Whether libvirt can set <cputune> scheduling here. Not on a kernel with
 * RT group scheduling under cgroup v1 (CONFIG_RT_GROUP_SCHED: the
 * cpu controller has cpu.rt_runtime_us): libvirt's machine cgroups get no
 * RT time, and libvirt's sched_setscheduler fails with EPERM even as root.
 * 1 usable, 0 not (why says so). */
int lab_rt_cputune_usable(char *why, size_t len);

/* Where <cputune> is not usable: every thread of the QEMU running domain
 * `name` to SCHED_FIFO at prio, first moved to the root cpu cgroup (which
 * has the RT time) when RT group scheduling is on. Threads QEMU starts
 * later inherit both. The number of threads set, or -1 with why. */
int lab_rt_qemu(const char *name, int prio, char *why, size_t len);

/* Every thread of the QEMU running domain `name` on host CPU cpu only
 * (threads it starts later inherit it): `lab run --jobs N` gives each
 * real-time cell its own core. With real time (prio, QEMU's priority) its
 * emulator threads go LAB_RT_EMULATOR_ABOVE above the vCPU's, which would
 * otherwise starve them on the one core (SCHED_FIFO does not share a CPU
 * between threads of one priority). The number pinned, or -1 with why. */
#define LAB_RT_EMULATOR_ABOVE 2
int lab_rt_pin_qemu(const char *name, int cpu, int prio, char *why, size_t len);
/* Real-time cells share the host: at most one fewer than its online CPUs
 * (one on a single CPU) run under SCHED_FIFO at a time, across every lab
 * on the machine, so one CPU is always left to normal threads: the labs
 * themselves (their readers' bookkeeping, timeouts, teardown), builds and
 * the shell. Several equal-priority FIFO QEMUs on every CPU would starve
 * those (a TCG vCPU never blocks while the guest works) down to the RT
 * throttle's 5%, and a cell's own timeout could not fire. A slot is a
 * flock on /run/lock/lab-rt-slot-N (LAB_RT_SLOT_DIR overrides the
 * directory, LAB_RT_SLOTS the count), released by the kernel when the
 * holder exits however it exits. lab_rt_slot_take: the descriptor, or -1
 * when every slot is held (`why` says so: the cell then runs without
 * real-time and its note and contention figures say so). */
unsigned lab_rt_slots(void);
int lab_rt_slot_take(char *why, size_t len);
void lab_rt_slot_give(int fd);

/* The kernel's RT throttle: sched_rt_runtime_us, or LONG_MIN if unreadable
 * (-1 means no throttle). */
long lab_rt_runtime_us(void);

/* The calling thread under SCHED_FIFO at prio, with SCHED_RESET_ON_FORK so
 * the children it starts (builds, tools) run normally. *saved gets the old
 * policy for lab_rt_leave. 0, or -1 (errno) and nothing changed. */
struct lab_rt_saved {
    int policy, priority, active;
};
int lab_rt_enter(int prio, struct lab_rt_saved *saved);
void lab_rt_leave(struct lab_rt_saved *saved);

/* The calling process (a forked child before exec: nbdkit) under
 * SCHED_FIFO at prio; its threads inherit it. 0 or -1 (errno). */
int lab_rt_self(int prio);

/* The calling thread's total wait on a run queue (ns, the second field of
 * /proc/thread-self/schedstat), or -1 without schedstat. */
long long lab_rt_thread_wait_ns(void);

/* A thread's scheduling policy name ("fifo", "other", ...) for tests. */
const char *lab_rt_policy_name(int policy);

#endif
