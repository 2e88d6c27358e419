/* The era compat layer: which versions it covers, which flags and fixups
 * apply where, the transforms on small samples of the era's code, the
 * FASTCALL fix from gcc's diagnostics, and the builder's toolchain
 * decision with the layer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernels/compat.h"
#include "kernels/compat_paste.h"
#include "kernels/compat_strings.h"
#include "kernels/era.h"
#include "kernels/toolchain.h"
#include "common/file.h"
#include "common/str.h"

static lab_kver kv(const char *s)
{
    lab_kver v = 0;
    assert_int_equal(lab_kver_parse(s, &v), 0);
    return v;
}

static const struct lab_compat_fixup *fixup(const char *id)
{
    for (size_t i = 0; i < lab_compat_fixup_count(); i++)
        if (strcmp(lab_compat_fixup_at(i)->id, id) == 0)
            return lab_compat_fixup_at(i);
    fail_msg("no fixup %s", id);
    return NULL;
}

static int applies(const char *id, const char *version, unsigned arch)
{
    return lab_compat_range_has(&fixup(id)->r, kv(version), arch);
}

/* Runs one fixup over a text; returns the result (malloc'd), the count in *n. */
static char *run(const char *id, const char *in, int *n)
{
    char *out = NULL;
    *n = lab_compat_transform(fixup(id), in, &out);
    assert_non_null(out);
    return out;
}

/* A fixup's second pass over its own output finds nothing to change. */
static void assert_second_pass_idle(const char *id, const char *text)
{
    int n;
    char *again = run(id, text, &n);
    assert_int_equal(n, 0);
    assert_string_equal(again, text);
    free(again);
}

