/* The era compat layer; see compat.h. */
#include "kernels/compat.h"

#include "kernels/compat_paste.h"
#include "kernels/toolchain.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/str.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <fts.h>
#include <glob.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define R24  LAB_KV_RC(2, 4, 0, 0), LAB_KV_RC(2, 5, 0, 0)
#define R26  LAB_KV_RC(2, 6, 0, 0), LAB_KV_RC(2, 6, 13, 0)
#define RALL LAB_KV_RC(2, 4, 0, 0), LAB_KV_RC(2, 6, 13, 0)
/* Every era the layer builds with gcc 11/12 (to 5.16, where gcc 12 builds
 * natively), and the 2.6 trees whose top Makefile and host tools predate
 * make 3.82 and glibc 2.10. */
#define RERA    LAB_KV_RC(2, 4, 0, 0), LAB_KV_RC(5, 16, 0, 0)
#define R26LATE LAB_KV_RC(2, 6, 13, 0), LAB_KV_RC(3, 0, 0, 0)
#define RI386L  LAB_KV_RC(2, 6, 13, 0), LAB_KV_RC(2, 6, 24, 0) /* arch/i386 after 2.6.12 */
#define RI386H  LAB_KV_RC(2, 4, 0, 0), LAB_KV_RC(2, 6, 24, 0)  /* include/asm-i386 */
#define RX64    LAB_KV_RC(2, 6, 0, 0), LAB_KV_RC(2, 6, 24, 0)  /* arch/x86_64, include/asm-x86_64 */
#define RX64ALL LAB_KV_RC(2, 4, 0, 0), LAB_KV_RC(2, 6, 24, 0)  /* the same, with 2.4's */
/* gcc 3's lvalue extensions (casts, conditionals, comma expressions): to 2.6.8 */
#define RLVALUE LAB_KV_RC(2, 4, 0, 0), LAB_KV_RC(2, 6, 9, 0)
#define I386    LAB_COMPAT_I386
#define X64     LAB_COMPAT_X86_64
#define ANY     LAB_COMPAT_ANY

/* The layer covers 2.4.x and 2.6.0..2.6.12.x on i386: the failure classes
 * of docs/era-facts.md were found on 2.4.22, 2.6.9 and 2.6.12-rc2, and every
 * fixup below is a pattern over the class of tree, not a diff of one.
 * gcc 11 and 12 are the compilers measured (docs/era-facts.md, and here: the
 * three trees with gcc 12.2 and gcc-11 11.3 on i686); gcc 13+ is unknown. */
static const struct lab_compat_cover covers[] = {
    /* 2.4.0 and 2.4.16 (trees from GitHub) gave the rows from
     * function-name-pasting to ld-oformat below. */
    {{R24, I386},
     LAB_CC(11, 0),
     LAB_CC(12, 99),
     "2.4.x i386 with gcc 11/12; 2.4.0, 2.4.15, 2.4.16, 2.4.20 and 2.4.22 build and boot"},
    /* 2.4.22 from ../shared/kernels gave the x86_64 rows of 2.4 (tss-extern-order-64 to
     * boot-build-includes-24, and setup-header-2.02-pad on its setup.S). */
    {{LAB_KV_RC(2, 4, 20, 0), LAB_KV_RC(2, 5, 0, 0), X64},
     LAB_CC(11, 0),
     LAB_CC(12, 99),
     "2.4.20..2.4.x x86_64 (arch/x86_64) with gcc 11/12; 2.4.22, 2.4.26 and 2.4.31 build and boot"},
    {{R26, I386},
     LAB_CC(11, 0),
     LAB_CC(12, 99),
     "2.6.0..2.6.12.x i386 with gcc 11/12; 2.6.0, 2.6.1-rc1, 2.6.4, 2.6.5, 2.6.6, 2.6.8, 2.6.9, "
     "2.6.11 and 2.6.12-rc2 build and boot"},
    {{R26, X64},
     LAB_CC(11, 0),
     LAB_CC(12, 99),
     "2.6.0..2.6.12.x x86_64 with gcc 11/12; 2.6.0, 2.6.4, 2.6.6, 2.6.8, 2.6.9, 2.6.10, 2.6.11 "
     "and 2.6.12-rc2 build and boot"},
    {{LAB_KV_RC(2, 6, 13, 0), LAB_KV_RC(2, 6, 24, 0), X64},
     LAB_CC(11, 0),
     LAB_CC(12, 99),
     "2.6.13..2.6.23.x x86_64 (arch/x86_64) with gcc 11/12; 2.6.18 and 2.6.20 build and boot"},
    {{LAB_KV_RC(2, 6, 13, 0), LAB_KV_RC(2, 6, 24, 0), I386},
     LAB_CC(11, 0),
     LAB_CC(12, 99),
     "2.6.13..2.6.23.x i386 (arch/i386) with gcc 11/12; 2.6.16, 2.6.18 and 2.6.20 build and "
     "boot"},
    {{LAB_KV_RC(2, 6, 24, 0), LAB_KV_RC(3, 0, 0, 0), I386},
     LAB_CC(11, 0),
     LAB_CC(12, 99),
     "2.6.24..2.6.39 i386 (arch/x86) with gcc 11/12; 2.6.24, 2.6.26, 2.6.28, 2.6.29, 2.6.32.70, "
     "2.6.34 and 2.6.39 build and boot"},
    {{LAB_KV_RC(3, 0, 0, 0), LAB_KV_RC(4, 0, 0, 0), I386},
     LAB_CC(11, 0),
     LAB_CC(12, 99),
     "3.0..3.19 i386 (arch/x86) with gcc 11/12; 3.4.113, 3.8 and 3.10.99 build and boot"},
    {{LAB_KV_RC(4, 0, 0, 0), LAB_KV_RC(5, 0, 0, 0), I386},
     LAB_CC(11, 0),
     LAB_CC(12, 99),
     "4.0..4.20 i386 (arch/x86) with gcc 11/12; 4.4.178, 4.9.229, 4.15 and 4.19.48 build "
     "and boot"},
    {{LAB_KV_RC(2, 6, 24, 0), LAB_KV_RC(5, 16, 0, 0), X64},
     LAB_CC(11, 0),
     LAB_CC(12, 99),
     "2.6.24..5.15.x x86_64 (arch/x86, objtool from 4.6) with gcc 11/12; 2.6.26, 2.6.27, "
     "2.6.30, 2.6.31, 2.6.32.70, 2.6.39, 3.1, 3.10.99, 3.14, 4.1.15, 4.4.178, 4.19.48, 5.4.49, "
     "5.10.89 and 5.15 build and boot"},
    {{LAB_KV_RC(5, 0, 0, 0), LAB_KV_RC(5, 16, 0, 0), I386},
     LAB_CC(11, 0),
     LAB_CC(12, 99),
     "5.0..5.15.x i386 (arch/x86) with gcc 11/12; 5.4.49, 5.8.1 and 5.10.89 build and boot"},
};

/* What the layer refuses, and why: every version from 2.4.0 to 5.15.x that
 * no coverage row takes, on either arch (5.16 on: gcc 12 natively). A
 * version no row names would be a gap; test_compat.c walks them all. */
static const struct lab_compat_refusal refusals[] = {
    {{LAB_KV_RC(2, 4, 0, 0), LAB_KV_RC(2, 4, 20, 0), X64},
     "2.4 has no arch/x86_64 before the 2.4.20 cycle (2.4.19's tree has none): build with --arch "
     "i686",
     1},
    {{LAB_KV_RC(2, 5, 0, 0), LAB_KV_RC(2, 6, 0, 0), ANY},
     "2.5.x is the development series between 2.4 and 2.6: no tree of it was built here, and "
     "its code is neither 2.4's nor 2.6's",
     0},
};

static const struct lab_compat_flag flags[] = {
    {{RERA, I386},
     LAB_COMPAT_CFLAGS,
     "-m32",
     "old i386 Makefiles do not pass -m32; the x86_64 host gcc emits 64-bit code"},
    {{RERA, ANY},
     LAB_COMPAT_CFLAGS,
     "-std=gnu89",
     "gcc 5+ defaults to gnu11: old inline and lvalue semantics need gnu89"},
    {{RERA, ANY},
     LAB_COMPAT_CFLAGS,
     "-fgnu89-inline",
     "gcc 5+ C99 inline: \"multiple definition of\" every extern inline function"},
    {{RERA, ANY},
     LAB_COMPAT_CFLAGS,
     "-fno-strict-aliasing",
     "the era's code type-puns (its Makefiles pass it too; kept for trees that do not)"},
    {{RERA, ANY},
     LAB_COMPAT_CFLAGS,
     "-fno-pie",
     "Debian's gcc builds PIE by default; the kernel is not position independent"},
    {{RERA, ANY}, LAB_COMPAT_CFLAGS, "-no-pie", "the same for links done through $(CC)"},
    {{RERA, ANY},
     LAB_COMPAT_CFLAGS,
     "-fno-stack-protector",
     "Debian's gcc enables -fstack-protector-strong; the kernel has no __stack_chk_fail"},
    {{RERA, ANY},
     LAB_COMPAT_CFLAGS,
     "-fcommon",
     "gcc 10+ defaults to -fno-common: tentative definitions in headers collide at link"},
    {{RERA, ANY},
     LAB_COMPAT_CFLAGS,
     "-fno-delete-null-pointer-checks",
     "gcc 4.x+ deletes NULL checks after a dereference; the era's code relies on them"},
    {{RERA, ANY},
     LAB_COMPAT_CFLAGS,
     "-fwrapv",
     "signed overflow is assumed away by modern gcc (jiffies comparisons)"},
    {{RERA, ANY},
     LAB_COMPAT_CFLAGS,
     "-fno-tree-vectorize",
     "gcc 12 vectorizes at -O2 (SSE in the kernel on i686, unaligned stores in old code)"},
    {{RALL, X64},
     LAB_COMPAT_CFLAGS,
     "-mno-sse -mno-mmx -mno-sse2 -mno-3dnow",
     "arch/x86_64/Makefile gained these in 2.6.11; before, gcc 12 copies structures through "
     "%xmm with movaps to an unaligned stack slot: 2.6.9's acpi_ps_parse_loop takes a general "
     "protection fault at boot (trees that pass them already get them twice)"},
    {{LAB_KV_RC(2, 6, 0, 0), LAB_KV_RC(2, 6, 8, 0), I386},
     LAB_COMPAT_CFLAGS,
     "-fno-tree-loop-distribute-patterns",
     "gcc 4.6+ turns copy loops into calls to memmove, and i386 has memmove only inline before "
     "2.6.8 (2.6.0's __find_get_block: \"undefined reference to `memmove'\" at the link)"},
    {{LAB_KV_RC(2, 6, 0, 0), LAB_KV_RC(2, 6, 11, 0), I386},
     LAB_COMPAT_CFLAGS,
     "-fno-builtin-sprintf",
     "drivers/acpi builds with -Os until 2.6.11, where gcc 12 turns sprintf(p, \"text\") into a "
     "call to strcpy, and i386 has strcpy only inline (2.6.0's battery.c: \"undefined reference "
     "to `strcpy'\")"},
    {{R24, ANY},
     LAB_COMPAT_CFLAGS,
     "-fno-builtin",
     "docs/era-facts.md's 2.4 flags; keeps gcc from replacing the kernel's own string functions"},
    {{R24, ANY},
     LAB_COMPAT_CFLAGS,
     "-Dabs=__builtin_abs",
     "with -fno-builtin, abs() is an undefined function: 2.4 calls it and defines none (2.4.0's "
     "arch/i386/kernel/time.c: \"undefined reference to `abs'\"); the builtin is what gcc 2.95 "
     "gave it"},
    {{RERA, ANY},
     LAB_COMPAT_CFLAGS,
     "-Wno-error",
     "some era Makefiles use -Werror; gcc 12 warns about much more than gcc 3"},
    {{RERA, ANY},
     LAB_COMPAT_CFLAGS,
     "-fdiagnostics-column-unit=byte",
     "byte columns in diagnostics, for the FASTCALL fix from gcc's own messages"},
    {{LAB_KV_RC(2, 6, 24, 0), LAB_KV_RC(5, 16, 0, 0), ANY},
     LAB_COMPAT_HOSTCC,
     "-fcommon",
     "gcc 10+ defaults to -fno-common, also for host tools: arch/x86/tools/relocs_32.o and "
     "relocs_64.o both define per_cpu_load_addr (3.x), dtc's lexer and parser both define "
     "yylloc: \"multiple definition of\" at the host link"},
    {{LAB_KV_RC(4, 6, 0, 0), LAB_KV_RC(5, 16, 0, 0), X64},
     LAB_COMPAT_HOSTCC,
     "-Wno-error=use-after-free",
     "gcc 12's -Wuse-after-free fires in tools/lib/subcmd (objtool's host build, x86_64 only, "
     "from 4.6), which builds with -Werror"},
    {{RERA, I386}, LAB_COMPAT_AS, "as --32", "2.4's Makefiles call as directly: 32-bit objects"},
    {{RERA, I386},
     LAB_COMPAT_LD,
     "ld -m elf_i386",
     "2.4's Makefiles call ld directly without an emulation: elf_x86_64 by default"},
};

#define SEG_FILES                                                                                  \
    "include/asm-i386/*.h arch/i386/kernel/*.c arch/i386/mm/*.c arch/i386/power/*.c "              \
    "arch/i386/math-emu/*.c arch/i386/mach-*/*.c"
#define RMW_FILES                                                                                  \
    "include/asm-i386/bitops.h include/asm-i386/semaphore.h include/asm-i386/spinlock.h "          \
    "include/asm-i386/rwlock.h include/asm-i386/atomic.h include/asm-i386/local.h "                \
    "include/asm-i386/rwsem.h include/asm-i386/signal.h include/asm-i386/posix_types.h"
