/* era-seccomp: runs a program as if on Linux 2.4.0. Installs a seccomp filter
 * that answers ENOSYS to every system call that Linux 2.4.0 did not have
 * (syscalls-2.4.0.h), for the x86_64 and the i386 (int $0x80, compat) ABIs,
 * then execs the program. A binary that runs under it uses only 2.4.0 calls or
 * falls back when a newer one says ENOSYS, as the guest agent must.
 *
 *   era-seccomp [--deny NAME]... [--] PROGRAM [ARG]...
 *   era-seccomp --check     verify the table against libseccomp's, print it
 *
 * --deny also answers ENOSYS to NAME (a 2.4.0 call), to exercise a fallback
 * the 2.4.0 table does not reach (e.g. --deny getdents64: the getdents path).
 * The filter is inherited across execve and fork and cannot be removed.
 * x32 system calls and any other ABI are killed (none of them existed).
 * Exit status: the program's (exec replaces this process), or 125 when the
 * filter cannot be built or loaded, 126/127 when the exec fails. */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/seccomp/syscalls-2.4.0.h"

#define NELEM(a)    (sizeof(a) / sizeof((a)[0]))
#define MAX_DENY    32
#define EXIT_FILTER 125

static const char *deny[MAX_DENY];
static size_t ndeny;

static int denied(const char *name)
{
    for (size_t i = 0; i < ndeny; i++)
        if (strcmp(deny[i], name) == 0)
            return 1;
    return 0;
}

/* Allows `name` in a single-architecture filter, if that architecture has it.
 * Returns 0 (added or absent there) or a negative errno. */
static int allow(scmp_filter_ctx ctx, uint32_t arch, const char *name)
{
    if (denied(name))
        return 0;
    int nr = seccomp_syscall_resolve_name_arch(arch, name);
    if (nr == __NR_SCMP_ERROR)
        return -ENOENT;
    if (nr < 0)
        return 0; /* a pseudo number: the architecture has no such call */
    /* seccomp_rule_add takes the native number and translates it by name. */
    return seccomp_rule_add(ctx, SCMP_ACT_ALLOW, seccomp_syscall_resolve_name(name), 0);
}

/* One architecture's filter: default ENOSYS, the 2.4.0 names allowed. */
static scmp_filter_ctx arch_filter(uint32_t arch, int x86_64_extras)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ERRNO(ENOSYS));
    if (!ctx)
        return NULL;
    int rc = 0;
    if (arch != seccomp_arch_native()) {
        rc = seccomp_arch_add(ctx, arch);
        if (rc == 0)
            rc = seccomp_arch_remove(ctx, SCMP_ARCH_NATIVE);
    }
    for (size_t i = 0; rc == 0 && i < NELEM(lab_linux_2_4_0_i386); i++) {
        rc = allow(ctx, arch, lab_linux_2_4_0_i386[i].name);
        if (rc)
            fprintf(stderr, "era-seccomp: %s: %s\n", lab_linux_2_4_0_i386[i].name, strerror(-rc));
    }
    for (size_t i = 0; rc == 0 && x86_64_extras && i < NELEM(lab_linux_2_4_0_x86_64_extra); i++) {
        rc = allow(ctx, arch, lab_linux_2_4_0_x86_64_extra[i]);
        if (rc)
            fprintf(stderr, "era-seccomp: %s: %s\n", lab_linux_2_4_0_x86_64_extra[i],
                    strerror(-rc));
    }
    if (rc) {
        seccomp_release(ctx);
        return NULL;
    }
    return ctx;
}

static int load_filter(void)
{
    if (seccomp_arch_native() != SCMP_ARCH_X86_64) {
        fprintf(stderr, "era-seccomp: needs an x86_64 host\n");
        return -1;
    }
    scmp_filter_ctx f64 = arch_filter(SCMP_ARCH_X86_64, 1);
    scmp_filter_ctx f32 = arch_filter(SCMP_ARCH_X86, 0);
    int rc = f64 && f32 ? 0 : -EINVAL;
    /* One filter for both: seccomp_merge checks the architecture first. */
    if (rc == 0) {
        rc = seccomp_merge(f64, f32);
        if (rc == 0)
            f32 = NULL; /* merged into f64 and released by it */
    }
    if (rc == 0)
        rc = seccomp_load(f64);
    if (rc)
        fprintf(stderr, "era-seccomp: cannot install the filter: %s\n", strerror(-rc));
    seccomp_release(f64);
    seccomp_release(f32);
    return rc ? -1 : 0;
}

/* Every name resolves on i386 to its 2.4.0 number; x86_64 extras exist. */
static int check(void)
{
    int bad = 0;
    for (size_t i = 0; i < NELEM(lab_linux_2_4_0_i386); i++) {
        const struct lab_era_syscall *s = &lab_linux_2_4_0_i386[i];
        int n32 = seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86, s->name);
        int n64 = seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, s->name);
        if (n32 != s->nr) {
            fprintf(stderr, "era-seccomp: %s is %d on i386, table says %d\n", s->name, n32, s->nr);
            bad = 1;
        }
        printf("%-24s i386 %3d  x86_64 %s", s->name, s->nr, n64 >= 0 ? "" : "-\n");
        if (n64 >= 0)
            printf("%d\n", n64);
    }
    for (size_t i = 0; i < NELEM(lab_linux_2_4_0_x86_64_extra); i++) {
        const char *name = lab_linux_2_4_0_x86_64_extra[i];
        int n64 = seccomp_syscall_resolve_name_arch(SCMP_ARCH_X86_64, name);
        if (n64 < 0) {
            fprintf(stderr, "era-seccomp: %s is not an x86_64 call\n", name);
            bad = 1;
        }
        printf("%-24s i386   -  x86_64 %d\n", name, n64);
    }
    return bad ? 1 : 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: era-seccomp [--deny NAME]... [--] PROGRAM [ARG]...\n"
                    "       era-seccomp --check\n");
    exit(2);
}

int main(int argc, char **argv)
{
    int i = 1;
    if (argc == 2 && strcmp(argv[1], "--check") == 0)
        return check();
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        }
        if (strcmp(argv[i], "--deny") == 0 && i + 1 < argc && ndeny < MAX_DENY) {
            const char *name = argv[++i];
            if (seccomp_syscall_resolve_name(name) == __NR_SCMP_ERROR) {
                fprintf(stderr, "era-seccomp: unknown system call %s\n", name);
                return 2;
            }
            deny[ndeny++] = name;
        } else {
            usage();
        }
    }
    if (i >= argc)
        usage();
    if (load_filter() < 0)
        return EXIT_FILTER;
    /* From here on only 2.4.0 calls work: execve is one (11 / 59). */
    execv(argv[i], argv + i);
    int e = errno;
    fprintf(stderr, "era-seccomp: cannot run %s: %s\n", argv[i], strerror(e));
    return e == ENOENT ? 127 : 126;
}
