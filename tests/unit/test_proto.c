/* Unit tests of host/cell/proto.c: record parser, line splitter, sequence checker. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host/cell/proto.h"

static struct lab_record rec;
static char err[256];

static int parse(const char *line)
{
    err[0] = '\0';
    return lab_record_parse(line, strlen(line), &rec, err, sizeof err);
}

/* The line must be refused with a reason containing `want`. */
static void refused(const char *line, const char *want)
{
    int rc = parse(line);
    if (rc != -1 || !strstr(err, want))
        fail_msg("line '%s': rc %d, err '%s', wanted '%s'", line, rc, err, want);
}

static void test_valid_every_type(void **state)
{
    uint64_t v;

    assert_int_equal(parse("LAB1 0 hello v=1 agent=0.1 uname=2.6.0 arch=i686\n"), 0);
    assert_int_equal(rec.type, LAB_REC_HELLO);
    assert_int_equal(rec.seq, 0);
    assert_int_equal(rec.nkv, 4);
    assert_string_equal(lab_record_get(&rec, "uname"), "2.6.0");
    assert_string_equal(lab_record_get(&rec, "arch"), "i686");
    assert_null(lab_record_get(&rec, "nope"));

    assert_int_equal(parse("LAB1 1 log msg=mounting%20%2Fdev%2Fhda"), 0);
    assert_int_equal(rec.type, LAB_REC_LOG);
    assert_string_equal(lab_record_get(&rec, "msg"), "mounting /dev/hda");

    assert_int_equal(parse("LAB1 2 begin test=seqread rep=0 guest_ns=123456789"), 0);
    assert_int_equal(rec.type, LAB_REC_BEGIN);
    assert_int_equal(lab_record_get_u64(&rec, "guest_ns", &v), 0);
    assert_int_equal(v, 123456789);

    assert_int_equal(parse("LAB1 3 end test=seqread rep=0 guest_ns=223456789 bytes=67108864 "
                           "real_ns=100000000 user_ns=0 sys_ns=4000000 ra_sectors=64 bs=4096"),
                     0);
    assert_int_equal(rec.type, LAB_REC_END);
    assert_int_equal(rec.seq, 3);
    assert_int_equal(lab_record_get_u64(&rec, "bytes", &v), 0);
    assert_int_equal(v, 67108864);
    assert_int_equal(lab_record_get_u64(&rec, "ra_sectors", &v), 0);
    assert_int_equal(v, 64);
    assert_int_equal(lab_record_get_u64(&rec, "test", &v), -1);
    assert_int_equal(lab_record_get_u64(&rec, "absent", &v), -1);

    assert_int_equal(parse("LAB1 4 error msg=open%3A%20ENOENT test=seqread rep=1"), 0);
    assert_int_equal(rec.type, LAB_REC_ERROR);
    assert_string_equal(lab_record_get(&rec, "msg"), "open: ENOENT");

    assert_int_equal(parse("LAB1 5 bye runs=5"), 0);
    assert_int_equal(rec.type, LAB_REC_BYE);

    /* The largest seq allowed, and an empty value. */
    assert_int_equal(parse("LAB1 9223372036854775808 log msg="), 0);
    assert_int_equal(rec.seq, UINT64_C(9223372036854775808));
    assert_string_equal(lab_record_get(&rec, "msg"), "");
    /* Every allowed plain character. */
    assert_int_equal(parse("LAB1 1 log msg=AZaz09._/:,+-"), 0);
    assert_string_equal(lab_record_get(&rec, "msg"), "AZaz09._/:,+-");
    /* A key of 31 characters. */
    assert_int_equal(parse("LAB1 1 log abcdefghijklmnopqrstuvwxyz01234=1"), 0);
}

static void test_type_names(void **state)
{
    assert_string_equal(lab_rec_type_name(LAB_REC_HELLO), "hello");
    assert_string_equal(lab_rec_type_name(LAB_REC_LOG), "log");
    assert_string_equal(lab_rec_type_name(LAB_REC_BEGIN), "begin");
    assert_string_equal(lab_rec_type_name(LAB_REC_END), "end");
    assert_string_equal(lab_rec_type_name(LAB_REC_ERROR), "error");
    assert_string_equal(lab_rec_type_name(LAB_REC_BYE), "bye");
    assert_string_equal(lab_rec_type_name((enum lab_rec_type)99), "?");
}

