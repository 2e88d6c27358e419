/* A freestanding i386 (or x86_64, with -m64) /init for booting era kernels by hand (2.4 and 2.6):
 * prints the kernel's /proc/version, reads /dev/hda (the first IDE disk)
 * in 64 KiB blocks up to 16 MiB, prints the byte count and the disk's first
 * 16 bytes, checks /proc/profile when the kernel has it, and restarts (qemu -no-reboot exits).
 * Creates its device nodes when the root lacks them (2.6 initramfs); an
 * ext2 initrd (2.4, may be mounted read-only) must carry them and /proc.
 * Build: gcc -m32 -static -nostdlib -ffreestanding -fno-pie -no-pie -O2
 *   -fno-stack-protector -Wl,-z,noseparate-code -o init era-init.c */
#ifdef __x86_64__
#define SYS_exit   60
#define SYS_read   0
#define SYS_write  1
#define SYS_open   2
#define SYS_close  3
#define SYS_mknod  133
#define SYS_mount  165
#define SYS_mkdir  83
#define SYS_sync   162
#define SYS_reboot 169

/* Every call passes five arguments (mount's flags and data must be 0). */
static long sys(long n, long a, long b, long c)
{
    long ret;
    register long r10 __asm__("r10") = 0;
    register long r8 __asm__("r8") = 0;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
                     : "rcx", "r11", "memory");
    return ret;
}
#else
#define SYS_exit   1
#define SYS_read   3
#define SYS_write  4
#define SYS_open   5
#define SYS_close  6
#define SYS_mknod  14
#define SYS_mount  21
#define SYS_mkdir  39
#define SYS_sync   36
#define SYS_reboot 88

/* Every call passes five arguments (mount's flags and data must be 0). */
static long sys(long n, long a, long b, long c)
{
    long ret;
    __asm__ volatile("int $0x80"
                     : "=a"(ret)
                     : "a"(n), "b"(a), "c"(b), "d"(c), "S"(0L), "D"(0L)
                     : "memory");
    return ret;
}
#endif

static unsigned long len(const char *s)
{
    unsigned long n = 0;
    while (s[n])
        n++;
    return n;
}

static void out(long fd, const char *s)
{
    sys(SYS_write, fd, (long)s, (long)len(s));
}

static void num(long fd, unsigned long v)
{
    char b[24];
    int i = 23;
    b[i] = 0;
    do {
        b[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    out(fd, b + i);
}

static char buf[65536];
/* Initialized data, so the writable PT_LOAD has file contents: 2.6.12's
 * binfmt_elf fails an exec whose last segment maps zero file bytes. */
static char hello[] = "era-init: up\n";

__attribute__((force_align_arg_pointer)) void _start(void)
{
    sys(SYS_mkdir, (long)"/dev", 0755, 0);
    sys(SYS_mknod, (long)"/dev/console", 020000 | 0600, (5 << 8) | 1);
    sys(SYS_mknod, (long)"/dev/hda", 060000 | 0600, (3 << 8) | 0);
    long con = sys(SYS_open, (long)"/dev/console", 2, 0);
    if (con < 0)
        con = 1;
    out(con, hello);
    sys(SYS_mkdir, (long)"/proc", 0755, 0);
    long m = sys(SYS_mount, (long)"proc", (long)"/proc", (long)"proc");
    long fd = sys(SYS_open, (long)"/proc/version", 0, 0);
    if (fd >= 0) {
        long n = sys(SYS_read, fd, (long)buf, sizeof buf - 1);
        if (n > 0) {
            buf[n] = 0;
            out(con, "era-init: ");
            out(con, buf);
        }
        sys(SYS_close, fd, 0, 0);
    } else {
        out(con, "era-init: no /proc/version (mount rc ");
        num(con, (unsigned long)-m);
        out(con, ")\n");
    }
    fd = sys(SYS_open, (long)"/proc/profile", 0, 0);
    if (fd >= 0) {
        long n = sys(SYS_read, fd, (long)buf, sizeof buf);
        out(con, "era-init: /proc/profile readable, ");
        num(con, (unsigned long)(n < 0 ? 0 : n));
        out(con, " bytes in the first read\n");
        sys(SYS_close, fd, 0, 0);
    } else {
        out(con, "era-init: no /proc/profile\n");
    }
    fd = sys(SYS_open, (long)"/dev/hda", 0, 0);
    if (fd < 0) {
        out(con, "era-init: cannot open /dev/hda: errno ");
        num(con, (unsigned long)-fd);
        out(con, "\n");
    } else {
        unsigned long total = 0;
        char first[17];
        long n;
        while (total < 16ul << 20 && (n = sys(SYS_read, fd, (long)buf, sizeof buf)) > 0) {
            if (!total) {
                for (int i = 0; i < 16; i++)
                    first[i] = (buf[i] >= 32 && buf[i] < 127) ? buf[i] : '.';
                first[16] = 0;
            }
            total += (unsigned long)n;
        }
        out(con, "era-init: read ");
        num(con, total);
        out(con, " bytes from /dev/hda, first 16: ");
        out(con, total ? first : "-");
        out(con, "\nera-init: OK\n");
    }
    sys(SYS_sync, 0, 0, 0);
    /* restart (LINUX_REBOOT_MAGIC1, MAGIC2, CMD_RESTART), which qemu
     * -no-reboot turns into an exit: 2.4 without APM cannot power off */
    sys(SYS_reboot, (long)0xfee1dead, 672274793, 0x01234567);
    for (;;)
        sys(SYS_exit, 0, 0, 0);
}