/* cast-as-lvalue: ((char *) p)++, ((char *) dirent) += reclen, ... */
/* Any .c: a cast-as-lvalue can sit in any file a config compiles. */
#define CAST_FILES   "**/*.c"
#define CAST_TYPE    "((const |unsigned |struct )*[A-Za-z_][A-Za-z0-9_]* *\\*+)"
#define CAST_LV      "([A-Za-z_][A-Za-z0-9_]*)"
#define SEG_FILES_64 "include/asm-x86_64/*.h arch/x86_64/kernel/*.c arch/x86_64/ia32/*.c"
#define RMW_FILES_64                                                                               \
    "include/asm-x86_64/bitops.h include/asm-x86_64/semaphore.h include/asm-x86_64/spinlock.h "    \
    "include/asm-x86_64/rwlock.h include/asm-x86_64/atomic.h include/asm-x86_64/local.h "          \
    "include/asm-x86_64/rwsem.h include/asm-x86_64/signal.h"
#define COMPILER_GCC4_PATTERN                                                                      \
    "#if __GNUC__ > 4\n#error no compiler-gcc.h file for this gcc version\n#elif __GNUC__ == 4\n"
#define COMPILER_GCC4_REPLACE "#if __GNUC__ >= 4 /* lab compat: gcc 5+ as gcc 4 */\n"
#define GAS_SEG                                                                                    \
    "gas 2.3x+ (Debian 12: 2.40) rejects movl %seg,mem and movl mem,%seg: "                        \
    "\"operand type mismatch for `mov'\""

