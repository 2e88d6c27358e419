/* Real-time scheduling of a cell: see rt.h. */
#include "host/cell/rt.h"
#include "common/str.h"

#include "host/cell/qemuproc.h"
#include "common/file.h"
#include "common/msg.h"

#include <errno.h>
#include <sys/stat.h>
#include <sys/file.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SCHED_RESET_ON_FORK
#define SCHED_RESET_ON_FORK 0x40000000
#endif

long lab_rt_runtime_us(void)
{
    size_t len;
    char *s = lab_read_file("/proc/sys/kernel/sched_rt_runtime_us", &len);
    if (!s)
        return LONG_MIN;
    char *end;
    long v = strtol(s, &end, 10);
    int ok = end != s;
    free(s);
    return ok ? v : LONG_MIN;
}

int lab_rt_permitted(char *why, size_t len)
{
    long runtime = lab_rt_runtime_us();
    if (runtime == -1) {
        /* No throttle: an RT vCPU spinning on every core could starve the
         * host. The lab does not change the setting, so it goes without. */
        snprintf(why, len, "the kernel's RT throttle is off (sched_rt_runtime_us = -1)");
        return 0;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, len, "cannot fork to probe: %s", strerror(errno));
        return 0;
    }
    if (pid == 0) {
        struct sched_param sp = {.sched_priority = LAB_RT_NBD_PRIO};
        _exit(sched_setscheduler(0, SCHED_FIFO, &sp) == 0 ? 0 : errno & 0x7f);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 1;
    int err = WIFEXITED(status) ? WEXITSTATUS(status) : EPERM;
    struct rlimit rl = {0};
    getrlimit(RLIMIT_RTPRIO, &rl);
    if (geteuid() != 0)
        snprintf(why, len, "%s: not root and RLIMIT_RTPRIO is %llu (need %d)", strerror(err),
                 (unsigned long long)rl.rlim_cur, LAB_RT_NBD_PRIO);
    else
        snprintf(why, len, "%s as root: no CAP_SYS_NICE (a container?)", strerror(err));
    return 0;
}

#define CPU_CGROUP_V1 "/sys/fs/cgroup/cpu"

static int rt_group_sched_v1(void)
{
    return lab_file_exists(CPU_CGROUP_V1 "/cpu.rt_runtime_us");
}

int lab_rt_cputune_usable(char *why, size_t len)
{
    if (!rt_group_sched_v1())
        return 1;
    snprintf(why, len,
             "RT group scheduling gives libvirt's cgroups no RT time, so the lab sets QEMU's "
             "threads itself");
    return 0;
}

int lab_rt_qemu(const char *name, int prio, char *why, size_t len)
{
    pid_t tids[256];
    pid_t pid = lab_qemu_pid(name);
    if (pid < 0) {
        snprintf(why, len, "no QEMU process for %s", name);
        return -1;
    }
    int n = lab_qemu_threads(pid, 0, tids, sizeof tids / sizeof tids[0]), set = 0;
    FILE *tasks = rt_group_sched_v1() ? fopen(CPU_CGROUP_V1 "/tasks", "w") : NULL;
    for (int i = 0; i < n; i++) {
        if (tasks) {
            fprintf(tasks, "%ld\n", (long)tids[i]);
            fflush(tasks); /* one tid per write(2) */
        }
        struct sched_param sp = {.sched_priority = prio};
        if (sched_setscheduler(tids[i], SCHED_FIFO, &sp) == 0)
            set++;
        else
            snprintf(why, len, "thread %ld of QEMU %ld: %s", (long)tids[i], (long)pid,
                     strerror(errno));
    }
    if (tasks)
        fclose(tasks);
    return set ? set : -1;
}

int lab_rt_pin_qemu(const char *name, int cpu, int prio, char *why, size_t len)
{
    pid_t tids[256];
    pid_t pid = lab_qemu_pid(name);
    cpu_set_t set;
    if (pid < 0) {
        snprintf(why, len, "no QEMU process for %s", name);
        return -1;
    }
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    int n = lab_qemu_threads(pid, 0, tids, sizeof tids / sizeof tids[0]), pinned = 0;
    pid_t vcpus[64];
    int nv = lab_qemu_threads(pid, 1, vcpus, sizeof vcpus / sizeof vcpus[0]);
    for (int i = 0; i < n; i++) {
        int vcpu = 0;
        for (int v = 0; v < nv; v++)
            vcpu |= vcpus[v] == tids[i];
        /* On one core a spinning vCPU would starve its emulator threads at
         * the same SCHED_FIFO priority: they go above it (they mostly sleep). */
        struct sched_param sp = {.sched_priority = prio + LAB_RT_EMULATOR_ABOVE};
        if (prio && !vcpu && sched_getscheduler(tids[i]) == SCHED_FIFO)
            sched_setscheduler(tids[i], SCHED_FIFO, &sp);
        if (sched_setaffinity(tids[i], sizeof set, &set) == 0)
            pinned++;
        else
            snprintf(why, len, "thread %ld of QEMU %ld: %s", (long)tids[i], (long)pid,
                     strerror(errno));
    }
    return pinned ? pinned : -1;
}