static void test_percent_decoding(void **state)
{
    assert_int_equal(parse("LAB1 1 log msg=a%20b%2fc%2Fd%7e%25"), 0);
    assert_string_equal(lab_record_get(&rec, "msg"), "a b/c/d~%");
    assert_int_equal(parse("LAB1 1 log msg=%C3%A9t%C3%A9"), 0);
    assert_string_equal(lab_record_get(&rec, "msg"), "\xc3\xa9t\xc3\xa9");
    assert_int_equal(parse("LAB1 1 log msg=%0A%09x"), 0);
    assert_string_equal(lab_record_get(&rec, "msg"), "\n\tx");
    /* The escape for '=' and ' ' inside a value. */
    assert_int_equal(parse("LAB1 1 log msg=k%3Dv%20k2%3Dv2 other=1"), 0);
    assert_string_equal(lab_record_get(&rec, "msg"), "k=v k2=v2");
    assert_string_equal(lab_record_get(&rec, "other"), "1");

    /*                   0123456789012345678 */
    refused("LAB1 1 log msg=ab%2", "bad percent escape at byte 17");
    refused("LAB1 1 log msg=ab%", "bad percent escape at byte 17");
    refused("LAB1 1 log msg=ab%G0", "bad percent escape at byte 17");
    refused("LAB1 1 log msg=ab%0g", "bad percent escape at byte 17");
    refused("LAB1 1 log msg=ab%00x", "contains NUL");
}

static void test_rejections(void **state)
{
    char line[LAB_PROTO_MAX_LINE + 16];

    refused("", "empty line");
    refused("\n", "empty line");
    refused("LAB2 0 hello v=1", "bad magic");
    refused("lab1 0 hello v=1", "bad magic");
    refused("LAB1", "missing seq");
    refused("LAB1 0", "missing record type");
    refused("LAB1 +1 log", "seq '+1' is not a number");
    refused("LAB1 -1 log", "is not a number");
    refused("LAB1 1x log", "is not a number");
    refused("LAB1 x1 log", "is not a number");
    refused("LAB1 9223372036854775809 log", "out of range");
    refused("LAB1 99999999999999999999999 log", "is not a number");
    refused("LAB1 0 foo a=1", "unknown record type 'foo'");
    refused("LAB1 0 HELLO v=1", "unknown record type 'HELLO'");
    refused("LAB1 0 sample a=1", "unknown record type 'sample'");
    refused("LAB1  0 hello v=1", "extra space at byte 5");
    refused(" LAB1 0 hello v=1", "extra space at byte 0");
    refused("LAB1 0 hello v=1 ", "trailing space");
    refused("LAB1 0 hello v=1  x=2", "extra space");
    refused("LAB1 0 hello\tv=1", "unknown record type");
    refused("LAB1 0 hello v=1\r", "bad character 0x0d");
    refused("LAB1 1 log x=1 x=2", "key 'x' repeated");
    refused("LAB1 1 log msg", "is not key=value");
    refused("LAB1 1 log =1", "empty key");
    refused("LAB1 1 log Msg=1", "bad character in key");
    refused("LAB1 1 log m-g=1", "bad character in key");
    refused("LAB1 1 log abcdefghijklmnopqrstuvwxyz012345=1", "longer than 31");
    refused("LAB1 1 log msg=a b", "is not key=value");
    refused("LAB1 1 log msg=a=b", "bad character 0x3d");
    refused("LAB1 1 log msg=a\"b", "bad character 0x22");
    refused("LAB1 1 log msg=\xff", "bad character 0xff");

    /* Required keys. */
    refused("LAB1 0 hello agent=1", "missing key 'v' in hello");
    refused("LAB1 0 hello v=x", "value of 'v' is not a number");
    refused("LAB1 0 hello v=2", "unsupported protocol version 2");
    refused("LAB1 2 begin rep=0 guest_ns=1", "missing key 'test' in begin");
    refused("LAB1 2 begin test=a guest_ns=1", "missing key 'rep' in begin");
    refused("LAB1 2 begin test=a rep=0", "missing key 'guest_ns' in begin");
    refused("LAB1 2 begin test=a rep=+1 guest_ns=1", "value of 'rep' is not a number");
    refused("LAB1 3 end test=a rep=0 guest_ns=1 real_ns=1 user_ns=1 sys_ns=1",
            "missing key 'bytes' in end");
    refused("LAB1 3 end test=a rep=0 guest_ns=1 bytes=1 user_ns=1 sys_ns=1",
            "missing key 'real_ns' in end");
    refused("LAB1 3 end test=a rep=0 guest_ns=1 bytes=1 real_ns=1 sys_ns=1",
            "missing key 'user_ns' in end");
    refused("LAB1 3 end test=a rep=0 guest_ns=1 bytes=1 real_ns=1 user_ns=1",
            "missing key 'sys_ns' in end");
    refused("LAB1 3 end test=a rep=0 guest_ns=1 bytes=-5 real_ns=1 user_ns=1 sys_ns=1",
            "value of 'bytes' is not a number");
    refused("LAB1 3 end test=a rep=0 guest_ns=1 bytes=18446744073709551616 real_ns=1 "
            "user_ns=1 sys_ns=1",
            "value of 'bytes' is not a number");
    refused("LAB1 3 end test=a rep=0 guest_ns=1 bytes=1%30 real_ns=1 user_ns=1 sys_ns=x",
            "value of 'sys_ns' is not a number");
    refused("LAB1 4 error test=a", "missing key 'msg' in error");
    refused("LAB1 5 bye", "missing key 'runs' in bye");
    refused("LAB1 5 bye runs=", "value of 'runs' is not a number");

    /* UINT64_MAX is a number, one more is not. */
    assert_int_equal(parse("LAB1 3 end test=a rep=0 guest_ns=1 bytes=18446744073709551615 "
                           "real_ns=1 user_ns=1 sys_ns=1"),
                     0);

    /* Too many keys. */
    strcpy(line, "LAB1 1 log");
    for (int i = 0; i < LAB_PROTO_MAX_KEYS; i++)
        sprintf(line + strlen(line), " k%d=1", i);
    assert_int_equal(parse(line), 0);
    assert_int_equal(rec.nkv, LAB_PROTO_MAX_KEYS);
    strcat(line, " one_more=1");
    refused(line, "too many keys");

    /* Line length: 4096 bytes with the newline is the limit. */
    memset(line, 0, sizeof line);
    strcpy(line, "LAB1 1 log msg=");
    memset(line + strlen(line), 'a', LAB_PROTO_MAX_LINE - 1 - strlen(line));
    assert_int_equal(strlen(line), LAB_PROTO_MAX_LINE - 1);
    assert_int_equal(parse(line), 0);
    strcat(line, "\n");
    assert_int_equal(parse(line), 0);
    line[LAB_PROTO_MAX_LINE - 1] = 'a';
    refused(line, "line too long");

    /* An embedded NUL byte is refused (len counts it). */
    assert_int_equal(lab_record_parse("LAB1 1 log msg=a\0b", 18, &rec, err, sizeof err), -1);
    assert_non_null(strstr(err, "bad character 0x00"));
    /* err may be NULL. */
    assert_int_equal(lab_record_parse("junk", 4, &rec, NULL, 0), -1);
}

