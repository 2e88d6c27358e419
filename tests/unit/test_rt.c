/* Unit tests of host/cell/rt.c and host/cell/qemuproc.c: the vCPU thread names, the
 * run's real-time note, entering and leaving SCHED_FIFO on the calling
 * thread (with reset-on-fork, so children run normally). */
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <signal.h>
#include <stdlib.h>

#include "host/cell/qemuproc.h"
#include "host/cell/rt.h"

static void test_vcpu_names(void **state)
{
    assert_true(lab_qemu_is_vcpu_name("CPU 0/TCG"));
    assert_true(lab_qemu_is_vcpu_name("CPU 12/KVM"));
    assert_true(lab_qemu_is_vcpu_name("ALL CPUs/TCG")); /* -icount: one thread for all */
    assert_false(lab_qemu_is_vcpu_name("qemu-system-x86"));
    assert_false(lab_qemu_is_vcpu_name("IO mon_iothread"));
    assert_false(lab_qemu_is_vcpu_name("call_rcu"));
}

static void test_plan_off(void **state)
{
    char note[256];
    assert_int_equal(lab_rt_plan(1, note, sizeof note), 0);
    assert_string_equal(note, "off: --no-rt");
}

static void test_plan_on(void **state)
{
    char note[256], why[200];
    int permitted = lab_rt_permitted(why, sizeof why);
    int prio = lab_rt_plan(0, note, sizeof note);
    if (permitted) {
        assert_int_equal(prio, LAB_RT_QEMU_PRIO);
        assert_non_null(strstr(note, "fifo qemu=10 nbdkit=11"));
    } else {
        assert_int_equal(prio, 0);
        assert_non_null(strstr(note, "off: not permitted"));
    }
}

/* The throttle is read, never written. */
static void test_throttle_read(void **state)
{
    long before = lab_rt_runtime_us();
    char note[256];
    lab_rt_plan(0, note, sizeof note);
    assert_true(lab_rt_runtime_us() == before);
}

static void test_enter_leave(void **state)
{
    struct lab_rt_saved saved;
    if (lab_rt_enter(LAB_RT_READER_PRIO, &saved) < 0)
        skip(); /* not permitted here */
    assert_string_equal(lab_rt_policy_name(sched_getscheduler(0)), "fifo");
    /* A child starts at the normal policy (reset on fork). */
    pid_t pid = fork();
    if (pid == 0)
        _exit(sched_getscheduler(0) == SCHED_OTHER ? 0 : 1);
    int status = -1;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    lab_rt_leave(&saved);
    assert_string_equal(lab_rt_policy_name(sched_getscheduler(0)), "other");
    assert_true(lab_rt_thread_wait_ns() >= 0);
}

/* Slots across processes: N are taken, the next is refused with the
 * reason, one given back is free again, and a holder that is killed
 * frees its slot without any cleanup of its own. */
static void test_slots(void **state)
{
    char dir[] = "/tmp/lab-rt-slots-XXXXXX", why[256];
    assert_non_null(mkdtemp(dir));
    setenv("LAB_RT_SLOT_DIR", dir, 1);
    setenv("LAB_RT_SLOTS", "2", 1);
    assert_int_equal(lab_rt_slots(), 2);
    int a = lab_rt_slot_take(why, sizeof why);
    assert_true(a >= 0);
    int pipefd[2];
    assert_int_equal(pipe(pipefd), 0);
    pid_t holder = fork();
    if (holder == 0) {
        char w[256], c = lab_rt_slot_take(w, sizeof w) >= 0 ? 'y' : 'n';
        if (write(pipefd[1], &c, 1) != 1)
            _exit(1);
        pause();
        _exit(0);
    }
    char got;
    assert_int_equal(read(pipefd[0], &got, 1), 1);
    assert_int_equal(got, 'y');
    assert_int_equal(lab_rt_slot_take(why, sizeof why), -1);
    assert_non_null(strstr(why, "all 2 real-time slot(s)"));
    kill(holder, SIGKILL);
    waitpid(holder, NULL, 0);
    int b = lab_rt_slot_take(why, sizeof why);
    assert_true(b >= 0);
    lab_rt_slot_give(a);
    int c = lab_rt_slot_take(why, sizeof why);
    assert_true(c >= 0);
    lab_rt_slot_give(b);
    lab_rt_slot_give(c);
    close(pipefd[0]);
    close(pipefd[1]);
    unsetenv("LAB_RT_SLOTS");
    unsetenv("LAB_RT_SLOT_DIR");
    char *rm = NULL;
    assert_true(asprintf(&rm, "rm -rf %s", dir) > 0);
    assert_int_equal(system(rm), 0);
    free(rm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vcpu_names),  cmocka_unit_test(test_plan_off),
        cmocka_unit_test(test_plan_on),     cmocka_unit_test(test_throttle_read),
        cmocka_unit_test(test_enter_leave), cmocka_unit_test(test_slots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
