/* lab kernels: the catalog, and which kernels are already in the cache. */
#include "catalog.h"
#include "commands.h"
#include "fetch.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int kernels_list(void)
{
    printf("%-12s %-8s %-7s %-44s %s\n", "NAME", "ARCH", "CACHED", "PACKAGE", "RELEASE");
    for (size_t i = 0; i < lab_kernel_count(); i++) {
        const struct lab_kernel *k = lab_kernel_at(i);
        printf("%-12s %-8s %-7s %-44s %s\n", k->name, k->arch,
               lab_kernel_is_cached(k) ? "yes" : "no", k->package, k->release);
    }
    printf("\ncache: %s/kernels\n", lab_home());
    return 0;
}

static int kernels_fetch(int argc, char **argv)
{
    int rc = 0;
    if (argc < 1)
        {
        lab_error("usage: lab kernels fetch NAME...");
        return 2;
    }
    for (int i = 0; i < argc; i++) {
        const struct lab_kernel *k = lab_kernel_find(argv[i]);
        struct lab_kernel_files f = {0};
        if (!k) {
            char *known = lab_kernel_known_names();
            lab_error("unknown kernel '%s'; known kernels: %s", argv[i], known);
            free(known);
            return 2;
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

int cmd_kernels(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "list") == 0)
        return kernels_list();
    if (strcmp(argv[1], "fetch") == 0)
        return kernels_fetch(argc - 2, argv + 2);
    lab_error("unknown subcommand 'kernels %s' (use list or fetch)", argv[1]);
    return 2;
}
