/* Unit tests of the agent's list-valued keys (lab.ra_list, lab.sysfs,
 * lab.elvtune, lab.load), path joining and the contest checksum, and of the
 * new lab.* keys in the command-line parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "guest-agent/cmdline.h"
#include "guest-agent/opts.h"
#include "guest-agent/protocol.h"

static int ra(const char *s, uint64_t *out)
{
    return agent_ra_list_parse(s, strlen(s), out, AGENT_RA_LIST_MAX);
}

static void test_ra_list(void **state)
{
    uint64_t v[AGENT_RA_LIST_MAX];
    assert_int_equal(ra("256,128,64", v), 3);
    assert_true(v[0] == 256 && v[1] == 128 && v[2] == 64);
    assert_int_equal(ra("0", v), 1);
    assert_true(v[0] == 0);
    assert_int_equal(ra("0x100,4294967295", v), 2);
    assert_true(v[0] == 256 && v[1] == 4294967295ULL);
    assert_int_equal(ra("1,2,3,4,5,6,7,8", v), 8);
    assert_true(v[7] == 8);
    assert_int_equal(ra("1,2,3,4,5,6,7,8,9", v), -1); /* more than 8 */
    assert_int_equal(ra("", v), -1);
    assert_int_equal(ra(",", v), -1);
    assert_int_equal(ra("256,", v), -1);
    assert_int_equal(ra(",256", v), -1);
    assert_int_equal(ra("256,,64", v), -1);
    assert_int_equal(ra("4294967296", v), -1); /* BLKRASET takes an unsigned long */
    assert_int_equal(ra("-1", v), -1);
    assert_int_equal(ra("12a", v), -1);
    assert_int_equal(ra("256 128", v), -1);
}

static int kv(const char *s, struct agent_kv *out)
{
    return agent_sysfs_parse(s, strlen(s), out, AGENT_SYSFS_MAX);
}

static void test_sysfs(void **state)
{
    struct agent_kv p[AGENT_SYSFS_MAX];
    assert_int_equal(kv("read_ahead_kb:128", p), 1);
    assert_string_equal(p[0].key, "read_ahead_kb");
    assert_string_equal(p[0].val, "128");
    assert_int_equal(kv("read_ahead_kb:64,iosched/quantum:4,nr_requests:32", p), 3);
    assert_string_equal(p[1].key, "iosched/quantum");
    assert_string_equal(p[1].val, "4");
    assert_string_equal(p[2].key, "nr_requests");
    assert_int_equal(kv("scheduler:mq-deadline", p), 1);
    assert_string_equal(p[0].val, "mq-deadline");
    assert_int_equal(
        kv("iosched/slice_idle:0,rotational:1,max_sectors_kb:512,a:1,b:2,c:3,d:4,e:5", p), 8);
    assert_int_equal(kv("a:1,b:2,c:3,d:4,e:5,f:6,g:7,h:8,i:9", p), -1); /* more than 8 */

    /* Nothing outside queue/ and queue/iosched/. */
    assert_int_equal(kv("../stat:1", p), -1);
    assert_int_equal(kv("..:1", p), -1);
    assert_int_equal(kv("iosched/../../dev:1", p), -1);
    assert_int_equal(kv("iosched/..:1", p), -1);
    assert_int_equal(kv("/etc/passwd:1", p), -1);
    assert_int_equal(kv("holders/x:1", p), -1);
    assert_int_equal(kv("iosched/a/b:1", p), -1);
    assert_int_equal(kv("iosched/:1", p), -1);
    assert_int_equal(kv("iosched:1", p), 1); /* a plain name that happens to be "iosched" */
    assert_int_equal(kv("Read_Ahead:1", p), -1);
    assert_int_equal(kv("read ahead:1", p), -1);
    /* Values: [A-Za-z0-9_.-]+. */
    assert_int_equal(kv("read_ahead_kb:", p), -1);
    assert_int_equal(kv("read_ahead_kb", p), -1);
    assert_int_equal(kv(":128", p), -1);
    assert_int_equal(kv("read_ahead_kb:1:2", p), -1);
    assert_int_equal(kv("read_ahead_kb:a/b", p), -1);
    assert_int_equal(kv("read_ahead_kb:1 2", p), -1);
    assert_int_equal(kv("read_ahead_kb:128,", p), -1);
    assert_int_equal(kv("", p), -1);
    /* Lengths: the key buffer holds 47 characters, the value 31. */
    assert_int_equal(kv("iosched/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:1", p), 1);
    assert_int_equal(kv("iosched/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:1", p), -1);
    assert_int_equal(kv("a:1234567890123456789012345678901", p), 1);
    assert_int_equal(kv("a:12345678901234567890123456789012", p), -1);

    assert_true(agent_sysfs_key_ok("iosched/fifo_expire_sync", 24));
    assert_false(agent_sysfs_key_ok("iosched/", 8));
    assert_false(agent_sysfs_val_ok("", 0));
}

