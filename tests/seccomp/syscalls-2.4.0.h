/* The system calls of Linux 2.4.0, by name, for the era seccomp filter
 * (era-seccomp.c).
 *
 * Source: the i386 system call table of Linux 2.4.0, sys_call_table in
 * arch/i386/kernel/entry.S, entries 0 to 221 (`getdents64` is 220 and
 * `fcntl64` 221; 222 was sys_ni_syscall, "reserved for TUX", and the
 * table ended there: gettid (224), readahead (225), the xattr calls, futex,
 * exit_group, epoll, fadvise64 (250), clock_gettime (265), fadvise64_64 (272)
 * and openat (295) all came in 2.4.x updates or 2.5/2.6). Slots that were
 * sys_ni_syscall in 2.4.0 are left out: 0 (old setup), 17 break, 31 stty,
 * 32 gtty, 35 ftime, 44 prof, 53 lock, 56 mpx, 58 ulimit, 98 profil,
 * 112 idle, 137 afs_syscall, 188 getpmsg, 189 putpmsg.
 *
 * Names are the ones the kernel's arch/x86/entry/syscalls/syscall_32.tbl (and
 * libseccomp) use today; the i386 numbers are a frozen ABI, so each name must
 * still resolve to the number beside it (era-seccomp --check verifies that).
 */
#ifndef LAB_SECCOMP_SYSCALLS_240_H
#define LAB_SECCOMP_SYSCALLS_240_H

struct lab_era_syscall {
    int nr; /* i386 number in 2.4.0 */
    const char *name;
};

