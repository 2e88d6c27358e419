/* Reading a bzImage's x86 boot-protocol header (Documentation/x86/boot.rst):
 * the "HdrS" magic at 0x202, the protocol version at 0x206, the
 * kernel_version pointer at 0x20E (a string at that value + 0x200 in the
 * file, protocol 2.00+) and, from protocol 2.12 (Linux 3.8), xloadflags at
 * 0x236 whose bit XLF_KERNEL_64 says the kernel has a 64-bit entry point. */
#ifndef LAB_KERNELS_BZIMAGE_H
#define LAB_KERNELS_BZIMAGE_H

#include <stddef.h>
#include <stdint.h>

#define LAB_BZ_SETUP_SECTS   0x1F1 /* setup code in 512-byte sectors after the boot sector; 0 = 4 */
#define LAB_BZ_SYSSIZE       0x1F4 /* protected-mode code in 16-byte units (32-bit from 2.04) */
#define LAB_BZ_HDRS_OFF      0x202
#define LAB_BZ_PROTOCOL_OFF  0x206
#define LAB_BZ_KVERSION_OFF  0x20E
#define LAB_BZ_XLOADFLAGS    0x236
#define LAB_BZ_XLF_KERNEL_64 0x1

struct lab_bzimage {
    unsigned protocol;    /* 0x020c is 2.12 */
    char banner[256];     /* the whole kernel_version string: "6.1.170 (u@h) #1 SMP ..." */
    char release[65];     /* its first word, uname -r: "6.1.170", "6.1.0-47-amd64" */
    char version[65];     /* upstream version: release, or Debian's "6.1.170" from the banner */
    int is_64bit;         /* 1: 64-bit entry; 0: none (32-bit); -1: protocol < 2.12, unknown */
    unsigned setup_sects; /* as the boot loader counts them (0 read as 4) */
    uint64_t syssize;     /* bytes of protected-mode code: syssize * 16 */
    uint64_t image_size;  /* the least the file must hold: (setup_sects + 1) * 512 + syssize */
};

/* Parses a header from the first len bytes of a file. 0 on success; -1 with
 * a reason in err (not a bzImage, protocol too old, truncated, no version). */
int lab_bzimage_parse(const unsigned char *buf, size_t len, struct lab_bzimage *out, char *err,
                      size_t errlen);
/* 0 if a file of file_size bytes holds all the header says it does (less
 * the up to 15 bytes syssize rounds up); -1 with "truncated: ..." naming
 * the expected and the actual size. */
int lab_bzimage_check_size(const struct lab_bzimage *bz, uint64_t file_size, char *err,
                           size_t errlen);
/* Reads, parses and checks a file's size against its header; -1 with the
 * reason in err. lab_bzimage_read says it with lab_error, naming the file.
 * Done on `lab kernels add` and before every boot. */
int lab_bzimage_check_file(const char *path, struct lab_bzimage *out, char *err, size_t errlen);
int lab_bzimage_read(const char *path, struct lab_bzimage *out);
/* The arch the image says ("x86_64", "i686") or NULL when it cannot tell. */
const char *lab_bzimage_arch(const struct lab_bzimage *bz);

#endif