int lab_rt_plan(int disabled, char *note, size_t len)
{
    char why[200];
    if (disabled) {
        snprintf(note, len, "off: --no-rt");
        return 0;
    }
    if (!lab_rt_permitted(why, sizeof why)) {
        snprintf(note, len, "off: not permitted (%s)", why);
        lab_warn("real-time scheduling is not permitted (%s): running without it, so a busy "
                 "host can slow the guest and the era disk (run as root, or --no-rt to say so)",
                 why);
        return 0;
    }
    int cputune = lab_rt_cputune_usable(why, sizeof why);
    snprintf(note, len, "fifo qemu=%d nbdkit=%d reader=%d, QEMU set by %s", LAB_RT_QEMU_PRIO,
             LAB_RT_NBD_PRIO, LAB_RT_READER_PRIO,
             cputune ? "libvirt <cputune>" : "the lab (RT group scheduling)");
    return LAB_RT_QEMU_PRIO;
}

int lab_rt_enter(int prio, struct lab_rt_saved *saved)
{
    struct sched_param sp;
    memset(saved, 0, sizeof *saved);
    if (pthread_getschedparam(pthread_self(), &saved->policy, &sp) != 0)
        return -1;
    saved->priority = sp.sched_priority;
    struct sched_param np = {.sched_priority = prio};
    /* sched_setscheduler(0) acts on the calling thread, and takes the
     * reset-on-fork flag that pthread_setschedparam does not. */
    if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &np) != 0)
        return -1;
    saved->active = 1;
    return 0;
}

void lab_rt_leave(struct lab_rt_saved *saved)
{
    if (!saved->active)
        return;
    struct sched_param sp = {.sched_priority = saved->priority};
    sched_setscheduler(0, saved->policy, &sp);
    saved->active = 0;
}

int lab_rt_self(int prio)
{
    struct sched_param sp = {.sched_priority = prio};
    return sched_setscheduler(0, SCHED_FIFO, &sp);
}

const char *lab_rt_policy_name(int policy)
{
    switch (policy & ~SCHED_RESET_ON_FORK) {
    case SCHED_OTHER:
        return "other";
    case SCHED_FIFO:
        return "fifo";
    case SCHED_RR:
        return "rr";
    case SCHED_BATCH:
        return "batch";
    case SCHED_IDLE:
        return "idle";
    }
    return "?";
}

long long lab_rt_thread_wait_ns(void)
{
    size_t len;
    char *s = lab_read_file("/proc/thread-self/schedstat", &len);
    unsigned long long run = 0, wait = 0;
    int ok = s && sscanf(s, "%llu %llu", &run, &wait) == 2;
    free(s);
    return ok ? (long long)wait : -1;
}

unsigned lab_rt_slots(void)
{
    uint64_t v;
    const char *env = getenv("LAB_RT_SLOTS");
    if (env && *env && lab_parse_u64(env, 0, 1024, &v) == 0)
        return (unsigned)v;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 1 ? (unsigned)(n - 1) : 1;
}

static const char *slot_dir(void)
{
    const char *env = getenv("LAB_RT_SLOT_DIR");
    return env && *env ? env : "/run/lock";
}

int lab_rt_slot_take(char *why, size_t len)
{
    unsigned n = lab_rt_slots();
    for (unsigned i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/lab-rt-slot-%u", slot_dir(), i);
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        if (fd < 0) {
            snprintf(why, len, "cannot open %s: %s", path, strerror(errno));
            return -1;
        }
        fchmod(fd, 0666); /* any user's lab may take it next */
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            return fd;
        close(fd);
    }
    snprintf(why, len, "all %u real-time slot(s) of this host are held by other cells", n);
    return -1;
}

void lab_rt_slot_give(int fd)
{
    if (fd >= 0)
        close(fd);
}