static void test_untrusted_text_in_messages(void **state)
{
    /* A long, non-printable type name is quoted short and printable. */
    char line[600] = "LAB1 0 ";
    memset(line + 7, '\x1b', 500);
    refused(line, "unknown record type '????");
    assert_true(strlen(err) < 80);
    for (const char *p = err; *p; p++)
        assert_true(*p >= 0x20 && *p < 0x7f);
}

/* ---- line splitter ---- */

static struct lab_linebuf lb;

static void feed_all(const char *bytes, size_t n)
{
    size_t off = 0;
    while (off < n) {
        int k = lab_linebuf_feed(&lb, bytes + off, n - off);
        assert_true(k > 0);
        off += (size_t)k;
    }
}

static void test_linebuf_basic(void **state)
{
    const char *line;
    size_t len;

    lab_linebuf_init(&lb);
    assert_int_equal(lab_linebuf_next(&lb, &line, &len), 0);
    feed_all("LAB1 0 hello v=1\nLAB1 1 log", 27);
    assert_int_equal(lab_linebuf_next(&lb, &line, &len), 1);
    assert_int_equal(len, 16);
    assert_memory_equal(line, "LAB1 0 hello v=1", 16);
    assert_int_equal(lab_linebuf_next(&lb, &line, &len), 0);
    /* The rest of a line split across feeds, byte by byte. */
    const char *rest = " msg=hi\n\nx\n";
    for (size_t i = 0; i < strlen(rest); i++)
        feed_all(rest + i, 1);
    assert_int_equal(lab_linebuf_next(&lb, &line, &len), 1);
    assert_int_equal(len, 17);
    assert_memory_equal(line, "LAB1 1 log msg=hi", 17);
    assert_int_equal(lab_linebuf_next(&lb, &line, &len), 1);
    assert_int_equal(len, 0);
    assert_int_equal(lab_linebuf_next(&lb, &line, &len), 1);
    assert_int_equal(len, 1);
    assert_int_equal(line[0], 'x');
    assert_int_equal(lab_linebuf_next(&lb, &line, &len), 0);
}