static const struct lab_compat_fixup fixups[] = {
    {"segreg-asm",
     {RI386H, I386},
     SEG_FILES,
     LAB_COMPAT_ASM_SEGREG,
     NULL,
     NULL,
     "savesegment/loadsegment and the open-coded movl %fs/%gs of process.c, vm86.c, "
     "apm.c: the memory operand becomes a register (\"=m\" -> \"=r\", \"m\" -> \"r\", %N -> %kN)",
     GAS_SEG},
    {"rmw-asm",
     {RI386H, I386},
     RMW_FILES,
     LAB_COMPAT_ASM_RMW,
     NULL,
     NULL,
     "read-modify-write asm (bitops, semaphore, spinlock, rwlock, atomic, rwsem, sigset, "
     "fd_set): output-only \"=m\" becomes \"+m\" with a \"memory\" clobber (asm with a matching "
     "\"N\" input are already read-write and left alone)",
     "gcc 4+ takes \"=m\" as write-only and drops earlier stores to the word: a SILENT "
     "miscompilation (2.6.9: kernel BUG at mm/page_alloc.c:206)"},
    {"segreg-asm-64",
     {RX64ALL, X64},
     SEG_FILES_64,
     LAB_COMPAT_ASM_SEGREG,
     NULL,
     NULL,
     "the same segment-register rewrite for x86_64 (2.6 x86_64 mostly uses \"=r\" already)",
     GAS_SEG},
    {"rmw-asm-64",
     {RX64ALL, X64},
     RMW_FILES_64,
     LAB_COMPAT_ASM_RMW,
     NULL,
     NULL,
     "the same \"=m\" -> \"+m\" + \"memory\" rewrite for include/asm-x86_64",
     "gcc 4+ takes \"=m\" as write-only: the SILENT miscompilation of the i386 headers"},
    {"gas-macro-redefined",
     {RX64, X64},
     "arch/x86_64/kernel/entry.S",
     LAB_COMPAT_REGEX,
     "([^A-Za-z0-9_])(UN)?FAKE_STACK_FRAME([^A-Za-z0-9_])",
     "\\1\\2FAKE_STACK_FRAME_ENTRY\\3",
     "entry.S's own (UN)FAKE_STACK_FRAME macros are renamed with their uses, so they no longer "
     "redefine calling.h's (old gas let the later definition win, as the rename does)",
     "gas 2.40: \"Macro `fake_stack_frame' was already defined\""},
    {"x86_64-end-symbol",
     {R26LATE, X64},
     "arch/x86_64/lib/copy_user.S arch/x86/lib/copy_user_64.S",
     LAB_COMPAT_REGEX,
     "(\nENTRY\\(copy_user_generic_string\\)\n.*)\nEND\\(copy_user_generic_c\\)\n",
     "\\1\nEND(copy_user_generic_string) /* lab compat: the symbol this file defines */\n",
     "the string copy's END() names the symbol the file defines (it kept an older name, "
     "copy_user_generic_c, which nothing defines)",
     "gas 2.3x+: \".size expression for copy_user_generic_c does not evaluate to a constant\" "
     "(old gas let an undefined .size pass; 2.6.20, and 2.6.26 in arch/x86)"},
    {"boot-build-includes",
     {RX64, X64},
     "arch/x86_64/boot/Makefile",
     LAB_COMPAT_REGEX,
     "\nhostprogs-y([ \t]*):= tools/build\n",
     "\nhostprogs-y\\1:= tools/build\nHOSTCFLAGS_build.o := $(LINUXINCLUDE) # lab compat\n",
     "tools/build compiles against the kernel's asm/boot.h, as arch/i386/boot/Makefile does",
     "Debian 12's /usr/include/asm/boot.h has no DEF_SYSSIZE: \"'DEF_SYSSIZE' undeclared\""},
    {"boot-build-includes-early", /* to 2.6.9's -rc's, where hostprogs-y came */
     {LAB_KV_RC(2, 6, 0, 0), LAB_KV_RC(2, 6, 10, 0), ANY},
     "arch/i386/boot/Makefile arch/x86_64/boot/Makefile",
     LAB_COMPAT_REGEX,
     "\nhost-progs([ \t]*):= tools/build\n([^H])", /* not when HOSTCFLAGS follows */
     "\nhost-progs\\1:= tools/build\nHOSTCFLAGS_build.o := -Iinclude # lab compat\n\\2",
     "before 2.6.9 (host-progs, no LINUXINCLUDE) tools/build compiles against the kernel's "
     "asm/boot.h, as arch/i386/boot/Makefile does from 2.6.4 (x86_64 2.6.8, i386 2.6.0; a "
     "second, equal HOSTCFLAGS line where i386 has one already)",
     "Debian 12's /usr/include/asm/boot.h has no DEF_SYSSIZE: \"'DEF_SYSSIZE' undeclared\""},
    {"boot-build-includes-24",
     {R24, X64},
     "arch/x86_64/boot/Makefile",
     LAB_COMPAT_REGEX,
     "\n(tools/build: tools/build\\.c\n\t\\$\\(HOSTCC\\) \\$\\(HOSTCFLAGS\\) -o \\$@ \\$<)\n",
     "\n\\1 -I$(TOPDIR)/include # lab compat\n",
     "2.4's tools/build compiles against the kernel's asm/boot.h, as 2.4's "
     "arch/i386/boot/Makefile does",
     "Debian 12's /usr/include/asm/boot.h has no DEF_SYSSIZE: \"'DEF_SYSSIZE' undeclared\""},
    {"compiler-gcc4",
     {R26, ANY},
     "include/linux/compiler.h",
     LAB_COMPAT_REGEX,
     COMPILER_GCC4_PATTERN,
     COMPILER_GCC4_REPLACE,
     "any __GNUC__ >= 4 uses compiler-gcc4.h",
     "gcc 5+: \"#error no compiler-gcc.h file for this gcc version\""},
    {"vsyscall-ld-m",
     {R26, I386},
     "arch/i386/kernel/Makefile",
     LAB_COMPAT_REGEX,
     "\\$\\(CC\\) -m elf_i386",
     "$(CC) -Wl,-m,elf_i386",
     "the vsyscall DSO link passes the emulation through the gcc driver",
     "gcc 12 takes -m elf_i386 as a machine option: \"unrecognized command-line option\""},
    {"make-plus-space-eq",
     {R26, ANY},
     "drivers/media/dvb/*/Makefile drivers/media/*/Makefile",
     LAB_COMPAT_REGEX,
     "\n(obj-\\$\\([A-Z0-9_]+\\)) \\+ =",
     "\n\\1 +=",
     "obj-$(CONFIG_X) + = ... becomes += (2.6.12's b2c2 Makefile)",
     "GNU make 4.x: \"missing separator\" (make 3.80 took it when the option was empty)"},
    {"tss-extern-order",
     {R24, I386},
     "include/asm-i386/processor.h",
     LAB_COMPAT_REGEX,
     "extern struct tss_struct init_tss\\[NR_CPUS\\];\n(.*\nstruct tss_struct \\{[^}]*\\};\n)",
     "\\1extern struct tss_struct init_tss[NR_CPUS]; /* lab compat: below the struct */\n",
     "the init_tss[] extern moves below struct tss_struct",
     "gcc 4+: \"array type has incomplete element type 'struct tss_struct'\""},
    {"tss-extern-order-26",
     {LAB_KV_RC(2, 6, 0, 0), LAB_KV_RC(2, 6, 9, 0), I386},
     "include/asm-i386/processor.h",
     LAB_COMPAT_REGEX,
     "extern struct tss_struct init_tss\\[NR_CPUS\\];\n(.*\nstruct tss_struct \\{[^}]*\\} "
     "__attribute__\\(\\(packed\\)\\);\n)",
     "\\1extern struct tss_struct init_tss[NR_CPUS]; /* lab compat: below the struct */\n",
     "the init_tss[] extern moves below the packed struct tss_struct (2.6.8; gone by 2.6.9)",
     "gcc 4+: \"array type has incomplete element type 'struct tss_struct'\""},
    {"tss-extern-order-64",
     /* 2.6.9 made init_tss per-cpu; its -rc's are kept, the pattern finds nothing there */
     {LAB_KV_RC(2, 4, 0, 0), LAB_KV_RC(2, 6, 10, 0), X64},
     "include/asm-x86_64/processor.h",
     LAB_COMPAT_REGEX,
     "extern struct tss_struct init_tss\\[NR_CPUS\\];\n(.*\nstruct tss_struct \\{[^}]*\\} "
     "__attribute__\\(\\(packed\\)\\)[^;]*;\n)",
     "\\1extern struct tss_struct init_tss[NR_CPUS]; /* lab compat: below the struct */\n",
     "the init_tss[] extern moves below the packed struct tss_struct, as tss-extern-order does "
     "on i386 (2.4.22, 2.6.8)",
     "gcc 4+: \"array type has incomplete element type 'struct tss_struct'\""},
    {"switch-to-label-64",
     {R24, X64},
     "include/asm-x86_64/system.h",
     LAB_COMPAT_REGEX,
     "\"leaq thread_return\\(%%rip\\),%%rax\\\\n\\\\t\"(.*)\"\\.globl thread_return\\\\n\"([ "
     "\t]*\\\\\n[ "
     "\t]*)\"thread_return:",
     "\"leaq thread_return%=(%%rip),%%rax\\n\\t\"\\1\"/* lab compat */\"\\2\"thread_return%=:",
     "switch_to's resume label is numbered per asm statement (%=) instead of one global "
     "thread_return: each copy saves its own label as the task's resume address, and nothing "
     "outside the asm names it",
     "gcc 4+ duplicates schedule()'s switch_to asm: \"symbol `thread_return' is already "
     "defined\" (kernel/sched.c, 2.4.22 x86_64)"},
    {"clflush-rvalue-64",
     {R24, X64},
     "arch/x86_64/mm/pageattr.c",
     LAB_COMPAT_REGEX,
     "\"clflush %0\" :: \"m\" \\(address \\+ i\\)\\)",
     "\"clflush %0\" :: \"m\" (*(char *)(address + i))) /* lab compat */",
     "clflush's operand is the byte at address + i, not a temporary holding the sum (the loop "
     "is dead code, under if (0 && ...))",
     "gcc 4+: \"memory input 0 is not directly addressable\" for an rvalue \"m\" operand"},
    {"asm-constraint-space",
     {LAB_KV_RC(2, 4, 0, 0), LAB_KV_RC(2, 6, 9, 0), X64},
     "arch/x86_64/lib/usercopy.c",
     LAB_COMPAT_REGEX,
     "\"\\[([a-z0-9_]+)\\] \"[ \t]*\\(",
     "\"[\\1]\"(",
     "a named matching constraint loses its trailing space: \"[dst] \" becomes \"[dst]\"",
     "gcc 4+: \"invalid punctuation ' ' in constraint\""},
    {"init-task-union-align",
     {RALL, X64},
     "arch/x86_64/kernel/init_task.c",
     LAB_COMPAT_REGEX,
     "(\nunion [a-z_]+ init_[a-z_]*union[ \t]*\n?[ "
     "\t]*__attribute__\\(\\(__section__\\(\"\\.data\\."
     "init_task\"\\))\\)\\)",
     "\\1, __aligned__(THREAD_SIZE))) /* lab compat: aligned whatever comes first */",
     "the first task's stack union is aligned to THREAD_SIZE itself instead of by being the first "
     "object of .data.init_task (boot_vmalloc_pgt, 4 KiB aligned, shares the section in 2.4 and "
     "2.6.0-2.6.10)",
     "gcc 4+ emits a unit's variables in another order: boot_vmalloc_pgt comes first, the union "
     "lands 4 KiB off an 8 KiB boundary, the boot CPU's kernelstack points at the wrong "
     "thread_info, and 2.6.9 x86_64 never leaves its idle loop (\"many lost ticks ... rip "
     "default_idle\", init never runs)"},
    {"block-scope-static-fn",
     {LAB_KV_RC(2, 6, 0, 0), LAB_KV_RC(2, 6, 9, 0), ANY},
     "mm/prio_tree.c drivers/ide/ide-disk.c",
     LAB_COMPAT_REGEX,
     "\n(static [a-z_ ]+\\*?[a-z_]+ ?\\([^)]*\\)\n\\{\n)\tstatic ([a-z_]+ "
     "\\*?[a-z_]+\\([^)]*\\));\n",
     "\nstatic \\2; /* lab compat: at file scope */\n\\1",
     "a static function declared inside a function body moves to file scope, before that "
     "function (prio_tree_expand's prio_tree_remove, 2.6.8; idedisk_cleanup's "
     "ide_cacheflush_p, 2.6.0; gone by 2.6.9)",
     "gcc 4+: \"invalid storage class for function\""},
    {"percpu-up-lvalue",
     {LAB_KV_RC(2, 6, 0, 0), LAB_KV_RC(2, 6, 9, 0), ANY},
     "include/asm-generic/percpu.h include/asm-x86_64/percpu.h",
     LAB_COMPAT_REGEX,
     "\\(\\(void\\)cpu, per_cpu__##var\\)",
     "(*((void)(cpu), &per_cpu__##var))",
     "the uniprocessor per_cpu(var, cpu) dereferences the variable's address after the comma, "
     "an lvalue as the SMP form is (2.6.0; 2.6.8 already has it)",
     "gcc 4+ dropped comma expressions as lvalues: \"lvalue required as unary '&' operand\" "
     "(hundreds, from rcupdate.h's RCU_ macros)"},
    {"input-keycode-assign",
     {LAB_KV_RC(2, 6, 0, 0), LAB_KV_RC(2, 6, 9, 0), ANY},
     "drivers/char/keyboard.c drivers/input/evdev.c",
     LAB_COMPAT_REGEX,
     "INPUT_KEYCODE\\(([a-z]+), *([a-z]+)\\) = ([a-z]+);",
     "do { /* lab compat */ if ((\\1)->keycodesize == 1) ((u8 *)(\\1)->keycode)[\\2] = \\3; "
     "else if ((\\1)->keycodesize == 2) ((u16 *)(\\1)->keycode)[\\2] = \\3; "
     "else ((u32 *)(\\1)->keycode)[\\2] = \\3; } while (0);",
     "an assignment to INPUT_KEYCODE(), a conditional over the three key code widths, "
     "assigns in the branch the condition picks (2.6.0)",
     "gcc 4+ dropped conditional expressions as lvalues: \"lvalue required as left operand of "
     "assignment\""},
    {"stack-alloc-precedence",
     {LAB_KV_RC(2, 6, 0, 0), LAB_KV_RC(2, 6, 9, 0), ANY},
     "fs/binfmt_elf.c",
     LAB_COMPAT_REGEX,
     "\n#define STACK_ALLOC\\(sp, len\\) sp -= len\n",
     "\n#define STACK_ALLOC(sp, len) (sp -= (len)) /* lab compat */\n",
     "(elf_addr_t *) STACK_ALLOC(p, len) casts the lowered p instead of lowering a cast of p: "
     "p moves down by len bytes, as the grows-up twin moves it up; gcc 3 read a cast-as-lvalue "
     "and moved it by len words, which only changes where the platform string sits on the new "
     "stack (2.6.0-2.6.2)",
     "gcc 4+: \"lvalue required as left operand of assignment\""},
    {"static-after-extern-idr",
     {LAB_KV_RC(2, 6, 0, 0), LAB_KV_RC(2, 6, 9, 0), ANY},
     "lib/idr.c",
     LAB_COMPAT_REGEX,
     "\nstatic kmem_cache_t \\*idr_layer_cache;",
     "\nkmem_cache_t *idr_layer_cache; /* lab compat: idr.h declares it extern */",
     "idr_layer_cache loses its static: include/linux/idr.h declares it extern (2.6.0)",
     "gcc 4+: \"static declaration of 'idr_layer_cache' follows non-static declaration\""},
    {"static-after-extern-8250",
     {LAB_KV_RC(2, 6, 0, 0), LAB_KV_RC(2, 6, 9, 0), ANY},
     "drivers/serial/8250.c",
     LAB_COMPAT_REGEX,
     "\nextern struct uart_driver serial8250_reg;",
     "\nstatic struct uart_driver serial8250_reg; /* lab compat: was extern */",
     "the forward declaration of serial8250_reg, defined static below it, says static (2.6.0)",
     "gcc 4+: \"static declaration of 'serial8250_reg' follows non-static declaration\""},
    {"extern-inline-prototype",
     {LAB_KV_RC(2, 6, 0, 0), LAB_KV_RC(2, 6, 9, 0), ANY},
     "include/linux/*.h include/linux/*/*.h include/asm-i386/*.h include/asm-x86_64/*.h",
     LAB_COMPAT_REGEX,
     "\nextern inline ([^;{]*\\);)",
     "\nextern \\1 /* lab compat: was extern inline */",
     "a prototype \"extern inline\" of a function defined in another file (elv_rq_merge_ok, "
     "__mmdrop, ide_read_24, x86_64's nmi_watchdog_tick) drops the inline: the call was out of "
     "line in the era too, as no body could be inlined (2.6.0)",
     "gcc 4+ with the era's inline = always_inline: \"inlining failed in call to "
     "'always_inline' ...: function body not available\""},
    {"extable-linear-search",
     {LAB_KV_RC(2, 4, 0, 0), LAB_KV_RC(2, 6, 2, 1), I386},
     "arch/i386/mm/extable.c",
     LAB_COMPAT_REGEX,
     "\n([ \t]*)while \\(first <= last\\) \\{[^}]*mid = \\(last - first\\) / 2 \\+ first;[^}]*"
     "return mid(->fixup)?;[^}]*\\}\n([ \t]*)return (NULL|0);",
     "\n\\1for (; first <= last; first++) /* lab compat: linear, the table is unsorted */\n"
     "\\1\tif (first->insn == value)\n\\1\t\treturn first\\2;\n\\3return \\4;",
     "the exception table is searched from end to end instead of by halves: i386 sorts it at "
     "boot only from 2.6.2-rc1 (\"sort exception tables\"), and gcc 12 inlines a .text "
     "function's fixup into an __init caller (2.6.1-rc1's do_test_wp_bit into test_wp_bit), "
     "so an object's entries are no longer in address order; only faults that need a fixup "
     "search it",
     "gcc 4+ inlining across sections: \"Oops: 0003 ... in test_wp_bit\" at boot, the fault the "
     "WP test expects found no fixup (2.6.1-rc1)"},
    {"designator-without-eq",
     {LAB_KV_RC(2, 6, 0, 0), LAB_KV_RC(2, 6, 9, 0), X64},
     "arch/x86_64/kernel/i8259.c",
     LAB_COMPAT_REGEX,
     "\n\t\\.cls([ \t]+)&timer_sysclass,",
     "\n\t.cls\\1= &timer_sysclass, /* lab compat */",
     "the designated initializer \".cls &timer_sysclass\" gets its = (2.6.0-2.6.3)",
     "gcc 4+ dropped the GNU \".member value\" initializer: \"expected '=' before '&' token\""},
    {"io-apic-vector-lvalue",
     {LAB_KV_RC(2, 6, 0, 0), LAB_KV_RC(2, 6, 9, 0), X64},
     "include/asm-x86_64/hw_irq.h",
     LAB_COMPAT_REGEX,
     "#define IO_APIC_VECTOR\\(irq\\)([ \t]+)\\(\\(int\\)irq_vector\\[irq\\]\\)",
     "#define IO_APIC_VECTOR(irq)\\1(irq_vector[irq]) /* lab compat: no cast */",
     "IO_APIC_VECTOR() loses its (int) cast, which made it no lvalue for io_apic.c's "
     "assignment; reading the u8 promotes it to int all the same (2.6.0-2.6.3)",
     "gcc 4+ dropped cast-as-lvalue: \"lvalue required as left operand of assignment\""},
    {"cmpxchg4-locked-eax",
     {LAB_KV_RC(2, 6, 0, 0), LAB_KV_RC(2, 6, 9, 0), X64},
     "include/asm-x86_64/system.h",
     LAB_COMPAT_REGEX,
     "\"=r\" \\(new\\) : \"0\" \\(old\\), \"m\" \\(\\*\\(__u32 \\*\\)ptr\\)",
     "\"=a\" (new) : \"0\" (old), \"m\" (*(__u32 *)ptr) /* lab compat: eax */",
     "cmpxchg4_locked's operand is pinned to %eax, the register cmpxchg compares: the asm "
     "names none, and gcc 3 happened to choose %eax, so the ACPI global lock loop ended (it "
     "never stored the lock; 2.6.5 went back to cmpxchg()); 2.6.1-2.6.4",
     "gcc 12 chooses another register, %eax holds garbage, cmpxchg never matches: 2.6.4 "
     "x86_64 spins in acpi_ev_acquire_global_lock after \"ACPI: IRQ9 SCI: Edge set to Level "
     "Trigger\" (found with QEMU's gdb stub and System.map)"},
    {"irq-stat-lvalue",
     {RLVALUE, ANY},
     "include/linux/irq_cpustat.h",
     LAB_COMPAT_REGEX,
     "\\(\\(void\\)\\(cpu\\), irq_stat\\[0\\]\\.member\\)",
     "(irq_stat[((void)(cpu), 0)].member)",
     "UP __IRQ_STAT becomes an array element instead of a comma expression",
     "gcc 4+: \"lvalue required as left operand of assignment\" (hundreds, from one macro)"},
    {"initcall-used",
     {R24, ANY},
     "include/linux/init.h",
     LAB_COMPAT_REGEX,
     "(#define[ \t]+__(initsetup|init_call)[ \t]+__attribute__[ \t]*\\(\\([ \t]*)unused",
     "\\1used",
     "__init_call and __initsetup tables are marked used, not unused",
     "gcc 3.4+ drops unreferenced static tables: SILENT, the initcall table is empty and "
     "init() jumps to EIP 0"},
    {"cast-lvalue-inc",
     {RLVALUE, ANY},
     CAST_FILES,
     LAB_COMPAT_REGEX,
     "\\(\\(" CAST_TYPE "\\) *" CAST_LV "\\)\\+\\+",
     "(\\3 = (void *)((\\1)\\3 + 1))",
     "((T *)p)++ becomes (p = (void *)((T *)p + 1))",
     "gcc 4+: \"lvalue required as increment operand\" (cast-as-lvalue was removed)"},
    {"cast-lvalue-dec",
     {RLVALUE, ANY},
     CAST_FILES,
     LAB_COMPAT_REGEX,
     "\\(\\(" CAST_TYPE "\\) *" CAST_LV "\\)--",
     "(\\3 = (void *)((\\1)\\3 - 1))",
     "((T *)p)-- becomes (p = (void *)((T *)p - 1))",
     "gcc 4+: \"lvalue required as decrement operand\""},
    {"cast-lvalue-addsub",
     {RLVALUE, ANY},
     CAST_FILES,
     LAB_COMPAT_REGEX,
     "\\(\\(" CAST_TYPE "\\) *" CAST_LV "\\) *(\\+|-)= *([^;]+);",
     "\\3 = (void *)((\\1)\\3 \\4 (\\5));",
     "((T *)p) += n becomes p = (void *)((T *)p + (n))",
     "gcc 4+: \"lvalue required as left operand of assignment\""},
    {"static-after-extern",
     {R24, ANY},
     "init/do_mounts.c",
     LAB_COMPAT_REGEX,
     "\nstatic char root_device_name\\[64\\];",
     "\nchar root_device_name[64];",
     "root_device_name loses its static: include/linux/fs.h declares it extern",
     "gcc 4+: \"static declaration of 'root_device_name' follows non-static declaration\""},
    {"kconfig-static-menu",
     {LAB_KV_RC(2, 6, 0, 0), LAB_KV_RC(2, 6, 9, 0), ANY},
     "scripts/kconfig/mconf.c",
     LAB_COMPAT_REGEX,
     "\nstatic struct menu \\*current_menu;",
     "\n#define current_menu mconf_current_menu /* lab compat */\nstatic struct menu "
     "*current_menu;",
     "menuconfig's own current_menu is renamed: lkc.h declares menu.c's extern (2.6.8; "
     "gone by 2.6.9), and every kconfig target builds mconf",
     "gcc 4+: \"static declaration of 'current_menu' follows non-static declaration\""},
    {"compiler-gcc4-late",
     {R26LATE, ANY},
     "include/linux/compiler.h",
     LAB_COMPAT_REGEX,
     COMPILER_GCC4_PATTERN,
     COMPILER_GCC4_REPLACE,
     "any __GNUC__ >= 4 uses compiler-gcc4.h (the 2.6.13+ trees that still choose by #if)",
     "gcc 5+: \"#error no compiler-gcc.h file for this gcc version\""},
    {"compiler-gcc-header",
     {LAB_KV_RC(2, 6, 13, 0), LAB_KV_RC(4, 2, 0, 0), ANY},
     "include/linux/compiler-gcc.h",
     LAB_COMPAT_REGEX,
     "\n#include gcc_header\\(__GNUC__\\)",
     "\n#include gcc_header(4) /* lab compat: gcc 5+ as gcc 4 */",
     "compiler-gcc.h includes compiler-gcc4.h for any gcc (it builds the header's name from "
     "__GNUC__; 3.18+ has a compiler-gcc5.h, none has gcc 6+)",
     "gcc 5+ (before 3.18) or gcc 6+ (before 4.2): \"linux/compiler-gcc12.h: No such file or "
     "directory\""},
    {"compiler-gcc4-minor",
     {LAB_KV_RC(3, 0, 0, 0), LAB_KV_RC(4, 2, 0, 0), ANY},
     "include/linux/compiler-gcc4.h",
     LAB_COMPAT_REGEX,
     "(if|&&|\\|\\|)([ \t]+)__GNUC_MINOR__",
     "\\1\\2(__GNUC__ > 4 ? 9 : __GNUC_MINOR__)",
     "compiler-gcc4.h's tests of __GNUC_MINOR__ read gcc 5+ as gcc 4.9 (it is included for "
     "any gcc by compiler-gcc-header; 3.4.113's stable backport defines asm_volatile_goto "
     "inside #if __GNUC_MINOR__ >= 3)",
     "gcc 12.2 (minor 2) skips what needs gcc 4.3+: \"implicit declaration of function "
     "'asm_volatile_goto'\" in arch/x86/include/asm/cpufeature.h"},
    {"initdata-prototype",
     {LAB_KV_RC(2, 6, 13, 0), LAB_KV_RC(3, 10, 0, 0), ANY},
     "include/acpi/*.h",
     LAB_COMPAT_REGEX,
     "([A-Za-z_][A-Za-z0-9_]*[ \t]+)__initdata([ \t]+[A-Za-z_][A-Za-z0-9_]*\\([^)]*\\);)",
     "\\1__init\\2",
     "a function prototype marked __initdata (acpi_os_initialize in acpiosxf.h: 2.6.26, 2.6.34, "
     "3.4.113, 3.8; not in 2.6.20, gone by 3.10) is marked __init, as its definition is",
     "gcc 5+: \"'osi_setup_entries' causes a section type conflict with 'acpi_os_initialize'\" "
     "(the data of .init.data and a function declared to live there)"},
    {"fastcall-default",
     {LAB_KV_RC(2, 6, 20, 0), LAB_KV_RC(2, 6, 25, 0), I386},
     "include/asm-i386/linkage.h include/asm-x86/linkage_32.h",
     LAB_COMPAT_REGEX,
     "#define (fastcall|FASTCALL\\(x\\)[ \t]+x)[ \t]+__attribute__\\(\\(regparm\\(3\\)\\)\\)\n",
     "#define \\1 /* lab compat: regparm(3) is the i386 default (-mregparm=3) */\n",
     "fastcall and FASTCALL() say nothing on i386 from 2.6.20, where the arch Makefile builds "
     "every function with -mregparm=3 (the calling convention is the same; 2.6.25 removed them)",
     "gcc 5+: \"conflicting types for 'do_IRQ'\" between irq_32.c's fastcall definition and "
     "irq_32.h's plain declaration (2.6.24)"},
    {"asmregparm-default",
     {LAB_KV_RC(2, 6, 24, 0), LAB_KV_RC(3, 1, 0, 0), I386},
     "include/asm-x86/linkage.h arch/x86/include/asm/linkage.h",
     LAB_COMPAT_REGEX,
     "\n#define asmregparm __attribute__\\(\\(regparm\\(3\\)\\)\\)\n",
     "\n#define asmregparm /* lab compat: regparm(3) is the i386 default (-mregparm=3) */\n",
     "asmregparm says nothing on i386, where arch/x86/Makefile builds every function with "
     "-mregparm=3 (the calling convention is the same; 3.1 removed the macro the same way)",
     "gcc 5+: \"conflicting types for 'syscall_trace_enter'\" between ptrace.c's asmregparm "
     "definition and ptrace.h's plain declaration (gcc 4 let the same convention pass; 2.6.34)"},
    {"early-idt-stub-jmp",
     {LAB_KV_RC(2, 6, 24, 0), LAB_KV_RC(4, 2, 0, 0), ANY},
     "arch/x86/kernel/head_64.S arch/x86/kernel/head_32.S",
     LAB_COMPAT_REGEX,
     "(\n[ \t]*)jmp early_idt_handler(\n[ \t]*i = i \\+ 1\n[ \t]*\\.endr)",
     "\\1jmp.d32 early_idt_handler /* lab compat: each stub keeps its size */\\2",
     "the early exception stubs jump with a 32-bit displacement, so each stub has the size the "
     "IDT set-up assumes (4.1 pads them with .fill instead; trees that do so do not match)",
     "binutils 2.26+ gas relaxes a jmp to a global label in the same section to 2 bytes: the "
     "stubs shrink, every early IDT entry lands mid-stub, and 3.14 x86_64 hangs silently on "
     "its first early page fault (copy_bootdata), before the console"},
    {"cpumask-of-cpu-dangling",
     {LAB_KV_RC(2, 6, 24, 0), LAB_KV_RC(2, 6, 30, 0), ANY},
     "include/linux/cpumask.h",
     LAB_COMPAT_REGEX,
     "\n#define cpumask_of_cpu\\(cpu\\)[ \t]*\\\\\n\\(\\*\\(\\{[^&]*\n[ \t]*&m;[ "
     "\t]*\\\\\n\\}\\)\\)\n",
     "\n/* lab compat: the mask lives in a compound literal of the caller's block, not in a\n"
     " * statement expression that ends before the caller reads it */\n"
     "static inline cpumask_t *lab_compat_cpumask_of_cpu(cpumask_t *m, int cpu)\n"
     "{\n\tcpu_set(cpu, *m);\n\treturn m;\n}\n"
     "#define cpumask_of_cpu(cpu) (*lab_compat_cpumask_of_cpu(&(cpumask_t){ { 0 } }, (cpu)))\n",
     "cpumask_of_cpu() keeps its mask alive for the caller: 2.6.26 returned the address of a "
     "variable of a statement expression, dead once the macro ends (the value form of 2.6.0-2.6.25 "
     "and get_cpu_mask() of 2.6.27 on do not match)",
     "gcc 5+ drops what is written to a dead object: tick_check_new_device() compiles to "
     "nothing, no clock event gets a handler, and 2.6.26 panics on its first timer interrupt "
     "(\"EIP is at 0x0\", called from timer_interrupt)"},
    {"objtool-empty-symtab",
     {LAB_KV_RC(4, 6, 0, 0), LAB_KV_RC(5, 10, 0, 0), X64},
     "tools/objtool/elf.c",
     LAB_COMPAT_REGEX,
     "WARN\\(\"missing symbol table\"\\);([ \t\n]*)return -1;",
     "/* lab compat: an object with no symbols has no .symtab (binutils 2.36+) */\\1return 0;",
     "objtool reads an object without a .symtab as one with no symbols instead of failing (trees "
     "that already do so do not match)",
     "binutils 2.36+ (Debian 12: 2.40) writes no .symtab for an object whose only symbols are "
     "unused section symbols: \"objtool: arch/x86/entry/thunk_64.o: missing symbol table\""},
    {"vsyscall-ld-m-late",
     {LAB_KV_RC(2, 6, 13, 0), LAB_KV_RC(2, 6, 25, 0), I386},
     "arch/i386/kernel/Makefile arch/x86/kernel/Makefile_32",
     LAB_COMPAT_REGEX,
     "\\$\\(CC\\) -m elf_i386",
     "$(CC) -Wl,-m,elf_i386",
     "the vsyscall DSO link passes the emulation through the gcc driver (arch/i386, and "
     "arch/x86's Makefile_32 in 2.6.24)",
     "gcc 12 takes -m elf_i386 as a machine option: \"unrecognized command-line option\""},
    {"vdso-ld-m",
     {LAB_KV_RC(2, 6, 24, 0), LAB_KV_RC(3, 8, 0, 0), ANY},
     "arch/x86/vdso/Makefile",
     LAB_COMPAT_REGEX,
     "(\nVDSO_LDFLAGS_vdso(32)?\\.lds[ \t]*=[ \t]*)-m (elf_i386|elf_x86_64)([ \t])",
     "\\1-Wl,-m,\\3\\4",
     "the vDSO links, done through $(CC), pass the linker emulation through the gcc driver "
     "(2.6.26, 2.6.34; a tree whose links already say -m32 or -Wl,-m, as 2.6.32.70 and 3.8 do, "
     "does not match)",
     "gcc 12 takes -m elf_i386 as a machine option: \"unrecognized command-line option '-m'\" "
     "at arch/x86/vdso/vdso32-int80.so.dbg (2.6.26 i686)"},
    {"sumversion-limits",
     {R26LATE, ANY},
     "scripts/mod/sumversion.c",
     LAB_COMPAT_REGEX,
     "\n#include <string.h>\n",
     "\n#include <string.h>\n#include <limits.h> /* lab compat: PATH_MAX */\n",
     "modpost's sumversion.c includes limits.h for PATH_MAX",
     "glibc 2.x headers no longer bring limits.h in through string.h: \"'PATH_MAX' "
     "undeclared\""},
    {"asm-only-callees",
     {R26LATE, ANY},
     "kernel/mutex.c",
     LAB_COMPAT_REGEX,
     "\nstatic ((void |int )?(fastcall )?noinline)",
     "\nstatic __attribute__((used)) \\1",
     "the mutex slow paths, called only from the fast paths' inline asm (\"call \" #fail_fn), "
     "are marked used: \"static [void|int] fastcall noinline\" (2.6.16, 2.6.20) and, once "
     "fastcall went, \"static void noinline\" and \"static noinline void\" (2.6.26; trees that "
     "say __used, as 2.6.32.70 does, do not match)",
     "gcc 4.5+ drops a static function whose only reference is an asm string: \"undefined "
     "reference to `__mutex_lock_slowpath'\" at the vmlinux link"},
    {"timeconst-defined-array",
     {LAB_KV_RC(2, 6, 24, 0), LAB_KV_RC(3, 10, 0, 0), ANY},
     "kernel/timeconst.pl",
     LAB_COMPAT_REGEX,
     "defined\\(@([A-Za-z_][A-Za-z0-9_]*)\\)",
     "@\\1",
     "defined(@array) becomes @array (true when the array has elements, as the old defined "
     "meant for arrays)",
     "perl 5.22+ (Debian 12: 5.36): \"Can't use 'defined(@array)' (Maybe you should just "
     "omit the defined()?)\"; kernel/timeconst.h is never made"},
    {"make-mixed-rules",
     {R26LATE, ANY},
     "Makefile",
     LAB_COMPAT_REGEX,
     "\n(config |/ )(%config|%/):",
     "\n\\2:",
     "the top Makefile's \"config %config:\" and \"/ %/:\" rules lose their plain target "
     "(make config and make /, never used by the lab); the pattern rule stays",
     "GNU make 3.82+ (Debian 12: 4.3): \"mixed implicit and normal rules: deprecated syntax\" "
     "then \"No rule to make target 'allnoconfig'\""},
    {"unifdef-getline",
     {R26LATE, ANY},
     "scripts/unifdef.c",
     LAB_COMPAT_REGEX,
     "([^A-Za-z0-9_])getline\\(",
     "\\1get_line(",
     "the host tool's static getline() is renamed get_line()",
     "glibc 2.10+ declares getline() in stdio.h: \"conflicting types for 'getline'\""},
    {"multiline-strings",
     {LAB_KV_RC(2, 4, 0, 0), LAB_KV_RC(2, 4, 20, 0), ANY},
     "(from the build log)",
     LAB_COMPAT_DIAG,
     NULL,
     NULL,
     "a string literal that runs over a newline (2.4's inline asm, as gcc 3.2 took it) is "
     "closed and reopened at each line end with the newline as \\n, in each file gcc reports",
     "gcc 3.3+: \"missing terminating \" character\""},
    {"function-name-pasting",
     {R24, ANY},
     "**/*.c **/*.h",
     LAB_COMPAT_FUNC_PASTE,
     NULL,
     NULL,
     "__FUNCTION__ pasted to a string (printk(KERN_ERR __FUNCTION__ \": ...\")) becomes the "
     "literal gcc 3.3 saw, the function's name (__FILE__ inside a #define, where no function "
     "is known)",
     "gcc 3.4+ makes __FUNCTION__ a variable: \"expected ')' before string constant\""},
    {"cast-lvalue-assign",
     {RLVALUE, ANY},
     CAST_FILES,
     LAB_COMPAT_REGEX,
     "\\(((unsigned |signed )?(char|short|int|long)|unsigned|(__)?[us](8|16|32|64)|"
     "[A-Za-z_][A-Za-z0-9_]* \\*+)\\) ?([A-Za-z_][A-Za-z0-9_]*)([ \t]*)(\\+=|-=|\\|=|&=|=[^=])",
     "*(\\1 *)&\\6\\7\\8",
     "an assignment through a cast ((u32)tot_len += len, fs/read_write.c) becomes one through "
     "a pointer of the cast's type (*(u32 *)&tot_len += len): what gcc 3's cast-as-lvalue "
     "extension did for same-sized types",
     "gcc 4+ dropped cast-as-lvalue: \"lvalue required as left operand of assignment\""},
    {"tcp-ecn-without-inet",
     {LAB_KV_RC(2, 4, 0, 0), LAB_KV_RC(2, 4, 20, 0), ANY},
     "include/net/tcp.h",
     LAB_COMPAT_REGEX,
     "([^/]\n)#include <net/tcp_ecn.h>\n", /* not after its own guard's comment */
     "\\1#if defined(CONFIG_INET) || defined(CONFIG_INET_MODULE) /* lab compat */\n"
     "#include <net/tcp_ecn.h>\n#endif\n",
     "tcp.h takes in tcp_ecn.h only with CONFIG_INET: its inline ECN helpers reach "
     "sk->protinfo.af_inet, a member that exists only then, and net/core (built always) "
     "includes tcp.h",
     "not a new tool: the lab's fragment has no networking (CONFIG_NET=n), which these trees "
     "never compiled with any gcc (2.4.16: \"'union <anonymous>' has no member named "
     "'af_inet'\"; 2.4.20 dropped the includes)"},
    {"exit-text-kept",
     {R24, I386},
     "arch/i386/vmlinux.lds",
     LAB_COMPAT_REGEX,
     "(\n\t\\*\\(\\.text\\)\n)(.*/DISCARD/ : \\{[^}]*)\n\t\\*\\(\\.text\\.exit\\)",
     "\\1\t*(.text.exit) /* lab compat: kept, see kernels/compat.c */\n\\2",
     "__exit code goes into .text instead of /DISCARD/: drivers that point at it from data "
     "without __devexit_p (2.4.16's serial.c: .remove = serial_remove_one) link, and the "
     "pointers stay valid (the code is never run in a kernel without modules)",
     "binutils 2.1x+ ld: \"`.text.exit' referenced in section `.data' ...: defined in discarded "
     "section `.text.exit'\" (old ld left the dangling reference)"},
    {"setup-header-2.02-pad",
     {R24, ANY},
     "arch/i386/boot/setup.S arch/x86_64/boot/setup.S",
     LAB_COMPAT_REGEX,
     "(\ncmd_line_ptr:[ \t]*\\.long 0[^\n]*\n([ \t]*(#[^\n]*)?\n)*)trampoline:",
     "\\1\t\t.long 0\t\t\t# lab compat: the 2.03 initrd_addr_max slot, see kernels/compat.c\n"
     "trampoline:",
     "a boot-protocol 2.02 setup header (2.4 before 2.4.18 or so) gains 4 zero bytes before "
     "its trampoline, where protocol 2.03 put initrd_addr_max: the code starts at 0x230, as in "
     "2.03 headers",
     "QEMU 7.2's -kernel loader writes 0x37ffffff at header offset 0x22c whatever the "
     "protocol: on 2.02 that is the trampoline's call, and setup loops on an invalid opcode "
     "with nothing on the console"},
    {"xtime-volatile",
     {R24, ANY},
     "kernel/timer.c",
     LAB_COMPAT_REGEX,
     "\nvolatile struct timeval xtime ",
     "\nstruct timeval xtime /* lab compat: not volatile, as sched.h declares it */ ",
     "xtime's definition loses the volatile its declaration in sched.h never had (as later 2.4 "
     "trees define it; every other file reads it through that declaration already)",
     "gcc 3+: \"conflicting type qualifiers for 'xtime'\" (2.4.0; gcc 2.95 took the mismatch)"},
    {"boot-misc-prototypes",
     {R24, I386},
     "arch/i386/boot/compressed/misc.c",
     LAB_COMPAT_REGEX,
     "\n#undef memcpy\n#define memzero",
     "\n#undef memcpy\n"
     "void *memset(void *, int, size_t); /* lab compat: declared before use */\n"
     "void *memcpy(void *, __const void *, size_t);\n"
     "#define memzero",
     "the decompressor's own memset and memcpy are declared before inflate.c calls them (later "
     "2.4 trees declare them there)",
     "gcc 5+: \"conflicting types for 'memset'\" after its implicit declaration (2.4.0)"},
    {"ld-oformat",
     {R24, I386},
     "arch/i386/boot/Makefile",
     LAB_COMPAT_REGEX,
     "([ \t])-oformat ",
     "\\1--oformat ",
     "the boot sector's and setup's links spell the option --oformat",
     "binutils 2.1x+ ld reads -oformat as -o format: \"cannot find binary: No such file or "
     "directory\" (2.4.0)"},
    {"fastcall-definitions",
     {R24, I386},
     "(from the build log)",
     LAB_COMPAT_DIAG,
     NULL,
     NULL,
     "__attribute__((regparm(3))) on a definition whose FASTCALL prototype has it, inserted "
     "where gcc reports the conflict (the regparm ABI is kept: entry.S calls some with "
     "register arguments)",
     "gcc 4+: \"conflicting types for 'NAME'\" (gcc 3 ignored the mismatch)"},
};

