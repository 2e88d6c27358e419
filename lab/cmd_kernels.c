/* lab kernels: the dispatcher and its table (the --help text), the
 * catalog's list and fetch. The other subcommands are a file each:
 * cmd_kernels_show.c, cmd_kernels_era.c, cmd_kernels_build.c (add, remove,
 * build, verify) and cmd_kernels_toolchain.c (lab/cmd_kernels.h). */
#include "kernels/byname.h"
#include "kernels/catalog.h"
#include "kernels/fetch.h"
#include "lab/cmd_kernels.h"
#include "lab/commands.h"
#include "lab/kernelnames.h"
#include "common/msg.h"
#include "common/paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Debian kernels are downloaded; release names and variants are fetched,
 * patched, built and smoke-tested (lab/kernelnames.h). */
static int kernels_fetch(int argc, char **argv)
{
    int rc = 0;
    const char *arch = NULL;
    if (argc >= 2 && strcmp(argv[0], "--arch") == 0) {
        arch = argv[1];
        argc -= 2;
        argv += 2;
    }
    if (argc < 1) {
        lab_error("usage: lab kernels fetch [--arch x86_64|i686] NAME...");
        return 2;
    }
    for (int i = 0; i < argc; i++) {
        const struct lab_kernel *k = lab_kernel_find(argv[i]);
        struct lab_kernel_files f = {0};
        if (!k || lab_byname_made(k)) {
            struct lab_kernel_names_opts o = {
                .arch = arch, .refresh = 1, .argc = argc, .argv = argv};
            char *name = NULL;
            int r = lab_kernel_name_prepare(argv[i], &o, &name);
            if (r == 0)
                printf("%s: ready (lab kernels show %s)\n", name, name);
            free(name);
            if (r == 2 || r == 130)
                return r;
            rc = rc ? rc : r;
            continue;
        }
        if (lab_kernel_fetch(k, &f) < 0) {
            rc = 1;
            continue;
        }
        printf("%s: %s\n", k->name, f.bzimage);
        lab_kernel_files_free(&f);
    }
    return rc;
}
static int kernels_list_cmd(int argc, char **argv)
{
    return kernels_list();
}

/* Subcommands; `skip` is how many words before their own arguments. */
static const struct {
    const char *name;
    int (*fn)(int argc, char **argv);
    int skip;
    const char *args, *what; /* for --help */
} subs[] = {
    {"list", kernels_list_cmd, 2, "",
     "the kernels the lab knows: Debian's catalog, user kernels, builds"},
    {"fetch", kernels_fetch, 2, "NAME...",
     "prepare kernels (download, unpack) without running them"},
    {"show", lab_kernels_show, 2, "NAME",
     "where a kernel came from and what the lab decides for it"},
    {"era", lab_kernels_era, 2, "VERSION [ARCH]",
     "the era facts the lab applies to a kernel version"},
    {"add", lab_kernels_add, 1,
     "NAME --image BZIMAGE [--modules DIR] [--config FILE] [--system-map FILE] "
     "[--arch x86_64|i686] [--replace]",
     "register a kernel built elsewhere"},
    {"remove", lab_kernels_remove, 2, "NAME", "forget a user kernel"},
    {"build", lab_kernels_build, 1,
     "SRC|--repo DIR --ref REF [--name NAME] [--config FRAGMENT] [--cc CC] [--wrap PREFIX] "
     "[--jobs N] [--arch x86_64|i686] [--patch FILE]... [--keep]",
     "build a kernel from a tarball, a directory or REPO:REF through the era compat layer, "
     "then run the IO smoke test"},
    {"verify", lab_kernels_verify, 1, "NAME", "run the IO smoke test on a kernel again"},
    {"toolchain", lab_kernels_toolchain, 2, "[VERSION [--arch x86_64|i686]]",
     "which compiler builds a version: the era compat layer's decision"},
};

static void kernels_usage(FILE *out)
{
    fprintf(out, "usage: lab kernels SUBCOMMAND [ARGS]\n\n");
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        fprintf(out, "  lab kernels %-10s %s\n", subs[i].name, subs[i].what);
    fprintf(out, "\nlab kernels SUBCOMMAND --help shows its arguments.\n");
}

int cmd_kernels(int argc, char **argv)
{
    if (argc < 2)
        return kernels_list();
    if (lab_help_asked(argc, argv))
        return kernels_usage(stdout), 0;
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++) {
        if (strcmp(argv[1], subs[i].name) != 0)
            continue;
        if (lab_help_asked(argc - 1, argv + 1)) {
            printf("usage: lab kernels %s%s%s\n\n%s.\n", subs[i].name, *subs[i].args ? " " : "",
                   subs[i].args, subs[i].what);
            return 0;
        }
        return subs[i].fn(argc - subs[i].skip, argv + subs[i].skip);
    }
    lab_error("unknown subcommand 'kernels %s' (use list, fetch, show, era, add, remove, build, "
              "verify or toolchain)",
              argv[1]);
    return 2;
}