static void test_linebuf_limits(void **state)
{
    static char big[3 * LAB_PROTO_MAX_LINE];
    const char *line;
    size_t len;

    /* 4096 bytes including '\n' is accepted. */
    lab_linebuf_init(&lb);
    memset(big, 'a', LAB_PROTO_MAX_LINE - 1);
    big[LAB_PROTO_MAX_LINE - 1] = '\n';
    feed_all(big, LAB_PROTO_MAX_LINE);
    assert_int_equal(lab_linebuf_next(&lb, &line, &len), 1);
    assert_int_equal(len, LAB_PROTO_MAX_LINE - 1);
    assert_int_equal(lab_linebuf_next(&lb, &line, &len), 0);

    /* 4097 bytes including '\n' is refused, once, complete in one feed. */
    memset(big, 'b', LAB_PROTO_MAX_LINE);
    big[LAB_PROTO_MAX_LINE] = '\n';
    memcpy(big + LAB_PROTO_MAX_LINE + 1, "ok\n", 3);
    feed_all(big, LAB_PROTO_MAX_LINE + 4);
    assert_int_equal(lab_linebuf_next(&lb, &line, &len), -1);
    assert_int_equal(lab_linebuf_next(&lb, &line, &len), 1);
    assert_int_equal(len, 2);
    assert_memory_equal(line, "ok", 2);
    assert_int_equal(lab_linebuf_next(&lb, &line, &len), 0);

    /* 4097 bytes, the '\n' arriving later: reported when the limit is passed. */
    lab_linebuf_init(&lb);
    memset(big, 'c', LAB_PROTO_MAX_LINE);
    feed_all(big, LAB_PROTO_MAX_LINE - 1);
    assert_int_equal(lab_linebuf_next(&lb, &line, &len), 0);
    feed_all(big, 1);
    assert_int_equal(lab_linebuf_next(&lb, &line, &len), -1);
    feed_all("\nnext\n", 6);
    assert_int_equal(lab_linebuf_next(&lb, &line, &len), 1);
    assert_int_equal(len, 4);
    assert_memory_equal(line, "next", 4);
}

static void test_linebuf_overflow_resync(void **state)
{
    static char big[5 * LAB_PROTO_MAX_LINE];
    const char *line;
    size_t len;
    int errors = 0, lines = 0;

    /* A 20 KiB line followed by good ones, fed in 1000-byte chunks; the
     * caller takes lines whenever a feed is short. */
    lab_linebuf_init(&lb);
    memset(big, 'z', 20000);
    big[20000] = '\n';
    memcpy(big + 20001, "one\ntwo\n", 8);
    size_t total = 20009, off = 0;
    while (off < total) {
        size_t chunk = total - off < 1000 ? total - off : 1000;
        size_t done = 0;
        while (done < chunk) {
            done += (size_t)lab_linebuf_feed(&lb, big + off + done, chunk - done);
            int r;
            while ((r = lab_linebuf_next(&lb, &line, &len)) != 0) {
                if (r < 0) {
                    errors++;
                    continue;
                }
                lines++;
                assert_true(len == 3);
                assert_true(memcmp(line, lines == 1 ? "one" : "two", 3) == 0);
            }
        }
        off += chunk;
    }
    assert_int_equal(errors, 1);
    assert_int_equal(lines, 2);

    /* A full buffer: feed returns less than asked, next() unblocks it. */
    lab_linebuf_init(&lb);
    for (int i = 0; i < 4 * LAB_PROTO_MAX_LINE; i += 8)
        memcpy(big + i, "1234567\n", 8);
    int k = lab_linebuf_feed(&lb, big, 4 * LAB_PROTO_MAX_LINE);
    assert_int_equal(k, 2 * LAB_PROTO_MAX_LINE);
    assert_int_equal(lab_linebuf_feed(&lb, big, 10), 0);
    assert_int_equal(lab_linebuf_next(&lb, &line, &len), 1);
    assert_int_equal(lab_linebuf_feed(&lb, big + k, 8), 8);
}

/* ---- sequence checker ---- */

static void accept_ok(struct lab_seqcheck *sc, const char *line)
{
    assert_int_equal(parse(line), 0);
    int rc = lab_seqcheck_accept(sc, &rec, err, sizeof err);
    if (rc != 0)
        fail_msg("'%s' refused: %s", line, err);
}

static void accept_bad(struct lab_seqcheck *sc, const char *line, const char *want)
{
    assert_int_equal(parse(line), 0);
    int rc = lab_seqcheck_accept(sc, &rec, err, sizeof err);
    if (rc != -1 || !strstr(err, want))
        fail_msg("'%s': rc %d err '%s', wanted '%s'", line, rc, err, want);
}