/* Verified here: built with the lab's builder and booted under
 * qemu-system-i386 (see kernels/README.md for the command lines). */
static const struct lab_compat_verified verified[] = {
    {"2.6.9", "i686", "gcc 12.2", "2026-12-01",
     "built in 65 s (-j2, nice 5, no ccache); boots, reads hda; IO smoke test and seqread pass"},
    {"2.4.22", "i686", "gcc 12.2", "2026-12-01",
     "built in 58 s (2 passes: 75 FASTCALL/asmlinkage definitions); boots from an ext2 initrd, "
     "reads hda; IO smoke test and seqread pass; again 2026-12-04 with the rules found on 2.4.0 "
     "and 2.4.16: 33 s with no ccache, smoke test 75.6 MB/s in udma5, boot-to-agent 1.2 s"},
    {"2.6.12-rc2", "i686", "gcc 12.2", "2026-12-01",
     "built in 89 s; boots, reads hda; IO smoke test and seqread pass"},
    {"2.6.9", "i686", "gcc 11.3", "2026-12-01", "built in 65 s; IO smoke test passes"},
    {"2.4.22", "i686", "gcc 11.3", "2026-12-01", "built in 52 s (2 passes); IO smoke test passes"},
    {"2.6.12-rc2", "i686", "gcc 11.3", "2026-12-01", "built in 66 s; IO smoke test passes"},
    {"2.6.12-rc2", "x86_64", "gcc 12.2", "2026-12-01",
     "built in 91 s; boots on qemu pc-i440fx-7.0 only (pc: \"Cannot find space for the kernel "
     "page tables\"); IO smoke test passes on the lab's pinned machine; again 2026-12-05 with "
     "init-task-union-align and -mno-sse: 98 s, 124.5 MB/s on hda in mwdma2, boot-to-agent 2.9 s"},
    {"2.6.11", "x86_64", "gcc 12.2", "2026-12-05",
     "built in 97 s with init-task-union-align and -mno-sse (it had passed without them: its "
     "Makefile passes -mno-sse and nothing shares its init_task section); IO smoke test passes "
     "(114.6 MB/s, hda on drivers/ide in mwdma2, boot-to-agent 2.8 s)"},
    {"2.4.22", "x86_64", "gcc 12.2", "2026-12-05",
     "built in 63 s with the x86_64 rows of 2.4 found on it (tss-extern-order-64, "
     "switch-to-label-64, clflush-rvalue-64, asm-constraint-space, boot-build-includes-24; "
     "segreg-asm-64 and rmw-asm-64 from 2.4; setup-header-2.02-pad on its setup.S, without which "
     "it hung before its console); IO smoke test passes (115.5 MB/s, hda on drivers/ide in udma5, "
     "boot-to-agent 2.9 s)"},
    {"2.6.9", "x86_64", "gcc 12.2", "2026-12-05",
     "built in 92 s with init-task-union-align and -mno-sse found on it (it had hung in its idle "
     "loop since 2026-12-01: init never ran); IO smoke test passes (84.1 MB/s, hda on "
     "drivers/ide in mwdma2, boot-to-agent 2.9 s)"},
    /* Trees from elsewhere (sources and sha256 in docs/era-kernels.md). */
    {"2.4.20", "i686", "gcc 12.2", "2026-12-04",
     "built in 20 s (no ccache) with the rows 2.4.0 and 2.4.16 added; IO smoke test passes "
     "(65.3 MB/s, hda in mwdma2 with CONFIG_PIIX_TUNING, boot-to-agent 1.2 s); first "
     "verified 2026-12-02 (80 s, 46.0 MB/s)"},
    {"2.4.0", "i686", "gcc 12.2", "2026-12-04",
     "built in 16 s (no ccache; 3 passes) with xtime-volatile, boot-misc-prototypes, "
     "ld-oformat, setup-header-2.02-pad and -Dabs=__builtin_abs found on it; IO smoke test "
     "passes (75.6 MB/s, hda on drivers/ide in mwdma2, boot-to-agent 1.2 s); no ext3 and no "
     "sym53c8xx_2 in this tree"},
    {"2.4.16", "i686", "gcc 12.2", "2026-12-04",
     "built in 23 s (no ccache; 3 passes) with function-name-pasting, cast-lvalue-assign, "
     "tcp-ecn-without-inet, exit-text-kept and setup-header-2.02-pad found on it; IO smoke "
     "test passes (73.5 MB/s, hda on drivers/ide in mwdma2, boot-to-agent 1.1 s)"},
    {"2.6.8", "i686", "gcc 12.2", "2026-12-02",
     "built in 127 s; IO smoke test passes (53.2 MB/s, hda in udma5)"},
    {"2.6.0", "i686", "gcc 12.2", "2026-12-06",
     "Linus's 2.6 history, tag v2.6.0: built with the 2.6.0 rows (percpu-up-lvalue to "
     "extern-inline-prototype, the memmove and sprintf flags, asmlinkage prototypes) and "
     "booted from an ext2 initrd; IO smoke test passes (72.7 MB/s, hda on drivers/ide in "
     "udma5, boot-to-agent 1.3 s)"},
    {"2.6.0", "x86_64", "gcc 12.2", "2026-12-06",
     "built in 86 s with 2.6.0's rows and the x86_64 ones found on it; IO smoke test passes "
     "(138.2 MB/s, hda in udma5, boot-to-agent 3.1 s)"},
    {"2.6.1-rc1", "i686", "gcc 12.2", "2026-12-06",
     "built in 147 s; oopsed in test_wp_bit until extable-linear-search; IO smoke test passes "
     "(67.7 MB/s, hda in udma5, boot-to-agent 1.4 s)"},
    {"2.6.4", "i686", "gcc 12.2", "2026-12-06",
     "built in 93 s, no change after 2.6.0's rows; IO smoke test passes (62.2 MB/s, hda in "
     "udma5, boot-to-agent 1.4 s)"},
    {"2.6.4", "x86_64", "gcc 12.2", "2026-12-06",
     "built in 86 s; spun in the ACPI global lock until cmpxchg4-locked-eax; IO smoke test "
     "passes (146.2 MB/s, hda in udma5, boot-to-agent 2.7 s)"},
    {"2.6.5", "i686", "gcc 12.2", "2026-12-06",
     "built in 99 s, no change; IO smoke test passes (49.1 MB/s, hda in udma5, boot-to-agent "
     "1.5 s, the last ext2 initrd boot of 2.6)"},
    {"2.6.6", "i686", "gcc 12.2", "2026-12-06",
     "built in 92 s, no change; IO smoke test passes (63.4 MB/s, hda in udma5, boot-to-agent "
     "1.3 s, the first initramfs boot)"},
    {"2.6.6", "x86_64", "gcc 12.2", "2026-12-06",
     "built in 98 s, no change; IO smoke test passes (75.6 MB/s, hda in udma5, boot-to-agent "
     "3.9 s)"},
    {"2.6.10", "x86_64", "gcc 12.2", "2026-12-06",
     "built in 66 s (no ccache), no change; IO smoke test passes (107.3 MB/s, hda in mwdma2, "
     "boot-to-agent 2.8 s)"},
    {"2.6.8", "x86_64", "gcc 12.2", "2026-12-06",
     "built in 71 s (no ccache) with tss-extern-order-64 and boot-build-includes-early found "
     "on it, and 2.6.9's init-task-union-align and -mno-sse; IO smoke test passes (80.2 MB/s, "
     "hda on drivers/ide in udma5, boot-to-agent 2.8 s)"},
    {"2.6.20", "i686", "gcc 12.2", "2026-12-02",
     "built in 130 s (tests/boot/era-2.6.20.sh); IO smoke test passes (hda, drivers/ide); "
     "seqread on ide and sata; again 2026-12-05 with fastcall-default in its range: 137 s, "
     "69.1 MB/s, boot-to-agent 1.3 s"},
    {"2.6.32.70", "i686", "gcc 12.2", "2026-12-02",
     "built in 245 s with lab-2.6.21.config; IO smoke test passes (44.6 MB/s, sda on libata "
     "ata_piix in mwdma2, boot-to-agent 1.3 s)"},
    {"2.6.18", "i686", "gcc 12.2", "2026-12-02",
     "built in 77 s (ccache warm from a first try on a tree without its vmlinux.lds.S); IO "
     "smoke test passes (52.2 MB/s, hda on drivers/ide in mwdma2, boot-to-agent 3.5 s)"},
    {"3.4.113", "i686", "gcc 12.2", "2026-12-02",
     "built in 310 s with lab-2.6.21.config (compiler-gcc4-minor and initdata-prototype found "
     "on it); IO smoke test passes (61.3 MB/s, sda on libata ata_piix in mwdma2, "
     "boot-to-agent 1.2 s)"},
    {"3.10.99", "i686", "gcc 12.2", "2026-12-02",
     "built in 334 s with lab-2.6.21.config (host tools with -fcommon); IO smoke test passes "
     "(53.2 MB/s, sda on libata ata_piix in mwdma2, boot-to-agent 1.4 s); rebuilt with "
     "compiler-gcc4-minor in its range in 352 s, passes (58.8 MB/s, 1.5 s)"},
    {"4.4.178", "i686", "gcc 12.2", "2026-12-02",
     "built in 444 s with lab-6.x.config over tinyconfig, no fixup; IO smoke test passes "
     "(41.5 MB/s, sda on libata ata_piix in mwdma2, boot-to-agent 1.4 s)"},
    {"4.9.229", "i686", "gcc 12.2", "2026-12-02",
     "built in 434 s with lab-6.x.config over tinyconfig, no fixup; IO smoke test passes "
     "(40.6 MB/s, sda on libata ata_piix in mwdma2, boot-to-agent 1.5 s)"},
    {"4.19.48", "i686", "gcc 12.2", "2026-12-02",
     "built in 519 s with lab-6.x.config over tinyconfig, no fixup; IO smoke test passes "
     "(52.2 MB/s, sda on libata ata_piix in mwdma2, boot-to-agent 1.4 s)"},
    {"2.4.0", "i686", "gcc 11.3", "2026-12-04",
     "built in 14 s (no ccache; 3 passes), the same rows as with gcc 12.2; IO smoke test "
     "passes (76.3 MB/s, hda in mwdma2, boot-to-agent 1.2 s)"},
    {"2.4.16", "i686", "gcc 11.3", "2026-12-04",
     "built in 24 s (no ccache; 3 passes); IO smoke test passes (70.8 MB/s, hda in mwdma2, "
     "boot-to-agent 1.2 s)"},
    {"5.4.49", "i686", "gcc 12.2", "2026-12-04",
     "built in 210 s with lab-6.x.config over tinyconfig, no fixup (ccache warm from the "
     "x86_64 build's host tools); IO smoke test passes (56.3 MB/s, sda on libata ata_piix in "
     "mwdma2, boot-to-agent 1.1 s)"},
    {"5.10.89", "i686", "gcc 12.2", "2026-12-02",
     "built in 545 s with lab-6.x.config over tinyconfig, no fixup; IO smoke test passes "
     "(63.4 MB/s, sda on libata ata_piix in mwdma2, boot-to-agent 1.3 s)"},
    {"3.10.99", "x86_64", "gcc 12.2", "2026-12-04",
     "built in 127 s with lab-2.6.21.config (compiler-gcc-header and the host flag -fcommon, as "
     "on i686); IO smoke test passes (130.3 MB/s, sda on libata ata_piix in mwdma2, "
     "boot-to-agent 1.2 s)"},
    {"4.4.178", "x86_64", "gcc 12.2", "2026-12-04",
     "built in 158 s with lab-6.x.config over tinyconfig, no fixup (no objtool before 4.6); IO "
     "smoke test passes (110.0 MB/s, sda on libata ata_piix in mwdma2, boot-to-agent 1.4 s)"},
    {"4.19.48", "x86_64", "gcc 12.2", "2026-12-04",
     "built in 261 s with lab-6.x.config over tinyconfig, objtool-empty-symtab and the host "
     "flag -Wno-error=use-after-free; IO smoke test passes (112.2 MB/s, sda on libata ata_piix "
     "in mwdma2, boot-to-agent 1.6 s)"},
    {"5.4.49", "x86_64", "gcc 12.2", "2026-12-04",
     "built in 266 s with lab-6.x.config over tinyconfig, objtool-empty-symtab and the host "
     "flag -Wno-error=use-after-free; IO smoke test passes (89.3 MB/s, sda on libata ata_piix "
     "in mwdma2, boot-to-agent 1.8 s)"},
    {"2.6.18", "x86_64", "gcc 12.2", "2026-12-04",
     "built in 42 s (no ccache) with the 2.6.13+ rules and include/asm-x86_64's rmw-asm-64, no "
     "change to the lab after 2.6.20; IO smoke test passes (126.0 MB/s, hda on drivers/ide in "
     "mwdma2, boot-to-agent 2.5 s)"},
    {"2.6.20", "x86_64", "gcc 12.2", "2026-12-04",
     "built in 45 s (no ccache) with x86_64-end-symbol found on it and the arch/x86_64 rows of "
     "2.6.0-2.6.12 (rmw-asm-64, gas-macro-redefined, boot-build-includes) now to 2.6.23; IO "
     "smoke test passes (86.1 MB/s, hda on drivers/ide in mwdma2, boot-to-agent 3.1 s)"},
    {"2.6.20", "x86_64", "gcc 11.3", "2026-12-04",
     "built in 29 s (no ccache); IO smoke test passes (172.0 MB/s, hda on drivers/ide in "
     "mwdma2, boot-to-agent 2.1 s)"},
    {"2.6.32.70", "x86_64", "gcc 12.2", "2026-12-04",
     "built in 73 s (no ccache) with lab-2.6.21.config and the 2.6.24+ rules, no new row (the "
     "vdso links as they are); IO smoke test passes (134.3 MB/s, sda on libata ata_piix in "
     "mwdma2, boot-to-agent 1.1 s)"},
    {"5.10.89", "x86_64", "gcc 12.2", "2026-12-02",
     "built in about 500 s with lab-6.x.config over tinyconfig and the host flag "
     "-Wno-error=use-after-free (objtool's libsubcmd); IO smoke test passes (114.6 MB/s, sda on "
     "libata ata_piix in mwdma2, boot-to-agent 1.9 s)"},
    /* Trees of other versions, built 2026-12-05 to check the rules hold for
     * the class (docs/era-kernels.md names each tree and its sha256). */
    {"2.4.26", "x86_64", "gcc 12.2", "2026-12-05",
     "Linus's 2.4 history, tag 2.4.26; built in 67 s with the x86_64 rows of 2.4 found on 2.4.22, "
     "no change to the lab; IO smoke test passes (118.6 MB/s, hda on drivers/ide in udma5, "
     "boot-to-agent 3.3 s)"},
    {"2.4.31", "x86_64", "gcc 12.2", "2026-12-05",
     "Linus's 2.4 history, tag 2.4.31; built in 73 s, no change to the lab; IO smoke test passes "
     "(110.2 MB/s, hda on drivers/ide in mwdma2, boot-to-agent 3.4 s)"},
    {"2.4.15", "i686", "gcc 12.2", "2026-12-05",
     "built in 64 s, no change to the lab; IO smoke test passes (46.5 MB/s, hda on drivers/ide "
     "in mwdma2, boot-to-agent 1.6 s)"},
    {"2.4.16", "i686", "gcc 12.2", "2026-12-05",
     "a pristine tree (Linus's 2.4 history, tag 2.4.16) in place of the 2026-12-04 one, which "
     "lacked 8 upper-case netfilter files: built in 61 s, no change to the lab; IO smoke test "
     "passes (52.2 MB/s, hda in mwdma2, boot-to-agent 1.4 s)"},
    {"2.6.16", "i686", "gcc 12.2", "2026-12-05",
     "built in 142 s, no change to the lab; IO smoke test passes (41.6 MB/s, hda on drivers/ide "
     "in mwdma2, boot-to-agent 2.1 s)"},
    {"2.6.24", "i686", "gcc 12.2", "2026-12-05",
     "mainline v2.6.24, built in 125 s with lab-2.6.21.config and fastcall-default found on it "
     "(vsyscall-ld-m-late now reaching arch/x86's Makefile_32); IO smoke test passes (71.6 MB/s, "
     "sda on libata in mwdma2, boot-to-agent 1.3 s)"},
    {"2.6.26", "i686", "gcc 12.2", "2026-12-05",
     "built in 134 s with lab-2.6.21.config and vdso-ld-m, asm-only-callees, initdata-prototype "
     "and cpumask-of-cpu-dangling found on it (it panicked on its first timer interrupt "
     "without); IO smoke test passes (72.9 MB/s, sda on libata in mwdma2, boot-to-agent 1.3 s)"},
    {"2.6.26", "x86_64", "gcc 12.2", "2026-12-05",
     "built in 132 s with lab-2.6.21.config and the i686 rows, x86_64-end-symbol now reaching "
     "arch/x86; IO smoke test passes (134.1 MB/s, sda on libata in mwdma2, boot-to-agent 1.9 s)"},
    {"2.6.27", "x86_64", "gcc 12.2", "2026-12-05",
     "mainline v2.6.27, built in 154 s with lab-2.6.21.config, no change to the lab; IO smoke "
     "test passes (123.3 MB/s, sda on libata in mwdma2, boot-to-agent 2.2 s)"},
    {"2.6.28", "i686", "gcc 12.2", "2026-12-05",
     "mainline v2.6.28, built in 175 s with lab-2.6.21.config, no change to the lab (the rules "
     "found on 2.6.26 and 2.6.34 changed 9 files); IO smoke test passes (61.9 MB/s, sda on "
     "libata in mwdma2, boot-to-agent 1.2 s)"},
    {"2.6.29", "i686", "gcc 12.2", "2026-12-05",
     "mainline v2.6.29, built in 184 s with lab-2.6.21.config, no change to the lab; IO smoke "
     "test passes (69.6 MB/s, sda on libata in mwdma2, boot-to-agent 1.1 s)"},
    {"2.6.30", "x86_64", "gcc 12.2", "2026-12-05",
     "mainline v2.6.30, built in 174 s with lab-2.6.21.config, no change to the lab; IO smoke "
     "test passes (123.6 MB/s, sda on libata in mwdma2, boot-to-agent 1.7 s)"},
    {"2.6.31", "x86_64", "gcc 12.2", "2026-12-05",
     "mainline v2.6.31, built in 163 s with lab-2.6.21.config, no change to the lab; IO smoke "
     "test passes (127.9 MB/s, sda on libata in mwdma2, boot-to-agent 1.5 s)"},
    {"2.6.34", "i686", "gcc 12.2", "2026-12-05",
     "built in 203 s with lab-2.6.21.config and asmregparm-default found on it; IO smoke test "
     "passes (74.0 MB/s, sda on libata in mwdma2, boot-to-agent 1.1 s)"},
    {"2.6.39", "x86_64", "gcc 12.2", "2026-12-05",
     "built in 208 s with lab-2.6.21.config, no change to the lab; IO smoke test passes (135.0 "
     "MB/s, sda on libata in mwdma2, boot-to-agent 1.7 s)"},
    {"2.6.39", "i686", "gcc 12.2", "2026-12-05",
     "built in 223 s with lab-2.6.21.config and the rules found on 2.6.26 and 2.6.34 "
     "(asmregparm-default among them), no further change; IO smoke test passes (63.6 MB/s, sda "
     "on libata in mwdma2, boot-to-agent 1.1 s)"},
    {"3.1", "x86_64", "gcc 12.2", "2026-12-05",
     "built in 226 s with lab-2.6.21.config, no change to the lab (early-idt-stub-jmp, found on "
     "3.14, changed its head_64.S); IO smoke test passes (77.1 MB/s, sda on libata in mwdma2, "
     "boot-to-agent 2.3 s)"},
    {"3.8", "i686", "gcc 12.2", "2026-12-05",
     "built in 255 s with lab-2.6.21.config, no change to the lab; IO smoke test passes (47.6 "
     "MB/s, sda on libata in mwdma2, boot-to-agent 1.5 s)"},
    {"3.14", "x86_64", "gcc 12.2", "2026-12-05",
     "built in about 290 s with lab-2.6.21.config and early-idt-stub-jmp found on it (it hung "
     "silently before its console without); IO smoke test passes (143.5 MB/s, sda on libata in "
     "mwdma2, boot-to-agent 1.5 s)"},
    {"4.1.15", "x86_64", "gcc 12.2", "2026-12-05",
     "built in 91 s (ccache warm) with lab-6.x.config over tinyconfig; the cell check learnt "
     "EXT4_USE_FOR_EXT23, ext2's option before 4.3; IO smoke test passes (133.0 MB/s, sda on "
     "libata in mwdma2, boot-to-agent 1.8 s)"},
    {"4.15", "i686", "gcc 12.2", "2026-12-05",
     "built in 386 s with lab-6.x.config over tinyconfig, no change to the lab; IO smoke test "
     "passes (75.2 MB/s, sda on libata in mwdma2, boot-to-agent 1.5 s)"},
    {"5.8.1", "i686", "gcc 12.2", "2026-12-05",
     "built in 443 s with lab-6.x.config over tinyconfig, no change to the lab; IO smoke test "
     "passes (73.5 MB/s, sda on libata in mwdma2, boot-to-agent 1.1 s)"},
    {"5.15", "x86_64", "gcc 12.2", "2026-12-05",
     "built in 502 s with lab-6.x.config over tinyconfig, no change to the lab; IO smoke test "
     "passes (97.5 MB/s, sda on libata in mwdma2, boot-to-agent 2.4 s)"},
};

