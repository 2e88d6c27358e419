/* lab kernels: the catalog, which kernels are already in the cache, what
 * each kernel's era means for a cell (kernels/era.h), user kernels (add,
 * remove: kernels/user.h) and the builder (kernels/build.h). */
#include "kernels/build.h"
#include "kernels/catalog.h"
#include "kernels/compat.h"
#include "lab/commands.h"
#include "kernels/era.h"
#include "kernels/fetch.h"
#include "kernels/kconfig.h"
#include "kernels/toolchain.h"
#include "kernels/user.h"
#include "lab/session.h"
#include "host/smoke.h"
#include "common/interrupt.h"
#include "common/msg.h"
#include "common/paths.h"
#include "common/str.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int unknown_kernel(const char *name)
{
    char *known = lab_kernel_known_names();
    lab_error("unknown kernel '%s'; known kernels: %s", name, known);
    free(known);
    return 2;
}

static int kernels_list(void)
{
    printf("%-14s %-7s %-9s %-7s %-44s %s\n", "NAME", "ARCH", "VERSION", "CACHED", "PACKAGE",
           "RELEASE");
    for (size_t i = 0; i < lab_kernel_count(); i++) {
        const struct lab_kernel *k = lab_kernel_at(i);
        char pkg[64];
        if (k->dir)
            snprintf(pkg, sizeof pkg, "(%s%s%s)", k->source,
                     k->builtin_drivers ? ", built-in drivers" : ", modules",
                     k->config_path ? ", .config" : "");
        printf("%-14s %-7s %-9s %-7s %-44s %s\n", k->name, k->arch, k->version,
               lab_kernel_is_cached(k) ? "yes" : "no", k->dir ? pkg : k->package, k->release);
    }
    printf("\ncache: %s/kernels\n", lab_home());
    return 0;
}

static int kernels_fetch(int argc, char **argv)
{
    int rc = 0;
    if (argc < 1) {
        lab_error("usage: lab kernels fetch NAME...");
        return 2;
    }
    for (int i = 0; i < argc; i++) {
        const struct lab_kernel *k = lab_kernel_find(argv[i]);
        struct lab_kernel_files f = {0};
        if (!k)
            return unknown_kernel(argv[i]);
        if (lab_kernel_fetch(k, &f) < 0) {
            rc = 1;
            continue;
        }
        printf("%s: %s\n", k->name, f.bzimage);
        lab_kernel_files_free(&f);
    }
    return rc;
}

/* The era decisions, the buses and the era table. */
static void print_era(const struct lab_era *era)
{
    printf("decisions (Linux %s, %s):\n", era->version_str, era->arch);
    printf("  %-16s %s\n", "boot image", lab_boot_image_name(era->boot));
    printf("  %-16s %s\n", "agent channel", lab_agent_channel_name(era->channel));
    printf("  %-16s %s\n", "cache drop", lab_cache_drop_name(era->drop));
    printf("  %-16s %s\n", "scheduler", lab_sched_iface_name(era->sched));
    printf("  %-16s %s\n", "device nodes", era->has_devtmpfs ? "devtmpfs" : "mknod by the agent");
    printf("  %-16s %s\n", "ide disk",
           era->ide_libata ? "ata_piix (libata), /dev/sdX" : "drivers/ide piix, /dev/hdX");
    printf("  %-16s %s\n", "PCI interrupts",
           era->pci_msi
               ? "MSI (.config): acpi=noirq on ide, sata, virtio-scsi; ACPI routing on scsi"
               : "ACPI routing (no MSI in the .config, or no .config)");
    printf("  %-16s %s\n", "modules",
           era->modules_loadable ? "loaded by the agent from the boot image"
                                 : "not loadable by the agent: drivers must be built in");
    printf("\nbuses:\n");
    for (size_t i = 0; lab_era_buses[i]; i++) {
        const char *bus = lab_era_buses[i];
        char reason[160];
        if (!lab_era_bus_supported(era, bus, reason, sizeof reason)) {
            printf("  %-12s no   %s\n", bus, reason);
            continue;
        }
        const char *mods[16];
        size_t n = lab_era_bus_modules(era, bus, mods, 16);
        printf("  %-12s yes  modules:", bus);
        if (n == 0)
            printf(" (built in)");
        for (size_t j = 0; j < n && j < 16; j++)
            printf(" %s", mods[j]);
        printf("\n");
    }
    printf("\n");
    lab_era_explain(era, stdout);
}

