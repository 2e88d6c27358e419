/* bzImage header parsing on synthetic headers: version, arch, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernels/bzimage.h"

/* A setup header with protocol proto, the version string at file offset
 * 0x3000 (pointer 0x2e00), xloadflags xlf. */
static size_t make_image(unsigned char *buf, size_t cap, unsigned proto, const char *version,
                         unsigned xlf)
{
    memset(buf, 0, cap);
    buf[0x1fe] = 0x55;
    buf[0x1ff] = 0xaa;
    memcpy(buf + 0x202, "HdrS", 4);
    buf[0x206] = proto & 0xff;
    buf[0x207] = proto >> 8;
    buf[0x20e] = 0x00;
    buf[0x20f] = 0x2e; /* 0x2e00 + 0x200 = 0x3000 */
    buf[0x236] = xlf & 0xff;
    strcpy((char *)buf + 0x3000, version);
    /* 0x18 setup sectors (0x3200 bytes with the boot sector) hold the
     * string; 0x100 bytes of "kernel" follow. */
    buf[0x1f1] = 0x18;
    buf[0x1f4] = 0x100 / 16;
    return 0x3300;
}

static void test_good_header(void **state)
{
    static unsigned char buf[0x4000];
    struct lab_bzimage bz;
    char err[160];
    size_t len = make_image(buf, sizeof buf, 0x020f,
                            "6.1.170 (user@host) #1 SMP PREEMPT_DYNAMIC Tue Jan 1 2026", 0x7f);
    assert_int_equal(lab_bzimage_parse(buf, len, &bz, err, sizeof err), 0);
    assert_int_equal(bz.protocol, 0x020f);
    assert_string_equal(bz.release, "6.1.170");
    assert_string_equal(bz.version, "6.1.170");
    assert_string_equal(bz.banner, "6.1.170 (user@host) #1 SMP PREEMPT_DYNAMIC Tue Jan 1 2026");
    assert_int_equal(bz.is_64bit, 1);
    assert_string_equal(lab_bzimage_arch(&bz), "x86_64");
}

/* Debian's banner: the release is uname -r, the upstream version follows
 * "Debian". */
static void test_debian_banner(void **state)
{
    static unsigned char buf[0x4000];
    struct lab_bzimage bz;
    size_t len = make_image(buf, sizeof buf, 0x020f,
                            "6.1.0-47-amd64 (debian-kernel@lists.debian.org) #1 SMP "
                            "PREEMPT_DYNAMIC Debian 6.1.170-3 (2026-05-08)",
                            0x7f);
    assert_int_equal(lab_bzimage_parse(buf, len, &bz, NULL, 0), 0);
    assert_string_equal(bz.release, "6.1.0-47-amd64");
    assert_string_equal(bz.version, "6.1.170");
}

/* 32-bit: no XLF_KERNEL_64; before protocol 2.12 nothing is known. */
static void test_arch(void **state)
{
    static unsigned char buf[0x4000];
    struct lab_bzimage bz;
    size_t len = make_image(buf, sizeof buf, 0x020f, "6.1.0-50-686 (x@y) #1 SMP", 0x04);
    assert_int_equal(lab_bzimage_parse(buf, len, &bz, NULL, 0), 0);
    assert_int_equal(bz.is_64bit, 0);
    assert_string_equal(lab_bzimage_arch(&bz), "i686");
    len = make_image(buf, sizeof buf, 0x020a, "2.6.30 (x@y) #1", 0x7f);
    assert_int_equal(lab_bzimage_parse(buf, len, &bz, NULL, 0), 0);
    assert_int_equal(bz.is_64bit, -1);
    assert_null(lab_bzimage_arch(&bz));
    assert_string_equal(bz.version, "2.6.30");
}

