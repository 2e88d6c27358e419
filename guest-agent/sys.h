/* Thin, era-safe syscall layer of the guest agent. Every wrapper returns the
 * kernel's raw result: >= 0 on success, -errno on failure. Only syscalls that
 * exist in Linux 2.4.0 are used, or a newer one with a fallback on -ENOSYS. */
#ifndef LAB_AGENT_SYS_H
#define LAB_AGENT_SYS_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__)
#include "arch/x86_64.h"
#elif defined(__i386__)
#include "arch/i386.h"
#else
#error "lab-agent: unsupported architecture"
#endif

#define E_PERM     1
#define E_NOENT    2
#define E_INTR     4
#define E_IO       5
#define E_NOMEM    12
#define E_BUSY     16
#define E_EXIST    17
#define E_NODEV    19
#define E_INVAL    22
#define E_NOSYS    38
#define E_NOTDIR   20
#define E_AGAIN    11
#define E_NOTTY    25
#define E_CHILD    10
#define E_NOSPC    28
#define E_NOTEMPTY 39
#define E_ROFS     30

#define O_RDONLY_    0
#define O_WRONLY_    01
#define O_RDWR_      02
#define O_CREAT_     0100
#define O_NOCTTY_    0400
#define O_TRUNC_     01000
#define O_NONBLOCK_  04000
#define O_DIRECTORY_ 0200000
#define O_DIRECT_    040000 /* the same on i386 and x86_64 (asm-generic); 2.4.10+ on block devices */
#if defined(__i386__)
#define O_LARGEFILE_ 0100000
#else
#define O_LARGEFILE_ 0
#endif

#define S_IFCHR_ 0020000
#define S_IFBLK_ 0060000

#define MS_RDONLY_ 1

#define BLKRASET_   0x1262
#define BLKRAGET_   0x1263
#define BLKFRASET_  0x1264 /* _IO(0x12,100): 2.4 file readahead, pages */
#define BLKFRAGET_  0x1265 /* _IO(0x12,101): into a long */
#define BLKGETSIZE_ 0x1260 /* _IO(0x12,96): unsigned long, 512-byte sectors */
#define BLKFLSBUF_  0x1261 /* _IO(0x12,97): write back and drop the device's buffers */
#define BLKSSZGET_  0x1268 /* _IO(0x12,104): int, logical sector size */
/* _IOR(0x12,114,size_t): the number carries sizeof(size_t), the kernel writes a u64. */
#if defined(__x86_64__)
#define BLKGETSIZE64_ 0x80081272UL
#else
#define BLKGETSIZE64_ 0x80041272UL
#endif
#define TCGETS_ 0x5401
#define TCSBRK_ 0x5409 /* with arg 1: tcdrain */
#define TCSETS_ 0x5402

#define POSIX_FADV_DONTNEED_ 4

#define LINUX_REBOOT_MAGIC1_        0xfee1deadUL
#define LINUX_REBOOT_MAGIC2_        672274793UL
#define LINUX_REBOOT_CMD_POWER_OFF_ 0x4321FEDCUL

#define CLOCK_MONOTONIC_ 1
#define RUSAGE_SELF_     0

struct k_timespec {
    long tv_sec;
    long tv_nsec;
};

struct k_timeval {
    long tv_sec;
    long tv_usec;
};

struct k_rusage {
    struct k_timeval ru_utime;
    struct k_timeval ru_stime;
    long rest[14];
};

struct k_utsname {
    char sysname[65];
    char nodename[65];
    char release[65];
    char version[65];
    char machine[65];
    char domainname[65];
};

/* The kernel's struct termios (TCGETS/TCSETS), identical on i386 and x86_64. */
struct k_termios {
    uint32_t c_iflag;
    uint32_t c_oflag;
    uint32_t c_cflag;
    uint32_t c_lflag;
    uint8_t c_line;
    uint8_t c_cc[19];
};

static inline long sys_read(int fd, void *buf, size_t n)
{
    return sc3(NR_read, fd, (long)buf, (long)n);
}

