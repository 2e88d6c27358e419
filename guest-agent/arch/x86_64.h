/* x86_64 raw syscalls and the syscall numbers the agent uses. */
#ifndef LAB_AGENT_ARCH_X86_64_H
#define LAB_AGENT_ARCH_X86_64_H

#define LAB_ARCH_NAME "x86_64"

#define NR_read          0
#define NR_write         1
#define NR_open          2
#define NR_close         3
#define NR_lseek         8
#define NR_mmap          9
#define NR_munmap        11
#define NR_ioctl         16
#define NR_pread64       17
#define NR_pwrite64      18
#define NR_pause         34
#define NR_nanosleep     35
#define NR_getpid        39
#define NR_fork          57
#define NR_exit          60
#define NR_wait4         61
#define NR_kill          62
#define NR_uname         63
#define NR_fsync         74
#define NR_getdents      78
#define NR_unlink        87
#define NR_mkdir         83
#define NR_rmdir         84
#define NR_gettimeofday  96
#define NR_getrusage     98
#define NR_mknod         133
#define NR_sync          162
#define NR_mount         165
#define NR_umount2       166
#define NR_reboot        169
#define NR_init_module   175
#define NR_io_setup      206 /* native AIO: 2.5/2.6 */
#define NR_io_destroy    207
#define NR_io_getevents  208
#define NR_io_submit     209
#define NR_getdents64    217
#define NR_fadvise64     221
#define NR_clock_gettime 228
#define NR_openat        257 /* 2.6.16; only the self-test's probe uses it */

static inline long sc0(long n)
{
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(n) : "rcx", "r11", "memory");
    return r;
}

static inline long sc1(long n, long a)
{
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a) : "rcx", "r11", "memory");
    return r;
}

static inline long sc2(long n, long a, long b)
{
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b) : "rcx", "r11", "memory");
    return r;
}

static inline long sc3(long n, long a, long b, long c)
{
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return r;
}

static inline long sc4(long n, long a, long b, long c, long d)
{
    long r;
    register long r10 __asm__("r10") = d;
    __asm__ volatile("syscall"
                     : "=a"(r)
                     : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10)
                     : "rcx", "r11", "memory");
    return r;
}

static inline long sc5(long n, long a, long b, long c, long d, long e)
{
    long r;
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    __asm__ volatile("syscall"
                     : "=a"(r)
                     : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
                     : "rcx", "r11", "memory");
    return r;
}

static inline long sc6(long n, long a, long b, long c, long d, long e, long f)
{
    long r;
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    register long r9 __asm__("r9") = f;
    __asm__ volatile("syscall"
                     : "=a"(r)
                     : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return r;
}

/* Entry point: the kernel leaves argc at (%rsp). */
#define LAB_START_ASM                                                                              \
    ".text\n"                                                                                      \
    ".global _start\n"                                                                             \
    "_start:\n"                                                                                    \
    "  xor %rbp, %rbp\n"                                                                           \
    "  mov %rsp, %rdi\n"                                                                           \
    "  and $-16, %rsp\n"                                                                           \
    "  call agent_start_c\n"                                                                       \
    "1: hlt\n"                                                                                     \
    "  jmp 1b\n"

#endif
