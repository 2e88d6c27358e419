/* Kernel profiles: System.map parsing, slot resolution, the readprofile
 * table from stored kprof records, and the agent's slot packer. The figures
 * are worked out by hand from the fixture below. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "guest-agent/fmt.h"
#include "host/report/kprof.h"
#include "host/plan/warmup.h"
#include "host/store/store.h"
#include "common/file.h"
#include "common/str.h"

/* _stext at 0xc0100000; three functions of 0x100, 0x200 and 0x100 bytes. */
static const char map[] = "c0100000 T _stext\n"
                          "c0100000 T startup_32\n"
                          "c0100100 t copy_user_generic\n"
                          "c0100300 T do_generic_file_read\n"
                          "c0100400 A _etext\n"
                          "c0200000 D some_data\n";

static void test_symtab(void **state)
{
    struct lab_symtab t;
    char err[160];
    assert_int_equal(lab_symtab_parse(map, sizeof map - 1, &t, err, sizeof err), 0);
    assert_int_equal(t.n, 4); /* _stext, startup_32, copy_user_generic, do_generic_file_read */
    assert_int_equal(t.stext, 0xc0100000u);
    assert_int_equal(t.etext, 0xc0100400u);
    assert_string_equal(t.v[lab_symtab_find(&t, 0xc0100104)].name, "copy_user_generic");
    assert_string_equal(t.v[lab_symtab_find(&t, 0xc01003fc)].name, "do_generic_file_read");
    assert_int_equal(lab_symtab_find(&t, 0xc0100400), -1); /* past _etext */
    assert_int_equal(lab_symtab_find(&t, 0xc00fffff), -1);
    lab_symtab_free(&t);
    /* refusals */
    assert_int_equal(lab_symtab_parse("zz T x\n", 7, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "line 1"));
    const char placeholder[] =
        "ffffffffffffffff B The real System.map is in the linux-image-<version>-dbg package\n";
    assert_int_equal(lab_symtab_parse(placeholder, sizeof placeholder - 1, &t, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "dbg"));
    assert_int_equal(lab_symtab_parse("c0100000 T f\n", 13, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "_stext"));
}

static void test_add(void **state)
{
    struct lab_symtab t;
    uint64_t total = 0, outside = 0;
    char err[160];
    assert_int_equal(lab_symtab_parse(map, sizeof map - 1, &t, err, sizeof err), 0);
    /* step 4: slot 65 is 0xc0100104 (copy_user_generic), 192 is 0xc0100300 */
    assert_int_equal(
        lab_kprof_add(&t, 4, "65:10,192:3,1000000:2", &total, &outside, err, sizeof err), 0);
    assert_int_equal(total, 15);
    assert_int_equal(outside, 2);
    assert_int_equal(t.v[lab_symtab_find(&t, 0xc0100100)].ticks, 10);
    assert_int_equal(t.v[lab_symtab_find(&t, 0xc0100300)].ticks, 3);
    assert_int_equal(lab_kprof_add(&t, 4, "65:", &total, &outside, err, sizeof err), -1);
    assert_int_equal(lab_kprof_add(&t, 4, "65;1", &total, &outside, err, sizeof err), -1);
    assert_int_equal(lab_kprof_add(&t, 0, "65:1", &total, &outside, err, sizeof err), -1);
    lab_symtab_free(&t);
}

