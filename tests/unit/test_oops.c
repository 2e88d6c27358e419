/* The oops parser (host/cell/oops.c) on real console captures kept under
 * tests/golden/oops/: a lab-built 2.6.9 whose posix_fadvise writes through
 * NULL (tests/slow/ide.sh's kernel), Debian's 6.1 panicked by sysrq-c, and
 * a lab-built 2.4.22 hitting BUG() in BLKFLSBUF, whose addresses only its
 * System.map names. Each parse's summary is also a golden file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common/file.h"
#include "host/cell/oops.h"
#include "tests/unit/golden.h"

static char *capture(const char *name)
{
    char *path = lab_asprintf("tests/golden/oops/%s", name);
    char *text = lab_read_file(path, NULL);
    if (!text)
        fail_msg("missing capture %s", path);
    free(path);
    return text;
}

static void check_summary(const struct lab_oops *o, const char *golden)
{
    char line[1024];
    lab_oops_summary(o, line, sizeof line);
    char *with_nl = lab_asprintf("%s\n", line);
    assert_golden(golden, with_nl);
    free(with_nl);
}

static void test_26_fadvise(void **state)
{
    (void)state;
    char *text = capture("2.6.9-fadvise-null.console");
    struct lab_oops o;
    assert_int_equal(lab_oops_parse(text, strlen(text), &o), 1);
    assert_string_equal(
        o.headline, "Unable to handle kernel NULL pointer dereference at virtual address 00000000");
    assert_string_equal(o.function, "sys_fadvise64_64");
    assert_string_equal(o.offset, "0x189/0x1f0");
    assert_true(o.ip == 0xc012f429ULL);
    assert_int_equal(o.ntrace, 1);
    assert_string_equal(o.trace[0], "syscall_call+0x7/0xb");
    assert_string_equal(o.phase, "cache drop (posix_fadvise)");
    assert_string_equal(o.panic, "Attempted to kill init!");
    assert_string_equal(o.bug_file, "");
    assert_string_equal(lab_oops_key(&o), "drop");
    check_summary(&o, "oops/2.6.9-fadvise-null.txt");
    free(text);
}

static void test_61_sysrq_panic(void **state)
{
    (void)state;
    char *text = capture("6.1-sysrq-crash.console");
    struct lab_oops o;
    assert_int_equal(lab_oops_parse(text, strlen(text), &o), 1);
    assert_string_equal(o.headline, "Kernel panic - not syncing: sysrq triggered crash");
    assert_string_equal(o.panic, "sysrq triggered crash");
    /* A panic names no faulting address: the first frame past panic(). */
    assert_string_equal(o.function, "sysrq_handle_crash");
    assert_string_equal(o.offset, "0x16/0x20");
    assert_true(o.ntrace >= 4);
    assert_string_equal(o.trace[2], "sysrq_handle_crash+0x16/0x20");
    assert_string_equal(o.trace[3], "__handle_sysrq.cold+0x44/0x11c");
    assert_string_equal(o.phase, "boot"); /* no agent: a one-line /init crashed it */
    assert_null(lab_oops_key(&o));
    check_summary(&o, "oops/6.1-sysrq-crash.txt");
    free(text);
}

/* 2.6.26 built by gcc 12 before the compat layer kept cpumask_of_cpu()'s
 * mask alive: no clock event got a handler, and the first timer interrupt
 * called through NULL. "EIP is at 0x0" names no function: the summary says
 * where the CPU went, and timer_interrupt stays the caller in the trace. */
static void test_26_null_call(void **state)
{
    (void)state;
    char *text = capture("2.6.26-null-call.console");
    struct lab_oops o;
    assert_int_equal(lab_oops_parse(text, strlen(text), &o), 1);
    assert_string_equal(o.headline,
                        "BUG: unable to handle kernel NULL pointer dereference at 00000000");
    assert_int_equal(o.ip_bare, 1);
    assert_true(o.ip == 0);
    assert_string_equal(o.function, "");
    assert_string_equal(o.trace[0], "timer_interrupt+0xe/0x20");
    assert_string_equal(o.panic, "Fatal exception in interrupt");
    check_summary(&o, "oops/2.6.26-null-call.txt");
    free(text);
}

/* 2.4.22 patched to BUG() in BLKFLSBUF on hda
 * (oops/2.4.22-blkflsbuf-bug.patch), which the agent's remount cache drop
 * issues: no kallsyms, so the EIP and the trace are named from the
 * build's System.map. */