/* Which buses the kernel's .config can drive (kernels/kconfig.h). */
static void print_config_buses(const struct lab_kernel *k, const struct lab_era *era)
{
    struct lab_kconfig cfg;
    if (lab_kconfig_load(k->config_path, &cfg) < 0)
        return;
    cfg.kernel = k->name;
    cfg.have_modules = k->has_modules;
    printf("\nits .config (%s):\n", k->config_path);
    for (size_t i = 0; lab_era_buses[i]; i++) {
        char reason[200];
        int ok = lab_kconfig_bus_ok(&cfg, lab_era_buses[i], era, reason, sizeof reason);
        printf("  %-12s %-4s %s\n", lab_era_buses[i], ok == 1 ? "yes" : "no",
               ok == 1 ? lab_kconfig_bus_needs(lab_era_buses[i], era) : reason);
    }
    const enum lab_agent_channel chans[] = {LAB_AGENT_CHAN_VIRTIO_PORT, LAB_AGENT_CHAN_UART};
    for (size_t i = 0; i < 2; i++) {
        char reason[200];
        int ok = lab_kconfig_channel_ok(&cfg, chans[i], era, reason, sizeof reason);
        printf("  %-12s %-4s %s\n", i ? "uart" : "virtio", ok == 1 ? "yes" : "no",
               ok == 1 ? "agent channel" : reason);
    }
    lab_kconfig_free(&cfg);
}

static int kernels_show(int argc, char **argv)
{
    if (argc != 1) {
        lab_error("usage: lab kernels show NAME");
        return 2;
    }
    const struct lab_kernel *k = lab_kernel_find(argv[0]);
    if (!k)
        return unknown_kernel(argv[0]);
    struct lab_kernel_files f;
    int cached = lab_kernel_files_for(k, &f);
    printf("kernel %s\n", k->name);
    printf("  %-16s %s\n", "version", k->version);
    printf("  %-16s %s\n", "release", k->release);
    printf("  %-16s %s\n", "arch", k->arch);
    if (k->dir) {
        printf("  %-16s %s (registered in %s)\n", "source", k->source, k->dir);
        printf("  %-16s %s\n", "image version", k->banner);
        printf("  %-16s %s\n", "drivers",
               k->builtin_drivers ? "built in (no modules tree: the agent loads none)"
                                  : "modules tree given");
        printf("  %-16s %s\n", "config", k->config_path ? k->config_path : "(none given)");
        printf("  %-16s %s%s%s\n", "smoke test",
               k->verified                       ? k->verified
               : strcmp(k->source, "build") == 0 ? "not run (lab kernels verify)"
                                                 : "not run",
               k->verified_note ? ": " : "", k->verified_note ? k->verified_note : "");
    } else {
        printf("  %-16s %s (%s, %s)\n", "package", k->package, k->source, k->deb_arch);
    }
    if (k->dir) {
        /* the paths are printed above or fixed (dir/bzImage) */
        printf("  %-16s %s\n", "bzImage", f.bzimage);
        if (k->has_modules)
            printf("  %-16s %s\n", "modules", f.modules_dir);
    } else if (cached) {
        printf("  %-16s yes\n", "cached");
        printf("  %-16s %s\n", "bzImage", f.bzimage);
        printf("  %-16s %s\n", "modules", f.modules_dir);
        printf("  %-16s %s\n", "config", f.config);
    } else {
        printf("  %-16s no (lab kernels fetch %s -> %s)\n", "cached", k->name, f.dir);
    }
    lab_kernel_files_free(&f);
    printf("\n");
    struct lab_era era;
    if (lab_kernel_era(k, &era) < 0)
        return 1;
    print_era(&era);
    if (k->config_path)
        print_config_buses(k, &era);
    return 0;
}

/* The era of any kernel version, catalog or not (user-supplied kernels). */
static int kernels_era(int argc, char **argv)
{
    if (argc < 1 || argc > 2) {
        lab_error("usage: lab kernels era VERSION [ARCH]");
        return 2;
    }
    struct lab_era era;
    if (lab_era_for(argv[0], argc > 1 ? argv[1] : "x86_64", &era) < 0)
        return 2;
    print_era(&era);
    return 0;
}

