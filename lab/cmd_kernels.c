/* lab kernels: the catalog, which kernels are already in the cache, and what
 * each kernel's era means for a cell (kernels/era.h). */
#include "catalog.h"
#include "commands.h"
#include "era.h"
#include "fetch.h"
#include "util.h"

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
        printf("%-14s %-7s %-9s %-7s %-44s %s\n", k->name, k->arch, k->version,
               lab_kernel_is_cached(k) ? "yes" : "no", k->package, k->release);
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
    printf("  %-16s %s (%s, %s)\n", "package", k->package, k->source, k->deb_arch);
    if (cached) {
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
    if (lab_era_for(k->version, k->arch, &era) < 0)
        return 1;
    print_era(&era);
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

int cmd_kernels(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "list") == 0)
        return kernels_list();
    if (strcmp(argv[1], "fetch") == 0)
        return kernels_fetch(argc - 2, argv + 2);
    if (strcmp(argv[1], "show") == 0)
        return kernels_show(argc - 2, argv + 2);
    if (strcmp(argv[1], "era") == 0)
        return kernels_era(argc - 2, argv + 2);
    lab_error("unknown subcommand 'kernels %s' (use list, fetch, show or era)", argv[1]);
    return 2;
}