static const struct lab_era_syscall lab_linux_2_4_0_i386[] = {
    {1, "exit"},
    {2, "fork"},
    {3, "read"},
    {4, "write"},
    {5, "open"},
    {6, "close"},
    {7, "waitpid"},
    {8, "creat"},
    {9, "link"},
    {10, "unlink"},
    {11, "execve"},
    {12, "chdir"},
    {13, "time"},
    {14, "mknod"},
    {15, "chmod"},
    {16, "lchown"}, /* sys_lchown16 */
    {18, "oldstat"},
    {19, "lseek"},
    {20, "getpid"},
    {21, "mount"},
    {22, "umount"}, /* sys_oldumount */
    {23, "setuid"},
    {24, "getuid"},
    {25, "stime"},
    {26, "ptrace"},
    {27, "alarm"},
    {28, "oldfstat"},
    {29, "pause"},
    {30, "utime"},
    {33, "access"},
    {34, "nice"},
    {36, "sync"},
    {37, "kill"},
    {38, "rename"},
    {39, "mkdir"},
    {40, "rmdir"},
    {41, "dup"},
    {42, "pipe"},
    {43, "times"},
    {45, "brk"},
    {46, "setgid"},
    {47, "getgid"},
    {48, "signal"},
    {49, "geteuid"},
    {50, "getegid"},
    {51, "acct"},
    {52, "umount2"}, /* sys_umount */
    {54, "ioctl"},
    {55, "fcntl"},
    {57, "setpgid"},
    {59, "oldolduname"},
    {60, "umask"},
    {61, "chroot"},
    {62, "ustat"},
    {63, "dup2"},
    {64, "getppid"},
    {65, "getpgrp"},
    {66, "setsid"},
    {67, "sigaction"},
    {68, "sgetmask"},
    {69, "ssetmask"},
    {70, "setreuid"},
    {71, "setregid"},
    {72, "sigsuspend"},
    {73, "sigpending"},
    {74, "sethostname"},
    {75, "setrlimit"},
    {76, "getrlimit"}, /* sys_old_getrlimit */
    {77, "getrusage"},
    {78, "gettimeofday"},
    {79, "settimeofday"},
    {80, "getgroups"},
    {81, "setgroups"},
    {82, "select"}, /* old_select */
    {83, "symlink"},
    {84, "oldlstat"},
    {85, "readlink"},
    {86, "uselib"},
    {87, "swapon"},
    {88, "reboot"},
    {89, "readdir"}, /* old_readdir */
    {90, "mmap"},    /* old_mmap */
    {91, "munmap"},
    {92, "truncate"},
    {93, "ftruncate"},
    {94, "fchmod"},
    {95, "fchown"},
    {96, "getpriority"},
    {97, "setpriority"},
    {99, "statfs"},
    {100, "fstatfs"},
    {101, "ioperm"},
    {102, "socketcall"},
    {103, "syslog"},
    {104, "setitimer"},
    {105, "getitimer"},
    {106, "stat"},  /* sys_newstat */
    {107, "lstat"}, /* sys_newlstat */
    {108, "fstat"}, /* sys_newfstat */
    {109, "olduname"},
    {110, "iopl"},
    {111, "vhangup"},
    {113, "vm86old"},
    {114, "wait4"},
    {115, "swapoff"},
    {116, "sysinfo"},
    {117, "ipc"},
    {118, "fsync"},
    {119, "sigreturn"},
    {120, "clone"},
    {121, "setdomainname"},
    {122, "uname"}, /* sys_newuname */
    {123, "modify_ldt"},
    {124, "adjtimex"},
    {125, "mprotect"},
    {126, "sigprocmask"},
    {127, "create_module"},
    {128, "init_module"},
    {129, "delete_module"},
    {130, "get_kernel_syms"},
    {131, "quotactl"},
    {132, "getpgid"},
    {133, "fchdir"},
    {134, "bdflush"},
    {135, "sysfs"},
    {136, "personality"},
    {138, "setfsuid"},
    {139, "setfsgid"},
    {140, "_llseek"},
    {141, "getdents"},
    {142, "_newselect"}, /* sys_select */
    {143, "flock"},
    {144, "msync"},
    {145, "readv"},
    {146, "writev"},
    {147, "getsid"},
    {148, "fdatasync"},
    {149, "_sysctl"},
    {150, "mlock"},
    {151, "munlock"},
    {152, "mlockall"},
    {153, "munlockall"},
    {154, "sched_setparam"},
    {155, "sched_getparam"},
    {156, "sched_setscheduler"},
    {157, "sched_getscheduler"},
    {158, "sched_yield"},
    {159, "sched_get_priority_max"},
    {160, "sched_get_priority_min"},
    {161, "sched_rr_get_interval"},
    {162, "nanosleep"},
    {163, "mremap"},
    {164, "setresuid"},
    {165, "getresuid"},
    {166, "vm86"},
    {167, "query_module"},
    {168, "poll"},
    {169, "nfsservctl"},
    {170, "setresgid"},
    {171, "getresgid"},
    {172, "prctl"},
    {173, "rt_sigreturn"},
    {174, "rt_sigaction"},
    {175, "rt_sigprocmask"},
    {176, "rt_sigpending"},
    {177, "rt_sigtimedwait"},
    {178, "rt_sigqueueinfo"},
    {179, "rt_sigsuspend"},
    {180, "pread64"},  /* sys_pread */
    {181, "pwrite64"}, /* sys_pwrite */
    {182, "chown"},    /* sys_chown16 */
    {183, "getcwd"},
    {184, "capget"},
    {185, "capset"},
    {186, "sigaltstack"},
    {187, "sendfile"},
    {190, "vfork"},
    {191, "ugetrlimit"}, /* sys_getrlimit */
    {192, "mmap2"},
    {193, "truncate64"},
    {194, "ftruncate64"},
    {195, "stat64"},
    {196, "lstat64"},
    {197, "fstat64"},
    {198, "lchown32"}, /* sys_lchown */
    {199, "getuid32"},
    {200, "getgid32"},
    {201, "geteuid32"},
    {202, "getegid32"},
    {203, "setreuid32"},
    {204, "setregid32"},
    {205, "getgroups32"},
    {206, "setgroups32"},
    {207, "fchown32"},
    {208, "setresuid32"},
    {209, "getresuid32"},
    {210, "setresgid32"},
    {211, "getresgid32"},
    {212, "chown32"},
    {213, "setuid32"},
    {214, "setgid32"},
    {215, "setfsuid32"},
    {216, "setfsgid32"},
    {217, "pivot_root"},
    {218, "mincore"},
    {219, "madvise"},
    {220, "getdents64"},
    {221, "fcntl64"},
};

/* x86_64 only: the x86_64 ABI has no socketcall or ipc multiplexer and gives
 * each of their sub-calls (all present in 2.4.0 behind socketcall(102) and
 * ipc(117)) its own number. These names are allowed on x86_64 only: on i386
 * they are the direct calls of 4.3+ (359 and up) and stay denied.
 * Deliberately absent on x86_64: arch_prctl (sets the FS/GS base for a libc's
 * TLS; the agent has no TLS, and a binary that needs it would die on the
 * 2.4-era i386 kernels anyway), and everything else the x86_64 ABI added
 * later (*at, clock_*, exit_group, futex, set_tid_address, ...). */
static const char *const lab_linux_2_4_0_x86_64_extra[] = {
    "socket",     "connect", "accept", "sendto",      "recvfrom",    "sendmsg",    "recvmsg",
    "shutdown",   "bind",    "listen", "getsockname", "getpeername", "socketpair", "setsockopt",
    "getsockopt", "semget",  "semop",  "semctl",      "shmget",      "shmat",      "shmctl",
    "shmdt",      "msgget",  "msgsnd", "msgrcv",      "msgctl",
};

#endif
