/* The guest agent on the host, as if on Linux 2.4.0: runs `lab-agent
 * --selftest DIR` (x86_64 and i386 builds) plainly and under
 * tests/seccomp/era-seccomp, which answers ENOSYS to every system call newer
 * than 2.4.0. Every run must pass all its checks; under the filter the
 * agent's era fallbacks must show in its records, and without it they must
 * not. `--selftest-probe` (one openat, no fallback) is the negative control:
 * it works plainly and gets ENOSYS under the filter, so the filter is active.
 *
 * Binaries are found in $LAB_BUILD, else in the build directory this test was
 * run from (argv[0] = BUILD/tests/test_agent_seccomp), else in "build". */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

static char build_dir[PATH_MAX];

struct run {
    int status;     /* exit status, or 128 + signal */
    int exec_errno; /* the exec itself failed */
    char out[65536];
};

static struct run r; /* the last run */

/* Runs argv (a path), stdout captured in r.out, stderr passed through. */
static void run(const char *const *argv)
{
    int out[2], ex[2];
    memset(&r, 0, sizeof(r));
    assert_int_equal(pipe2(out, O_CLOEXEC), 0);
    assert_int_equal(pipe2(ex, O_CLOEXEC), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(out[1], 1);
        execv(argv[0], (char *const *)argv);
        int e = errno;
        (void)!write(ex[1], &e, sizeof(e));
        _exit(127);
    }
    close(out[1]);
    close(ex[1]);
    size_t n = 0;
    ssize_t k;
    while ((k = read(out[0], r.out + n, sizeof(r.out) - 1 - n)) > 0 || (k < 0 && errno == EINTR))
        if (k > 0)
            n += (size_t)k;
    r.out[n] = 0;
    close(out[0]);
    if (read(ex[0], &r.exec_errno, sizeof(r.exec_errno)) != sizeof(r.exec_errno))
        r.exec_errno = 0;
    close(ex[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        assert_int_equal(errno, EINTR);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void bin(char *out, size_t cap, const char *name)
{
    int n = snprintf(out, cap, "%s/%s", build_dir, name);
    assert_true(n > 0 && (size_t)n < cap);
}

/* 1 if the i386 agent can run here (a kernel with IA32 emulation). */
static int i386_runs(void)
{
    static int known = -1;
    if (known < 0) {
        char agent[PATH_MAX];
        bin(agent, sizeof(agent), "lab-agent-i386");
        const char *argv[] = {agent, "--selftest-probe", NULL};
        run(argv);
        known = r.exec_errno != ENOEXEC;
    }
    return known;
}

static int has(const char *s)
{
    return strstr(r.out, s) != NULL;
}

static void rm_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char p[PATH_MAX];
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
            if (unlink(p) < 0 && (errno == EISDIR || errno == EPERM))
                rm_tree(p); /* a tree a failed self-test left */
        }
    closedir(d);
    rmdir(dir);
}

struct scase {
    const char *agent;    /* lab-agent or lab-agent-i386 */
    int filtered;         /* under era-seccomp */
    const char *deny;     /* also --deny this (a 2.4.0 call) */
    const char *want[6];  /* records that must be there */
    const char * not [6]; /* records that must not */
};

#define FB_CLOCK    "log msg=fallback%20clock_gettime-%3Egettimeofday\n"
#define FB_GETDENTS "log msg=fallback%20getdents64-%3Egetdents\n"
#define FB_FADV6464 "log msg=fallback%20fadvise64_64-%3Efadvise64\n"
#define FB_NOFADV   "log msg=fallback%20fadvise-%3Enone%20%28no%20DONTNEED%29\n"
#define FB_NONE     "log msg=fallback%20none\n"
#define FB_NOAIO    "log msg=fallback%20io_setup-%3Epread64%20%28queue%20depth%201%29\n"

/* 1 if the record starting with `start` (e.g. " end test=x rep=1 ") has `key`. */
static int line_has(const char *start, const char *key)
{
    const char *l = strstr(r.out, start);
    if (!l)
        return 0;
    const char *e = strchr(l, '\n');
    const char *k = strstr(l, key);
    return k && (!e || k < e);
}

static void test_selftest(void **state)
{
    const struct scase *c = *state;
    if (strcmp(c->agent, "lab-agent-i386") == 0 && !i386_runs())
        skip();
    char agent[PATH_MAX], harness[PATH_MAX], dir[] = "/tmp/lab-agent-seccomp-XXXXXX";
    bin(agent, sizeof(agent), c->agent);
    bin(harness, sizeof(harness), "tests/era-seccomp");
    assert_non_null(mkdtemp(dir));
    const char *argv[10];
    size_t i = 0;
    if (c->filtered) {
        argv[i++] = harness;
        if (c->deny) {
            argv[i++] = "--deny";
            argv[i++] = c->deny;
        }
        argv[i++] = "--";
    }
    argv[i++] = agent;
    argv[i++] = "--selftest";
    argv[i++] = dir;
    argv[i] = NULL;
    run(argv);
    rm_tree(dir);

    if (r.status != 0 || has(" error "))
        print_message("%s%s%s output:\n%s", c->agent, c->filtered ? " under era-seccomp" : "",
                      c->deny ? " --deny" : "", r.out);
    assert_int_equal(r.exec_errno, 0);
    assert_int_equal(r.status, 0);
    assert_true(strncmp(r.out, "LAB1 0 hello v=1 ", 17) == 0);
    assert_true(has(strcmp(c->agent, "lab-agent") ? " arch=i386\n" : " arch=x86_64\n"));
    assert_false(has(" error "));
    assert_true(has(" end test=selftest rep=0 ") && has(" bytes=3149821 "));
    assert_true(has(" bs=100000 verify_errors=0\n"));
    assert_true(has(" bye runs=9\n"));
    /* devread and randread paths on the data file (O_DIRECT where the
     * filesystem takes it). */
    assert_true(line_has(" end test=selftest-devread rep=0 ", " bytes=3149821 "));
    assert_true(line_has(" end test=selftest-devread rep=0 ", " verify_errors=0 "));
    assert_true(line_has(" end test=selftest-devread rep=1 ", " direct=0 "));
    assert_true(line_has(" end test=selftest-devread rep=1 ", " cpu_idle="));
    assert_true(line_has(" end test=selftest-randread rep=0 ", " qd=1 count=500 "));
    assert_true(line_has(" end test=selftest-randread rep=0 ", " offset=12388 span=1048576 "));
    assert_true(line_has(" end test=selftest-randread rep=1 ", " bytes=2048000 "));
    assert_true(line_has(" end test=selftest-randread rep=1 ", " lat_p99_ns="));
    /* Native AIO keeps 8 in flight; under the 2.4 filter io_setup is ENOSYS
     * and the run falls back to queue depth 1. */
    assert_true(line_has(" end test=selftest-randread rep=1 ",
                         c->filtered ? " qd=1 count=500 " : " qd=8 count=500 "));
    /* overwrite (pread64/pwrite64) under a forked read_load; treeread of a
     * 54-file tree under the copy load; contest; each load alone (fork, a
     * MAP_SHARED page, kill, wait4: all 2.4.0 calls, so the same under the
     * filter). */
    assert_true(line_has(" end test=selftest-overwrite rep=0 ", " ops=300 "));
    assert_true(line_has(" end test=selftest-overwrite rep=0 ", " verify_errors=0 "));
    assert_true(line_has(" end test=selftest-overwrite rep=0 ", " load=read_load load_units="));
    assert_true(line_has(" end test=selftest-treeread rep=0 ", " files=54 dirs=9 "));
    assert_true(line_has(" end test=selftest-treeread rep=0 ", " load=copy load_units="));
    assert_true(line_has(" end test=selftest-contest rep=0 ", " cpu_rounds=3 checksum="));
    assert_true(has("log msg=check%20load%20child%20ran%20whole%20units%20ok\n"));
    assert_true(has("log msg=check%20copy%20load:%20a%20whole%20copy%20of%20the%20tree%20ok\n"));
    assert_true(has("log msg=load%20io_load:%20"));
    /* The host's page cache is never dropped globally (not PID 1): per-file
     * fadvise, or nothing where the filter hides fadvise. */
    assert_true(has(c->filtered ? " log msg=drop%20caches drop=none\n"
                                : " log msg=drop%20caches drop=fadvise\n"));
    assert_false(has(" drop=proc\n"));
    for (size_t k = 0; k < 6 && c->want[k]; k++) {
        if (!has(c->want[k]))
            print_message("missing: %s", c->want[k]);
        assert_true(has(c->want[k]));
    }
    for (size_t k = 0; k < 6 && c->not [k]; k++) {
        if (has(c->not [k]))
            print_message("unexpected: %s", c->not [k]);
        assert_false(has(c->not [k]));
    }
}

/* The negative control: a post-2.4 call without fallback. */
static void probe(const char *name, int filtered)
{
    if (strcmp(name, "lab-agent-i386") == 0 && !i386_runs())
        skip();
    char agent[PATH_MAX], harness[PATH_MAX];
    bin(agent, sizeof(agent), name);
    bin(harness, sizeof(harness), "tests/era-seccomp");
    const char *plain[] = {agent, "--selftest-probe", NULL};
    const char *under[] = {harness, agent, "--selftest-probe", NULL};
    run(filtered ? under : plain);
    assert_int_equal(r.exec_errno, 0);
    if (filtered) {
        assert_int_equal(r.status, ENOSYS);
        assert_true(has("log msg=probe%20openat%20-38\n"));
    } else {
        assert_int_equal(r.status, 0);
    }
}

static void test_probe_plain(void **state)
{
    probe("lab-agent", 0);
    probe("lab-agent-i386", 0);
}

static void test_probe_filtered(void **state)
{
    probe("lab-agent", 1);
    probe("lab-agent-i386", 1);
}

/* The allowlist's names resolve to its i386 2.4.0 numbers in libseccomp. */
static void test_table(void **state)
{
    char harness[PATH_MAX];
    bin(harness, sizeof(harness), "tests/era-seccomp");
    const char *argv[] = {harness, "--check", NULL};
    run(argv);
    if (r.exec_errno)
        print_message("cannot run %s: %s (make builds it)\n", harness, strerror(r.exec_errno));
    assert_int_equal(r.exec_errno, 0);
    assert_int_equal(r.status, 0);
    assert_true(has("getdents64               i386 220"));
    assert_true(has("fcntl64                  i386 221"));
    assert_false(has("gettid"));
    assert_false(has("clock_gettime"));
    assert_false(has("openat"));
    assert_false(has("arch_prctl"));
}

/* What each run must show. getdents64 is in 2.4.0 (220), so its fallback is
 * taken only when the filter also denies it. */
static const struct scase plain64 = {
    "lab-agent", 0, NULL, {FB_NONE}, {FB_CLOCK, FB_GETDENTS, FB_NOFADV, FB_NOAIO}};
static const struct scase plain32 = {"lab-agent-i386",
                                     0,
                                     NULL,
                                     {FB_NONE},
                                     {FB_CLOCK, FB_GETDENTS, FB_FADV6464, FB_NOFADV, FB_NOAIO}};
static const struct scase era64 = {
    "lab-agent", 1, NULL, {FB_CLOCK, FB_NOFADV, FB_NOAIO}, {FB_NONE, FB_GETDENTS, FB_FADV6464}};
static const struct scase era32 = {"lab-agent-i386",
                                   1,
                                   NULL,
                                   {FB_CLOCK, FB_FADV6464, FB_NOFADV, FB_NOAIO},
                                   {FB_NONE, FB_GETDENTS}};
static const struct scase era64_nogd = {
    "lab-agent", 1, "getdents64", {FB_CLOCK, FB_GETDENTS, FB_NOFADV, FB_NOAIO}, {FB_NONE}};
static const struct scase era32_nogd = {"lab-agent-i386",
                                        1,
                                        "getdents64",
                                        {FB_CLOCK, FB_GETDENTS, FB_FADV6464, FB_NOFADV, FB_NOAIO},
                                        {FB_NONE}};

#define SCASE(label, c)                                                                            \
    {                                                                                              \
        "selftest " label, test_selftest, NULL, NULL, (void *)&(c)                                 \
    }

int main(int argc, char **argv)
{
    const char *b = getenv("LAB_BUILD");
    const char *slash = strrchr(argv[0], '/');
    if (b && *b) {
        snprintf(build_dir, sizeof(build_dir), "%s", b);
    } else if (slash) {
        /* BUILD/tests/test_agent_seccomp -> BUILD */
        snprintf(build_dir, sizeof(build_dir), "%.*s/..", (int)(slash - argv[0]), argv[0]);
    } else {
        snprintf(build_dir, sizeof(build_dir), "build");
    }
    alarm(300); /* a hung agent fails the test instead of the whole run */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_probe_plain),
        cmocka_unit_test(test_probe_filtered),
        SCASE("x86_64 plain", plain64),
        SCASE("i386 plain", plain32),
        SCASE("x86_64 under era-seccomp", era64),
        SCASE("i386 under era-seccomp", era32),
        SCASE("x86_64 under era-seccomp --deny getdents64", era64_nogd),
        SCASE("i386 under era-seccomp --deny getdents64", era32_nogd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
