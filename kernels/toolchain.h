/* Which compiler builds which kernel: a table of version ranges with the
 * oldest gcc the kernel accepts (Documentation/Changes,
 * Documentation/process/changes.rst) and the newest gcc known to build it
 * (docs/era-facts.md, syzkaller's pkg/vcs/linux.go
 * compiler-by-tag table, the compiler-gccN.h headers), and the decision the
 * builder takes before starting: go, or refuse naming the compiler needed
 * and how to point the lab at one (--cc, or --wrap for a chroot/container). */
#ifndef LAB_KERNELS_TOOLCHAIN_H
#define LAB_KERNELS_TOOLCHAIN_H

#include "kernels/era.h"

#include <stddef.h>

/* A compiler version as major * 100 + minor: gcc 4.4 -> 404, 12.2 -> 1202. */
#define LAB_CC(maj, min) ((maj)*100 + (min))

struct lab_toolchain_row {
    lab_kver from;      /* first kernel of the range */
    lab_kver until;     /* first kernel after it; 0 = open */
    int gcc_min;        /* oldest gcc the tree accepts */
    int gcc_max;        /* newest gcc known to build it; 0 = any newer */
    const char *hint;   /* a compiler to suggest: "gcc-4.4" */
    const char *chroot; /* a Debian release shipping it: "squeeze" */
    const char *source; /* where the numbers come from */
};

size_t lab_toolchain_row_count(void);
const struct lab_toolchain_row *lab_toolchain_row_at(size_t i);
/* The row for a kernel version; NULL before 2.4. */
const struct lab_toolchain_row *lab_toolchain_for(lab_kver v);

struct lab_compiler {
    int is_clang;
    int version;   /* LAB_CC(major, minor) */
    char text[64]; /* "gcc 12.2", "clang 14.0" */
};

/* Parses `CC -dumpversion` output ("12", "4.4.7", "14.0.6") and whether the
 * compiler is clang (from `CC --version`'s first line, may be NULL). */
int lab_compiler_parse(const char *dumpversion, const char *version_line, struct lab_compiler *out);
/* Runs `[wrap] cc -dumpversion` and `cc --version`; -1 with a message when
 * the compiler cannot be run. full_version gets --version's whole output
 * (malloc'd) for the build hash when not NULL. */
int lab_compiler_probe(const char *cc, const char *wrap, struct lab_compiler *out,
                       char **full_version);

/* 1 if the compiler can build kernel version v (version text for messages:
 * "2.6.1"); 0 with the message in msg: "linux 2.6.1 needs gcc 3.2..4.4 (see
 * ...); this host has gcc 12.2. Point the lab at one with --cc gcc-4.4, or
 * run the build inside a chroot with --wrap 'schroot -c squeeze --'".
 * user_cc: the compiler was named by --cc or --wrap (the message then says
 * "this compiler" instead of "this host"). */
int lab_toolchain_check(lab_kver v, const struct lab_compiler *cc, int user_cc, char *msg,
                        size_t len);

/* The decision the builder takes, with the era compat layer
 * (kernels/compat.h): 0 refused (msg says why: today's message from
 * lab_toolchain_check), 1 the compiler builds v natively, 2 it builds v
 * through the compat layer (a gcc of the layer's range, for an arch it
 * covers: "i686" or "x86_64"). */
int lab_toolchain_decide(lab_kver v, const char *arch, const struct lab_compiler *cc, int user_cc,
                         char *msg, size_t len);

/* A gcc version as the table writes it (major * 100 + minor): "4.4",
 * "2.95"; N99, the top of a range, means any gcc N: "8". */
void lab_toolchain_fmt_gcc(int v, char *buf, size_t len);

#endif