size_t lab_compat_cover_count(void)
{
    return sizeof covers / sizeof covers[0];
}
const struct lab_compat_cover *lab_compat_cover_at(size_t i)
{
    return i < lab_compat_cover_count() ? &covers[i] : NULL;
}
size_t lab_compat_refusal_count(void)
{
    return sizeof refusals / sizeof refusals[0];
}
const struct lab_compat_refusal *lab_compat_refusal_at(size_t i)
{
    return i < lab_compat_refusal_count() ? &refusals[i] : NULL;
}
size_t lab_compat_flag_count(void)
{
    return sizeof flags / sizeof flags[0];
}
const struct lab_compat_flag *lab_compat_flag_at(size_t i)
{
    return i < lab_compat_flag_count() ? &flags[i] : NULL;
}
size_t lab_compat_fixup_count(void)
{
    return sizeof fixups / sizeof fixups[0];
}
const struct lab_compat_fixup *lab_compat_fixup_at(size_t i)
{
    return i < lab_compat_fixup_count() ? &fixups[i] : NULL;
}
size_t lab_compat_verified_count(void)
{
    return sizeof verified / sizeof verified[0];
}
const struct lab_compat_verified *lab_compat_verified_at(size_t i)
{
    return i < lab_compat_verified_count() ? &verified[i] : NULL;
}

