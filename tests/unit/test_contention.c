/* Unit tests of host/cell/contention.c: the /proc parsers and a run's figures
 * and flag from its begin and end snapshots. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "host/cell/contention.h"

static void test_parsers(void **state)
{
    double avg10;
    int64_t total, wait;
    assert_int_equal(lab_psi_parse("some avg10=12.50 avg60=3.00 avg300=1.00 total=987654\n"
                                   "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
                                   &avg10, &total),
                     0);
    assert_float_equal(avg10, 12.5, 1e-9);
    assert_int_equal(total, 987654);
    assert_int_equal(lab_psi_parse("garbage", &avg10, &total), -1);
    assert_int_equal(lab_schedstat_parse("123456789 4242 17\n", &wait), 0);
    assert_int_equal(wait, 4242);
    assert_int_equal(lab_schedstat_parse("", &wait), -1);
}

static void test_extra_and_flag(void **state)
{
    struct lab_contention_snap b = {.vcpu_wait_ns = 1000,
                                    .psi_some_us = 500,
                                    .have_disk = 1,
                                    .disk_reqs = 10,
                                    .disk_late = 1,
                                    .disk_late_ns = 2000};
    struct lab_contention_snap e = b;
    e.vcpu_wait_ns += 10000000; /* 10 ms of a 1 s run: 1%, under 5% */
    e.psi_some_us += 250000;
    e.psi_avg10 = 7.25;
    e.disk_reqs += 64;
    e.disk_late += 2;
    e.disk_late_ns += 5000000; /* 0.5%: under 2% */
    char buf[512] = "ra_sectors=256";
    assert_int_equal(lab_contention_extra(&b, &e, 1000000000, buf, sizeof buf), 0);
    assert_string_equal(buf, "ra_sectors=256 host_vcpu_wait_ns=10000000 host_psi_cpu_us=250000 "
                             "host_psi_cpu_avg10=7.25 host_disk_reqs=64 host_disk_late=2 "
                             "host_disk_late_ns=5000000");
    /* 60 ms of vCPU wait in a 1 s run: over 5%, flagged. */
    e.vcpu_wait_ns = b.vcpu_wait_ns + 60000000;
    buf[0] = '\0';
    assert_int_equal(lab_contention_extra(&b, &e, 1000000000, buf, sizeof buf), 1);
    assert_non_null(strstr(buf, "host_flag=1"));
    /* 3.3 ms of wait in a 30 ms run: over 5%, but under the host's floor. */
    e.vcpu_wait_ns = b.vcpu_wait_ns + 3300000;
    e.disk_late_ns = b.disk_late_ns;
    buf[0] = '\0';
    assert_int_equal(lab_contention_extra(&b, &e, 30000000, buf, sizeof buf), 0);
    assert_null(strstr(buf, "host_flag=1"));
    /* 12 ms in the same run: past both, flagged. */
    e.vcpu_wait_ns = b.vcpu_wait_ns + 12000000;
    buf[0] = '\0';
    assert_int_equal(lab_contention_extra(&b, &e, 30000000, buf, sizeof buf), 1);
    /* Disk replies 30 ms late in total in a 1 s run: 3%, flagged. */
    e.vcpu_wait_ns = b.vcpu_wait_ns;
    e.disk_late_ns = b.disk_late_ns + 30000000;
    buf[0] = '\0';
    assert_int_equal(lab_contention_extra(&b, &e, 1000000000, buf, sizeof buf), 1);
    /* Nothing known: no keys, no flag. */
    struct lab_contention_snap none = {.vcpu_wait_ns = -1, .psi_some_us = -1};
    buf[0] = '\0';
    assert_int_equal(lab_contention_extra(&none, &none, 1000000000, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parsers),
        cmocka_unit_test(test_extra_and_flag),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