static inline long sys_write(int fd, const void *buf, size_t n)
{
    return sc3(NR_write, fd, (long)buf, (long)n);
}

static inline long sys_open(const char *path, int flags, int mode)
{
    return sc3(NR_open, (long)path, flags, mode);
}

static inline long sys_close(int fd)
{
    return sc1(NR_close, fd);
}

static inline long sys_unlink(const char *path)
{
    return sc1(NR_unlink, (long)path);
}

static inline long sys_lseek(int fd, long off, int whence)
{
    return sc3(NR_lseek, fd, off, whence);
}

static inline long sys_ioctl(int fd, unsigned long req, unsigned long arg)
{
    return sc3(NR_ioctl, fd, (long)req, (long)arg);
}

static inline long sys_rmdir(const char *path)
{
    return sc1(NR_rmdir, (long)path);
}

static inline long sys_fsync(int fd)
{
    return sc1(NR_fsync, fd);
}

static inline long sys_umount(const char *path)
{
    return sc2(NR_umount2, (long)path, 0);
}

/* fork (2.4.0: i386 2, x86_64 57): 0 in the child, its pid in the parent. */
static inline long sys_fork(void)
{
    return sc0(NR_fork);
}

#define SIGKILL_ 9
static inline long sys_kill(long pid, int sig)
{
    return sc2(NR_kill, pid, sig);
}

static inline long sys_wait4(long pid, int *status, int options)
{
    return sc4(NR_wait4, pid, (long)status, options, 0);
}

static inline long sys_mkdir(const char *path, int mode)
{
    return sc2(NR_mkdir, (long)path, mode);
}

/* dev is encoded the 2.6 way (new_encode_dev); equal to the 2.4 way for
 * major < 256 and minor < 256. */
static inline long sys_mknod(const char *path, int mode, unsigned major, unsigned minor)
{
    unsigned long dev = (minor & 0xffu) | (major << 8) | ((minor & ~0xffu) << 12);
    return sc3(NR_mknod, (long)path, mode, (long)dev);
}

static inline long sys_mount(const char *src, const char *dst, const char *type,
                             unsigned long flags, const void *data)
{
    return sc5(NR_mount, (long)src, (long)dst, (long)type, (long)flags, (long)data);
}

static inline long sys_init_module(const void *img, unsigned long len, const char *args)
{
    return sc3(NR_init_module, (long)img, (long)len, (long)args);
}

static inline long sys_getpid(void)
{
    return sc0(NR_getpid);
}

static inline long sys_uname(struct k_utsname *u)
{
    return sc1(NR_uname, (long)u);
}

static inline long sys_getrusage(int who, struct k_rusage *ru)
{
    return sc2(NR_getrusage, who, (long)ru);
}

static inline long sys_nanosleep(const struct k_timespec *req, struct k_timespec *rem)
{
    return sc2(NR_nanosleep, (long)req, (long)rem);
}

static inline void sys_sync(void)
{
    sc0(NR_sync);
}

static inline long sys_pause(void)
{
    return sc0(NR_pause);
}

static inline long sys_reboot(unsigned long cmd)
{
    return sc4(NR_reboot, (long)LINUX_REBOOT_MAGIC1_, (long)LINUX_REBOOT_MAGIC2_, (long)cmd, 0);
}

static inline __attribute__((noreturn)) void sys_exit(int code)
{
    for (;;)
        sc1(NR_exit, code);
}

/* pread64: 2.4.0 has it (i386 180, x86_64 17); i386 passes the offset in two
 * registers, low word first. */
static inline long sys_pread64(int fd, void *buf, size_t n, uint64_t off)
{
#if defined(__x86_64__)
    return sc4(NR_pread64, fd, (long)buf, (long)n, (long)off);
#else
    return sc5(NR_pread64, fd, (long)buf, (long)n, (long)(uint32_t)off,
               (long)(uint32_t)(off >> 32));
#endif
}