static void test_24_blkflsbuf(void **state)
{
    (void)state;
    char *text = capture("2.4.22-blkflsbuf-bug.console");
    char *map = capture("2.4.22-blkflsbuf-bug.System.map");
    struct lab_oops o;
    assert_int_equal(lab_oops_parse(text, strlen(text), &o), 1);
    assert_string_equal(o.headline, "kernel BUG at blkpg.c:236!");
    assert_string_equal(o.bug_file, "blkpg.c");
    assert_int_equal(o.bug_line, 236);
    assert_true(o.ip == 0xc0187078ULL);
    assert_string_equal(o.function, "");
    assert_int_equal(o.ntrace, 7);
    assert_string_equal(o.trace[0], "c0190805");
    assert_string_equal(o.phase, "cache drop (remount)");
    assert_int_equal(lab_oops_resolve(&o, map, strlen(map)), 8);
    assert_string_equal(o.function, "blk_ioctl");
    assert_string_equal(o.offset, "0x428/0x480");
    assert_string_equal(o.trace[0], "ide_ioctl+0x1f5/0x9f0");
    assert_string_equal(o.trace[6], "system_call+0x2f/0x34");
    assert_string_equal(lab_oops_key(&o), "drop");
    check_summary(&o, "oops/2.4.22-blkflsbuf-bug.txt");
    free(map);
    free(text);
}

/* Synthetic shapes the captures do not cover: a 2.4-style trace of bare
 * addresses named from a System.map, a BUG line, the agent's records as
 * phases, and a console with nothing wrong. */
static void test_shapes(void **state)
{
    (void)state;
    const char *console = "LAB1 5 begin test=seqread rep=3 guest_ns=1\n"
                          "kernel BUG at filemap.c:81!\n"
                          "invalid operand: 0000\n"
                          "EIP:    0010:[<c0124a10>]    Not tainted\n"
                          "Call Trace:    [<c0124b00>] [<c0300000>]\n"
                          "Code: 0f 0b\n"
                          "Kernel panic: Attempted to kill init!\n";
    const char *map = "c0100000 T _stext\nc0124a00 T add_to_page_cache\nc0124af0 t "
                      "remove_inode_page\nc0124c00 T sys_read\nc0200000 A _etext\n";
    struct lab_oops o;
    assert_int_equal(lab_oops_parse(console, strlen(console), &o), 1);
    assert_string_equal(o.phase, "run 3");
    assert_string_equal(o.bug_file, "filemap.c");
    assert_int_equal(o.bug_line, 81);
    assert_string_equal(o.function, "");
    assert_int_equal(o.ntrace, 2);
    assert_int_equal(lab_oops_resolve(&o, map, strlen(map)), 2);
    assert_string_equal(o.function, "add_to_page_cache");
    assert_string_equal(o.offset, "0x10/0xf0");
    assert_string_equal(o.trace[0], "remove_inode_page+0x10/0x110");
    assert_string_equal(o.trace[1], "c0300000"); /* past the last text symbol: left as it is */
    assert_null(lab_oops_key(&o));

    const char *fine = "lab-agent 0.1 (i386) starting\nLAB1 9 bye runs=5\n";
    assert_int_equal(lab_oops_parse(fine, strlen(fine), &o), 0);
    assert_false(o.found);

    const char *tunable = "lab-agent: phase: tunable lab.sched\n[    2.5] BUG: kernel NULL "
                          "pointer dereference, address: 0000000000000008\n[    2.5] RIP: "
                          "0010:elv_iosched_store+0x20/0x90\n";
    assert_int_equal(lab_oops_parse(tunable, strlen(tunable), &o), 1);
    assert_string_equal(o.function, "elv_iosched_store");
    assert_string_equal(lab_oops_key(&o), "scheduler");

    /* 2.6's x86_64 shape: <address>{function+offset}. */
    const char *x86_64 = "LAB1 7 end test=seqread rep=0 guest_ns=5\n"
                         "Unable to handle kernel NULL pointer dereference at 0000000000000000 "
                         "RIP:\n"
                         "<ffffffff8015a3c1>{invalidate_mapping_pages+33}\n"
                         "RIP: 0010:[<ffffffff8015a3c1>] <ffffffff8015a3c1>"
                         "{invalidate_mapping_pages+33}\n"
                         "Call Trace:<ffffffff80158c2e>{sys_fadvise64+302} "
                         "<ffffffff8010e0c2>{system_call+126}\n"
                         "\n"
                         "Code: 48 8b 07\n";
    assert_int_equal(lab_oops_parse(x86_64, strlen(x86_64), &o), 1);
    assert_string_equal(o.phase, "between runs");
    assert_string_equal(o.function, "invalidate_mapping_pages");
    assert_string_equal(o.offset, "33");
    assert_true(o.ip == 0xffffffff8015a3c1ULL);
    assert_int_equal(o.ntrace, 2);
    assert_string_equal(o.trace[0], "sys_fadvise64+302");
    assert_string_equal(o.trace[1], "system_call+126");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_24_blkflsbuf),   cmocka_unit_test(test_26_fadvise),
        cmocka_unit_test(test_61_sysrq_panic), cmocka_unit_test(test_26_null_call),
        cmocka_unit_test(test_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
