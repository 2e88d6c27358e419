/* Syscalls with era fallbacks. */
#include "sys.h"
#include "str.h"

static unsigned fallbacks;

unsigned sys_fallbacks(void)
{
    return fallbacks;
}

uint64_t sys_timeval_ns(const struct k_timeval *tv)
{
    return (uint64_t)(unsigned long)tv->tv_sec * 1000000000ULL +
           (uint64_t)(unsigned long)tv->tv_usec * 1000ULL;
}

uint64_t sys_now_ns(void)
{
    static int no_clock_gettime;
    if (!no_clock_gettime) {
        struct k_timespec ts;
        long r = sc2(NR_clock_gettime, CLOCK_MONOTONIC_, (long)&ts);
        /* Signed: 2.6.9's CLOCK_MONOTONIC can hand back a negative,
         * unnormalised tv_nsec (xtime plus wall_to_monotonic), which as
         * unsigned long on i386 added 2^32 ns to a reading. */
        if (r == 0)
            return (uint64_t)((int64_t)ts.tv_sec * 1000000000LL + (int64_t)ts.tv_nsec);
        no_clock_gettime = 1; /* -ENOSYS (2.4) or -EINVAL */
        fallbacks |= SYS_FB_CLOCK;
    }
    struct k_timeval tv;
    sc2(NR_gettimeofday, (long)&tv, 0);
    return sys_timeval_ns(&tv);
}

long sys_fadvise_dontneed(int fd)
{
    long r;
#if defined(__x86_64__)
    r = sc4(NR_fadvise64, fd, 0, 0, POSIX_FADV_DONTNEED_);
#else
    /* fadvise64_64(fd, off_lo, off_hi, len_lo, len_hi, advice), then the older
     * fadvise64(fd, off_lo, off_hi, len, advice). */
    r = sc6(NR_fadvise64_64, fd, 0, 0, 0, 0, POSIX_FADV_DONTNEED_);
    if (r == -E_NOSYS) {
        fallbacks |= SYS_FB_FADVISE64_64;
        r = sc5(NR_fadvise64, fd, 0, 0, 0, POSIX_FADV_DONTNEED_);
    }
#endif
    if (r == -E_NOSYS)
        fallbacks |= SYS_FB_NO_FADVISE;
    return r;
}

/* The old struct linux_dirent of getdents(2). */
struct k_dirent_old {
    unsigned long d_ino;
    unsigned long d_off;
    unsigned short d_reclen;
    char d_name[];
};

long sys_getdents(int fd, void *buf, size_t len)
{
    static int no_getdents64;
    if (!no_getdents64) {
        long r = sc3(NR_getdents64, fd, (long)buf, (long)len);
        if (r != -E_NOSYS)
            return r;
        no_getdents64 = 1;
        fallbacks |= SYS_FB_GETDENTS;
    }
    /* An old entry is at least 12 bytes, its dirent64 form at most twice
     * that: read at most len/2 bytes of old entries, then convert. */
    static char tmp[2048];
    size_t want = len / 2 < sizeof(tmp) ? len / 2 : sizeof(tmp);
    long r = sc3(NR_getdents, fd, (long)tmp, (long)want);
    if (r <= 0)
        return r;
    char *out = buf;
    size_t o = 0;
    for (long i = 0; i < r;) {
        struct k_dirent_old *od = (struct k_dirent_old *)(tmp + i);
        size_t nl = agent_strlen(od->d_name);
        size_t rl = (offsetof(struct k_dirent64, d_name) + nl + 1 + 7) & ~(size_t)7;
        if (od->d_reclen == 0 || o + rl > len)
            break;
        struct k_dirent64 nd;
        nd.d_ino = od->d_ino;
        nd.d_off = (int64_t)od->d_off;
        nd.d_reclen = (uint16_t)rl;
        nd.d_type = 0;
        agent_memcpy(out + o, &nd, offsetof(struct k_dirent64, d_name));
        agent_memcpy(out + o + offsetof(struct k_dirent64, d_name), od->d_name, nl + 1);
        o += rl;
        i += od->d_reclen;
    }
    return (long)o;
}

static void *map_anon(size_t len, long flags)
{
    long r;
#if defined(__x86_64__)
    r = sc6(NR_mmap, 0, (long)len, 3 /* PROT_READ|WRITE */, flags, -1, 0);
#else
    unsigned long a[6] = {0, len, 3, (unsigned long)flags, (unsigned long)-1, 0};
    r = sc1(NR_old_mmap, (long)a);
#endif
    if ((unsigned long)r >= (unsigned long)-4095)
        return NULL;
    return (void *)r;
}

void *sys_alloc(size_t len)
{
    return map_anon(len, 0x22 /* MAP_PRIVATE|MAP_ANONYMOUS */);
}

void *sys_alloc_shared(size_t len)
{
    return map_anon(len, 0x21 /* MAP_SHARED|MAP_ANONYMOUS */);
}

void sys_free(void *p, size_t len)
{
    if (p)
        sc2(NR_munmap, (long)p, (long)len);
}

void sys_sleep_ms(unsigned ms)
{
    struct k_timespec ts = {(long)(ms / 1000), (long)(ms % 1000) * 1000000L};
    struct k_timespec rem;
    while (sys_nanosleep(&ts, &rem) == -E_INTR)
        ts = rem;
}

void sys_fallback_taken(unsigned bit)
{
    fallbacks |= bit;
}

static long seek_end(int fd, uint64_t *size)
{
#if defined(__x86_64__)
    long r = sys_lseek(fd, 0, 2 /* SEEK_END */);
    if (r < 0)
        return r;
    *size = (uint64_t)r;
    sys_lseek(fd, 0, 0);
    return 0;
#else
    uint64_t res = 0;
    long r = sc5(NR_llseek, fd, 0, 0, (long)&res, 2 /* SEEK_END */);
    if (r < 0)
        return r;
    *size = res;
    sc5(NR_llseek, fd, 0, 0, (long)&res, 0);
    return 0;
#endif
}

long sys_dev_size(int fd, uint64_t *size)
{
    uint64_t b = 0;
    long r = sys_ioctl(fd, BLKGETSIZE64_, (unsigned long)&b);
    if (r == 0) {
        *size = b;
        return 0;
    }
    unsigned long sectors = 0;
    long r2 = sys_ioctl(fd, BLKGETSIZE_, (unsigned long)&sectors);
    if (r2 == 0) {
        fallbacks |= SYS_FB_NO_SIZE64; /* a block device without BLKGETSIZE64 */
        *size = (uint64_t)sectors << 9;
        return 0;
    }
    return seek_end(fd, size); /* not a block device (the self-test's file) */
}
