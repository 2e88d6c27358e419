/* common/: bounded file reads, numbers in range, escaped messages, shell
 * quoting and a command's captured output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "host/plan/experiment.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/proc.h"
#include "common/paths.h"
#include "common/str.h"

static char path[] = "/tmp/lab-test-util-XXXXXX";

static void write_bytes(const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

/* /dev/zero never ends and a 10 MB file is no experiment: both refused at
 * once, reading at most the bound. */
static void test_bounded(void **state)
{
    size_t len;
    struct rusage before, after;
    char line[4096];
    memset(line, 'a', sizeof line);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (int i = 0; i < (10 << 20) / (int)sizeof line; i++)
        fwrite(line, 1, sizeof line, f);
    fclose(f);
    getrusage(RUSAGE_SELF, &before);
    clock_t t0 = clock();
    assert_null(lab_read_file_max("/dev/zero", 65536, &len));
    assert_int_equal(errno, EFBIG);
    assert_null(lab_read_text(path, 65536, &len));
    assert_int_equal(errno, EFBIG);
    struct lab_experiment e;
    assert_int_equal(lab_experiment_load("/dev/zero", &e), -1);
    assert_int_equal(lab_experiment_load(path, &e), -1);
    assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 1.0);
    getrusage(RUSAGE_SELF, &after);
    assert_true(after.ru_maxrss - before.ru_maxrss < 2048); /* KiB: nowhere near 10 MB */
    char *ok = lab_read_file_max("/dev/null", 16, &len);
    assert_non_null(ok);
    assert_int_equal(len, 0);
    free(ok);
}

/* A NUL byte would hide the rest of the file from the parser. */
static void test_nul(void **state)
{
    static const char text[] = "test = seqread\nreps = 2\0hidden = 1\n";
    size_t len;
    write_bytes(text, sizeof text - 1);
    assert_null(lab_read_text(path, 65536, &len));
    assert_int_equal(errno, EINVAL);
    struct lab_experiment e;
    assert_int_equal(lab_experiment_load(path, &e), -1);
    write_bytes(text, 23);
    char *t = lab_read_text(path, 65536, &len);
    assert_non_null(t);
    assert_int_equal(len, 23);
    free(t);
}