unsigned lab_compat_arch(const char *arch)
{
    if (arch && (strcmp(arch, "i686") == 0 || strcmp(arch, "i386") == 0))
        return LAB_COMPAT_I386;
    return LAB_COMPAT_X86_64;
}

int lab_compat_range_has(const struct lab_compat_range *r, lab_kver v, unsigned arch)
{
    return (r->arch & arch) && v >= r->from && (!r->until || v < r->until);
}

const struct lab_compat_cover *lab_compat_covers(lab_kver v, unsigned arch)
{
    for (size_t i = 0; i < lab_compat_cover_count(); i++)
        if (lab_compat_range_has(&covers[i].r, v, arch))
            return &covers[i];
    return NULL;
}

const struct lab_compat_refusal *lab_compat_refuses(lab_kver v, unsigned arch)
{
    for (size_t i = 0; i < lab_compat_refusal_count(); i++)
        if (lab_compat_range_has(&refusals[i].r, v, arch))
            return &refusals[i];
    return NULL;
}

static char *join(char *a, const char *b)
{
    char *r = a && *a ? lab_asprintf("%s %s", a, b) : lab_xstrdup(b);
    free(a);
    return r;
}

void lab_compat_vars_for(lab_kver v, unsigned arch, struct lab_compat_vars *out)
{
    out->cflags = lab_xstrdup("");
    out->as = lab_xstrdup("");
    out->ld = lab_xstrdup("");
    out->hostcc = lab_xstrdup("");
    for (size_t i = 0; i < lab_compat_flag_count(); i++) {
        const struct lab_compat_flag *f = &flags[i];
        if (!lab_compat_range_has(&f->r, v, arch))
            continue;
        char **dst = f->where == LAB_COMPAT_CFLAGS   ? &out->cflags
                     : f->where == LAB_COMPAT_AS     ? &out->as
                     : f->where == LAB_COMPAT_HOSTCC ? &out->hostcc
                                                     : &out->ld;
        *dst = join(*dst, f->value);
    }
}

void lab_compat_vars_free(struct lab_compat_vars *vars)
{
    free(vars->cflags);
    free(vars->as);
    free(vars->ld);
    free(vars->hostcc);
    memset(vars, 0, sizeof *vars);
}

char *lab_compat_describe(lab_kver v, unsigned arch)
{
    char *s = lab_xstrdup("lab-compat-6");
    for (size_t i = 0; i < lab_compat_flag_count(); i++)
        if (lab_compat_range_has(&flags[i].r, v, arch))
            s = join(s, flags[i].value);
    for (size_t i = 0; i < lab_compat_fixup_count(); i++) {
        const struct lab_compat_fixup *f = &fixups[i];
        if (!lab_compat_range_has(&f->r, v, arch))
            continue;
        char *t = lab_asprintf("%s\n[%s %d %s]\n%s\n%s\n", s, f->id, (int)f->kind, f->files,
                               f->pattern ? f->pattern : "", f->replace ? f->replace : "");
        free(s);
        s = t;
    }
    return s;
}

