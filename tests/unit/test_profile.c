/* Profile names: fast, iotune:BYTES,IOPS, and the shipped model files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "host/plan/profile.h"

static void test_fast(void **state)
{
    struct lab_profile p;
    assert_int_equal(lab_profile_resolve("fast", &p), 0);
    assert_int_equal(p.kind, LAB_PROFILE_FAST);
    assert_string_equal(p.bus, "ide");
    assert_int_equal(p.rpm, 0);
}

static void test_iotune(void **state)
{
    struct lab_profile p;
    assert_int_equal(lab_profile_resolve("iotune:30M,120", &p), 0);
    assert_int_equal(p.kind, LAB_PROFILE_IOTUNE);
    assert_int_equal(p.iotune_bytes, 30000000);
    assert_int_equal(p.iotune_iops, 120);
    assert_int_equal(lab_profile_resolve("iotune:0,80", &p), 0);
    assert_int_equal(p.iotune_bytes, 0);
    assert_int_equal(lab_profile_resolve("iotune:30M", &p), -1);
    assert_int_equal(lab_profile_resolve("iotune:x,1", &p), -1);
    assert_int_equal(lab_profile_resolve("iotune:0,0", &p), -1);
}

static void test_shipped_models(void **state)
{
    static const struct {
        const char *name, *bus;
        unsigned rpm;
    } cases[] = {
        {"pata-1999", "ide", 5400},       {"pata-2003", "ide", 7200},
        {"sata-ncq-2005", "sata", 7200},  {"scsi-10k-1999", "scsi", 10045},
        {"scsi-15k-2004", "scsi", 15000},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct lab_profile p;
        assert_int_equal(lab_profile_resolve(cases[i].name, &p), 0);
        assert_int_equal(p.kind, LAB_PROFILE_MODEL);
        assert_string_equal(p.bus, cases[i].bus);
        assert_int_equal(p.rpm, cases[i].rpm);
    }
}

static void test_unknown(void **state)
{
    struct lab_profile p;
    assert_int_equal(lab_profile_resolve("pata-1066", &p), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast),
        cmocka_unit_test(test_iotune),
        cmocka_unit_test(test_shipped_models),
        cmocka_unit_test(test_unknown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
