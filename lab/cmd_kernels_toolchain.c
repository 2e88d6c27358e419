/* lab kernels toolchain: the compiler table (kernels/toolchain.h) and the
 * era compat layer (kernels/compat.h); with a VERSION, what the builder does
 * for it on this host. */
#include "kernels/compat.h"
#include "kernels/release.h"
#include "kernels/toolchain.h"
#include "lab/cmd_kernels.h"
#include "common/msg.h"

#include <stdio.h>
#include <string.h>

static void print_range(const struct lab_compat_range *r, char *buf, size_t len)
{
    char from[32], until[32] = "";
    lab_kver_format(r->from, from, sizeof from);
    if (r->until)
        lab_kver_format(r->until, until, sizeof until);
    /* ranges start at -rc0: print the release */
    char *rc = strstr(from, "-rc0");
    if (rc)
        *rc = '\0';
    rc = strstr(until, "-rc0");
    if (rc)
        *rc = '\0';
    snprintf(buf, len, "%s..%s%s %s%s", from, r->until ? "<" : "", until,
             r->arch & LAB_COMPAT_I386 ? "i686" : "",
             r->arch == LAB_COMPAT_ANY     ? ",x86_64"
             : r->arch & LAB_COMPAT_X86_64 ? "x86_64"
                                           : "");
}

static void print_verified(void)
{
    printf("\nBuilt and booted with the era compat layer here (only these were verified):\n");
    for (size_t i = 0; i < lab_compat_verified_count(); i++) {
        const struct lab_compat_verified *v = lab_compat_verified_at(i);
        printf("  %-12s %-7s %-9s %s  %s\n", v->version, v->arch, v->gcc, v->date, v->result);
    }
}

/* What the builder does for one version and arch. */
static void toolchain_for(lab_kver v, const char *vs, const char *arch,
                          const struct lab_compiler *host)
{
    unsigned a = lab_compat_arch(arch);
    char msg[1024];
    printf("linux %s %s:\n", vs, arch);
    const struct lab_toolchain_row *r = lab_toolchain_for(v);
    if (r) {
        char lo[16], hi[16] = "any";
        lab_toolchain_fmt_gcc(r->gcc_min, lo, sizeof lo);
        if (r->gcc_max)
            lab_toolchain_fmt_gcc(r->gcc_max, hi, sizeof hi);
        printf("  native: gcc %s..%s (%s)\n", lo, hi, r->source);
    }
    const struct lab_compat_cover *c = lab_compat_covers(v, a);
    if (c) {
        char lo[16], hi[16];
        snprintf(lo, sizeof lo, "%d", c->gcc_min / 100); /* from N.0 */
        lab_toolchain_fmt_gcc(c->gcc_max, hi, sizeof hi);
        printf("  era compat layer: covered with gcc %s..%s (%s)\n", lo, hi, c->note);
    } else {
        const struct lab_compat_refusal *rf = lab_compat_refuses(v, a);
        printf("  era compat layer: not covered%s%s\n", rf ? ": " : "", rf ? rf->reason : "");
    }
    if (host) {
        int d = lab_toolchain_decide(v, arch, host, 0, msg, sizeof msg);
        printf("  this host's %s: %s\n", host->text,
               d == 1   ? "builds it natively"
               : d == 2 ? "builds it through the era compat layer"
                        : "refused");
        if (!d)
            printf("    %s\n", msg);
    }
    if (!c)
        return;
    struct lab_compat_vars cv;
    lab_compat_vars_for(v, a, &cv);
    printf("  make: CC=\"gcc %s\"%s%s%s%s%s%s%s%s%s\n", cv.cflags, *cv.as ? " AS=\"" : "", cv.as,
           *cv.as ? "\"" : "", *cv.ld ? " LD=\"" : "", cv.ld, *cv.ld ? "\"" : "",
           *cv.hostcc ? " HOSTCC=\"gcc " : "", cv.hostcc, *cv.hostcc ? "\"" : "");
    lab_compat_vars_free(&cv);
    printf("  flags:\n");
    for (size_t i = 0; i < lab_compat_flag_count(); i++) {
        const struct lab_compat_flag *f = lab_compat_flag_at(i);
        if (lab_compat_range_has(&f->r, v, a))
            printf("    %-34s %s\n", f->value, f->why);
    }
    printf("  fixups (on the lab's copy of the tree):\n");
    for (size_t i = 0; i < lab_compat_fixup_count(); i++) {
        const struct lab_compat_fixup *f = lab_compat_fixup_at(i);
        if (!lab_compat_range_has(&f->r, v, a))
            continue;
        printf("    %-22s %s\n", f->id, f->files);
        printf("    %-22s   changes: %s\n", "", f->what);
        printf("    %-22s   because: %s\n", "", f->tool);
    }
}