static void test_seqcheck(void **state)
{
    struct lab_seqcheck sc;

    lab_seqcheck_init(&sc);
    accept_bad(&sc, "LAB1 0 log msg=x", "log record (seq 0) before hello");
    accept_ok(&sc, "LAB1 0 hello v=1");
    accept_ok(&sc, "LAB1 1 begin test=t rep=0 guest_ns=5");
    accept_bad(&sc, "LAB1 1 hello v=1", "second hello");
    accept_bad(&sc, "LAB1 3 end test=t rep=0 guest_ns=9 bytes=1 real_ns=4 user_ns=0 sys_ns=0",
               "seq gap: expected 2, got 3");
    /* Resynced after the gap: reported once. */
    accept_ok(&sc, "LAB1 4 log msg=x");
    accept_bad(&sc, "LAB1 4 log msg=x", "expected 5, got 4");
    accept_ok(&sc, "LAB1 5 bye runs=1");
    accept_bad(&sc, "LAB1 6 log msg=x", "after bye");

    memset(&sc, 0, sizeof sc);
    accept_bad(&sc, "LAB1 1 hello v=1", "expected 0, got 1");
}

/* ---- fuzz ---- */

static uint64_t rng = 0x5eed1234abcdULL;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void test_fuzz(void **state)
{
    static const char *seeds[] = {
        "LAB1 0 hello v=1 agent=0.1 uname=2.6.0 arch=i686\n",
        "LAB1 3 end test=seqread rep=0 guest_ns=2 bytes=6 real_ns=1 user_ns=0 sys_ns=4 bs=4096\n",
        "LAB1 4 error msg=open%3A%20ENOENT test=seqread rep=1\n",
        "LAB1 5 bye runs=5\n",
    };
    static const char alphabet[] = "LAB1 0123456789=%aAfFgG\n\r\t\x00\xff_.:-+ hello log end bye";
    char buf[LAB_PROTO_MAX_LINE + 64];
    struct lab_seqcheck sc;
    int ok = 0, bad = 0;

    lab_linebuf_init(&lb);
    lab_seqcheck_init(&sc);
    for (int it = 0; it < 100000; it++) {
        size_t n;
        uint64_t mode = next_rand() % 3;
        if (mode == 0) {
            /* Pure random bytes, any length up to a bit past the limit. */
            n = next_rand() % (sizeof buf);
            for (size_t i = 0; i < n; i++)
                buf[i] = (char)next_rand();
        } else if (mode == 1) {
            /* Mutated valid record. */
            const char *s = seeds[next_rand() % 4];
            n = strlen(s);
            memcpy(buf, s, n);
            int muts = 1 + (int)(next_rand() % 4);
            for (int m = 0; m < muts; m++)
                buf[next_rand() % n] = alphabet[next_rand() % (sizeof alphabet - 1)];
        } else {
            /* Random tokens from a protocol-ish alphabet. */
            n = next_rand() % 200;
            for (size_t i = 0; i < n; i++)
                buf[i] = alphabet[next_rand() % (sizeof alphabet - 1)];
        }
        err[0] = '\0';
        if (lab_record_parse(buf, n, &rec, err, sizeof err) == 0) {
            ok++;
            assert_true(rec.nkv <= LAB_PROTO_MAX_KEYS);
            assert_true((unsigned)rec.type <= LAB_REC_BYE);
            lab_seqcheck_accept(&sc, &rec, err, sizeof err);
        } else {
            bad++;
            assert_true(strlen(err) > 0 && strlen(err) < sizeof err);
        }
        /* The same bytes through the line splitter. */
        size_t off = 0;
        while (off < n) {
            int k = lab_linebuf_feed(&lb, buf + off, n - off);
            assert_true(k >= 0 && (size_t)k <= n - off);
            off += (size_t)k;
            const char *line;
            size_t len;
            int r;
            while ((r = lab_linebuf_next(&lb, &line, &len)) != 0) {
                if (r == 1) {
                    assert_true(len < LAB_PROTO_MAX_LINE);
                    assert_null(memchr(line, '\n', len));
                    lab_record_parse(line, len, &rec, err, sizeof err);
                }
            }
        }
    }
    assert_true(ok > 0);
    assert_true(bad > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_every_type),
        cmocka_unit_test(test_type_names),
        cmocka_unit_test(test_percent_decoding),
        cmocka_unit_test(test_rejections),
        cmocka_unit_test(test_untrusted_text_in_messages),
        cmocka_unit_test(test_linebuf_basic),
        cmocka_unit_test(test_linebuf_limits),
        cmocka_unit_test(test_linebuf_overflow_resync),
        cmocka_unit_test(test_seqcheck),
        cmocka_unit_test(test_fuzz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