/* pwrite64: 2.4.0 has it (i386 181, x86_64 18); same argument split as pread64. */
static inline long sys_pwrite64(int fd, const void *buf, size_t n, uint64_t off)
{
#if defined(__x86_64__)
    return sc4(NR_pwrite64, fd, (long)buf, (long)n, (long)off);
#else
    return sc5(NR_pwrite64, fd, (long)buf, (long)n, (long)(uint32_t)off,
               (long)(uint32_t)(off >> 32));
#endif
}

/* Linux native AIO (2.5.23+, so -ENOSYS on 2.4): the kernel's structs, the
 * same layout on i386 and x86_64 (little endian). */
#define IOCB_CMD_PREAD_ 0
struct k_iocb {
    uint64_t aio_data;
    uint32_t aio_key;
    uint32_t aio_rw_flags;
    uint16_t aio_lio_opcode;
    int16_t aio_reqprio;
    uint32_t aio_fildes;
    uint64_t aio_buf;
    uint64_t aio_nbytes;
    int64_t aio_offset;
    uint64_t aio_reserved2;
    uint32_t aio_flags;
    uint32_t aio_resfd;
};

struct k_io_event {
    uint64_t data;
    uint64_t obj;
    int64_t res;
    int64_t res2;
};

static inline long sys_io_setup(unsigned nr, unsigned long *ctx)
{
    return sc2(NR_io_setup, (long)nr, (long)ctx);
}

static inline long sys_io_destroy(unsigned long ctx)
{
    return sc1(NR_io_destroy, (long)ctx);
}

static inline long sys_io_submit(unsigned long ctx, long nr, struct k_iocb **cbs)
{
    return sc3(NR_io_submit, (long)ctx, nr, (long)cbs);
}

static inline long sys_io_getevents(unsigned long ctx, long min_nr, long nr, struct k_io_event *ev)
{
    return sc5(NR_io_getevents, (long)ctx, min_nr, nr, (long)ev, 0);
}

/* With fallbacks (sys.c). */
uint64_t sys_now_ns(void);                        /* CLOCK_MONOTONIC or gettimeofday */
long sys_fadvise_dontneed(int fd);                /* whole file */
long sys_getdents(int fd, void *buf, size_t len); /* normalised to linux_dirent64 */
void *sys_alloc(size_t len);                      /* anonymous mmap; NULL on failure */
void sys_free(void *p, size_t len);
void *sys_alloc_shared(size_t len); /* MAP_SHARED|MAP_ANONYMOUS (2.4 has it); NULL on failure */
void sys_sleep_ms(unsigned ms);
uint64_t sys_timeval_ns(const struct k_timeval *tv);
/* Size of an open file or block device: BLKGETSIZE64, else BLKGETSIZE (2.4.0
 * has only that), else seeking to the end (_llseek on i386, for > 2 GiB).
 * The offset is left at 0. Returns 0 and sets *size, or -errno. */
long sys_dev_size(int fd, uint64_t *size);

/* Era fallbacks taken so far (bits, set by the wrappers above; the self-test
 * reports them). */
#define SYS_FB_CLOCK        0x1u  /* clock_gettime -> gettimeofday */
#define SYS_FB_GETDENTS     0x2u  /* getdents64 -> getdents */
#define SYS_FB_FADVISE64_64 0x4u  /* i386: fadvise64_64 -> fadvise64 */
#define SYS_FB_NO_FADVISE   0x8u  /* no fadvise at all (2.4): no DONTNEED */
#define SYS_FB_NO_AIO       0x10u /* no io_setup (2.4): randread at queue depth 1 */
#define SYS_FB_NO_SIZE64    0x20u /* no BLKGETSIZE64 (before 2.4.18): BLKGETSIZE */
/* Records a fallback taken outside sys.c. */
void sys_fallback_taken(unsigned bit);
unsigned sys_fallbacks(void);

/* What sys_getdents fills in (the kernel's linux_dirent64). */
struct k_dirent64 {
    uint64_t d_ino;
    int64_t d_off;
    uint16_t d_reclen;
    uint8_t d_type;
    char d_name[];
};

#endif
