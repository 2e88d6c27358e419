/* The compiler-per-era table and the build go/refuse decision. */
#include "kernels/toolchain.h"

#include "kernels/compat.h"
#include "common/proc.h"
#include "common/msg.h"
#include "common/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* Sources, cited in each row (and in kernels/README.md):
 *  [changes]  Documentation/Changes (2.4, 2.6) and
 *             Documentation/process/changes.rst: the minimal gcc. 2.4 and
 *             2.6.0 list gcc 2.95.3; 3.2 later in 2.6; 4.6 from 4.19;
 *             4.9 from 5.8 ("Raise gcc version requirement to 4.9", Linus
 *             Torvalds, 2020-07-08, after "compiler/gcc: Raise minimum GCC
 *             version for kernel builds to 4.8"); 5.1 from 5.15 (merge
 *             'gcc-min-version-5.1', after 5.15-rc1); 8.1 on x86 from 6.15
 *             ("x86/build: Raise the minimum GCC version to 8.1"), all
 *             arches from 6.16.
 *  [design]   docs/era-facts.md: gcc 4.4 builds up to 2.6.36, gcc 4.8 from
 *             2.6.37 to 5.2 (x86_64 host, a few patches for the oldest).
 *  [syz]      syzkaller pkg/vcs/linux.go linuxGCCPath: v5.16+ the default
 *             compiler, v5.9..v5.15 gcc 10.1,
 *             v4.12..v5.8 gcc 8.1, v4.11 gcc 7.3, older gcc 5.5.
 *  [hdr]      include/linux/compiler-gcc5.h first appears in 3.18: older
 *             trees stop with "compiler-gcc5.h: No such file" under gcc 5;
 *             4.2 merged compiler-gcc{3,4,5}.h into compiler-gcc.h, before
 *             which gcc 6+ is unknown to the tree. */
static const struct lab_toolchain_row rows[] = {
    {LAB_KV(2, 4, 0), LAB_KV(2, 6, 0), LAB_CC(2, 95), LAB_CC(3, 4), "gcc-3.4", "etch",
     "2.4 Documentation/Changes (gcc 2.95.3); docs/era-facts.md (gcc 2.95/3.x for 2.4)"},
    {LAB_KV(2, 6, 0), LAB_KV(2, 6, 37), LAB_CC(3, 2), LAB_CC(4, 4), "gcc-4.4", "squeeze",
     "Documentation/Changes (gcc 2.95.3 in 2.6.0, 3.2 later); docs/era-facts.md (gcc 4.4 builds "
     "up to 2.6.36)"},
    {LAB_KV(2, 6, 37), LAB_KV(3, 18, 0), LAB_CC(3, 2), LAB_CC(4, 9), "gcc-4.8", "jessie",
     "docs/era-facts.md (gcc 4.8 from 2.6.37 to 5.2); no include/linux/compiler-gcc5.h before "
     "3.18"},
    {LAB_KV(3, 18, 0), LAB_KV(4, 2, 0), LAB_CC(3, 2), LAB_CC(5, 99), "gcc-4.8", "jessie",
     "docs/era-facts.md (gcc 4.8 to 5.2); compiler-gcc5.h from 3.18, gcc 6+ unknown before 4.2"},
    {LAB_KV(4, 2, 0), LAB_KV(4, 11, 0), LAB_CC(3, 2), LAB_CC(5, 99), "gcc-4.8", "jessie",
     "syzkaller pkg/vcs/linux.go (gcc 5.5 before v4.11); docs/era-facts.md (gcc 4.8 to 5.2)"},
    {LAB_KV(4, 11, 0), LAB_KV(4, 12, 0), LAB_CC(3, 2), LAB_CC(7, 99), "gcc-4.8", "jessie",
     "syzkaller pkg/vcs/linux.go (v4.11: gcc 7.3); docs/era-facts.md (gcc 4.8 to 5.2)"},
    {LAB_KV(4, 12, 0), LAB_KV(4, 19, 0), LAB_CC(3, 2), LAB_CC(8, 99), "gcc-8", "buster",
     "syzkaller pkg/vcs/linux.go (v4.12..v5.8: gcc 8.1)"},
    {LAB_KV(4, 19, 0), LAB_KV(5, 8, 0), LAB_CC(4, 6), LAB_CC(8, 99), "gcc-8", "buster",
     "changes.rst (gcc 4.6 from 4.19); syzkaller pkg/vcs/linux.go (v4.12..v5.8: gcc 8.1)"},
    {LAB_KV(5, 8, 0), LAB_KV(5, 9, 0), LAB_CC(4, 9), LAB_CC(8, 99), "gcc-8", "buster",
     "changes.rst (gcc 4.9 from 5.8); syzkaller pkg/vcs/linux.go (v4.12..v5.8: gcc 8.1)"},
    {LAB_KV(5, 9, 0), LAB_KV(5, 15, 0), LAB_CC(4, 9), LAB_CC(10, 99), "gcc-10", "bullseye",
     "changes.rst (gcc 4.9); syzkaller pkg/vcs/linux.go (v5.9..v5.15: gcc 10.1)"},
    {LAB_KV(5, 15, 0), LAB_KV(5, 16, 0), LAB_CC(5, 1), LAB_CC(10, 99), "gcc-10", "bullseye",
     "changes.rst (gcc 5.1 from 5.15); syzkaller pkg/vcs/linux.go (v5.9..v5.15: gcc 10.1)"},
    {LAB_KV(5, 16, 0), LAB_KV(6, 15, 0), LAB_CC(5, 1), 0, "gcc-12", "bookworm",
     "changes.rst (gcc 5.1); syzkaller pkg/vcs/linux.go (v5.16+: the current compiler); "
     "6.1 built here with gcc 12.2"},
    {LAB_KV(6, 15, 0), 0, LAB_CC(8, 1), 0, "gcc-12", "bookworm",
     "changes.rst (gcc 8.1 on x86 from 6.15, all architectures from 6.16)"},
};