static void test_coverage(void **state)
{
    const unsigned I = LAB_COMPAT_I386, X = LAB_COMPAT_X86_64;
    /* the class of tree, not the three sources here */
    const char *yes[] = {"2.4.0",     "2.4.20", "2.4.22", "2.4.26",     "2.4.37.11", "2.6.0",
                         "2.6.1-rc1", "2.6.9",  "2.6.11", "2.6.12-rc2", "2.6.12.6"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        assert_non_null(lab_compat_covers(kv(yes[i]), I));
    const char *no[] = {"2.2.26", "2.5.75", "5.16", "6.1"};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        assert_null(lab_compat_covers(kv(no[i]), I));
    /* x86_64: 2.6, and 2.4 from 2.4.20, where arch/x86_64 joined it */
    assert_non_null(lab_compat_covers(kv("2.6.12-rc2"), X));
    assert_non_null(lab_compat_covers(kv("2.6.0"), X));
    assert_non_null(lab_compat_covers(kv("2.4.22"), X));
    assert_non_null(lab_compat_covers(kv("2.4.20"), X));
    assert_non_null(lab_compat_covers(kv("2.4.37.11"), X));
    assert_null(lab_compat_covers(kv("2.4.19"), X));
    assert_non_null(lab_compat_refuses(kv("2.4.19"), X));
    assert_null(lab_compat_refuses(kv("2.4.19"), I));
    assert_non_null(lab_compat_covers(kv("2.6.13"), I));
    assert_non_null(lab_compat_covers(kv("2.6.20"), I));
    /* 2.6.13 to 5.15 on both: arch/x86_64 to 2.6.23, arch/x86 from 2.6.24 */
    const char *late64[] = {"2.6.13",  "2.6.20", "2.6.23.17", "2.6.24",  "2.6.32.70", "2.6.39.4",
                            "3.0-rc1", "3.0",    "3.10",      "3.10.99", "3.19.8",    "4.0",
                            "4.4.178", "4.9",    "4.19.48",   "4.20.17", "5.0-rc1",   "5.4",
                            "5.4.49",  "5.9.16", "5.10-rc1",  "5.10.89", "5.15.3"};
    for (size_t i = 0; i < sizeof late64 / sizeof late64[0]; i++) {
        assert_non_null(lab_compat_covers(kv(late64[i]), I));
        assert_non_null(lab_compat_covers(kv(late64[i]), X));
    }
    assert_int_equal(lab_compat_arch("i686"), I);
    assert_int_equal(lab_compat_arch("i386"), I);
    assert_int_equal(lab_compat_arch("x86_64"), X);
    assert_int_equal(lab_compat_arch(NULL), X);
}

static void test_which_fixups(void **state)
{
    const unsigned I = LAB_COMPAT_I386;
    assert_true(applies("segreg-asm", "2.4.22", I));
    assert_true(applies("segreg-asm", "2.6.12-rc2", I));
    assert_true(applies("segreg-asm", "2.6.20", I)); /* include/asm-i386 to 2.6.23 */
    /* include/asm-x86_64 to 2.6.23, as include/asm-i386 */
    assert_true(applies("rmw-asm-64", "2.6.20", LAB_COMPAT_X86_64));
    assert_false(applies("rmw-asm-64", "2.6.24", LAB_COMPAT_X86_64));
    assert_false(applies("rmw-asm-64", "2.6.20", I));
    assert_false(applies("segreg-asm", "2.6.24", I));
    assert_false(applies("segreg-asm", "2.6.9", LAB_COMPAT_X86_64));
    assert_true(applies("segreg-asm-64", "2.6.9", LAB_COMPAT_X86_64));
    assert_true(applies("rmw-asm-64", "2.6.12-rc2", LAB_COMPAT_X86_64));
    assert_false(applies("rmw-asm-64", "2.6.12-rc2", I));
    assert_true(applies("gas-macro-redefined", "2.6.9", LAB_COMPAT_X86_64));
    /* 2.4's include/asm-x86_64 has the same asm as 2.6.0's */
    assert_true(applies("rmw-asm-64", "2.4.22", LAB_COMPAT_X86_64));
    assert_true(applies("segreg-asm-64", "2.4.26", LAB_COMPAT_X86_64));
    assert_false(applies("segreg-asm-64", "2.4.22", I));
    /* 2.4 x86_64 rows, and the i386 setup header pad on x86_64's setup.S */
    const char *rows24x64[] = {"tss-extern-order-64",    "switch-to-label-64",
                               "clflush-rvalue-64",      "asm-constraint-space",
                               "boot-build-includes-24", "setup-header-2.02-pad"};
    for (size_t i = 0; i < sizeof rows24x64 / sizeof rows24x64[0]; i++) {
        assert_true(applies(rows24x64[i], "2.4.22", LAB_COMPAT_X86_64));
        assert_false(applies(rows24x64[i], "2.6.10", LAB_COMPAT_X86_64));
    }
    /* 2.6.8 x86_64 still declares init_tss[] above its struct and spells host-progs */
    assert_true(applies("tss-extern-order-64", "2.6.8", LAB_COMPAT_X86_64));
    assert_true(applies("tss-extern-order-64", "2.6.9-rc2", LAB_COMPAT_X86_64));
    assert_false(applies("tss-extern-order-64", "2.6.8", I));
    assert_true(applies("boot-build-includes-early", "2.6.0", LAB_COMPAT_X86_64));
    assert_true(applies("boot-build-includes-early", "2.6.8", LAB_COMPAT_X86_64));
    assert_false(applies("boot-build-includes-early", "2.6.10", LAB_COMPAT_X86_64));
    assert_false(applies("boot-build-includes-early", "2.4.22", LAB_COMPAT_X86_64));
    assert_true(applies("boot-build-includes-early", "2.6.0", I)); /* i386 has it from 2.6.4 */
    /* 2.6.0-2.6.8's gcc 3 habits, and the exception table before 2.6.2-rc1 sorts it */
    const char *rows260[] = {"percpu-up-lvalue",         "input-keycode-assign",
                             "stack-alloc-precedence",   "static-after-extern-idr",
                             "static-after-extern-8250", "extern-inline-prototype"};
    for (size_t i = 0; i < sizeof rows260 / sizeof rows260[0]; i++) {
        assert_true(applies(rows260[i], "2.6.0", I));
        assert_true(applies(rows260[i], "2.6.8", LAB_COMPAT_X86_64));
        assert_false(applies(rows260[i], "2.6.9", I));
        assert_false(applies(rows260[i], "2.4.31", I));
    }
    assert_true(applies("extable-linear-search", "2.4.0", I));
    assert_true(applies("extable-linear-search", "2.6.1-rc1", I));
    assert_true(applies("extable-linear-search", "2.6.1", I));
    assert_false(applies("extable-linear-search", "2.6.2-rc1", I));
    assert_false(applies("extable-linear-search", "2.6.0", LAB_COMPAT_X86_64)); /* sorts at boot */
    assert_true(applies("cast-lvalue-addsub", "2.6.0", I));
    assert_false(applies("cast-lvalue-addsub", "2.6.9", I));
    assert_true(applies("irq-stat-lvalue", "2.6.0", I));
    assert_true(applies("rmw-asm", "2.6.0", I));
    /* 2.4-only rows */
    assert_true(applies("initcall-used", "2.4.20", I));
    assert_false(applies("initcall-used", "2.6.0", I));
    assert_true(applies("fastcall-definitions", "2.4.26", I));
    assert_false(applies("fastcall-definitions", "2.6.1-rc1", I));
    assert_true(applies("tss-extern-order", "2.4.0", I));
    /* 2.6-only rows */
    assert_true(applies("compiler-gcc4", "2.6.11", I));
    assert_false(applies("compiler-gcc4", "2.4.22", I));
    assert_true(applies("vsyscall-ld-m", "2.6.12-rc2", I));
    /* 2.6.13+ rows */
    assert_true(applies("vsyscall-ld-m-late", "2.6.20", I));
    assert_false(applies("vsyscall-ld-m-late", "2.6.12", I));
    assert_true(applies("make-mixed-rules", "2.6.20", I));
    assert_false(applies("make-mixed-rules", "2.6.9", I)); /* its cache key stays */
    assert_true(applies("asm-only-callees", "2.6.20", I));
    /* every row names what it changes and the tool it works around */
    for (size_t i = 0; i < lab_compat_fixup_count(); i++) {
        const struct lab_compat_fixup *f = lab_compat_fixup_at(i);
        assert_non_null(f->what);
        assert_non_null(f->tool);
        assert_non_null(f->files);
        assert_true(f->r.from < f->r.until);
        if (f->kind == LAB_COMPAT_REGEX) { /* each pattern compiles */
            char *out = NULL;
            assert_true(lab_compat_transform(f, "x", &out) >= 0);
            free(out);
        }
    }
}

static void test_flags(void **state)
{
    struct lab_compat_vars v;
    lab_compat_vars_for(kv("2.4.22"), LAB_COMPAT_I386, &v);
    assert_non_null(strstr(v.cflags, "-m32 "));
    assert_non_null(strstr(v.cflags, "-std=gnu89"));
    assert_non_null(strstr(v.cflags, "-fgnu89-inline"));
    assert_non_null(strstr(v.cflags, "-fno-pie -no-pie"));
    assert_non_null(strstr(v.cflags, "-fno-stack-protector"));
    assert_non_null(strstr(v.cflags, "-fcommon"));
    assert_non_null(strstr(v.cflags, "-fno-delete-null-pointer-checks"));
    assert_non_null(strstr(v.cflags, "-fwrapv"));
    assert_non_null(strstr(v.cflags, "-fno-tree-vectorize"));
    assert_non_null(strstr(v.cflags, "-fno-builtin"));
    assert_non_null(strstr(v.cflags, "-Dabs=__builtin_abs")); /* -fno-builtin's abs() */
    assert_string_equal(v.as, "as --32");
    assert_string_equal(v.ld, "ld -m elf_i386");
    lab_compat_vars_free(&v);
    /* 2.6: no -fno-builtin (2.4's flag only), just its sprintf before 2.6.11 */
    lab_compat_vars_for(kv("2.6.9"), LAB_COMPAT_I386, &v);
    assert_non_null(strstr(v.cflags, "-m32"));
    assert_null(strstr(v.cflags, "-fno-builtin "));
    assert_non_null(strstr(v.cflags, "-fno-builtin-sprintf"));
    assert_null(strstr(v.cflags, "-fno-tree-loop-distribute-patterns")); /* memmove from 2.6.8 */
    lab_compat_vars_free(&v);
    lab_compat_vars_for(kv("2.6.0"), LAB_COMPAT_I386, &v);
    assert_non_null(strstr(v.cflags, "-fno-tree-loop-distribute-patterns"));
    lab_compat_vars_free(&v);
    lab_compat_vars_for(kv("2.6.11"), LAB_COMPAT_I386, &v);
    assert_null(strstr(v.cflags, "-fno-builtin-sprintf"));
    lab_compat_vars_free(&v);
    lab_compat_vars_for(kv("2.6.0"), LAB_COMPAT_X86_64, &v); /* x86_64 has both out of line */
    assert_null(strstr(v.cflags, "-fno-builtin-sprintf"));
    assert_null(strstr(v.cflags, "-fno-tree-loop-distribute-patterns"));
    lab_compat_vars_free(&v);
    /* x86_64: no -m32, no 32-bit as/ld */
    lab_compat_vars_for(kv("2.6.9"), LAB_COMPAT_X86_64, &v);
    assert_null(strstr(v.cflags, "-m32"));
    assert_non_null(strstr(v.cflags, "-fno-pie"));
    assert_non_null(strstr(v.cflags, "-mno-sse -mno-mmx -mno-sse2 -mno-3dnow"));
    assert_string_equal(v.as, "");
    assert_string_equal(v.ld, "");
    lab_compat_vars_free(&v);
    /* no SSE off on i386 (the i386 Makefiles never let gcc use it) nor in arch/x86 */
    lab_compat_vars_for(kv("2.6.9"), LAB_COMPAT_I386, &v);
    assert_null(strstr(v.cflags, "-mno-sse"));
    lab_compat_vars_free(&v);
    lab_compat_vars_for(kv("2.6.24"), LAB_COMPAT_X86_64, &v);
    assert_null(strstr(v.cflags, "-mno-sse"));
    lab_compat_vars_free(&v);
    /* objtool's host build (x86_64 only, from 4.6) keeps gcc 12's use-after-free a warning */
    static const struct {
        const char *version;
        unsigned arch;
        const char *hostcc;
    } hostcc[] = {
        {"5.10.89", LAB_COMPAT_X86_64, "-fcommon -Wno-error=use-after-free"},
        {"5.4.49", LAB_COMPAT_X86_64, "-fcommon -Wno-error=use-after-free"},
        {"4.6", LAB_COMPAT_X86_64, "-fcommon -Wno-error=use-after-free"},
        {"4.5", LAB_COMPAT_X86_64, "-fcommon"},
        {"5.10.89", LAB_COMPAT_I386, "-fcommon"},
    };
    for (size_t i = 0; i < sizeof hostcc / sizeof hostcc[0]; i++) {
        lab_compat_vars_for(kv(hostcc[i].version), hostcc[i].arch, &v);
        assert_string_equal(v.hostcc, hostcc[i].hostcc);
        lab_compat_vars_free(&v);
    }
    /* outside the layer: nothing */
    lab_compat_vars_for(kv("6.1"), LAB_COMPAT_I386, &v);
    assert_string_equal(v.cflags, "");
    lab_compat_vars_free(&v);
    /* the digest changes with the rows that apply */
    char *a = lab_compat_describe(kv("2.4.22"), LAB_COMPAT_I386);
    char *b = lab_compat_describe(kv("2.6.9"), LAB_COMPAT_I386);
    assert_string_not_equal(a, b);
    assert_non_null(strstr(a, "initcall-used"));
    assert_null(strstr(b, "initcall-used"));
    free(a);
    free(b);
}

/* 2.6.9 include/asm-i386/system.h and 2.4 process.c, shortened */
static const char segs[] = "#define loadsegment(seg,value)\t\t\t\\\n"
                           "\tasm volatile(\"\\n\"\t\t\t\\\n"
                           "\t\t\"1:\\t\"\t\t\t\t\\\n"
                           "\t\t\"movl %0,%%\" #seg \"\\n\"\t\t\\\n"
                           "\t\t\"2:\\n\"\t\t\t\t\\\n"
                           "\t\t: :\"m\" (*(unsigned int *)&(value)))\n"
                           "#define savesegment(seg, value) \\\n"
                           "\tasm volatile(\"movl %%\" #seg \",%0\":\"=m\" (*(int *)&(value)))\n"
                           "\tasm volatile(\"movl %%fs,%0\":\"=m\" (*(int *)&prev->fs));\n"
                           "\tasm volatile(\"movw %%es, %0\" : \"=m\" (ctxt->es));\n"
                           "\t\"movl %5,%%esp\\n\\t\"\n";

static void test_segreg(void **state)
{
    int n;
    char *out = run("segreg-asm", segs, &n);
    assert_int_equal(n, 6);
    assert_non_null(strstr(out, "\"movl %k0,%%\" #seg \"\\n\""));
    assert_non_null(strstr(out, ": :\"r\" (*(unsigned int *)&(value)))"));
    assert_non_null(strstr(out, "\"movl %%\" #seg \",%k0\":\"=r\" (*(int *)&(value))"));
    assert_non_null(strstr(out, "\"movl %%fs,%k0\":\"=r\" (*(int *)&prev->fs)"));
    /* movw to memory is legal: untouched; %%esp is no segment register */
    assert_non_null(strstr(out, "\"movw %%es, %0\" : \"=m\" (ctxt->es)"));
    assert_non_null(strstr(out, "\"movl %5,%%esp"));
    free(out);
    /* idempotent: a second pass changes nothing */
    char *again = NULL;
    assert_int_equal(lab_compat_asm_segreg(out = run("segreg-asm", segs, &n), &again), 0);
    free(out);
    free(again);
}

static void test_switch_to_esp(void **state)
{
    /* switch_to loads %esp from an "m" operand: not a segment register */
    const char *in = "asm volatile(\"movl %5,%%esp\\n\\t\" :\"=m\" (a) :\"m\" (b), \"m\" (c), "
                     "\"m\" (d), \"m\" (e), \"m\" (next->thread.esp));";
    int n;
    char *out = run("segreg-asm", in, &n);
    assert_int_equal(n, 0);
    assert_string_equal(out, in);
    free(out);
}

static void test_rmw(void **state)
{
    /* 2.6.9 bitops.h set_bit: "=m", no clobbers */
    const char *bit = "static inline void set_bit(int nr, volatile unsigned long * addr)\n{\n"
                      "\t__asm__ __volatile__( LOCK_PREFIX\n\t\t\"btsl %1,%0\"\n"
                      "\t\t:\"=m\" (ADDR)\n\t\t:\"Ir\" (nr));\n}\n";
    int n;
    char *out = run("rmw-asm", bit, &n);
    assert_int_equal(n, 2);
    assert_non_null(strstr(out, ":\"+m\" (ADDR)\n\t\t:\"Ir\" (nr) : \"memory\");"));
    free(out);
    /* an existing "memory" clobber is kept, not doubled */
    const char *lock =
        "__asm__ __volatile__(spin_lock_string :\"=m\" (lock->lock) : : \"memory\");";
    out = run("rmw-asm", lock, &n);
    assert_int_equal(n, 1);
    assert_string_equal(
        out, "__asm__ __volatile__(spin_lock_string :\"+m\" (lock->lock) : : \"memory\");");
    free(out);
    /* outputs only: both separators are added */
    out = run("rmw-asm", "asm volatile(\"lock; incl %0\" : \"=m\" (v->counter));", &n);
    assert_string_equal(out,
                        "asm volatile(\"lock; incl %0\" : \"+m\" (v->counter) : : \"memory\");");
    free(out);
    /* clobbers without memory: appended */
    out = run("rmw-asm", "asm(\"x\" : \"=m\" (a) : \"ir\" (i) : \"cc\");", &n);
    assert_string_equal(out, "asm(\"x\" : \"+m\" (a) : \"ir\" (i) : \"cc\", \"memory\");");
    free(out);
    /* a matching "1" input: already read-write, "+m" would not compile */
    const char *tied = "asm volatile(\"xadd %0,%1\" : \"+r\"(tmp), \"=m\"(sem->count) : "
                       "\"a\"(sem), \"1\"(sem->count) : \"memory\");";
    out = run("rmw-asm", tied, &n);
    assert_int_equal(n, 0);
    assert_string_equal(out, tied);
    free(out);
    /* "=qm" and strings/comments mentioning asm are left alone */
    const char *other = "/* asm(\"=m\") */ char *s = \"asm(:\\\"=m\\\")\"; "
                        "asm(\"sete %1\" : \"=m\" (v->c), \"=qm\" (c) : \"ir\" (i) : \"memory\");";
    out = run("rmw-asm", other, &n);
    assert_int_equal(n, 1);
    assert_non_null(strstr(out, "\"+m\" (v->c), \"=qm\" (c)"));
    assert_non_null(strstr(out, "/* asm(\"=m\") */"));
    free(out);
    /* #include <asm/bitops.h> is no statement */
    out = run("rmw-asm", "#include <asm/bitops.h>\n", &n);
    assert_int_equal(n, 0);
    free(out);
}

static void test_regex_rows(void **state)
{
    int n;
    char *out =
        run("initcall-used",
            "#define __initsetup\t__attribute__ ((unused,__section__ (\".setup.init\")))\n"
            "#define __init_call\t__attribute__ ((unused,__section__ (\".initcall.init\")))\n"
            "#define __exit_call\t__attribute__ ((unused,__section__ (\".exitcall.exit\")))\n",
            &n);
    assert_int_equal(n, 2);
    assert_non_null(strstr(out, "__initsetup\t__attribute__ ((used,"));
    assert_non_null(strstr(out, "__init_call\t__attribute__ ((used,"));
    assert_non_null(strstr(out, "__exit_call\t__attribute__ ((unused,"));
    free(out);

    out = run("irq-stat-lvalue",
              "#define __IRQ_STAT(cpu, member)\t((void)(cpu), irq_stat[0].member)\n", &n);
    assert_int_equal(n, 1);
    assert_string_equal(out,
                        "#define __IRQ_STAT(cpu, member)\t(irq_stat[((void)(cpu), 0)].member)\n");
    free(out);

    /* 2.6.13+ rows, on text in the shape of the era's files */
    out = run("make-mixed-rules",
              "\nconfig %config: scripts_basic outputmakefile FORCE\n\t$(Q)mkdir -p include\n"
              "\n/ %/: prepare scripts FORCE\n%.ko: prepare scripts FORCE\n",
              &n);
    assert_int_equal(n, 2);
    assert_non_null(strstr(out, "\n%config: scripts_basic outputmakefile FORCE\n"));
    assert_non_null(strstr(out, "\n%/: prepare scripts FORCE\n"));
    assert_non_null(strstr(out, "\n%.ko: prepare"));
    free(out);
    out = run("unifdef-getline",
              "static Linetype         getline(void);\n\tlineval = getline();\n"
              "getline(void)\n{\n\tfgets(tline, MAXLINE, input); /* not getline( here */\n",
              &n);
    assert_int_equal(n, 4);
    assert_null(strstr(out, " getline("));
    assert_non_null(strstr(out, "= get_line();"));
    assert_non_null(strstr(out, "\nget_line(void)"));
    free(out);
    out =
        run("sumversion-limits", "#include <ctype.h>\n#include <string.h>\n#include \"m.h\"\n", &n);
    assert_int_equal(n, 1);
    assert_non_null(strstr(out, "#include <string.h>\n#include <limits.h>"));
    free(out);
    out = run("asm-only-callees",
              "\nstatic void fastcall noinline __sched\n__mutex_lock_slowpath(atomic_t *c);\n"
              "\nstatic fastcall noinline void\n__mutex_lock_nointerrupt(void)\n"
              "\nstatic int fastcall noinline __sched\n__mutex_trylock(void)\n"
              "\nstatic inline int helper(void)\n",
              &n);
    assert_int_equal(n, 3);
    assert_non_null(strstr(out, "static __attribute__((used)) void fastcall noinline __sched"));
    assert_non_null(strstr(out, "static __attribute__((used)) fastcall noinline void"));
    assert_non_null(strstr(out, "static __attribute__((used)) int fastcall noinline"));
    assert_non_null(strstr(out, "\nstatic inline int helper"));
    free(out);
    /* 2.6.26: fastcall is gone, noinline on either side of the type */
    out = run("asm-only-callees",
              "\nstatic void noinline __sched\n__mutex_lock_slowpath(atomic_t *lock_count);\n"
              "\nstatic noinline void __sched __mutex_unlock_slowpath(atomic_t *lock_count);\n"
              "\nstatic noinline int __sched\n__mutex_lock_killable_slowpath(atomic_t *c);\n"
              "\nstatic inline void\n__mutex_unlock_common_slowpath(atomic_t *c, int nested)\n"
              "\nstatic __used noinline void __sched __mutex_lock_slowpath(atomic_t *c)\n",
              &n);
    assert_int_equal(n, 3);
    assert_non_null(strstr(out, "\nstatic __attribute__((used)) void noinline __sched\n"));
    assert_non_null(strstr(out, "\nstatic __attribute__((used)) noinline void __sched __mutex_u"));
    assert_non_null(strstr(out, "\nstatic __attribute__((used)) noinline int __sched\n"));
    assert_non_null(strstr(out, "\nstatic inline void\n__mutex_unlock_common"));
    assert_non_null(strstr(out, "\nstatic __used noinline void"));
    assert_second_pass_idle("asm-only-callees", out);
    free(out);
    out = run("compiler-gcc-header",
              "#define gcc_header(x) _gcc_header(x)\n#include gcc_header(__GNUC__)\n", &n);
    assert_int_equal(n, 1);
    assert_non_null(strstr(out, "#include gcc_header(4)"));
    free(out);
    /* 3.4.113's compiler-gcc4.h: each test of the minor, none twice */
    out = run("compiler-gcc4-minor",
              "# if __GNUC_MINOR__ == 1 && __GNUC_PATCHLEVEL__ <= 1\n#if __GNUC_MINOR__ >= 3\n"
              "#if GCC_VERSION <= 40801\n#if defined(X) && __GNUC_MINOR__ >= 5\n",
              &n);
    assert_int_equal(n, 3);
    assert_string_equal(
        out, "# if (__GNUC__ > 4 ? 9 : __GNUC_MINOR__) == 1 && __GNUC_PATCHLEVEL__ <= 1\n"
             "#if (__GNUC__ > 4 ? 9 : __GNUC_MINOR__) >= 3\n#if GCC_VERSION <= 40801\n"
             "#if defined(X) && (__GNUC__ > 4 ? 9 : __GNUC_MINOR__) >= 5\n");
    assert_second_pass_idle("compiler-gcc4-minor", out);
    free(out);
    out = run("initdata-prototype",
              "acpi_status __initdata acpi_os_initialize(void);\n"
              "static int __initdata table[4];\nextern char __initdata boot_name[];\n",
              &n);
    assert_int_equal(n, 1);
    assert_string_equal(out,
                        "acpi_status __init acpi_os_initialize(void);\n"
                        "static int __initdata table[4];\nextern char __initdata boot_name[];\n");
    free(out);
    assert_true(applies("initdata-prototype", "2.6.26", LAB_COMPAT_I386));
    assert_false(applies("initdata-prototype", "3.10.99", LAB_COMPAT_I386));
    /* 2.6.26's and 2.6.34's vDSO links: both images, the rest of the line kept */
    out = run("vdso-ld-m",
              "CPPFLAGS_vdso.lds += -P -C\n"
              "VDSO_LDFLAGS_vdso.lds = -m elf_x86_64 -Wl,-soname=linux-vdso.so.1 \\\n"
              "VDSO_LDFLAGS_vdso32.lds = -m elf_i386 -Wl,-soname=linux-gate.so.1\n",
              &n);
    assert_int_equal(n, 2);
    assert_string_equal(out,
                        "CPPFLAGS_vdso.lds += -P -C\n"
                        "VDSO_LDFLAGS_vdso.lds = -Wl,-m,elf_x86_64 -Wl,-soname=linux-vdso.so.1 "
                        "\\\n"
                        "VDSO_LDFLAGS_vdso32.lds = -Wl,-m,elf_i386 -Wl,-soname=linux-gate.so.1\n");
    assert_second_pass_idle("vdso-ld-m", out);
    free(out);
    /* 3.8's links (and 2.6.32.70's) already name the word size: left alone */
    out = run("vdso-ld-m", "\nVDSO_LDFLAGS_vdso32.lds = -m32 -Wl,-soname=linux-gate.so.1\n", &n);
    assert_int_equal(n, 0);
    free(out);
    assert_true(applies("vdso-ld-m", "2.6.26", LAB_COMPAT_I386));
    assert_true(applies("vdso-ld-m", "2.6.34", LAB_COMPAT_X86_64));
    assert_false(applies("vdso-ld-m", "2.6.23", LAB_COMPAT_I386));
    /* 2.6.24's linkage_32.h: fastcall and FASTCALL() are the -mregparm=3 default */
    out = run("fastcall-default",
              "#define asmlinkage CPP_ASMLINKAGE __attribute__((regparm(0)))\n"
              "#define FASTCALL(x)\tx __attribute__((regparm(3)))\n"
              "#define fastcall\t__attribute__((regparm(3)))\n\n",
              &n);
    assert_int_equal(n, 2);
    assert_null(strstr(out, "regparm(3)))"));
    assert_non_null(strstr(out, "\n#define FASTCALL(x)\tx /* lab compat"));
    assert_non_null(strstr(out, "\n#define fastcall /* lab compat"));
    assert_non_null(strstr(out, "__attribute__((regparm(0)))\n"));
    assert_second_pass_idle("fastcall-default", out);
    free(out);
    assert_true(applies("fastcall-default", "2.6.24", LAB_COMPAT_I386));
    assert_true(applies("fastcall-default", "2.6.20", LAB_COMPAT_I386));
    assert_false(applies("fastcall-default", "2.6.19", LAB_COMPAT_I386));
    assert_false(applies("fastcall-default", "2.6.24", LAB_COMPAT_X86_64));
    assert_true(applies("vsyscall-ld-m-late", "2.6.24", LAB_COMPAT_I386));
    /* 2.6.34's linkage.h: asmregparm is the -mregparm=3 default on i386 */
    out =
        run("asmregparm-default",
            "#ifdef CONFIG_X86_32\n#define asmlinkage CPP_ASMLINKAGE __attribute__((regparm(0)))\n"
            "#define asmregparm __attribute__((regparm(3)))\n",
            &n);
    assert_int_equal(n, 1);
    assert_null(strstr(out, "regparm(3)))"));
    assert_non_null(strstr(out, "\n#define asmregparm /* lab compat"));
    assert_non_null(strstr(out, "__attribute__((regparm(0)))\n"));
    assert_second_pass_idle("asmregparm-default", out);
    free(out);
    assert_true(applies("asmregparm-default", "2.6.34", LAB_COMPAT_I386));
    assert_true(applies("asmregparm-default", "3.0", LAB_COMPAT_I386));
    assert_false(applies("asmregparm-default", "2.6.34", LAB_COMPAT_X86_64));
    assert_false(applies("asmregparm-default", "3.1", LAB_COMPAT_I386));
    /* 3.14's early exception stubs keep 9 bytes each; 4.1's padded ones are left */
    out = run("early-idt-stub-jmp",
              "\t.rept NUM_EXCEPTION_VECTORS\n\tpushq $i\t\t# 72(%rsp) Vector number\n"
              "\tjmp early_idt_handler\n\ti = i + 1\n\t.endr\n",
              &n);
    assert_int_equal(n, 1);
    assert_non_null(strstr(out, "number\n\tjmp.d32 early_idt_handler /* lab compat"));
    assert_non_null(strstr(out, " */\n\ti = i + 1\n\t.endr\n"));
    assert_second_pass_idle("early-idt-stub-jmp", out);
    free(out);
    out = run("early-idt-stub-jmp",
              "\tjmp early_idt_handler_common\n\ti = i + 1\n"
              "\t.fill early_idt_handler_array + i*EARLY_IDT_HANDLER_SIZE - ., 1, 0xcc\n",
              &n);
    assert_int_equal(n, 0);
    free(out);
    assert_true(applies("early-idt-stub-jmp", "3.14", LAB_COMPAT_X86_64));
    assert_true(applies("early-idt-stub-jmp", "3.8", LAB_COMPAT_I386));
    assert_false(applies("early-idt-stub-jmp", "4.4.178", LAB_COMPAT_X86_64));
    /* 2.6.26's cpumask_of_cpu() returned a dead variable's address; 2.6.20's value
     * form is left alone */
    static const char mask26[] = "#else\n"
                                 "#define cpumask_of_cpu(cpu)\t\t\t\t\t\t\\\n"
                                 "(*({\t\t\t\t\t\t\t\t\t\\\n"
                                 "\ttypeof(_unused_cpumask_arg_) m;\t\t\t\t\t\\\n"
                                 "\tif (sizeof(m) == sizeof(unsigned long)) {\t\t\t\\\n"
                                 "\t\tm.bits[0] = 1UL<<(cpu);\t\t\t\t\t\\\n"
                                 "\t} else {\t\t\t\t\t\t\t\\\n"
                                 "\t\tcpus_clear(m);\t\t\t\t\t\t\\\n"
                                 "\t\tcpu_set((cpu), m);\t\t\t\t\t\\\n"
                                 "\t}\t\t\t\t\t\t\t\t\\\n"
                                 "\t&m;\t\t\t\t\t\t\t\t\\\n"
                                 "}))\n"
                                 "#endif\n";
    out = run("cpumask-of-cpu-dangling", mask26, &n);
    assert_int_equal(n, 1);
    assert_null(strstr(out, "&m;"));
    assert_non_null(strstr(out, "#define cpumask_of_cpu(cpu) (*lab_compat_cpumask_of_cpu("));
    assert_non_null(strstr(out, "\treturn m;\n}\n"));
    assert_non_null(strstr(out, "(cpu)))\n#endif\n"));
    assert_second_pass_idle("cpumask-of-cpu-dangling", out);
    free(out);
    out = run("cpumask-of-cpu-dangling",
              "\n#define cpumask_of_cpu(cpu)\t\\\n({\t\\\n\ttypeof(_unused_cpumask_arg_) m;\t\\\n"
              "\tm;\t\\\n})\n",
              &n);
    assert_int_equal(n, 0);
    free(out);
    assert_true(applies("cpumask-of-cpu-dangling", "2.6.26", LAB_COMPAT_I386));
    assert_false(applies("cpumask-of-cpu-dangling", "2.6.32.70", LAB_COMPAT_I386));
    /* the first task's stack union, 2.6.9's and 2.4.22's spelling, aligned by itself */
    static const char init26[] = "\nunion thread_union init_thread_union \n"
                                 "\t__attribute__((__section__(\".data.init_task\"))) =\n"
                                 "\t\t{ INIT_THREAD_INFO(init_task) };\n";
    static const char init24[] = "\nunion task_union init_task_union \n"
                                 "\t__attribute__((__section__(\".data.init_task\"))) =\n"
                                 "\t\t{ INIT_TASK(init_task_union.task) };\n";
    const char *inits[] = {init26, init24};
    for (size_t i = 0; i < 2; i++) {
        out = run("init-task-union-align", inits[i], &n);
        assert_int_equal(n, 1);
        assert_non_null(strstr(
            out, "__attribute__((__section__(\".data.init_task\"), __aligned__(THREAD_SIZE)))"));
        assert_non_null(strstr(out, "*/ =\n"));
        assert_second_pass_idle("init-task-union-align", out);
        free(out);
    }
    /* 2.4.22 x86_64: switch_to's one global resume label becomes one per asm copy */
    static const char sw24[] = "\t\t     \"movq %3,%%rsp\\n\\t\"\t/* restore RSP */\t\\\n"
                               "\t\t     \"leaq thread_return(%%rip),%%rax\\n\\t\"\t\t\\\n"
                               "\t\t     \"movq %%rax,%1\\n\\t\"\t/* save RIP */\t\t\\\n"
                               "\t\t     \"jmp __switch_to\\n\\t\"\t\t\t\t\\\n"
                               "\t\t     \".globl thread_return\\n\"\t\t\t\t\\\n"
                               "\t\t     \"thread_return:\\n\\t\"\t\t\t\t\\\n"
                               "\t\t     RESTORE_CONTEXT\t\t\t\t\t\\\n";
    out = run("switch-to-label-64", sw24, &n);
    assert_int_equal(n, 1);
    assert_null(strstr(out, "thread_return("));
    assert_null(strstr(out, ".globl"));
    assert_non_null(strstr(out, "\"leaq thread_return%=(%%rip),%%rax\\n\\t\""));
    assert_non_null(strstr(out, "\"thread_return%=:\\n\\t\""));
    assert_non_null(strstr(out, "\"jmp __switch_to\\n\\t\""));
    assert_second_pass_idle("switch-to-label-64", out);
    free(out);
    /* 2.6's switch_to calls __switch_to and returns to a global thread_return that
     * ret_from_fork's path names: not this row's (and not in its range) */
    out = run("switch-to-label-64",
              "\t\t     \"call __switch_to\\n\\t\"\t\\\n\t\t     \".globl thread_return\\n\"\t\\\n"
              "\t\t     \"thread_return:\\n\\t\"\t\\\n",
              &n);
    assert_int_equal(n, 0);
    free(out);
    out = run("tss-extern-order-64",
              "extern struct tss_struct init_tss[NR_CPUS];\nint x;\nstruct tss_struct {\n"
              "\tu32 reserved1;\n\tu64 rsp0;\n} __attribute__((packed)) ____cacheline_aligned;\n"
              "int y;\n",
              &n);
    assert_int_equal(n, 1);
    assert_string_equal(out, "int x;\nstruct tss_struct {\n\tu32 reserved1;\n\tu64 rsp0;\n"
                             "} __attribute__((packed)) ____cacheline_aligned;\n"
                             "extern struct tss_struct init_tss[NR_CPUS]; /* lab compat: below the "
                             "struct */\nint y;\n");
    free(out);
    out = run("clflush-rvalue-64", "\t\t\tasm volatile(\"clflush %0\" :: \"m\" (address + i)); \n",
              &n);
    assert_int_equal(n, 1);
    assert_non_null(strstr(out, "\"m\" (*(char *)(address + i))) /* lab compat */;"));
    assert_second_pass_idle("clflush-rvalue-64", out);
    free(out);
    out = run("asm-constraint-space",
              "\t\t: [size8] \"=c\"(size), [dst] \"=&D\" (__d0)\n"
              "\t\t: [size1] \"r\"(size & 7), \"[size8]\" (size / 8), \"[dst] \"(addr),\n",
              &n);
    assert_int_equal(n, 1);
    assert_non_null(strstr(out, "\"[size8]\" (size / 8), \"[dst]\"(addr),"));
    assert_non_null(strstr(out, "[dst] \"=&D\" (__d0)")); /* an output's name is no constraint */
    assert_second_pass_idle("asm-constraint-space", out);
    free(out);
    out = run("boot-build-includes-24",
              "\ntools/build: tools/build.c\n\t$(HOSTCC) $(HOSTCFLAGS) -o $@ $<\n\nbootsect:", &n);
    assert_int_equal(n, 1);
    assert_non_null(strstr(out, "$< -I$(TOPDIR)/include # lab compat\n\nbootsect:"));
    assert_second_pass_idle("boot-build-includes-24", out);
    free(out);
    /* the ALIGN_TO_4K page table of the same section is not the union */
    out = run("init-task-union-align",
              "\n#define ALIGN_TO_4K __attribute__((section(\".data.init_task\")))\n"
              "pgd_t boot_vmalloc_pgt[512]  ALIGN_TO_4K;\n",
              &n);
    assert_int_equal(n, 0);
    free(out);
    assert_true(applies("init-task-union-align", "2.6.9", LAB_COMPAT_X86_64));
    assert_true(applies("init-task-union-align", "2.4.22", LAB_COMPAT_X86_64));
    assert_false(applies("init-task-union-align", "2.6.9", LAB_COMPAT_I386));
    assert_false(applies("init-task-union-align", "2.6.20", LAB_COMPAT_X86_64));
    /* the string copy's END() in arch/x86_64 (2.6.20) and arch/x86 (2.6.26) */
    assert_true(applies("x86_64-end-symbol", "2.6.20", LAB_COMPAT_X86_64));
    assert_true(applies("x86_64-end-symbol", "2.6.26", LAB_COMPAT_X86_64));
    assert_false(applies("x86_64-end-symbol", "2.6.26", LAB_COMPAT_I386));
    /* objtool (4.6..5.9, x86_64): no .symtab is no symbols, not a failure */
    const char *elf = "\tsymtab = find_section_by_name(elf, \".symtab\");\n\tif (!symtab) {\n"
                      "\t\tWARN(\"missing symbol table\");\n\t\treturn -1;\n\t}\n";
    out = run("objtool-empty-symtab", elf, &n);
    assert_int_equal(n, 1);
    assert_null(strstr(out, "WARN(\"missing symbol table\")"));
    assert_non_null(strstr(out, "\n\t\treturn 0;\n\t}\n"));
    assert_second_pass_idle("objtool-empty-symtab", out);
    free(out);
    assert_true(applies("objtool-empty-symtab", "5.4.49", LAB_COMPAT_X86_64));
    assert_true(applies("objtool-empty-symtab", "4.19.48", LAB_COMPAT_X86_64));
    assert_false(applies("objtool-empty-symtab", "5.4.49", LAB_COMPAT_I386));
    assert_false(applies("objtool-empty-symtab", "5.10.89", LAB_COMPAT_X86_64));
    assert_true(applies("compiler-gcc4-minor", "3.4.113", LAB_COMPAT_I386));
    assert_false(applies("compiler-gcc4-minor", "2.6.32.70", LAB_COMPAT_I386));
    assert_false(applies("compiler-gcc4-minor", "4.4.178", LAB_COMPAT_I386));

    out = run("compiler-gcc4",
              "#if __GNUC__ > 4\n#error no compiler-gcc.h file for this gcc version\n"
              "#elif __GNUC__ == 4\n# include <linux/compiler-gcc4.h>\n",
              &n);
    assert_int_equal(n, 1);
    assert_non_null(strstr(out, "#if __GNUC__ >= 4"));
    assert_null(strstr(out, "#error"));
    free(out);

    out = run("vsyscall-ld-m", "      cmd_syscall = $(CC) -m elf_i386 -nostdlib $(SYSCFLAGS_$(@F))",
              &n);
    assert_string_equal(out,
                        "      cmd_syscall = $(CC) -Wl,-m,elf_i386 -nostdlib $(SYSCFLAGS_$(@F))");
    free(out);

    out = run("tss-extern-order",
              "extern struct tss_struct init_tss[NR_CPUS];\nint x;\n"
              "struct tss_struct {\n\tunsigned short back_link;\n};\nint y;\n",
              &n);
    assert_int_equal(n, 1);
    assert_string_equal(out, "int x;\nstruct tss_struct {\n\tunsigned short back_link;\n};\n"
                             "extern struct tss_struct init_tss[NR_CPUS]; /* lab compat: below the "
                             "struct */\nint y;\n");
    free(out);

    out = run("cast-lvalue-inc", "\t\t\t\t((char *) buffer)++;\n", &n);
    assert_string_equal(out, "\t\t\t\t(buffer = (void *)((char *)buffer + 1));\n");
    free(out);
    out = run("cast-lvalue-inc", "((__u32 *)b)++;", &n);
    assert_string_equal(out, "(b = (void *)((__u32 *)b + 1));");
    free(out);
    out = run("cast-lvalue-dec", "((const unsigned char *)p)--;", &n);
    assert_string_equal(out, "(p = (void *)((const unsigned char *)p - 1));");
    free(out);
    out = run("cast-lvalue-addsub", "\t((char *) dirent) += reclen;", &n);
    assert_string_equal(out, "\tdirent = (void *)((char *)dirent + (reclen));");
    free(out);

    out = run(
        "make-plus-space-eq",
        "obj-$(CONFIG_DVB_B2C2_SKYSTAR) += skystar2.o\nobj-$(CONFIG_DVB_B2C2_USB) + = b2c2-usb.o\n",
        &n);
    assert_int_equal(n, 1);
    assert_non_null(strstr(out, "\nobj-$(CONFIG_DVB_B2C2_USB) += b2c2-usb.o"));
    free(out);

    out = run("gas-macro-redefined",
              "\t.macro FAKE_STACK_FRAME child_rip\n\t.endm\n\t.macro UNFAKE_STACK_FRAME\n"
              "\tFAKE_STACK_FRAME $child_rip\n\tUNFAKE_STACK_FRAME\n\tcall FAKE_STACK_FRAMEX\n",
              &n);
    assert_int_equal(n, 4);
    assert_string_equal(out,
                        "\t.macro FAKE_STACK_FRAME_ENTRY child_rip\n\t.endm\n"
                        "\t.macro UNFAKE_STACK_FRAME_ENTRY\n\tFAKE_STACK_FRAME_ENTRY $child_rip\n"
                        "\tUNFAKE_STACK_FRAME_ENTRY\n\tcall FAKE_STACK_FRAMEX\n");
    free(out);
    out = run("boot-build-includes", "targets\t\t:= vmlinux.bin\nhostprogs-y\t:= tools/build\n\n",
              &n);
    assert_non_null(
        strstr(out, "hostprogs-y\t:= tools/build\nHOSTCFLAGS_build.o := $(LINUXINCLUDE)"));
    free(out);
    /* before 2.6.9: host-progs, and no LINUXINCLUDE to name */
    out = run("boot-build-includes-early",
              "targets\t\t:= vmlinux.bin\nhost-progs\t:= tools/build\n\n", &n);
    assert_int_equal(n, 1);
    assert_string_equal(out, "targets\t\t:= vmlinux.bin\nhost-progs\t:= tools/build\n"
                             "HOSTCFLAGS_build.o := -Iinclude # lab compat\n\n");
    assert_second_pass_idle("boot-build-includes-early", out);
    free(out);
    out = run("boot-build-includes-early", "x\nhostprogs-y\t:= tools/build\n", &n);
    assert_int_equal(n, 0);
    free(out);

    /* 2.6.0's rows, each on the text found and idle on its own output */
    out =
        run("percpu-up-lvalue", "#define per_cpu(var, cpu)\t\t\t((void)cpu, per_cpu__##var)\n", &n);
    assert_int_equal(n, 1);
    assert_string_equal(out, "#define per_cpu(var, cpu)\t\t\t(*((void)(cpu), &per_cpu__##var))\n");
    assert_second_pass_idle("percpu-up-lvalue", out);
    free(out);
    out =
        run("percpu-up-lvalue", "#define per_cpu(var, cpu) (*((void)cpu, &per_cpu__##var))\n", &n);
    assert_int_equal(n, 0); /* 2.6.8's form is an lvalue already */
    free(out);
    out = run("input-keycode-assign",
              "\toldkey = INPUT_KEYCODE(dev, scancode);\n"
              "\tINPUT_KEYCODE(dev, scancode) = keycode;\n",
              &n);
    assert_int_equal(n, 1);
    assert_non_null(strstr(out, "\toldkey = INPUT_KEYCODE(dev, scancode);\n"));
    assert_non_null(strstr(out, "if ((dev)->keycodesize == 1) ((u8 *)(dev)->keycode)[scancode] "
                                "= keycode; else if ((dev)->keycodesize == 2)"));
    assert_non_null(strstr(out, "else ((u32 *)(dev)->keycode)[scancode] = keycode; } while (0);"));
    assert_second_pass_idle("input-keycode-assign", out);
    free(out);
    out = run("stack-alloc-precedence", "\n#define STACK_ALLOC(sp, len) sp -= len\n#endif\n", &n);
    assert_int_equal(n, 1);
    assert_string_equal(out, "\n#define STACK_ALLOC(sp, len) (sp -= (len)) /* lab compat */\n"
                             "#endif\n");
    assert_second_pass_idle("stack-alloc-precedence", out);
    free(out);
    out = run("static-after-extern-idr", "\nstatic kmem_cache_t *idr_layer_cache;\n", &n);
    assert_int_equal(n, 1);
    assert_non_null(strstr(out, "\nkmem_cache_t *idr_layer_cache;"));
    assert_second_pass_idle("static-after-extern-idr", out);
    free(out);
    out = run("static-after-extern-8250", "\nextern struct uart_driver serial8250_reg;\n", &n);
    assert_int_equal(n, 1);
    assert_non_null(strstr(out, "\nstatic struct uart_driver serial8250_reg;"));
    assert_second_pass_idle("static-after-extern-8250", out);
    free(out);
    out = run("extern-inline-prototype",
              "\nextern inline int elv_rq_merge_ok(struct request *, struct bio *);\n"
              "extern inline void FASTCALL(__mmdrop(struct mm_struct *));\n"
              "extern inline int f(int a)\n{\n\treturn g(a);\n}\n",
              &n);
    assert_int_equal(n, 2); /* the prototypes, not the definition with a body */
    assert_non_null(strstr(out, "\nextern int elv_rq_merge_ok(struct request *, struct bio *);"));
    assert_non_null(strstr(out, "\nextern void FASTCALL(__mmdrop(struct mm_struct *));"));
    assert_non_null(strstr(out, "\nextern inline int f(int a)\n{"));
    assert_second_pass_idle("extern-inline-prototype", out);
    free(out);
    out = run("block-scope-static-fn",
              "\nstatic int idedisk_cleanup (ide_drive_t *drive)\n{\n"
              "\tstatic int ide_cacheflush_p(ide_drive_t *drive);\n\tstruct gendisk *g;\n",
              &n);
    assert_int_equal(n, 1);
    assert_string_equal(out, "\nstatic int ide_cacheflush_p(ide_drive_t *drive); /* lab compat: "
                             "at file scope */\nstatic int idedisk_cleanup (ide_drive_t *drive)\n"
                             "{\n\tstruct gendisk *g;\n");
    assert_second_pass_idle("block-scope-static-fn", out);
    free(out);
    /* the exception table search, 2.6.0's and 2.4's, by halves no more */
    static const char search_fmt[] =
        "{\n        while (first <= last) {\n"
        "\t\tconst struct exception_table_entry *mid;\n\t\tlong diff;\n\n"
        "\t\tmid = (last - first) / 2 + first;\n\t\tdiff = mid->insn - value;\n"
        "                if (diff == 0)\n                        return mid%s;\n"
        "                else if (diff < 0)\n                        first = mid+1;\n"
        "                else\n                        last = mid-1;\n        }\n"
        "        return %s;\n}\n";
    static const char linear_fmt[] =
        "{\n        for (; first <= last; first++) /* lab compat: linear, the table is unsorted "
        "*/\n        \tif (first->insn == value)\n        \t\treturn first%s;\n"
        "        return %s;\n}\n";
    static const char *const ret[][2] = {{"", "NULL"}, {"->fixup", "0"}}; /* 2.6, 2.4 */
    for (size_t i = 0; i < 2; i++) {
        char in[1024], want[512];
        snprintf(in, sizeof in, search_fmt, ret[i][0], ret[i][1]);
        snprintf(want, sizeof want, linear_fmt, ret[i][0], ret[i][1]);
        out = run("extable-linear-search", in, &n);
        assert_int_equal(n, 1);
        assert_string_equal(out, want);
        assert_second_pass_idle("extable-linear-search", out);
        free(out);
    }

    /* 2.4.0 and 2.4.16's rows, each on the shape found and once only */
    out = run("cast-lvalue-assign", "\t\t(u32)tot_len += len;\n\t(char *)p = q; a = (int)b == c;\n",
              &n);
    assert_int_equal(n, 2);
    assert_string_equal(out,
                        "\t\t*(u32 *)&tot_len += len;\n\t*(char * *)&p = q; a = (int)b == c;\n");
    free(out);
    out = run("cast-lvalue-assign", "\t\t*(u32 *)&tot_len += len;\n\tif (len)tot += len;\n", &n);
    assert_int_equal(n, 0);
    free(out);
    /* Rows that change their shape once: what each must leave, and that a
     * second pass leaves it alone. */
    static const struct {
        const char *id, *in, *want[2];
    } once[] = {
        {"tcp-ecn-without-inet",
         "x\n#include <net/tcp_ecn.h>\ny\n",
         {"\n#if defined(CONFIG_INET) || defined(CONFIG_INET_MODULE) ",
          "#include <net/tcp_ecn.h>\n#endif\ny\n"}},
        {"exit-text-kept",
         "  .text : {\n\t*(.text)\n\t*(.fixup)\n\t} = 0x9090\n"
         "  /DISCARD/ : {\n\t*(.text.exit)\n\t*(.data.exit)\n\t}\n",
         {"\t*(.text)\n\t*(.text.exit) /* lab compat", "/DISCARD/ : {\n\t*(.data.exit)\n\t}\n"}},
        {"setup-header-2.02-pad",
         "x\ncmd_line_ptr:\t.long 0\t\t\t# (Header version 0x0202 or later)\n"
         "\t\t\t\t\t# If nonzero, a 32-bit pointer\n\ntrampoline:\tcall\tstart_of_setup\n",
         {"pointer\n\n\t\t.long 0\t\t\t# lab compat", "kernels/compat.c\ntrampoline:\tcall"}},
        {"xtime-volatile",
         "x;\nvolatile struct timeval xtime __attribute__ ((aligned (16)));\n",
         {"\nstruct timeval xtime /* lab compat", "(16)));\n"}},
        {"x86_64-end-symbol",
         "x\nENTRY(copy_user_generic_string)\n\tret\nEND(copy_user_generic_c)\n",
         {"\tret\nEND(copy_user_generic_string) /* lab compat",
          "ENTRY(copy_user_generic_string)\n"}},
        {"boot-misc-prototypes",
         "#undef memset\n#undef memcpy\n#define memzero(s, n) x\n",
         {"\nvoid *memset(void *, int, size_t);", "size_t);\n#define memzero(s, n) x\n"}},
    };
    for (size_t i = 0; i < sizeof once / sizeof once[0]; i++) {
        out = run(once[i].id, once[i].in, &n);
        assert_int_equal(n, 1);
        for (int k = 0; k < 2; k++)
            assert_non_null(strstr(out, once[i].want[k]));
        assert_second_pass_idle(once[i].id, out);
        free(out);
    }
    /* setup.S's header: the row anchors on a line start, as in the file */
    out = run("setup-header-2.02-pad", once[2].in + 2, &n);
    assert_int_equal(n, 0);
    free(out);
    out = run("ld-oformat", "\t$(LD) -Ttext 0x0 -s -oformat binary -o $@ $<\n\t--oformat x\n", &n);
    assert_int_equal(n, 1);
    assert_string_equal(out, "\t$(LD) -Ttext 0x0 -s --oformat binary -o $@ $<\n\t--oformat x\n");
    free(out);
}

/* gcc 12's output for a 2.4 FASTCALL definition and an asmlinkage one */
static const char log24[] =
    "make[1]: Entering directory '/t/kernel'\n"
    "sched.c:758:6: error: conflicting types for 'complete'; have 'void(struct completion *)'\n"
    "  758 | void complete(struct completion *x)\n"
    "      |      ^~~~~~~~\n"
    "/t/include/linux/completion.h:31:22: note: previous declaration of 'complete' with type "
    "'void(struct completion *)'\n"
    "   31 | extern void FASTCALL(complete(struct completion *));\n"
    "      |                      ^~~~~~~~\n"
    "semaphore.c:50:6: error: conflicting types for \xe2\x80\x98__up\xe2\x80\x99; have "
    "'void(struct "
    "semaphore *)'\n"
    "   50 | void __up(struct semaphore *sem)\n"
    "/t/include/asm/semaphore.h:107:17: note: previous declaration of '__up' with type 'void'\n"
    "  107 | asmlinkage void __up(struct semaphore * sem);\n"
    "foo.c:3:5: error: conflicting types for 'bar'; have 'int(void)'\n"
    "    3 | int bar(void)\n"
    "/t/include/linux/foo.h:2:12: note: previous declaration of 'bar' with type 'long(void)'\n"
    "    2 | extern long bar(void);\n"
    "sched.c:758:6: error: conflicting types for 'complete'; have 'void(struct completion *)'\n";

static void test_conflicts(void **state)
{
    struct lab_compat_conflict c[8];
    int n = lab_compat_find_conflicts(log24, c, 8);
    assert_int_equal(n, 3); /* the repeated one is deduplicated */
    assert_string_equal(c[0].file, "sched.c");
    assert_int_equal(c[0].line, 758);
    assert_int_equal(c[0].col, 6);
    assert_string_equal(c[0].name, "complete");
    assert_int_equal(c[0].regparm, 3);
    assert_string_equal(c[1].name, "__up");
    assert_int_equal(c[1].regparm, 0);
    assert_string_equal(c[2].name, "bar");
    assert_int_equal(c[2].regparm, -1); /* a real type conflict: not ours */

    /* 2.6.0: an asmlinkage definition behind a prototype that says nothing:
     * the prototype, at the note's place, takes regparm(0) */
    static const char log260[] =
        "mm/fadvise.c:23:17: error: conflicting types for 'sys_fadvise64_64'; have 'long "
        "int(int,  loff_t,  loff_t,  int)'\n"
        "   23 | asmlinkage long sys_fadvise64_64(int fd, loff_t offset, loff_t len, int advice)\n"
        "      |                 ^~~~~~~~~~~~~~~~\n"
        "In file included from mm/fadvise.c:13:\n"
        "include/linux/mm.h:439:13: note: previous declaration of 'sys_fadvise64_64' with type "
        "'long int(int,  loff_t,  loff_t,  int)'\n"
        "  439 | extern long sys_fadvise64_64(int fd, loff_t offset, loff_t len, int advice);\n"
        "kernel/x.c:5:6: error: conflicting types for 'f'; have 'void(int)'\n"
        "    5 | void FASTCALL(f(int a))\n"
        "include/linux/x.h:2:13: note: previous declaration of 'f' with type 'void(int)'\n"
        "    2 | extern void f(int);\n";
    n = lab_compat_find_conflicts(log260, c, 8);
    assert_int_equal(n, 2);
    assert_string_equal(c[0].file, "include/linux/mm.h");
    assert_int_equal(c[0].line, 439);
    assert_int_equal(c[0].col, 13);
    assert_int_equal(c[0].regparm, 0);
    assert_int_equal(c[1].regparm, -1); /* a FASTCALL definition would change the calls */
    assert_string_equal(c[1].file, "kernel/x.c");

    const char *src = "int x;\n\tvoid complete(struct completion *x)\n{\n}\n";
    char *out = NULL;
    /* column 7 in bytes (tab = 1) */
    assert_int_equal(lab_compat_add_regparm(src, 2, 7, "complete", 3, &out), 1);
    assert_string_equal(out,
                        "int x;\n\tvoid __attribute__((regparm(3))) complete(struct completion "
                        "*x)\n{\n}\n");
    /* a wrong column (display columns): found by name on the line */
    char *out2 = NULL;
    assert_int_equal(lab_compat_add_regparm(src, 2, 14, "complete", 3, &out2), 1);
    assert_string_equal(out, out2);
    free(out2);
    /* already attributed: no second insertion (the loop stops) */
    out2 = NULL;
    assert_int_equal(lab_compat_add_regparm(out, 2, 7, "complete", 3, &out2), 0);
    assert_null(out2);
    free(out);
    /* a name that is only a prefix on the line is not taken */
    assert_int_equal(lab_compat_add_regparm("void completed(int);\n", 1, 6, "complete", 3, &out),
                     0);
    /* asmlinkage: regparm(0) */
    assert_int_equal(
        lab_compat_add_regparm("void __up(struct semaphore *sem)\n", 1, 6, "__up", 0, &out), 1);
    assert_string_equal(out, "void __attribute__((regparm(0))) __up(struct semaphore *sem)\n");
    free(out);
}

static void test_fix_tree(void **state)
{
    /* a tiny tree: the diagnostics name kernel/sched.c relative to the
     * directory make entered */
    char dir[] = "/tmp/lab-compat-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *kdir = lab_asprintf("%s/kernel", dir), *f = lab_asprintf("%s/kernel/sched.c", dir);
    assert_int_equal(mkdir(kdir, 0755), 0);
    char *lines = NULL;
    for (int i = 1; i < 758; i++) {
        char *t = lab_asprintf("%s/* %d */\n", lines ? lines : "", i);
        free(lines);
        lines = t;
    }
    char *text = lab_asprintf("%svoid complete(struct completion *x)\n{\n}\n", lines);
    assert_int_equal(lab_write_file(f, text, strlen(text)), 0);
    char *log = lab_asprintf("make[1]: Entering directory '%s/kernel'\n%s", dir,
                             strstr(log24, "sched.c:758"));
    assert_int_equal(lab_compat_fix_conflicts(dir, log, NULL), 1);
    size_t len;
    char *now = lab_read_file(f, &len);
    assert_non_null(strstr(now, "\nvoid __attribute__((regparm(3))) complete(struct completion"));
    free(now);
    /* the second pass finds it done */
    assert_int_equal(lab_compat_fix_conflicts(dir, log, NULL), 0);

    /* apply_tree: the 2.4 init.h row on a file of the tree, not on 2.6 */
    char *inc = lab_asprintf("%s/include/linux", dir), *init = lab_asprintf("%s/init.h", inc);
    char *cmd = lab_asprintf("mkdir -p %s", inc);
    assert_int_equal(system(cmd), 0);
    const char *h =
        "#define __init_call\t__attribute__ ((unused,__section__ (\".initcall.init\")))\n";
    assert_int_equal(lab_write_file(init, h, strlen(h)), 0);
    assert_int_equal(lab_compat_apply_tree(dir, kv("2.6.9"), LAB_COMPAT_I386, NULL), 0);
    assert_int_equal(lab_compat_apply_tree(dir, kv("2.4.22"), LAB_COMPAT_I386, NULL), 1);
    now = lab_read_file(init, &len);
    assert_non_null(strstr(now, "((used,"));
    free(now);
    lab_rm_rf(dir);
    free(cmd);
    free(inc);
    free(init);
    free(log);
    free(text);
    free(lines);
    free(f);
    free(kdir);
}

static void test_toolchain_decision(void **state)
{
    struct lab_compiler g12, g11, g13, g44, cl;
    assert_int_equal(lab_compiler_parse("12", "gcc (Debian 12.2.0-14+deb12u1) 12.2.0", &g12), 0);
    assert_int_equal(lab_compiler_parse("11", "gcc-11 (Debian 11.3.0-12) 11.3.0", &g11), 0);
    assert_int_equal(lab_compiler_parse("13", "gcc (GCC) 13.2.0", &g13), 0);
    assert_int_equal(lab_compiler_parse("4.4.7", "gcc-4.4 (Debian 4.4.7-8) 4.4.7", &g44), 0);
    assert_int_equal(lab_compiler_parse("14.0.6", "Debian clang version 14.0.6", &cl), 0);
    char msg[1024];
    /* covered: through the layer */
    assert_int_equal(lab_toolchain_decide(kv("2.6.9"), "i686", &g12, 0, msg, sizeof msg), 2);
    assert_int_equal(lab_toolchain_decide(kv("2.4.22"), "i686", &g11, 0, msg, sizeof msg), 2);
    assert_int_equal(lab_toolchain_decide(kv("2.6.1-rc1"), "i686", &g12, 0, msg, sizeof msg), 2);
    /* a compiler of the era builds natively */
    assert_int_equal(lab_toolchain_decide(kv("2.6.9"), "i686", &g44, 1, msg, sizeof msg), 1);
    /* modern trees natively */
    assert_int_equal(lab_toolchain_decide(kv("6.1"), "x86_64", &g12, 0, msg, sizeof msg), 1);
    /* refused with today's message: outside the layer's versions, arches
     * or compilers */
    assert_int_equal(lab_toolchain_decide(kv("2.6.32"), "x86_64", &g12, 0, msg, sizeof msg), 2);
    assert_int_equal(lab_toolchain_decide(kv("2.4.19"), "x86_64", &g12, 0, msg, sizeof msg), 0);
    /* no compiler builds an arch the tree lacks: no --cc hint, only why */
    assert_non_null(strstr(msg, "linux 2.4.19 has no x86_64 code: 2.4 has no arch/x86_64 before"));
    assert_null(strstr(msg, "--cc"));
    assert_int_equal(lab_toolchain_decide(kv("2.4.20"), "x86_64", &g12, 0, msg, sizeof msg), 2);
    assert_int_equal(lab_toolchain_decide(kv("4.19"), "x86_64", &g12, 0, msg, sizeof msg), 2);
    assert_int_equal(lab_toolchain_decide(kv("5.4"), "x86_64", &g12, 0, msg, sizeof msg), 2);
    assert_int_equal(lab_toolchain_decide(kv("5.10.89"), "x86_64", &g12, 0, msg, sizeof msg), 2);
    assert_int_equal(lab_toolchain_decide(kv("3.10"), "i686", &g12, 0, msg, sizeof msg), 2);
    assert_int_equal(lab_toolchain_decide(kv("3.10"), "x86_64", &g12, 0, msg, sizeof msg), 2);
    assert_int_equal(lab_toolchain_decide(kv("2.6.20"), "x86_64", &g12, 0, msg, sizeof msg), 2);
    assert_int_equal(lab_toolchain_decide(kv("2.6.12-rc2"), "x86_64", &g12, 0, msg, sizeof msg), 2);
    assert_int_equal(lab_toolchain_decide(kv("2.4.22"), "x86_64", &g12, 0, msg, sizeof msg), 2);
    assert_int_equal(lab_toolchain_decide(kv("2.4.18"), "i686", &g13, 0, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "linux 2.4.18 needs gcc 2.95..3.4"));
    assert_non_null(strstr(msg, "--cc gcc-3.4"));
    assert_int_equal(lab_toolchain_decide(kv("2.6.9"), "i686", &g13, 0, msg, sizeof msg), 0);
    assert_int_equal(lab_toolchain_decide(kv("2.4.22"), "i686", &cl, 0, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "clang"));
}

/* Every version from 2.4.0 to 6.x, on both arches, resolves to exactly
 * one decision with the host's gcc 12 and gcc 11: native (the compiler
 * table), through the layer (a coverage row), or refused with the layer's
 * reason. None falls between rules, none is both covered and refused. */
static void walk_one(lab_kver v, const char *arch, const struct lab_compiler *cc)
{
    char msg[1024], ver[32];
    unsigned a = lab_compat_arch(arch);
    lab_kver_format(v, ver, sizeof ver);
    int d = lab_toolchain_decide(v, arch, cc, 0, msg, sizeof msg);
    const struct lab_compat_cover *c = lab_compat_covers(v, a);
    const struct lab_compat_refusal *r = lab_compat_refuses(v, a);
    if (c && r)
        fail_msg("linux %s %s is both covered and refused", ver, arch);
    if (d == 0 && !r)
        fail_msg("linux %s %s with %s: refused with no reason of the layer", ver, arch, cc->text);
    if (d == 0 && !strstr(msg, r->reason))
        fail_msg("linux %s %s: the refusal does not give the layer's reason: %s", ver, arch, msg);
    if (d == 2 && !c)
        fail_msg("linux %s %s: through the layer without a coverage row", ver, arch);
    if (d == 1 && (c || r))
        fail_msg("linux %s %s: native, yet a layer row names it", ver, arch);
}

static void test_every_version_resolves(void **state)
{
    struct lab_compiler g12, g11;
    assert_int_equal(lab_compiler_parse("12", "gcc (Debian 12.2.0-14+deb12u1) 12.2.0", &g12), 0);
    assert_int_equal(lab_compiler_parse("11", "gcc-11 (Debian 11.3.0-12) 11.3.0", &g11), 0);
    /* the last minor of each series, and the highest sublevel walked */
    static const struct {
        unsigned major, minor_max, patch_max;
    } series[] = {{2, 6, 40}, {3, 19, 3}, {4, 20, 3}, {5, 19, 3}, {6, 12, 3}};
    const char *arches[] = {"i686", "x86_64"};
    int walked = 0;
    for (size_t s = 0; s < sizeof series / sizeof series[0]; s++) {
        unsigned minor0 = series[s].major == 2 ? 4 : 0;
        for (unsigned m = minor0; m <= series[s].minor_max; m++) {
            unsigned pmax = series[s].major == 2 && m != 6 ? 80 : series[s].patch_max;
            static const unsigned rcs[] = {1, 8, 255}; /* -rc1, -rc8, the release */
            for (unsigned p = 0; p <= pmax; p++)
                for (size_t k = 0; k < 3; k++)
                    for (size_t a = 0; a < 2; a++) {
                        lab_kver v = LAB_KV4(series[s].major, m, p, 0, rcs[k]);
                        walk_one(v, arches[a], &g12);
                        walk_one(v, arches[a], &g11);
                        walked++;
                    }
        }
    }
    assert_true(walked > 1000);
    /* the boundaries by name: covered, refused, native */
    char msg[1024];
    assert_int_equal(lab_toolchain_decide(kv("2.6.20"), "i686", &g12, 0, msg, sizeof msg), 2);
    assert_int_equal(lab_toolchain_decide(kv("2.6.13-rc1"), "i686", &g12, 0, msg, sizeof msg), 2);
    assert_int_equal(lab_toolchain_decide(kv("2.5.75"), "i686", &g12, 0, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "development series"));
    assert_int_equal(lab_toolchain_decide(kv("2.6.20"), "x86_64", &g12, 0, msg, sizeof msg), 2);
    assert_int_equal(lab_toolchain_decide(kv("2.4.19"), "x86_64", &g12, 0, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "--arch i686"));
    assert_int_equal(lab_toolchain_decide(kv("2.4.20"), "x86_64", &g12, 0, msg, sizeof msg), 2);
    assert_int_equal(lab_toolchain_decide(kv("5.16"), "i686", &g12, 0, msg, sizeof msg), 1);
    assert_int_equal(lab_toolchain_decide(kv("6.12.3"), "x86_64", &g12, 0, msg, sizeof msg), 1);
}

/* Multi-line string literals: the shape of 2.4.16's include/asm-i386/
 * checksum.h, and what must stay as it is around them. */
static void test_join_strings(void **state)
{
    static const char in[] =
        "#error this can't be \"here\n"                             /* a #error's apostrophe */
        "/* a \"quote in a comment\n   \" */ char q = '\"';\n"      /* comment, char literal */
        "const char *s = \"a\\\n b\";\n"                            /* a splice stays */
        "__asm__(\"\n\tmovl %0, %%eax\n1:\tdecl %1\n\tjnz 1b\n\"\n" /* the asm */
        "\t: \"=r\"(x) : \"r\"(y));\n// it's \"done\n";
    static const char want[] =
        "#error this can't be \"here\n" /* a directive's open quote ends with its line */
        "/* a \"quote in a comment\n   \" */ char q = '\"';\n"
        "const char *s = \"a\\\n b\";\n"
        "__asm__(\"\\n\"\n\"\tmovl %0, %%eax\\n\"\n\"1:\tdecl %1\\n\"\n\"\tjnz 1b\\n\"\n\"\"\n"
        "\t: \"=r\"(x) : \"r\"(y));\n// it's \"done\n";
    char *out;
    (void)state;
    assert_int_equal(lab_compat_join_strings(in, &out), 4);
    assert_string_equal(out, want);
    char *again;
    assert_int_equal(lab_compat_join_strings(want, &again), 0); /* done once */
    free(again);
    free(out);

    /* From the log, in the row's range only (2.4.0 to 2.4.19). */
    char dir[] = "/tmp/lab-compat-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *f = lab_asprintf("%s/checksum.h", dir);
    const char *h = "asm(\"\n\tnop\n\");\n";
    assert_int_equal(lab_write_file(f, h, strlen(h)), 0);
    char *log = lab_asprintf("%s:2:10: warning: missing terminating \" character\n"
                             "%s:2:10: error: missing terminating \" character\n"
                             "%s:3:1: error: missing terminating \" character\n",
                             f, f, f);
    assert_int_equal(lab_compat_fix_strings(dir, log, NULL, kv("2.4.22"), LAB_COMPAT_I386), 0);
    assert_int_equal(lab_compat_fix_strings(dir, log, NULL, kv("2.4.16"), LAB_COMPAT_I386), 1);
    size_t len;
    char *now = lab_read_file(f, &len);
    assert_string_equal(now, "asm(\"\\n\"\n\"\tnop\\n\"\n\"\");\n");
    assert_int_equal(lab_compat_fix_strings(dir, log, NULL, kv("2.4.16"), LAB_COMPAT_I386), 0);
    free(now);
    lab_rm_rf(dir);
    free(log);
    free(f);
}

/* __FUNCTION__ pasted to literals (2.4.16's irda, netlink and drivers):
 * the literal gcc 3.3 saw comes back; what is not pasted stays. */
static void test_function_pasting(void **state)
{
    static const char in[] =
        "#define DPRINTK(fmt, args...) printk(KERN_DEBUG __FUNCTION__ fmt, ## args)\n"
        "#define FN __FUNCTION__\n"
        "/* __FUNCTION__ \"in a comment\" */\n"
        "static int __init iriap_open(int a) __attribute__((unused))\n"
        "{\n"
        "\tif (a) {\n"
        "\t\tIRDA_DEBUG(2, __FUNCTION__ \"(), a=%d\\n\", a);\n"
        "\t\tprintk(\"%s: \" \"__FUNCTION__\\n\", __FUNCTION__);\n"
        "\t}\n"
        "\tprintk(KERN_ERR __PRETTY_FUNCTION__ \": done\\n\");\n"
        "\treturn 0;\n"
        "}\n"
        "struct s x = { 1 };\n"
        "void g(void)\n"
        "{\n"
        "\tpanic(\"at \" __FUNCTION__);\n"
        "}\n";
    static const char want[] =
        "#define DPRINTK(fmt, args...) printk(KERN_DEBUG __FILE__ fmt, ## args)\n"
        "#define FN __FUNCTION__\n"
        "/* __FUNCTION__ \"in a comment\" */\n"
        "static int __init iriap_open(int a) __attribute__((unused))\n"
        "{\n"
        "\tif (a) {\n"
        "\t\tIRDA_DEBUG(2, \"iriap_open\" \"(), a=%d\\n\", a);\n"
        "\t\tprintk(\"%s: \" \"__FUNCTION__\\n\", __FUNCTION__);\n"
        "\t}\n"
        "\tprintk(KERN_ERR \"iriap_open\" \": done\\n\");\n"
        "\treturn 0;\n"
        "}\n"
        "struct s x = { 1 };\n"
        "void g(void)\n"
        "{\n"
        "\tpanic(\"at \" \"g\");\n"
        "}\n";
    char *out, *again;
    (void)state;
    assert_int_equal(lab_compat_paste_function_names(in, &out), 4);
    assert_string_equal(out, want);
    assert_int_equal(lab_compat_paste_function_names(want, &again), 0); /* done once */
    free(again);
    free(out);

    /* The row: every .c and .h at any depth, on 2.4 only. */
    char dir[] = "/tmp/lab-compat-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *sub = lab_asprintf("%s/net/irda", dir), *f = lab_asprintf("%s/iriap.c", sub);
    char *cmd = lab_asprintf("mkdir -p %s", sub);
    assert_int_equal(system(cmd), 0);
    const char *c = "void f(void)\n{\n\tWARNING(__FUNCTION__ \"()\\n\");\n}\n";
    assert_int_equal(lab_write_file(f, c, strlen(c)), 0);
    assert_int_equal(lab_compat_apply_tree(dir, kv("2.6.9"), LAB_COMPAT_I386, NULL), 0);
    assert_int_equal(lab_compat_apply_tree(dir, kv("2.4.16"), LAB_COMPAT_I386, NULL), 1);
    size_t len;
    char *now = lab_read_file(f, &len);
    assert_string_equal(now, "void f(void)\n{\n\tWARNING(\"f\" \"()\\n\");\n}\n");
    free(now);
    assert_int_equal(lab_compat_apply_tree(dir, kv("2.4.16"), LAB_COMPAT_I386, NULL), 0);
    lab_rm_rf(dir);
    free(cmd);
    free(f);
    free(sub);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coverage),
        cmocka_unit_test(test_which_fixups),
        cmocka_unit_test(test_flags),
        cmocka_unit_test(test_segreg),
        cmocka_unit_test(test_switch_to_esp),
        cmocka_unit_test(test_rmw),
        cmocka_unit_test(test_regex_rows),
        cmocka_unit_test(test_conflicts),
        cmocka_unit_test(test_fix_tree),
        cmocka_unit_test(test_join_strings),
        cmocka_unit_test(test_function_pasting),
        cmocka_unit_test(test_toolchain_decision),
        cmocka_unit_test(test_every_version_resolves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
