/* bzImage header parsing; see bzimage.h and Documentation/x86/boot.rst. */
#include "kernels/bzimage.h"

#include "common/msg.h"
#include "common/str.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && len)
        vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

static unsigned le16(const unsigned char *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16;
}

/* The sizes the header promises (boot.rst: setup_sects, syssize; syssize
 * is 16 bits before protocol 2.04, where it may undercount a big kernel:
 * the check can then only be lenient, never wrong). The version string is part of the
 * setup code, so it must lie inside it. */
static int parse_sizes(const unsigned char *buf, size_t ver_off, struct lab_bzimage *out, char *err,
                       size_t errlen)
{
    out->setup_sects = buf[LAB_BZ_SETUP_SECTS] ? buf[LAB_BZ_SETUP_SECTS] : 4;
    out->syssize = (uint64_t)(out->protocol >= 0x0204 ? le32(buf + LAB_BZ_SYSSIZE)
                                                      : le16(buf + LAB_BZ_SYSSIZE)) *
                   16;
    uint64_t setup = ((uint64_t)out->setup_sects + 1) * 512;
    out->image_size = setup + out->syssize;
    if (out->syssize == 0)
        return fail(err, errlen, "syssize is 0: the header describes no kernel");
    if (ver_off >= setup)
        return fail(err, errlen,
                    "kernel_version at 0x%zx is past the setup code (%u sectors, 0x%llx bytes)",
                    ver_off, out->setup_sects, (unsigned long long)setup);
    return 0;
}

/* Debian's banner carries the upstream version after "Debian ":
 * "6.1.0-47-amd64 (...) #1 SMP PREEMPT_DYNAMIC Debian 6.1.170-3 (2025-...)". */
static int debian_version(const char *banner, char *out, size_t len)
{
    const char *p = strstr(banner, " Debian ");
    if (!p)
        return 0;
    p += 8;
    size_t n = 0;
    while (p[n] && (p[n] == '.' || (p[n] >= '0' && p[n] <= '9')))
        n++;
    if (n == 0 || n >= len || !strchr(p, '.'))
        return 0;
    memcpy(out, p, n);
    out[n] = '\0';
    return 1;
}

int lab_bzimage_parse(const unsigned char *buf, size_t len, struct lab_bzimage *out, char *err,
                      size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (len < LAB_BZ_KVERSION_OFF + 2)
        return fail(err, errlen, "too short for a boot sector and setup header (%zu bytes)", len);
    if (memcmp(buf + LAB_BZ_HDRS_OFF, "HdrS", 4) != 0)
        return fail(err, errlen, "no \"HdrS\" boot-protocol magic at 0x202: not a bzImage");
    out->protocol = le16(buf + LAB_BZ_PROTOCOL_OFF);
    if (out->protocol < 0x0200)
        return fail(err, errlen, "boot protocol %u.%02u has no kernel_version (needs 2.00+)",
                    out->protocol >> 8, out->protocol & 0xff);
    unsigned ptr = le16(buf + LAB_BZ_KVERSION_OFF);
    if (ptr == 0)
        return fail(err, errlen, "kernel_version pointer is 0: no version string in the image");
    size_t off = (size_t)ptr + 0x200;
    if (off >= len)
        return fail(err, errlen, "kernel_version at 0x%zx is past the end (%zu bytes): truncated",
                    off, len);
    size_t n = 0;
    while (off + n < len && buf[off + n] && n < sizeof out->banner - 1)
        n++;
    if (off + n >= len)
        return fail(err, errlen, "kernel_version string at 0x%zx runs past the end: truncated",
                    off);
    memcpy(out->banner, buf + off, n);
    out->banner[n] = '\0';
    if (parse_sizes(buf, off, out, err, errlen) < 0)
        return -1;
    size_t w = strcspn(out->banner, " \t\n");
    if (w == 0 || w >= sizeof out->release || out->banner[0] < '0' || out->banner[0] > '9')
        return fail(err, errlen, "kernel_version \"%.60s\" does not start with a version",
                    out->banner);
    memcpy(out->release, out->banner, w);
    out->release[w] = '\0';
    if (!debian_version(out->banner, out->version, sizeof out->version))
        snprintf(out->version, sizeof out->version, "%s", out->release);
    out->is_64bit = -1;
    if (out->protocol >= 0x020c) {
        if (len < LAB_BZ_XLOADFLAGS + 2)
            return fail(err, errlen, "truncated before xloadflags (protocol 2.12+)");
        out->is_64bit = (le16(buf + LAB_BZ_XLOADFLAGS) & LAB_BZ_XLF_KERNEL_64) ? 1 : 0;
    }
    return 0;
}

int lab_bzimage_check_size(const struct lab_bzimage *bz, uint64_t file_size, char *err,
                           size_t errlen)
{
    /* syssize is the kernel's length rounded up to 16 bytes (the old
     * arch/i386/boot/tools/build.c did not pad the file: 2.4.22 and 2.6.9
     * images end 6 and 11 bytes short of it); newer ones pad. */
    if (file_size + 15 >= bz->image_size)
        return 0;
    return fail(err, errlen,
                "truncated: the header says %llu bytes (%u setup sectors + %llu bytes of kernel), "
                "the file has %llu",
                (unsigned long long)bz->image_size, bz->setup_sects,
                (unsigned long long)bz->syssize, (unsigned long long)file_size);
}

int lab_bzimage_check_file(const char *path, struct lab_bzimage *out, char *err, size_t errlen)
{
    struct stat st;
    FILE *f = fopen(path, "rb");
    if (!f || fstat(fileno(f), &st) < 0) {
        fail(err, errlen, "cannot open: %s", strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    /* The setup code, where the string lives, is at most 0x7fff bytes
     * addressed by the pointer: 64 KiB covers any header. */
    size_t cap = 0x10000 + 0x200;
    unsigned char *buf = lab_xcalloc(cap, 1);
    size_t len = fread(buf, 1, cap, f);
    fclose(f);
    int rc = lab_bzimage_parse(buf, len, out, err, errlen);
    free(buf);
    if (rc == 0 && !S_ISREG(st.st_mode))
        rc = fail(err, errlen, "not a regular file");
    if (rc == 0)
        rc = lab_bzimage_check_size(out, (uint64_t)st.st_size, err, errlen);
    return rc;
}

int lab_bzimage_read(const char *path, struct lab_bzimage *out)
{
    char err[256];
    if (lab_bzimage_check_file(path, out, err, sizeof err) < 0)
        return lab_error("%s: %s", path, err);
    return 0;
}

const char *lab_bzimage_arch(const struct lab_bzimage *bz)
{
    if (bz->is_64bit < 0)
        return NULL;
    return bz->is_64bit ? "x86_64" : "i686";
}