static void test_elvtune(void **state)
{
    int32_t r = -1, w = -1;
    assert_int_equal(agent_elvtune_parse("2048,8192", 9, &r, &w), 0);
    assert_int_equal(r, 2048);
    assert_int_equal(w, 8192);
    assert_int_equal(agent_elvtune_parse("0,0", 3, &r, &w), 0);
    assert_int_equal(r, 0);
    assert_int_equal(agent_elvtune_parse("2147483647,1", 12, &r, &w), 0);
    assert_int_equal(r, 2147483647);
    assert_int_equal(agent_elvtune_parse("2147483648,1", 12, &r, &w), -1); /* an int */
    assert_int_equal(agent_elvtune_parse("1", 1, &r, &w), -1);
    assert_int_equal(agent_elvtune_parse("1,", 2, &r, &w), -1);
    assert_int_equal(agent_elvtune_parse(",1", 2, &r, &w), -1);
    assert_int_equal(agent_elvtune_parse("1,2,3", 5, &r, &w), -1);
    assert_int_equal(agent_elvtune_parse("-1,2", 4, &r, &w), -1);
}

static void test_load_names(void **state)
{
    static const char *const names[] = {"none", "copy", "io_load", "io_other", "read_load"};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(agent_load_parse(names[i], strlen(names[i])), i);
        assert_string_equal(agent_load_name(i), names[i]);
    }
    assert_int_equal(agent_load_parse("io_loa", 6), -1);
    assert_int_equal(agent_load_parse("io_loads", 8), -1);
    assert_int_equal(agent_load_parse("", 0), -1);
    assert_int_equal(agent_load_parse("COPY", 4), -1);
    assert_string_equal(agent_load_name(-1), "?");
    assert_string_equal(agent_load_name(5), "?");
}

static void test_path_join(void **state)
{
    char out[16];
    assert_int_equal(agent_path_join(out, sizeof(out), "/mnt", "tree0"), 10);
    assert_string_equal(out, "/mnt/tree0");
    assert_int_equal(agent_path_join(out, sizeof(out), "/mnt/", "/tree0"), 10);
    assert_string_equal(out, "/mnt/tree0");
    assert_int_equal(agent_path_join(out, sizeof(out), "/mnt//", "a/b"), 8);
    assert_string_equal(out, "/mnt/a/b");
    assert_int_equal(agent_path_join(out, sizeof(out), "/mnt", ""), 4);
    assert_string_equal(out, "/mnt");
    assert_int_equal(agent_path_join(out, sizeof(out), "/", "x"), 2);
    assert_string_equal(out, "/x");
    assert_int_equal(agent_path_join(out, sizeof(out), "rel", "x"), 5);
    assert_string_equal(out, "rel/x");
    /* 15 characters fit in 16 bytes, 16 do not. */
    assert_int_equal(agent_path_join(out, sizeof(out), "/mnt", "0123456789"), 15);
    assert_int_equal(agent_path_join(out, sizeof(out), "/mnt", "01234567890"), -1);
    assert_string_equal(out, "");
    assert_int_equal(agent_path_join(out, 0, "/mnt", "x"), -1);
}