/* --- a growing output buffer --- */
struct buf {
    char *p;
    size_t len, cap;
};
static void put(struct buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t c = b->cap ? b->cap : 4096;
        while (c < b->len + n + 1)
            c *= 2;
        char *p = realloc(b->p, c);
        if (!p)
            abort();
        b->p = p;
        b->cap = c;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}
static void puts_(struct buf *b, const char *s)
{
    put(b, s, strlen(s));
}
static char *done(struct buf *b)
{
    if (!b->p)
        put(b, "", 0);
    return b->p;
}

/* --- regex with \1..\9 --- */
static int regex_subst(const char *pattern, const char *replace, const char *in, char **out)
{
    regex_t re;
    if (regcomp(&re, pattern, REG_EXTENDED) != 0) {
        *out = lab_xstrdup(in);
        return -1;
    }
    struct buf b = {0};
    const char *p = in;
    int n = 0;
    regmatch_t m[10];
    while (*p && regexec(&re, p, 10, m, p == in ? 0 : REG_NOTBOL) == 0) {
        put(&b, p, (size_t)m[0].rm_so);
        for (const char *r = replace; *r; r++) {
            if (r[0] == '\\' && r[1] >= '0' && r[1] <= '9') {
                int g = r[1] - '0';
                if (m[g].rm_so >= 0)
                    put(&b, p + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so));
                r++;
            } else if (r[0] == '\\' && r[1] == '\\') {
                put(&b, "\\", 1);
                r++;
            } else {
                put(&b, r, 1);
            }
        }
        n++;
        if (m[0].rm_eo == m[0].rm_so) { /* empty match: step over one character */
            if (!p[m[0].rm_eo])
                break;
            put(&b, p + m[0].rm_eo, 1);
            p += m[0].rm_eo + 1;
        } else {
            p += m[0].rm_eo;
        }
    }
    puts_(&b, p);
    regfree(&re);
    *out = done(&b);
    return n;
}

/* --- GNU asm statements --- */

/* Skips a string or character literal starting at s[i] (a quote); returns
 * the index after it. */
static size_t skip_literal(const char *s, size_t i)
{
    char q = s[i++];
    while (s[i] && s[i] != q) {
        if (s[i] == '\\' && s[i + 1])
            i++;
        i++;
    }
    return s[i] ? i + 1 : i;
}

static size_t skip_comment(const char *s, size_t i)
{
    if (s[i + 1] == '*') {
        const char *e = strstr(s + i + 2, "*/");
        return e ? (size_t)(e - s) + 2 : strlen(s);
    }
    const char *e = strchr(s + i, '\n');
    return e ? (size_t)(e - s) : strlen(s);
}

static int ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

#define MAX_OPS 32
struct asm_stmt {
    size_t open, close; /* the parentheses */
    size_t colon[4];    /* section separators at depth 1 */
    int ncolon;
    size_t op_start[MAX_OPS], op_end[MAX_OPS]; /* output and input operands */
    int nout, nin;
};

/* Splits a section [a, b) into operands at depth-0 commas. */
static void split_ops(const char *s, size_t a, size_t b, struct asm_stmt *st, int *count)
{
    size_t start = a;
    int depth = 0, any = 0;
    for (size_t i = a; i <= b; i++) {
        if (i < b && (s[i] == '"' || s[i] == '\'')) {
            i = skip_literal(s, i) - 1;
            any = 1;
            continue;
        }
        if (i < b && (s[i] == '(' || s[i] == '['))
            depth++;
        else if (i < b && (s[i] == ')' || s[i] == ']'))
            depth--;
        if (i == b || (s[i] == ',' && depth == 0)) {
            int n = st->nout + st->nin;
            if (any && n < MAX_OPS) {
                st->op_start[n] = start;
                st->op_end[n] = i;
                (*count)++;
            }
            start = i + 1;
            any = 0;
        } else if (!isspace((unsigned char)s[i]) && s[i] != '\\') {
            any = 1;
        }
    }
}

/* Parses the asm statement whose keyword ends at s[i]; 0 with *st filled,
 * -1 when it is not a statement (e.g. #include <asm/...>). */
static int parse_asm(const char *s, size_t i, struct asm_stmt *st)
{
    memset(st, 0, sizeof *st);
    for (;;) {
        while (isspace((unsigned char)s[i]) || (s[i] == '\\' && s[i + 1] == '\n'))
            i++;
        static const char *quals[] = {"__volatile__", "__volatile", "volatile", "goto",
                                      "__inline__",   "inline",     NULL};
        int q = 0;
        for (const char **k = quals; *k; k++) {
            size_t n = strlen(*k);
            if (strncmp(s + i, *k, n) == 0 && !ident_char(s[i + n])) {
                i += n;
                q = 1;
                break;
            }
        }
        if (!q)
            break;
    }
    if (s[i] != '(')
        return -1;
    st->open = i;
    int depth = 0;
    for (; s[i]; i++) {
        if (s[i] == '"' || s[i] == '\'') {
            i = skip_literal(s, i) - 1;
            continue;
        }
        if (s[i] == '/' && (s[i + 1] == '*' || s[i + 1] == '/')) {
            i = skip_comment(s, i) - 1;
            continue;
        }
        if (s[i] == '(')
            depth++;
        else if (s[i] == ')' && --depth == 0)
            break;
        else if (s[i] == ':' && depth == 1 && st->ncolon < 4)
            st->colon[st->ncolon++] = i;
    }
    if (!s[i])
        return -1;
    st->close = i;
    if (st->ncolon >= 1)
        split_ops(s, st->colon[0] + 1, st->ncolon >= 2 ? st->colon[1] : st->close, st, &st->nout);
    if (st->ncolon >= 2)
        split_ops(s, st->colon[1] + 1, st->ncolon >= 3 ? st->colon[2] : st->close, st, &st->nin);
    return 0;
}

/* The constraint literal of operand k: [*a, *b) including the quotes. */
static int op_constraint(const char *s, const struct asm_stmt *st, int k, size_t *a, size_t *b)
{
    for (size_t i = st->op_start[k]; i < st->op_end[k]; i++) {
        if (s[i] == '[') { /* [name] */
            const char *e = memchr(s + i, ']', st->op_end[k] - i);
            if (!e)
                return -1;
            i = (size_t)(e - s);
            continue;
        }
        if (s[i] == '"') {
            *a = i;
            *b = skip_literal(s, i);
            return 0;
        }
    }
    return -1;
}

static int lit_is(const char *s, size_t a, size_t b, const char *lit)
{
    return b - a == strlen(lit) && strncmp(s + a, lit, b - a) == 0;
}

/* An edit list: replace [a, b) by text, sorted by position. */
#define MAX_EDITS 64
struct edits {
    size_t a[MAX_EDITS], b[MAX_EDITS];
    const char *text[MAX_EDITS];
    int n;
};
static void edit(struct edits *e, size_t a, size_t b, const char *text)
{
    if (e->n < MAX_EDITS) {
        int k = e->n++;
        while (k > 0 && e->a[k - 1] > a) {
            e->a[k] = e->a[k - 1];
            e->b[k] = e->b[k - 1];
            e->text[k] = e->text[k - 1];
            k--;
        }
        e->a[k] = a;
        e->b[k] = b;
        e->text[k] = text;
    }
}

typedef void (*asm_fn)(const char *s, const struct asm_stmt *st, struct edits *e);

/* Walks every asm statement of a C text outside comments and literals. */
static int asm_rewrite(const char *in, char **out, asm_fn fn)
{
    struct buf b = {0};
    size_t last = 0;
    int changes = 0;
    for (size_t i = 0; in[i];) {
        char c = in[i];
        if (c == '"' || c == '\'') {
            i = skip_literal(in, i);
            continue;
        }
        if (c == '/' && (in[i + 1] == '*' || in[i + 1] == '/')) {
            i = skip_comment(in, i);
            continue;
        }
        if (!ident_char(c)) {
            i++;
            continue;
        }
        size_t j = i;
        while (ident_char(in[j]))
            j++;
        size_t n = j - i;
        int kw = (n == 3 && strncmp(in + i, "asm", 3) == 0) ||
                 (n == 5 && strncmp(in + i, "__asm", 5) == 0) ||
                 (n == 7 && strncmp(in + i, "__asm__", 7) == 0);
        struct asm_stmt st;
        if (!kw || (i > 0 && ident_char(in[i - 1])) || parse_asm(in, j, &st) < 0) {
            i = j;
            continue;
        }
        struct edits e = {.n = 0};
        fn(in, &st, &e);
        for (int k = 0; k < e.n; k++) {
            put(&b, in + last, e.a[k] - last);
            puts_(&b, e.text[k]);
            last = e.b[k];
        }
        changes += e.n;
        i = st.close + 1;
    }
    puts_(&b, in + last);
    *out = done(&b);
    return changes;
}

static void rmw_fn(const char *s, const struct asm_stmt *st, struct edits *e)
{
    size_t a, b;
    for (int k = st->nout; k < st->nout + st->nin; k++) {
        if (op_constraint(s, st, k, &a, &b) < 0)
            continue;
        int digits = b - a > 2;
        for (size_t i = a + 1; i + 1 < b; i++)
            digits &= isdigit((unsigned char)s[i]) != 0;
        if (digits)
            return; /* a matching input: the operand is read-write already */
    }
    int any = 0;
    for (int k = 0; k < st->nout; k++)
        if (op_constraint(s, st, k, &a, &b) == 0 && lit_is(s, a, b, "\"=m\"")) {
            edit(e, a, b, "\"+m\"");
            any = 1;
        }
    if (!any)
        return;
    if (st->ncolon >= 3) {
        size_t c = st->colon[2] + 1;
        if (memmem(s + c, st->close - c, "\"memory\"", 8))
            return;
        int empty = 1;
        for (size_t i = c; i < st->close; i++)
            empty &= isspace((unsigned char)s[i]) || s[i] == '\\';
        edit(e, st->close, st->close, empty ? " \"memory\"" : ", \"memory\"");
    } else if (st->ncolon == 2) {
        edit(e, st->close, st->close, " : \"memory\"");
    } else {
        edit(e, st->close, st->close, " : : \"memory\"");
    }
}

int lab_compat_asm_rmw(const char *in, char **out)
{
    return asm_rewrite(in, out, rmw_fn);
}

static const char *const kN[] = {"%k0", "%k1", "%k2", "%k3", "%k4",
                                 "%k5", "%k6", "%k7", "%k8", "%k9"};

static void segreg_fn(const char *s, const struct asm_stmt *st, struct edits *e)
{
    static regex_t save, load;
    static int ready;
    if (!ready) {
        /* a segment register by name (not %%esp: the name must end there) or
         * the stringized macro argument of savesegment/loadsegment */
        const char *p1 = "movl[ \t]+%%(cs|ds|es|fs|gs|ss|\"[ \t]*#[ \t]*[A-Za-z_]+[ \t]*\")"
                         "[ \t]*,[ \t]*%([0-9])";
        const char *p2 = "movl[ \t]+%([0-9])[ \t]*,[ \t]*%%((cs|ds|es|fs|gs|ss)([^A-Za-z0-9_]|$)|"
                         "\"[ \t]*#[ \t]*[A-Za-z_]+[ \t]*\")";
        if (regcomp(&save, p1, REG_EXTENDED) || regcomp(&load, p2, REG_EXTENDED))
            abort();
        ready = 1;
    }
    size_t tend = st->ncolon ? st->colon[0] : st->close;
    char *tmpl = strndup(s + st->open + 1, tend - st->open - 1);
    if (!tmpl)
        abort();
    int want[10] = {0}; /* 1: an output to make "=r", 2: an input to make "r" */
    regmatch_t m[5];
    for (int pass = 0; pass < 2; pass++) {
        regex_t *re = pass ? &load : &save;
        int g = pass ? 1 : 2;
        for (const char *p = tmpl; regexec(re, p, 5, m, p == tmpl ? 0 : REG_NOTBOL) == 0;
             p += m[0].rm_eo)
            want[p[m[g].rm_so] - '0'] = pass ? 2 : 1;
    }
    free(tmpl);
    int any = 0;
    for (int n = 0; n < 10; n++) {
        size_t a, b;
        if (!want[n] || n >= st->nout + st->nin || op_constraint(s, st, n, &a, &b) < 0)
            continue;
        if (want[n] == 1 && lit_is(s, a, b, "\"=m\"")) {
            edit(e, a, b, "\"=r\"");
        } else if (want[n] == 2 && lit_is(s, a, b, "\"m\"")) {
            edit(e, a, b, "\"r\"");
        } else {
            continue;
        }
        any = 1;
        /* %N -> %kN in the template (literal text only; %%N is a literal %) */
        for (size_t i = st->open + 1; i + 1 < tend; i++) {
            if (s[i] == '%' && s[i + 1] == '%') {
                i++;
                continue;
            }
            if (s[i] == '%' && s[i + 1] == '0' + n && !isdigit((unsigned char)s[i + 2]))
                edit(e, i, i + 2, kN[n]);
        }
    }
    (void)any;
}

int lab_compat_asm_segreg(const char *in, char **out)
{
    return asm_rewrite(in, out, segreg_fn);
}

int lab_compat_transform(const struct lab_compat_fixup *f, const char *in, char **out)
{
    switch (f->kind) {
    case LAB_COMPAT_REGEX:
        return regex_subst(f->pattern, f->replace, in, out);
    case LAB_COMPAT_ASM_RMW:
        return lab_compat_asm_rmw(in, out);
    case LAB_COMPAT_ASM_SEGREG:
        return lab_compat_asm_segreg(in, out);
    case LAB_COMPAT_FUNC_PASTE:
        return lab_compat_paste_function_names(in, out);
    case LAB_COMPAT_DIAG:
        break;
    }
    *out = lab_xstrdup(in);
    return 0;
}