/* The compiler table (kernels/toolchain.h) and the era compat layer
 * (kernels/compat.h); with a VERSION, what applies to it. */
int lab_kernels_toolchain(int argc, char **argv)
{
    const char *version = NULL, *arch = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--arch") == 0 && i + 1 < argc)
            arch = argv[++i];
        else if (!version && argv[i][0] != '-')
            version = argv[i];
        else {
            lab_error("usage: lab kernels toolchain [VERSION [--arch x86_64|i686]]");
            return 2;
        }
    }
    if (version) {
        lab_kver v;
        if (lab_kver_parse(version, &v) < 0) {
            lab_error("%s: not a kernel version", version);
            return 2;
        }
        struct lab_compiler host;
        int have = lab_compiler_probe("gcc", NULL, &host, NULL) == 0;
        if (arch) {
            toolchain_for(v, version, arch, have ? &host : NULL);
        } else {
            toolchain_for(v, version, "i686", have ? &host : NULL);
            toolchain_for(v, version, "x86_64", have ? &host : NULL);
        }
        print_verified();
        return 0;
    }
    printf("%-22s %-9s %-9s %-9s %s\n", "KERNELS", "GCC MIN", "GCC MAX", "SUGGEST", "SOURCE");
    for (size_t i = 0; i < lab_toolchain_row_count(); i++) {
        const struct lab_toolchain_row *r = lab_toolchain_row_at(i);
        char from[32], until[32] = "", range[72], lo[16], hi[16] = "any";
        lab_kver_format(r->from, from, sizeof from);
        if (r->until)
            lab_kver_format(r->until, until, sizeof until);
        snprintf(range, sizeof range, "%s..%s%s", from, r->until ? "<" : "", until);
        lab_toolchain_fmt_gcc(r->gcc_min, lo, sizeof lo);
        if (r->gcc_max)
            lab_toolchain_fmt_gcc(r->gcc_max, hi, sizeof hi);
        printf("%-22s %-9s %-9s %-9s %s\n", range, lo, hi, r->hint, r->source);
    }
    printf("\nEra compat layer: these build with the host's gcc (flags and fixups; "
           "`lab kernels toolchain VERSION` lists them):\n");
    for (size_t i = 0; i < lab_compat_cover_count(); i++) {
        const struct lab_compat_cover *c = lab_compat_cover_at(i);
        char range[80], lo[16], hi[16];
        print_range(&c->r, range, sizeof range);
        snprintf(lo, sizeof lo, "%d", c->gcc_min / 100); /* from N.0 */
        lab_toolchain_fmt_gcc(c->gcc_max, hi, sizeof hi);
        printf("%-28s gcc %s..%s  %s\n", range, lo, hi, c->note);
    }
    printf("\nRefused by the layer (use --cc or --wrap with a compiler of the era):\n");
    for (size_t i = 0; i < lab_compat_refusal_count(); i++) {
        const struct lab_compat_refusal *r = lab_compat_refusal_at(i);
        char range[80];
        print_range(&r->r, range, sizeof range);
        printf("%-28s %s\n", range, r->reason);
    }
    print_verified();
    return 0;
}