static void test_checksum(void **state)
{
    unsigned char buf[37];
    for (size_t i = 0; i < sizeof(buf); i++)
        buf[i] = (unsigned char)(i * 13 + 1);
    uint64_t a = agent_checksum(AGENT_SUM_INIT, buf, sizeof(buf));
    assert_true(a == agent_checksum(AGENT_SUM_INIT, buf, sizeof(buf))); /* deterministic */
    assert_true(a != AGENT_SUM_INIT);
    assert_true(agent_checksum(AGENT_SUM_INIT, buf, 0) == AGENT_SUM_INIT);
    buf[36] ^= 1; /* the tail byte counts */
    assert_true(agent_checksum(AGENT_SUM_INIT, buf, sizeof(buf)) != a);
    buf[36] ^= 1;
    buf[3] ^= 0x80; /* and a byte of a whole word */
    assert_true(agent_checksum(AGENT_SUM_INIT, buf, sizeof(buf)) != a);
    buf[3] ^= 0x80;
    /* Passes chain: a second pass over the same data gives another value. */
    assert_true(agent_checksum(a, buf, sizeof(buf)) != a);
    /* Word-wise: a block split on a word boundary sums the same. */
    uint64_t h = agent_checksum(AGENT_SUM_INIT, buf, 16);
    assert_true(agent_checksum(h, buf + 16, sizeof(buf) - 16) == a);
}

static unsigned parse(struct agent_config *c, const char *s)
{
    agent_config_defaults(c);
    return agent_config_parse(c, s, strlen(s));
}

static void test_cmdline_defaults(void **state)
{
    struct agent_config c;
    assert_int_equal(parse(&c, "quiet"), 0);
    assert_true(c.ra_count == 0);
    assert_string_equal(c.tree, "tree0");
    assert_int_equal(c.load, AGENT_LOAD_NONE);
    assert_string_equal(c.load_src, "tree1");
    assert_string_equal(c.load_dst, "copy");
    assert_string_equal(c.load_file, "big_file");
    assert_true(c.load_size == 256ULL << 20);
    assert_string_equal(c.dev2, "sdb");
    assert_true(c.rw == 0);
    assert_true(c.write_pct == 50);
    assert_true(c.cpu_rounds == AGENT_CPU_ROUNDS_DEFAULT);
    assert_string_equal(c.sched, "");
    assert_true(c.sysfs_count == 0);
    assert_int_equal(c.have_elvtune, 0);
    assert_true(c.rep0 == 0);
    assert_int_equal(c.drop, AGENT_DROP_AUTO);
    assert_int_equal(parse(&c, "lab.drop=remount"), 0);
    assert_int_equal(c.drop, AGENT_DROP_REMOUNT);
    assert_int_equal(parse(&c, "lab.drop=fadvise"), 0);
    assert_int_equal(c.drop, AGENT_DROP_FADVISE);
    assert_int_equal(parse(&c, "lab.drop=fadvise lab.drop=auto"), 0);
    assert_int_equal(c.drop, AGENT_DROP_AUTO);
    assert_int_equal(parse(&c, "lab.drop=proc"), 1); /* proc is what auto picks */
    assert_int_equal(c.drop, AGENT_DROP_AUTO);
}

