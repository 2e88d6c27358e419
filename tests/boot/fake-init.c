/* A stand-in /init for the fault tests, built freestanding for x86_64.
 * HANG: never reports anything (the lab must give up at its deadline).
 * GARBAGE: writes one malformed record, with a terminal escape in it, on
 * the agent port (the lab must refuse it with a clear message that quotes
 * it escaped). Needs a kernel with virtio_console
 * built in (Debian 6.12). */
#define SYS_write     1
#define SYS_open      2
#define SYS_nanosleep 35
#define SYS_mount     165
#define SYS_mkdir     83

static long sys(long n, long a, long b, long c, long d, long e)
{
    long ret;
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
                     : "rcx", "r11", "memory");
    return ret;
}

static void sleep_ms(long ms)
{
    long ts[2] = {ms / 1000, (ms % 1000) * 1000000};
    sys(SYS_nanosleep, (long)ts, 0, 0, 0, 0);
}

/* The kernel enters with a 16-byte aligned stack, not a call-aligned one. */
__attribute__((force_align_arg_pointer)) void _start(void)
{
#ifdef GARBAGE
    /* The escape would clear the user's terminal if echoed raw. */
    static const char line[] = "LAB1 0 hello v=1 this-is-not-a-key-value\033[2J\n";
    sys(SYS_mkdir, (long)"/dev", 0755, 0, 0, 0);
    sys(SYS_mount, (long)"devtmpfs", (long)"/dev", (long)"devtmpfs", 0, 0);
    for (int tries = 0; tries < 200; tries++) {
        static char path[] = "/dev/vport0p1";
        for (char d = '0'; d <= '3'; d++) {
            path[10] = d;
            long fd = sys(SYS_open, (long)path, 2 /* O_RDWR */, 0, 0, 0);
            if (fd >= 0) {
                sys(SYS_write, fd, (long)line, sizeof line - 1, 0, 0);
                for (;;)
                    sleep_ms(1000);
            }
        }
        sleep_ms(100);
    }
#endif
    for (;;)
        sleep_ms(1000);
}
