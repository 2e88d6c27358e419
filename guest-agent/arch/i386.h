/* i386 raw syscalls (int $0x80) and the syscall numbers the agent uses. */
#ifndef LAB_AGENT_ARCH_I386_H
#define LAB_AGENT_ARCH_I386_H

#define LAB_ARCH_NAME "i386"

#define NR_exit          1
#define NR_fork          2
#define NR_read          3
#define NR_write         4
#define NR_open          5
#define NR_close         6
#define NR_unlink        10
#define NR_mknod         14
#define NR_lseek         19
#define NR_getpid        20
#define NR_mount         21
#define NR_pause         29
#define NR_kill          37
#define NR_rmdir         40
#define NR_sync          36
#define NR_mkdir         39
#define NR_umount2       52 /* sys_umount */
#define NR_ioctl         54
#define NR_getrusage     77
#define NR_gettimeofday  78
#define NR_reboot        88
#define NR_old_mmap      90
#define NR_munmap        91
#define NR_wait4         114
#define NR_fsync         118
#define NR_uname         122 /* newuname */
#define NR_init_module   128
#define NR_llseek        140 /* _llseek */
#define NR_getdents      141
#define NR_nanosleep     162
#define NR_pread64       180 /* sys_pread in 2.4.0 */
#define NR_pwrite64      181 /* sys_pwrite */
#define NR_getdents64    220
#define NR_io_setup      245 /* native AIO: 2.5/2.6, ENOSYS on 2.4 */
#define NR_io_destroy    246
#define NR_io_getevents  247
#define NR_io_submit     248
#define NR_fadvise64     250
#define NR_clock_gettime 265
#define NR_fadvise64_64  272
#define NR_openat        295 /* 2.6.16; only the self-test's probe uses it */

static inline long sc0(long n)
{
    long r;
    __asm__ volatile("int $0x80" : "=a"(r) : "a"(n) : "memory");
    return r;
}

static inline long sc1(long n, long a)
{
    long r;
    __asm__ volatile("int $0x80" : "=a"(r) : "a"(n), "b"(a) : "memory");
    return r;
}

static inline long sc2(long n, long a, long b)
{
    long r;
    __asm__ volatile("int $0x80" : "=a"(r) : "a"(n), "b"(a), "c"(b) : "memory");
    return r;
}

static inline long sc3(long n, long a, long b, long c)
{
    long r;
    __asm__ volatile("int $0x80" : "=a"(r) : "a"(n), "b"(a), "c"(b), "d"(c) : "memory");
    return r;
}

static inline long sc4(long n, long a, long b, long c, long d)
{
    long r;
    __asm__ volatile("int $0x80" : "=a"(r) : "a"(n), "b"(a), "c"(b), "d"(c), "S"(d) : "memory");
    return r;
}

static inline long sc5(long n, long a, long b, long c, long d, long e)
{
    long r;
    __asm__ volatile("int $0x80"
                     : "=a"(r)
                     : "a"(n), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
                     : "memory");
    return r;
}

/* The sixth argument goes in %ebp: push it before %esp moves, then swap. */
static inline long sc6(long n, long a, long b, long c, long d, long e, long f)
{
    long r;
    __asm__ volatile("pushl %7\n\t"
                     "push %%ebp\n\t"
                     "mov 4(%%esp), %%ebp\n\t"
                     "int $0x80\n\t"
                     "pop %%ebp\n\t"
                     "add $4, %%esp"
                     : "=a"(r)
                     : "a"(n), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e), "g"(f)
                     : "memory");
    return r;
}

/* Entry point: the kernel leaves argc at (%esp). Keep %esp 16-aligned at the call. */
#define LAB_START_ASM                                                                              \
    ".text\n"                                                                                      \
    ".global _start\n"                                                                             \
    "_start:\n"                                                                                    \
    "  xor %ebp, %ebp\n"                                                                           \
    "  mov %esp, %eax\n"                                                                           \
    "  and $-16, %esp\n"                                                                           \
    "  sub $12, %esp\n"                                                                            \
    "  push %eax\n"                                                                                \
    "  call agent_start_c\n"                                                                       \
    "1: hlt\n"                                                                                     \
    "  jmp 1b\n"

#endif