static void logf_(const char *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(const char *log, const char *fmt, ...)
{
    if (!log)
        return;
    FILE *f = fopen(log, "a");
    if (!f)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fclose(f);
}

static int rewrite_file(const char *path, const char *text)
{
    struct stat st;
    if (stat(path, &st) < 0)
        return -1;
    if (lab_write_file(path, text, strlen(text)) < 0)
        return -1;
    chmod(path, st.st_mode & 07777);
    return 0;
}

/* The files of one glob of a fixup's list, relative to dir: a glob(3)
 * pattern, or "**" "/PATTERN" for every file of the tree whose name matches
 * PATTERN (fts, symbolic links not followed). *paths malloc'd. */
static size_t glob_files(const char *dir, const char *g, char ***paths)
{
    size_t n = 0, cap = 16;
    char **p = lab_xcalloc(cap, sizeof *p);
    if (strncmp(g, "**/", 3) == 0) {
        char *roots[] = {(char *)dir, NULL};
        FTS *fts = fts_open(roots, FTS_PHYSICAL | FTS_NOCHDIR, NULL);
        for (FTSENT *e; fts && (e = fts_read(fts));) {
            if (e->fts_info != FTS_F || fnmatch(g + 3, e->fts_name, 0) != 0)
                continue;
            if (n + 1 >= cap) {
                p = realloc(p, (cap *= 2) * sizeof *p);
                if (!p)
                    abort();
            }
            p[n++] = lab_xstrdup(e->fts_path);
        }
        if (fts)
            fts_close(fts);
    } else {
        char *pat = lab_asprintf("%s/%s", dir, g);
        glob_t gl;
        if (glob(pat, 0, NULL, &gl) == 0) {
            p = realloc(p, (gl.gl_pathc + 1) * sizeof *p);
            if (!p)
                abort();
            for (size_t k = 0; k < gl.gl_pathc; k++)
                p[n++] = lab_xstrdup(gl.gl_pathv[k]);
            globfree(&gl);
        }
        free(pat);
    }
    *paths = p;
    return n;
}

/* One fixup over one file: the number of changes written, or -1 (a bad
 * pattern: a bug in the table). */
static int apply_file(const struct lab_compat_fixup *f, const char *path, const char *dir,
                      const char *log)
{
    size_t len;
    char *text = lab_read_file(path, &len), *out = NULL;
    if (!text)
        return 0;
    int n = lab_compat_transform(f, text, &out);
    if (n > 0 && rewrite_file(path, out) < 0) {
        lab_error("cannot rewrite %s: %s", path, strerror(errno));
        n = 0;
    }
    if (n > 0)
        logf_(log, "lab compat: %s: %s (%d change(s))\n", f->id, path + strlen(dir) + 1, n);
    free(text);
    free(out);
    return n;
}

int lab_compat_apply_tree(const char *dir, lab_kver v, unsigned arch, const char *log)
{
    int changed = 0;
    for (size_t i = 0; i < lab_compat_fixup_count(); i++) {
        const struct lab_compat_fixup *f = &fixups[i];
        if (f->kind == LAB_COMPAT_DIAG || !lab_compat_range_has(&f->r, v, arch))
            continue;
        int hits = 0, bad = 0;
        char *files = lab_xstrdup(f->files), *save = NULL;
        for (char *g = strtok_r(files, " ", &save); g && !bad; g = strtok_r(NULL, " ", &save)) {
            char **paths;
            size_t np = glob_files(dir, g, &paths);
            for (size_t k = 0; k < np; k++) {
                int n = bad ? 0 : apply_file(f, paths[k], dir, log);
                bad |= n < 0;
                changed += n > 0;
                hits += n > 0 ? n : 0;
                free(paths[k]);
            }
            free(paths);
        }
        free(files);
        if (bad)
            return lab_error("compat fixup %s: bad pattern", f->id);
        if (!hits)
            logf_(log, "lab compat: %s: nothing to change\n", f->id);
    }
    return changed;
}

/* --- FASTCALL definitions from gcc's diagnostics --- */

/* Reads a quoted name after "for " in ASCII '...' or UTF-8 curly quotes. */
static int quoted_name(const char *p, char *name, size_t len)
{
    const char *s;
    if (*p == '\'' || *p == '`')
        s = p + 1;
    else if ((unsigned char)p[0] == 0xe2 && (unsigned char)p[1] == 0x80 &&
             (unsigned char)p[2] == 0x98)
        s = p + 3;
    else
        return -1;
    size_t n = 0;
    while (ident_char(s[n]))
        n++;
    if (!n || n >= len)
        return -1;
    memcpy(name, s, n);
    name[n] = '\0';
    return 0;
}

/* The convention of a declaration's text: 3, 0 or -1 (see compat.h). */
static int convention(const char *s, size_t n)
{
    if (memmem(s, n, "asmlinkage", 10))
        return 0;
    if (memmem(s, n, "FASTCALL", 8) || memmem(s, n, "fastcall", 8) ||
        memmem(s, n, "regparm(3)", 10))
        return 3;
    return -1;
}

/* After an error at p: the "note: previous declaration of 'NAME'" within
 * the next lines of the log, its echoed source line, else the declaration's
 * file itself (lines L-2..L). */
static int prev_convention(const char *p, const char *name)
{
    const char *note = strstr(p, "note: previous declaration of ");
    const char *next_err = strstr(p + 1, ": error: ");
    if (!note || (next_err && next_err < note) || note - p > 4000)
        return -1;
    char nm[128];
    if (quoted_name(note + 30, nm, sizeof nm) < 0 || strcmp(nm, name) != 0)
        return -1;
    const char *l1 = strchr(note, '\n');
    if (l1) {
        const char *l2 = strchr(l1 + 1, '\n');
        size_t n = l2 ? (size_t)(l2 - l1) : strlen(l1);
        int c = convention(l1, n);
        if (c >= 0)
            return c;
    }
    /* FILE:LINE:COL: note: */
    const char *ls = note;
    while (ls > p && ls[-1] != '\n')
        ls--;
    char file[512];
    size_t fl = strcspn(ls, ":");
    if (fl >= sizeof file || ls[fl] != ':')
        return -1;
    memcpy(file, ls, fl);
    file[fl] = '\0';
    int line = atoi(ls + fl + 1);
    size_t len;
    char *text = file[0] == '/' ? lab_read_file(file, &len) : NULL;
    int c = -1;
    if (text && line > 0) {
        const char *a = text, *b;
        for (int k = 1; k < line - 2 && a; k++)
            if ((a = strchr(a, '\n')))
                a++;
        b = a;
        for (int k = 0; k < 3 && b && *b; k++)
            if ((b = strchr(b, '\n')))
                b++;
        if (a)
            c = convention(a, b ? (size_t)(b - a) : strlen(a));
    }
    free(text);
    return c;
}

/* The other direction (2.6.0's sys_fadvise64_64, sys_shmat): the definition
 * at p says asmlinkage on the source line gcc echoes, and the "previous
 * declaration" note names a prototype that says nothing. The declaration
 * then takes regparm(0): with no -mregparm in the era's i386 Makefile that
 * is what it meant all along, so no call changes. A FASTCALL definition
 * behind a plain prototype would change calls, and is left to fail. The
 * conflict moves to the note's FILE:LINE:COL; -1 when there is none. */
static int declaration_side(const char *p, struct lab_compat_conflict *c)
{
    const char *l1 = strchr(p, '\n');
    const char *l2 = l1 ? strchr(l1 + 1, '\n') : NULL;
    int def = l1 ? convention(l1, l2 ? (size_t)(l2 - l1) : strlen(l1)) : -1;
    const char *note = def == 0 ? strstr(p, "note: previous declaration of ") : NULL;
    const char *next_err = strstr(p + 1, ": error: ");
    char nm[128];
    if (!note || (next_err && next_err < note) || note - p > 4000 ||
        quoted_name(note + 30, nm, sizeof nm) < 0 || strcmp(nm, c->name) != 0)
        return -1;
    const char *ls = note;
    while (ls > p && ls[-1] != '\n')
        ls--;
    size_t fl = strcspn(ls, ":");
    if (fl >= sizeof c->file || ls[fl] != ':' || atoi(ls + fl + 1) <= 0)
        return -1;
    memcpy(c->file, ls, fl);
    c->file[fl] = '\0';
    c->line = atoi(ls + fl + 1);
    const char *colp = strchr(ls + fl + 1, ':');
    c->col = colp ? atoi(colp + 1) : 0;
    return def;
}

int lab_compat_find_conflicts(const char *log, struct lab_compat_conflict *out, int max)
{
    int count = 0;
    static const char key[] = ": error: conflicting types for ";
    for (const char *p = log; p && (p = strstr(p, key)) && count < max; p += sizeof key - 1) {
        const char *ls = p;
        while (ls > log && ls[-1] != '\n')
            ls--;
        struct lab_compat_conflict c;
        memset(&c, 0, sizeof c);
        /* FILE:LINE:COL */
        const char *c2 = p, *c1;
        while (c2 > ls && c2[-1] != ':')
            c2--;
        if (c2 <= ls + 1)
            continue;
        c1 = c2 - 1;
        while (c1 > ls && c1[-1] != ':')
            c1--;
        if (c1 <= ls + 1)
            continue;
        size_t fl = (size_t)(c1 - 1 - ls);
        if (fl >= sizeof c.file)
            continue;
        memcpy(c.file, ls, fl);
        c.line = atoi(c1);
        c.col = atoi(c2);
        if (c.line <= 0 || quoted_name(p + sizeof key - 1, c.name, sizeof c.name) < 0)
            continue;
        c.regparm = prev_convention(p, c.name);
        if (c.regparm < 0)
            c.regparm = declaration_side(p, &c);
        int dup = 0;
        for (int k = 0; k < count; k++)
            dup |= strcmp(out[k].file, c.file) == 0 && out[k].line == c.line;
        if (!dup)
            out[count++] = c;
    }
    return count;
}

int lab_compat_add_regparm(const char *text, int line, int col, const char *name, int rp,
                           char **out)
{
    const char *l = text;
    for (int k = 1; k < line && l; k++) {
        l = strchr(l, '\n');
        if (l)
            l++;
    }
    if (!l)
        return 0;
    const char *end = strchr(l, '\n');
    if (!end)
        end = l + strlen(l);
    size_t nl = strlen(name);
    const char *hit = NULL;
    /* the column first (byte columns), else the first "name (" on the line */
    if (col > 0 && (size_t)(col - 1) + nl <= (size_t)(end - l) &&
        strncmp(l + col - 1, name, nl) == 0 && !ident_char(l[col - 1 + nl]) &&
        (col == 1 || !ident_char(l[col - 2])))
        hit = l + col - 1;
    for (const char *p = l; !hit && p + nl <= end; p++) {
        if (strncmp(p, name, nl) != 0 || (p > l && ident_char(p[-1])) || ident_char(p[nl]))
            continue;
        const char *q = p + nl;
        while (q < end && isspace((unsigned char)*q))
            q++;
        if (q < end && *q == '(')
            hit = p;
    }
    if (!hit)
        return 0;
    if (memmem(l, (size_t)(hit - l), "regparm", 7))
        return 0; /* already done: the conflict is something else */
    struct buf b = {0};
    char attr[48];
    snprintf(attr, sizeof attr, "__attribute__((regparm(%d))) ", rp);
    put(&b, text, (size_t)(hit - text));
    puts_(&b, attr);
    puts_(&b, hit);
    *out = done(&b);
    return 1;
}

int lab_compat_keep_once(char **list, int n, char *s)
{
    for (int k = 0; s && k < n; k++)
        if (strcmp(list[k], s) == 0) {
            free(s);
            return n;
        }
    if (s)
        list[n++] = s;
    return n;
}

/* Directories make entered ("make[2]: Entering directory '/x/kernel'"): 2.4
 * runs gcc inside each subdirectory, so diagnostics name files relative to
 * one of them. */
int lab_compat_entered_dirs(const char *log_text, char **out, int max)
{
    int n = 0;
    static const char key[] = "Entering directory ";
    for (const char *p = log_text; (p = strstr(p, key)) && n < max; p += sizeof key - 1) {
        const char *s = p + sizeof key - 1;
        if (*s == '\'' || *s == '`')
            s++;
        else if ((unsigned char)s[0] == 0xe2)
            s += 3;
        size_t len = strcspn(s, "'\n");
        if ((unsigned char)s[len] != '\'' && len >= 3 && (unsigned char)s[len - 3] == 0xe2)
            len -= 3;
        n = lab_compat_keep_once(out, n, strndup(s, len));
    }
    return n;
}

int lab_compat_fix_conflicts(const char *dir, const char *log_text, const char *log)
{
    static struct lab_compat_conflict c[512];
    char *dirs[256];
    int n = lab_compat_find_conflicts(log_text, c, 512), fixed = 0;
    int nd = lab_compat_entered_dirs(log_text, dirs + 1, 255) + 1;
    dirs[0] = lab_xstrdup(dir);
    for (int k = 0; k < n; k++) {
        if (c[k].regparm < 0)
            continue;
        for (int d = 0; d < nd; d++) {
            char *path = c[k].file[0] == '/' ? lab_xstrdup(c[k].file)
                                             : lab_asprintf("%s/%s", dirs[d], c[k].file);
            size_t len;
            char *text = lab_read_file(path, &len), *out = NULL;
            int ok =
                text &&
                lab_compat_add_regparm(text, c[k].line, c[k].col, c[k].name, c[k].regparm, &out) &&
                rewrite_file(path, out) == 0;
            if (ok) {
                logf_(log, "lab compat: fastcall-definitions: %s:%d: %s: regparm(%d)\n", path,
                      c[k].line, c[k].name, c[k].regparm);
                fixed++;
            }
            free(text);
            free(out);
            free(path);
            if (ok || c[k].file[0] == '/')
                break;
        }
    }
    for (int d = 0; d < nd; d++)
        free(dirs[d]);
    return fixed;
}