static void test_cmdline_keys(void **state)
{
    struct agent_config c;
    assert_int_equal(parse(&c, "lab.test=contest lab.ra_list=256,128,64 lab.tree=trees/t0 "
                               "lab.load=copy lab.load_src=t1 lab.load_dst=out lab.load_file=f2 "
                               "lab.load_size=0x1000000 lab.dev2=hdb lab.cpu_rounds=3 "
                               "lab.sched=mq-deadline lab.sysfs=read_ahead_kb:64,iosched/quantum:4 "
                               "lab.elvtune=2048,8192"),
                     0);
    assert_string_equal(c.test, "contest");
    assert_true(c.ra_count == 3 && c.ra_list[0] == 256 && c.ra_list[2] == 64);
    assert_string_equal(c.tree, "trees/t0");
    assert_int_equal(c.load, AGENT_LOAD_COPY);
    assert_string_equal(c.load_src, "t1");
    assert_string_equal(c.load_dst, "out");
    assert_string_equal(c.load_file, "f2");
    assert_true(c.load_size == 16777216);
    assert_string_equal(c.dev2, "hdb");
    assert_true(c.cpu_rounds == 3);
    assert_true(c.rw == 1); /* a load mounts the data disk read-write */
    assert_string_equal(c.sched, "mq-deadline");
    assert_true(c.sysfs_count == 2);
    assert_string_equal(c.sysfs[1].key, "iosched/quantum");
    assert_string_equal(c.sysfs[1].val, "4");
    assert_true(c.have_elvtune && c.elv_read == 2048 && c.elv_write == 8192);

    /* overwrite: rw, O_DIRECT and 4 KiB blocks unless told otherwise. */
    assert_int_equal(parse(&c, "lab.test=overwrite lab.write_pct=100"), 0);
    assert_true(c.rw == 1 && c.direct == 1 && c.bs == 4096 && c.write_pct == 100);
    assert_int_equal(parse(&c, "lab.test=overwrite lab.direct=0 lab.bs=8192"), 0);
    assert_true(c.direct == 0 && c.bs == 8192);
    /* lab.rw wins over the default, either way. */
    assert_int_equal(parse(&c, "lab.test=treeread lab.load=io_load lab.rw=0"), 0);
    assert_true(c.rw == 0);
    assert_int_equal(parse(&c, "lab.test=treeread lab.rw=1"), 0);
    assert_true(c.rw == 1);
    assert_int_equal(parse(&c, "lab.test=treeread lab.load=none"), 0);
    assert_true(c.rw == 0);
}

static void test_cmdline_rejects(void **state)
{
    struct agent_config c;
    assert_int_equal(parse(&c, "lab.ra_list=256,,64"), 1);
    assert_true(c.ra_count == 0);
    assert_int_equal(parse(&c, "lab.load=cp"), 1);
    assert_int_equal(c.load, AGENT_LOAD_NONE);
    assert_int_equal(parse(&c, "lab.tree=../etc"), 1);
    assert_string_equal(c.tree, "tree0");
    assert_int_equal(parse(&c, "lab.tree=/abs"), 1);
    assert_int_equal(parse(&c, "lab.load_dst=a/../../b"), 1);
    assert_int_equal(parse(&c, "lab.sysfs=../../../proc/sys/vm/drop_caches:3"), 1);
    assert_true(c.sysfs_count == 0);
    assert_int_equal(parse(&c, "lab.sched=../x"), 1);
    assert_string_equal(c.sched, "");
    assert_int_equal(parse(&c, "lab.elvtune=1"), 1);
    assert_int_equal(c.have_elvtune, 0);
    assert_int_equal(parse(&c, "lab.write_pct=101"), 1);
    assert_true(c.write_pct == 50);
    assert_int_equal(parse(&c, "lab.load_size=1048575"), 1);
    assert_int_equal(parse(&c, "lab.rw=2"), 1);
    assert_int_equal(parse(&c, "lab.dev2=sd/b"), 1);
    assert_string_equal(c.dev2, "sdb");
    /* A later good value wins over an earlier one. */
    assert_int_equal(parse(&c, "lab.ra_list=1,2 lab.ra_list=64"), 0);
    assert_true(c.ra_count == 1 && c.ra_list[0] == 64);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ra_list),          cmocka_unit_test(test_sysfs),
        cmocka_unit_test(test_elvtune),          cmocka_unit_test(test_load_names),
        cmocka_unit_test(test_path_join),        cmocka_unit_test(test_checksum),
        cmocka_unit_test(test_cmdline_defaults), cmocka_unit_test(test_cmdline_keys),
        cmocka_unit_test(test_cmdline_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