static void test_bad_magic(void **state)
{
    static unsigned char buf[0x4000];
    struct lab_bzimage bz;
    char err[160];
    size_t len = make_image(buf, sizeof buf, 0x020f, "6.1.170 (u@h)", 1);
    memcpy(buf + 0x202, "HdrX", 4);
    assert_int_equal(lab_bzimage_parse(buf, len, &bz, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a bzImage"));
    /* an ELF vmlinux is not a bzImage either */
    memset(buf, 0, 0x300);
    memcpy(buf,
           "\x7f"
           "ELF",
           4);
    assert_int_equal(lab_bzimage_parse(buf, len, &bz, err, sizeof err), -1);
}

static void test_old_protocol(void **state)
{
    static unsigned char buf[0x4000];
    struct lab_bzimage bz;
    char err[160];
    size_t len = make_image(buf, sizeof buf, 0x0104, "1.2.13", 0);
    assert_int_equal(lab_bzimage_parse(buf, len, &bz, err, sizeof err), -1);
    assert_non_null(strstr(err, "needs 2.00"));
}

static void test_truncated(void **state)
{
    static unsigned char buf[0x4000];
    struct lab_bzimage bz;
    char err[160];
    make_image(buf, sizeof buf, 0x020f, "6.1.170 (u@h) #1", 1);
    /* cut inside the header, before the string, inside the string */
    assert_int_equal(lab_bzimage_parse(buf, 0x100, &bz, err, sizeof err), -1);
    assert_non_null(strstr(err, "too short"));
    assert_int_equal(lab_bzimage_parse(buf, 0x2000, &bz, err, sizeof err), -1);
    assert_non_null(strstr(err, "truncated"));
    assert_int_equal(lab_bzimage_parse(buf, 0x3004, &bz, err, sizeof err), -1);
    assert_non_null(strstr(err, "truncated"));
    /* a string that is not a version */
    size_t len = make_image(buf, sizeof buf, 0x020f, "hello", 1);
    assert_int_equal(lab_bzimage_parse(buf, len, &bz, err, sizeof err), -1);
}

/* The header's sizes against the file: setup_sects and syssize. */
static void test_sizes(void **state)
{
    static unsigned char buf[0x4000];
    struct lab_bzimage bz;
    char err[256];
    size_t len = make_image(buf, sizeof buf, 0x020f, "6.1.170 (u@h) #1", 1);
    assert_int_equal(lab_bzimage_parse(buf, len, &bz, err, sizeof err), 0);
    assert_int_equal(bz.setup_sects, 0x18);
    assert_int_equal(bz.image_size, 0x3300);
    assert_int_equal(lab_bzimage_check_size(&bz, 0x3300, err, sizeof err), 0);
    /* syssize rounds the kernel up to 16 bytes: old build tools did not pad. */
    assert_int_equal(lab_bzimage_check_size(&bz, 0x3300 - 15, err, sizeof err), 0);
    assert_int_equal(lab_bzimage_check_size(&bz, 0x3300 - 16, err, sizeof err), -1);
    assert_int_equal(lab_bzimage_check_size(&bz, 0x3000, err, sizeof err), -1);
    assert_non_null(strstr(err, "13056 bytes"));    /* expected */
    assert_non_null(strstr(err, "file has 12288")); /* actual */
    /* The string outside the setup code, and no kernel at all. */
    buf[0x1f1] = 2;
    assert_int_equal(lab_bzimage_parse(buf, len, &bz, err, sizeof err), -1);
    assert_non_null(strstr(err, "past the setup code"));
    buf[0x1f1] = 0x18;
    memset(buf + 0x1f4, 0, 4);
    assert_int_equal(lab_bzimage_parse(buf, len, &bz, err, sizeof err), -1);
    assert_non_null(strstr(err, "syssize is 0"));
}

/* Through a file, a truncated file, and a file that is not a bzImage. */
static void test_read_file(void **state)
{
    static unsigned char buf[0x4000];
    char path[] = "/tmp/lab-bz-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t len = make_image(buf, sizeof buf, 0x020c, "5.10.0 (a@b) #2", 1);
    assert_int_equal(write(fd, buf, len), (ssize_t)len);
    close(fd);
    struct lab_bzimage bz;
    assert_int_equal(lab_bzimage_read(path, &bz), 0);
    assert_string_equal(bz.version, "5.10.0");
    assert_int_equal(truncate(path, (off_t)len - 32), 0);
    char err[256];
    assert_int_equal(lab_bzimage_check_file(path, &bz, err, sizeof err), -1);
    assert_non_null(strstr(err, "truncated: the header says 13056 bytes"));
    FILE *f = fopen(path, "w");
    fputs("#!/bin/sh\necho not a kernel\n", f);
    fclose(f);
    assert_int_equal(lab_bzimage_read(path, &bz), -1);
    unlink(path);
    assert_int_equal(lab_bzimage_read("/nonexistent/bzImage", &bz), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_header),  cmocka_unit_test(test_debian_banner),
        cmocka_unit_test(test_arch),         cmocka_unit_test(test_bad_magic),
        cmocka_unit_test(test_old_protocol), cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_sizes),        cmocka_unit_test(test_read_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