/* A stored cell: warm-up rep 0 (its profile left out), counted reps 1, 2. */
static void test_report(void **state)
{
    char dir[] = "/tmp/lab-test-kprof.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *db = lab_asprintf("%s/r.db", dir), *mapf = lab_asprintf("%s/System.map", dir);
    assert_int_equal(lab_write_file(mapf, map, sizeof map - 1), 0);
    struct lab_store *st;
    assert_int_equal(lab_store_open(db, &st), 0);
    int64_t run = lab_store_run_begin(st, "lab run", "rawread", "pata-2003");
    int64_t cell = lab_store_cell_begin(st, run, "2.6.9-lab", "rawread", "");
    lab_store_cell_set(st, cell, "warmup", "1");
    lab_store_cell_set(st, cell, "system_map", mapf);
    static const char *const lines[] = {
        "LAB1 0 hello v=1",
        "LAB1 1 begin test=devread rep=0 guest_ns=1",
        "LAB1 2 end test=devread rep=0 guest_ns=2 bytes=1 real_ns=1 user_ns=0 sys_ns=0",
        "LAB1 3 kprof step=4 slots=65:1000",
        "LAB1 4 begin test=devread rep=1 guest_ns=3",
        "LAB1 5 end test=devread rep=1 guest_ns=4 bytes=1 real_ns=1 user_ns=0 sys_ns=0",
        "LAB1 6 kprof step=4 slots=65:30,192:4",
        "LAB1 7 kprof step=4 slots=1:2",
        "LAB1 8 begin test=devread rep=2 guest_ns=5",
        "LAB1 9 end test=devread rep=2 guest_ns=6 bytes=1 real_ns=1 user_ns=0 sys_ns=0",
        "LAB1 10 kprof step=4 slots=66:10",
        "LAB1 11 bye runs=3",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        lab_store_add_record(st, cell, (int64_t)i, lines[i]);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_int_equal(lab_kprof_report(out, st, run, 12), 0);
    fclose(out);
    /* copy_user_generic 40 ticks over 0x200 bytes = 0.0781; the file read
     * 4 over 0x100 = 0.0156; startup_32 2 over 0x100; total 46 over 0x400. */
    assert_non_null(strstr(text, "2.6.9-lab (cell"));
    assert_non_null(strstr(text, "      40  copy_user_generic                          0.0781"));
    assert_non_null(strstr(text, "       4  do_generic_file_read                       0.0156"));
    assert_non_null(strstr(text, "       2  startup_32                                 0.0078"));
    assert_non_null(strstr(text, "      46  total                                      0.0449"));
    assert_null(strstr(text, "1000")); /* the warm-up's profile is not counted */
    /* the top line is the busiest function */
    assert_true(strstr(text, "copy_user_generic") < strstr(text, "do_generic_file_read"));
    free(text);
    lab_store_close(st);
    lab_rm_rf(dir);
    free(db);
    free(mapf);
}

/* A readahead sweep (readahead-sweep.exp with kprofile=1): 2 groups of
 * lab.reps=2, one warm-up each. The agent numbers reps on across groups,
 * so the second group's warm-up is rep 2: its profile (1000 ticks) is left
 * out, and rep 3's is counted. A rule of "rep < warmup" would count rep 2's. */
static void test_report_sweep(void **state)
{
    char dir[] = "/tmp/lab-test-kprof.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *db = lab_asprintf("%s/r.db", dir), *mapf = lab_asprintf("%s/System.map", dir);
    assert_int_equal(lab_write_file(mapf, map, sizeof map - 1), 0);
    struct lab_store *st;
    assert_int_equal(lab_store_open(db, &st), 0);
    int64_t run = lab_store_run_begin(st, "lab run", "readahead-sweep", "pata-2003");
    int64_t cell = lab_store_cell_begin(st, run, "2.6.9-lab", "readahead-sweep",
                                        "lab.test=seqread lab.reps=2 lab.ra_list=256,64 "
                                        "lab.kprofile=1 lab.warmup=1");
    lab_store_cell_set(st, cell, "warmup", "1");
    lab_store_cell_set(st, cell, "system_map", mapf);
    static const char *const lines[] = {
        "LAB1 0 hello v=1",
        "LAB1 1 begin test=seqread rep=0 guest_ns=1",
        "LAB1 2 end test=seqread rep=0 guest_ns=2 bytes=1 real_ns=1 user_ns=0 sys_ns=0",
        "LAB1 3 kprof step=4 slots=65:1000",
        "LAB1 4 begin test=seqread rep=1 guest_ns=3",
        "LAB1 5 end test=seqread rep=1 guest_ns=4 bytes=1 real_ns=1 user_ns=0 sys_ns=0",
        "LAB1 6 kprof step=4 slots=65:30",
        "LAB1 7 begin test=seqread rep=2 guest_ns=5",
        "LAB1 8 end test=seqread rep=2 guest_ns=6 bytes=1 real_ns=1 user_ns=0 sys_ns=0",
        "LAB1 9 kprof step=4 slots=192:1000",
        "LAB1 10 begin test=seqread rep=3 guest_ns=7",
        "LAB1 11 end test=seqread rep=3 guest_ns=8 bytes=1 real_ns=1 user_ns=0 sys_ns=0",
        "LAB1 12 kprof step=4 slots=192:4",
        "LAB1 13 bye runs=4",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        lab_store_add_record(st, cell, (int64_t)i, lines[i]);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_int_equal(lab_kprof_report(out, st, run, 12), 0);
    fclose(out);
    assert_non_null(strstr(text, "      30  copy_user_generic "));
    assert_non_null(strstr(text, "       4  do_generic_file_read "));
    assert_non_null(strstr(text, "      34  total "));
    assert_null(strstr(text, "1000")); /* neither group's warm-up is counted */
    free(text);
    lab_store_close(st);
    lab_rm_rf(dir);
    free(db);
    free(mapf);
}

/* The one rule itself: groups of `every` runs, the first `warmup` of each. */
static void test_warmup_rule(void **state)
{
    struct lab_warmup w = {1, 3};
    int want[] = {1, 0, 0, 1, 0, 0, 1};
    for (uint64_t rep = 0; rep < 7; rep++)
        assert_int_equal(lab_warmup_is(w, rep), want[rep]);
    assert_int_equal(lab_warmup_is((struct lab_warmup){2, 0}, 1), 1);
    assert_int_equal(lab_warmup_is((struct lab_warmup){2, 0}, 5), 0);
    assert_int_equal(lab_warmup_is((struct lab_warmup){0, 4}, 0), 0);
    struct lab_warmup p = lab_warmup_of_cell(NULL, 0, "lab.test=seqread lab.reps=4 lab.warmup=1");
    assert_int_equal(p.every, 4);
    assert_int_equal(p.warmup, 1);
}

/* The agent's packer: entries never split, the buffer never overflows. */
static void test_agent_pack(void **state)
{
    struct agent_kprof_pack p = {.len = 0};
    assert_int_equal(agent_kprof_add(&p, 65, 30), 0);
    assert_int_equal(agent_kprof_add(&p, 192, 4), 0);
    assert_int_equal(p.len, strlen("65:30,192:4"));
    assert_memory_equal(p.buf, "65:30,192:4", p.len);
    size_t n = 0;
    while (agent_kprof_add(&p, 4000000000u, 4000000000u) == 0)
        n++;
    assert_true(p.len <= sizeof p.buf);
    assert_true(n > 100);
    assert_true(p.len + strlen(",4000000000:4000000000") > sizeof p.buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_symtab),      cmocka_unit_test(test_add),
        cmocka_unit_test(test_report),      cmocka_unit_test(test_report_sweep),
        cmocka_unit_test(test_warmup_rule), cmocka_unit_test(test_agent_pack),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