size_t lab_toolchain_row_count(void)
{
    return sizeof rows / sizeof rows[0];
}

const struct lab_toolchain_row *lab_toolchain_row_at(size_t i)
{
    return i < lab_toolchain_row_count() ? &rows[i] : NULL;
}

const struct lab_toolchain_row *lab_toolchain_for(lab_kver v)
{
    /* -rc kernels belong to their release's range (LAB_KV(x) is the
     * release; its -rcN sort below it). */
    lab_kver rel = (v & ~(lab_kver)0xff) | 0xff;
    for (size_t i = 0; i < lab_toolchain_row_count(); i++)
        if (rel >= rows[i].from && (!rows[i].until || rel < rows[i].until))
            return &rows[i];
    return NULL;
}

int lab_compiler_parse(const char *dumpversion, const char *version_line, struct lab_compiler *out)
{
    memset(out, 0, sizeof *out);
    int maj = 0, min = 0, n;
    if (!dumpversion || (n = sscanf(dumpversion, "%d.%d", &maj, &min)) < 1 || maj <= 0)
        return -1;
    out->version = LAB_CC(maj, min);
    out->is_clang = version_line && strstr(version_line, "clang") != NULL;
    /* gcc 7+ prints only the major ("12"); --version has the rest */
    if (n == 1 && version_line && !out->is_clang) {
        const char *p = strstr(version_line, ") ");
        int a, b;
        if (p && sscanf(p + 2, "%d.%d", &a, &b) == 2 && a == maj) {
            min = b;
            n = 2;
            out->version = LAB_CC(maj, min);
        }
    }
    if (n == 1)
        snprintf(out->text, sizeof out->text, "%s %d", out->is_clang ? "clang" : "gcc", maj);
    else
        snprintf(out->text, sizeof out->text, "%s %d.%d", out->is_clang ? "clang" : "gcc", maj,
                 min);
    return 0;
}

