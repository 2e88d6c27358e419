/* Agent protocol, version 1: the only thing the guest agent and the host share.
 *
 * One record per line, at most LAB_PROTO_MAX_LINE bytes including '\n':
 *
 *     LAB1 <seq> <type> key=value key=value ...
 *
 * <seq> counts records from 0 without gaps, so the host notices a lost line.
 * Values are unsigned decimal integers or percent-encoded tokens: every byte
 * outside [A-Za-z0-9._/:,+-] is written %XX (upper-case hex). Keys are
 * [a-z0-9_]+. Times are nanoseconds, sizes bytes.
 *
 * Records, in the order an agent sends them:
 *   hello  v=1 agent=VERSION uname=RELEASE arch=ARCH [up_cs=N]  (once, first;
 *          up_cs: the kernel's /proc/uptime as /init began, in 1/100 s)
 *   log    msg=TEXT                                   (any time)
 *   begin  test=NAME rep=N guest_ns=T                 (one test run starts)
 *   end    test=NAME rep=N guest_ns=T bytes=B real_ns=R user_ns=U sys_ns=S
 *          [ra_sectors=N bs=N ...]                    (it ends; extra keys are
 *                                                      test parameters/figures)
 *   error  msg=TEXT [test=NAME rep=N]                 (the agent failed)
 *   bye    runs=N                                     (last; then power off)
 *
 * guest_ns is the guest's monotonic clock (CLOCK_MONOTONIC, or gettimeofday
 * where the kernel has no clock_gettime); real_ns is the guest's own measure
 * of the run. The host stamps its own clock on every record as it arrives.
 */
#ifndef LAB_PROTOCOL_H
#define LAB_PROTOCOL_H

#define LAB_PROTO_MAGIC    "LAB1"
#define LAB_PROTO_VERSION  1
#define LAB_PROTO_MAX_LINE 4096
#define LAB_PROTO_MAX_KEYS 32

/* Name of the virtio-serial port the agent reports on. */
#define LAB_PROTO_PORT_NAME "org.lab.agent.0"

/* The agent's parameters are "lab.key=value" words, space or newline
 * separated, in this file of the boot image (the host writes it; an old
 * kernel's 256-byte command line cannot carry them). Words with the same
 * prefix on the kernel command line count too; the file's win. */
#define LAB_CMDLINE_PREFIX "lab."
#define LAB_PARAMS_PATH    "/etc/lab/params"
#define LAB_PARAMS_MAX     4096 /* bytes, the file's bound on both sides */

/* Deterministic content of the lab's test files: the 8-byte little-endian
 * word at byte offset 8*i of a file made with `seed` is lab_content_word(seed,
 * i) (splitmix64). The host writes it; the agent can verify what it read. */
static inline unsigned long long lab_content_word(unsigned long long seed, unsigned long long i)
{
    unsigned long long z = seed + (i + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

#define LAB_CONTENT_SEED_DEFAULT 0x1ab5eed2004ULL

/* The ext2/3 volume label of the empty scratch disk the host makes for
 * io_other. The agent finds the disks by it, not by their names: a kernel
 * that probes disks asynchronously (sd in 6.x) may name them in either order. */
#define LAB_SCRATCH_LABEL "lab-scratch"

#endif