static void test_numbers(void **state)
{
    uint64_t v = 7;
    int64_t id = 7;
    assert_int_equal(lab_parse_u64("45", 1, 86400, &v), 0);
    assert_int_equal(v, 45);
    static const char *const bad[] = {"-5",   "+5", " 5", "5 ",    "",
                                      "0x10", "5s", "0",  "86401", "99999999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(lab_parse_u64(bad[i], 1, 86400, &v), -1);
    assert_int_equal(v, 45);
    assert_int_equal(lab_parse_u64("18446744073709551615", 0, UINT64_MAX, &v), 0);
    assert_int_equal(lab_parse_u64("18446744073709551616", 0, UINT64_MAX, &v), -1);
    assert_int_equal(lab_parse_id("99999999999999999999999", &id), -1);
    assert_int_equal(lab_parse_id("9223372036854775808", &id), -1);
    assert_int_equal(lab_parse_id("-1", &id), -1);
    assert_int_equal(lab_parse_id("0", &id), -1);
    assert_int_equal(lab_parse_id("9223372036854775807", &id), 0);
    assert_int_equal(id, INT64_MAX);
}

/* Guest text cannot drive the terminal or forge a line. */
static void test_escape(void **state)
{
    char out[64];
    assert_string_equal(lab_escape("ok: a=b /x-y_z.", out, sizeof out), "ok: a=b /x-y_z.");
    assert_string_equal(lab_escape("\x1b[2Jgone\nlab: fake\r\x7f\xc3\xa9", out, sizeof out),
                        "\\x1b[2Jgone\\x0alab: fake\\x0d\\x7f\\xc3\\xa9");
    /* Truncation never cuts an escape in half. */
    assert_string_equal(lab_escape("ab\x1b", out, 6), "ab");
    assert_string_equal(lab_escape("ab\x1b", out, 7), "ab\\x1b");
}

/* Without XDG_RUNTIME_DIR a non-root user gets a run directory of its
 * own: not a shared /tmp/lab, and not one another user made first. Run as
 * root, as make check is; each case in a child that drops to a uid. */
static int run_root_as(uid_t uid, char *out, size_t len)
{
    int fds[2];
    if (pipe(fds) < 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        unsetenv("XDG_RUNTIME_DIR");
        unsetenv("LAB_RUN_DIR");
        if (setgid(65534) < 0 || setuid(uid) < 0)
            _exit(1);
        const char *root = lab_run_root();
        struct stat st;
        if (lstat(root, &st) < 0 || st.st_uid != uid || (st.st_mode & 0777) != 0700)
            _exit(2);
        ssize_t w = write(fds[1], root, strlen(root));
        _exit(w < 0 ? 3 : 0);
    }
    close(fds[1]);
    ssize_t n = read(fds[0], out, len - 1);
    close(fds[0]);
    out[n > 0 ? n : 0] = '\0';
    int status;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_private_run_dir(void **state)
{
    char a[256], b[256];
    if (geteuid() != 0)
        skip();
    uid_t u1 = 64011, u2 = 64012; /* unused ids, no passwd entry needed */
    char squat[64];
    snprintf(squat, sizeof squat, "/tmp/lab-%u", (unsigned)u2);
    rmdir(squat);
    assert_int_equal(run_root_as(u1, a, sizeof a), 0);
    snprintf(b, sizeof b, "/tmp/lab-%u", (unsigned)u1);
    assert_string_equal(a, b);
    /* Another user made u2's name first (open to all): not used. */
    assert_int_equal(mkdir(squat, 0777), 0);
    chmod(squat, 0777);
    assert_int_equal(run_root_as(u2, b, sizeof b), 0);
    assert_string_not_equal(b, squat);
    assert_int_equal(strncmp(b, squat, strlen(squat)), 0); /* /tmp/lab-UID-XXXXXX */
    rmdir(a);
    rmdir(b);
    rmdir(squat);
}

/* A quoted word comes back from sh unchanged, whatever it holds; a failing
 * command captures nothing. */
/* Words of a command line, however many spaces lie between them. */
static void test_next_word(void **state)
{
    const char *p = "  console=ttyS0   lab.test=seqread ", *w;
    size_t len;
    w = lab_next_word(&p, &len);
    assert_non_null(w);
    assert_int_equal(len, strlen("console=ttyS0"));
    assert_memory_equal(w, "console=ttyS0", len);
    w = lab_next_word(&p, &len);
    assert_non_null(w);
    assert_memory_equal(w, "lab.test=seqread", len);
    assert_int_equal(len, strlen("lab.test=seqread"));
    assert_null(lab_next_word(&p, &len));
    p = "";
    assert_null(lab_next_word(&p, &len));
}

static void test_quote_capture(void **state)
{
    const char *words[] = {"plain", "it's", "'", "a b\tc", "$(false) `x` \"q\" \\", ""};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        char *q = lab_shell_quote(words[i]);
        char *cmd = lab_asprintf("printf %%s %s", q);
        char *out = lab_capture(cmd);
        assert_non_null(out);
        assert_string_equal(out, words[i]);
        free(out);
        free(cmd);
        free(q);
    }
    assert_null(lab_capture("echo partial; exit 3"));
    char *big = lab_capture("head -c 100000 /dev/zero | tr '\\0' x");
    assert_non_null(big);
    assert_int_equal(strlen(big), 100000);
    free(big);
}

/* A daemon holds none of the lab's descriptors (a flock the lab holds,
 * like the real-time slots, must not live on in libvirtd), is not the
 * lab's child, and a program that cannot run is an error. */
static void test_spawn_daemon(void **state)
{
    char dir[] = "/tmp/lab-test-daemon-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *held = lab_asprintf("%s/held", dir), *out = lab_asprintf("%s/fds", dir);
    int fd = open(held, O_CREAT | O_RDWR, 0644); /* not close-on-exec */
    assert_true(fd > 2);
    char *script = lab_asprintf("ls -l /proc/$$/fd > %s.tmp; echo $PPID >> %s.tmp; mv %s.tmp %s",
                                out, out, out, out);
    char *argv[] = {"sh", "-c", script, NULL};
    assert_int_equal(lab_spawn_daemon(argv), 0);
    struct stat st;
    for (int i = 0; i < 100 && stat(out, &st) != 0; i++)
        usleep(20 * 1000);
    size_t len = 0;
    char *text = lab_read_file_max(out, 1 << 16, &len);
    assert_non_null(text);
    assert_null(strstr(text, held)); /* our descriptor did not go along */
    char ppid[32];
    snprintf(ppid, sizeof ppid, "\n%ld\n", (long)getpid());
    assert_null(strstr(text, ppid));                  /* not our child */
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1); /* and no child of ours is left */
    char *missing[] = {"/nonexistent/lab-no-such-daemon", NULL};
    assert_int_equal(lab_spawn_daemon(missing), -1);
    close(fd);
    free(text);
    unlink(held);
    unlink(out);
    rmdir(dir);
    free(held);
    free(out);
    free(script);
}

static int setup(void **state)
{
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

static int teardown(void **state)
{
    unlink(path);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bounded),         cmocka_unit_test(test_nul),
        cmocka_unit_test(test_numbers),         cmocka_unit_test(test_escape),
        cmocka_unit_test(test_private_run_dir), cmocka_unit_test(test_quote_capture),
        cmocka_unit_test(test_next_word),       cmocka_unit_test(test_spawn_daemon),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