int lab_compiler_probe(const char *cc, const char *wrap, struct lab_compiler *out,
                       char **full_version)
{
    char *c1 =
        lab_asprintf("%s%s%s -dumpversion 2>/dev/null", wrap ? wrap : "", wrap ? " " : "", cc);
    char *c2 = lab_asprintf("%s%s%s --version 2>/dev/null", wrap ? wrap : "", wrap ? " " : "", cc);
    char *dv = lab_capture(c1);
    char *vv = dv ? lab_capture(c2) : NULL;
    int rc = 0;
    if (!dv || !vv || lab_compiler_parse(dv, vv, out) < 0)
        rc = lab_error("cannot run the compiler: `%s` failed%s", c1,
                       wrap ? " (is the --wrap prefix right?)"
                            : "; install it or name another with --cc");
    if (rc == 0 && full_version)
        *full_version = lab_xstrdup(vv);
    free(dv);
    free(vv);
    free(c1);
    free(c2);
    return rc;
}

void lab_toolchain_fmt_gcc(int v, char *buf, size_t len)
{
    if (v % 100 == 99)
        snprintf(buf, len, "%d", v / 100);
    else
        snprintf(buf, len, "%d.%d", v / 100, v % 100);
}

int lab_toolchain_check(lab_kver v, const struct lab_compiler *cc, int user_cc, char *msg,
                        size_t len)
{
    char ver[32], lo[16], hi[16];
    lab_kver_format(v, ver, sizeof ver);
    const struct lab_toolchain_row *r = lab_toolchain_for(v);
    if (!r) {
        snprintf(msg, len, "linux %s is older than any row of the compiler table (2.4.0 on)", ver);
        return 0;
    }
    if (cc->is_clang) {
        /* syzkaller: clang from v5.3 (everything before v5.1 does not work). */
        if (v >= LAB_KV(5, 3, 0))
            return 1;
        snprintf(msg, len,
                 "linux %s cannot be built with clang (clang builds x86 from 5.3, see syzkaller "
                 "pkg/vcs/linux.go); point the lab at %s with --cc %s",
                 ver, r->hint, r->hint);
        return 0;
    }
    int too_old = cc->version < r->gcc_min;
    int too_new = r->gcc_max && cc->version > r->gcc_max;
    if (!too_old && !too_new)
        return 1;
    lab_toolchain_fmt_gcc(r->gcc_min, lo, sizeof lo);
    lab_toolchain_fmt_gcc(r->gcc_max, hi, sizeof hi);
    char range[40];
    if (r->gcc_max)
        snprintf(range, sizeof range, "gcc %s..%s", lo, hi);
    else
        snprintf(range, sizeof range, "gcc %s or newer", lo);
    snprintf(msg, len,
             "linux %s needs %s (see %s); %s has %s. Point the lab at one with --cc %s, or run "
             "the build inside a chroot with --wrap 'schroot -c %s --' (Debian %s ships %s)",
             ver, range, r->source, user_cc ? "this compiler" : "this host", cc->text, r->hint,
             r->chroot, r->chroot, r->hint);
    return 0;
}

int lab_toolchain_decide(lab_kver v, const char *arch, const struct lab_compiler *cc, int user_cc,
                         char *msg, size_t len)
{
    unsigned a = lab_compat_arch(arch);
    const struct lab_compat_refusal *r = lab_compat_refuses(v, a);
    if (r && r->no_arch) { /* no compiler helps: say only why */
        char ver[32];
        lab_kver_format(v, ver, sizeof ver);
        snprintf(msg, len, "linux %s has no %s code: %s", ver, arch ? arch : "x86_64", r->reason);
        return 0;
    }
    if (lab_toolchain_check(v, cc, user_cc, msg, len))
        return 1;
    const struct lab_compat_cover *c = lab_compat_covers(v, a);
    if (c && !cc->is_clang && cc->version >= c->gcc_min && cc->version <= c->gcc_max)
        return 2;
    /* the layer's own reason, after the compiler table's */
    size_t n = strlen(msg);
    if (r && n + 1 < len)
        snprintf(msg + n, len - n, ". The era compat layer: %s", r->reason);
    return 0;
}