static int kernels_add(int argc, char **argv)
{
    struct lab_user_kernel_spec s = {.source = "user"};
    static const struct option opts[] = {{"image", required_argument, NULL, 'i'},
                                         {"modules", required_argument, NULL, 'm'},
                                         {"config", required_argument, NULL, 'c'},
                                         {"arch", required_argument, NULL, 'a'},
                                         {"replace", no_argument, NULL, 'r'},
                                         {"system-map", required_argument, NULL, 's'},
                                         {NULL, 0, NULL, 0}};
    const char *usage = "usage: lab kernels add NAME --image BZIMAGE [--modules DIR] "
                        "[--config FILE] [--system-map FILE] [--arch x86_64|i686] [--replace]";
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 'i':
            s.image = optarg;
            break;
        case 'm':
            s.modules_dir = optarg;
            break;
        case 'c':
            s.config = optarg;
            break;
        case 'a':
            s.arch = optarg;
            break;
        case 'r':
            s.replace = 1;
            break;
        case 's':
            s.system_map = optarg;
            break;
        default:
            lab_error("%s", usage);
            return 2;
        }
    }
    if (optind + 1 != argc || !s.image) {
        lab_error("%s", usage);
        return 2;
    }
    s.name = argv[optind];
    if (lab_user_kernel_add(&s) < 0)
        return 1;
    const struct lab_kernel *k = lab_kernel_find(s.name);
    if (!k)
        return 1;
    printf("added kernel %s: linux %s (%s), %s, %s\n", k->name, k->version, k->release, k->arch,
           k->builtin_drivers ? "drivers built in" : "with modules");
    return 0;
}

static int kernels_remove(int argc, char **argv)
{
    if (argc != 1) {
        lab_error("usage: lab kernels remove NAME");
        return 2;
    }
    if (lab_kernel_is_debian_name(argv[0])) {
        lab_error("%s is a Debian catalog kernel; only user kernels can be removed", argv[0]);
        return 2;
    }
    return lab_user_kernel_remove(argv[0]) < 0 ? 1 : 0;
}

static int smoke_and_mark(const char *name, int argc, char **argv);

static int kernels_build(int argc, char **argv)
{
    struct lab_build_spec s = {0};
    static const struct option opts[] = {
        {"name", required_argument, NULL, 'n'}, {"config", required_argument, NULL, 'c'},
        {"cc", required_argument, NULL, 'C'},   {"wrap", required_argument, NULL, 'w'},
        {"jobs", required_argument, NULL, 'j'}, {"repo", required_argument, NULL, 'R'},
        {"ref", required_argument, NULL, 'r'},  {"arch", required_argument, NULL, 'a'},
        {"keep", no_argument, NULL, 'k'},       {NULL, 0, NULL, 0}};
    const char *usage =
        "usage: lab kernels build SRC|--repo DIR --ref REF [--name NAME] [--config FRAGMENT] "
        "[--cc CC] [--wrap PREFIX] [--jobs N] [--arch x86_64|i686] [--keep]\n"
        "  SRC: a source tarball, a directory (built with O=, left clean) or REPO:REF";
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "j:", opts, NULL)) != -1) {
        switch (c) {
        case 'n':
            s.name = optarg;
            break;
        case 'c':
            s.fragment = optarg;
            break;
        case 'C':
            s.cc = optarg;
            break;
        case 'w':
            s.wrap = optarg;
            break;
        case 'j': {
            uint64_t v;
            if (lab_parse_u64(optarg, 1, 256, &v) < 0) {
                lab_error("--jobs wants a number from 1 to 256, not '%s'", optarg);
                return 2;
            }
            s.jobs = (int)v;
            break;
        }
        case 'R':
            s.repo = optarg;
            break;
        case 'r':
            s.ref = optarg;
            break;
        case 'a':
            s.arch = optarg;
            break;
        case 'k':
            s.keep = 1;
            break;
        default:
            lab_error("%s", usage);
            return 2;
        }
    }
    if (optind < argc)
        s.src = argv[optind++];
    if (optind != argc || (!s.src && !s.repo)) {
        lab_error("%s", usage);
        return 2;
    }
    char *name = NULL;
    int rc = lab_kernel_build(&s, &name);
    if (rc == -2)
        return 2; /* the toolchain cannot build it: refused before starting */
    if (rc < 0)
        return 1;
    const struct lab_kernel *k = lab_kernel_find(name);
    printf("%s: linux %s (%s) -> %s/bzImage\n", name, k ? k->version : "?", k ? k->release : "?",
           k ? k->dir : "?");
    /* Never trust what only links: a build counts once it boots and reads
     * back what was written (a cached build keeps its verdict). */
    if (k && k->verified && strcmp(k->verified, "passed") == 0) {
        printf("%s: passed the IO smoke test earlier: %s\n", name,
               k->verified_note ? k->verified_note : "");
        free(name);
        return 0;
    }
    rc = smoke_and_mark(name, argc, argv);
    free(name);
    return rc;
}

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
    printf("\nTried with the era compat layer here:\n");
    for (size_t i = 0; i < lab_compat_verified_count(); i++) {
        const struct lab_compat_verified *v = lab_compat_verified_at(i);
        printf("  %-12s %-7s %-9s %s\n", v->version, v->arch, v->gcc, v->result);
    }
}

/* What the builder does for one version and arch. */
static void toolchain_for(lab_kver v, const char *vs, const char *arch,
                          const struct lab_compiler *host)
{
    unsigned a = lab_compat_arch(arch);
    char msg[512];
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
        printf("  era compat layer: not covered\n");
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
    printf("  make: CC=\"gcc %s\"%s%s%s%s%s%s\n", cv.cflags, *cv.as ? " AS=\"" : "", cv.as,
           *cv.as ? "\"" : "", *cv.ld ? " LD=\"" : "", cv.ld, *cv.ld ? "\"" : "");
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
static int kernels_toolchain(int argc, char **argv)
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
    print_verified();
    return 0;
}

/* Runs the IO smoke test on a kernel and records the verdict. 0 passed, 1
 * failed, 2 could not run it. */
static int smoke_and_mark(const char *name, int argc, char **argv)
{
    struct lab_session s;
    char note[1024];
    if (!lab_kernel_find(name)) {
        lab_error("unknown kernel '%s'", name);
        return 2;
    }
    if (lab_session_open(&s, argc, argv, "smoke", "fast") < 0)
        return 2;
    fprintf(stderr, "lab: %s: IO smoke test (%d MiB read %d times on ide, every word checked)\n",
            name, LAB_SMOKE_FILE_MIB, LAB_SMOKE_REPS);
    int v = lab_kernel_verify(&s.env, name, "auto", 1, note, sizeof note);
    lab_store_run_end(s.env.store, s.env.run_id,
                      lab_interrupted ? "interrupted"
                      : v == 1        ? "ok"
                                      : "failed");
    lab_session_close(&s);
    if (lab_interrupted)
        return 130; /* no verdict on an interrupted test */
    if (v < 0) {
        lab_error("%s: the smoke test could not run: %s", name, note);
        return 2;
    }
    if (v == 1) {
        printf("%s: passed the IO smoke test: %s\n", name, note);
        return 0;
    }
    lab_error("%s failed the IO smoke test: %s; cells will not use it", name, note);
    return 1;
}

static int kernels_verify(int argc, char **argv)
{
    if (argc != 2) {
        lab_error("usage: lab kernels verify NAME");
        return 2;
    }
    return smoke_and_mark(argv[1], argc, argv);
}

static int kernels_list_cmd(int argc, char **argv)
{
    return kernels_list();
}

static int kernels_toolchain_cmd(int argc, char **argv)
{
    return kernels_toolchain(argc, argv);
}

/* Subcommands; `skip` is how many words before their own arguments. */
static const struct {
    const char *name;
    int (*fn)(int argc, char **argv);
    int skip;
} subs[] = {
    {"list", kernels_list_cmd, 2},
    {"fetch", kernels_fetch, 2},
    {"show", kernels_show, 2},
    {"era", kernels_era, 2},
    {"add", kernels_add, 1},
    {"remove", kernels_remove, 2},
    {"build", kernels_build, 1},
    {"verify", kernels_verify, 1},
    {"toolchain", kernels_toolchain_cmd, 2},
};

int cmd_kernels(int argc, char **argv)
{
    if (argc < 2)
        return kernels_list();
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (strcmp(argv[1], subs[i].name) == 0)
            return subs[i].fn(argc - subs[i].skip, argv + subs[i].skip);
    lab_error("unknown subcommand 'kernels %s' (use list, fetch, show, era, add, remove, build, "
              "verify or toolchain)",
              argv[1]);
    return 2;
}
