/* lab kernels show: where a kernel came from (its files, its provenance,
 * or what `lab kernels fetch` would fetch for a name not in the catalog),
 * then its era (lab/cmd_kernels_era.c). */
#include "kernels/byname.h"
#include "kernels/catalog.h"
#include "kernels/era.h"
#include "kernels/fetch.h"
#include "kernels/mirror.h"
#include "kernels/release.h"
#include "kernels/user.h"
#include "lab/cmd_kernels.h"
#include "lab/kernelnames.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/str.h"

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

/* Where every byte of a kernel built here came from: its kernel.conf's
 * origin_ (mirror or git: URLs, sha256s, how each was checked) and build_
 * lines (the patches in order with their sha256, the compiler, the compat
 * layer's id, the cache key). */
static void print_provenance(const struct lab_kernel *k)
{
    char *conf = lab_asprintf("%s/kernel.conf", k->dir);
    size_t len;
    char *text = lab_read_file(conf, &len);
    free(conf);
    if (!text)
        return;
    printf("  %-16s\n", "provenance");
    for (char *save, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char *eq = strchr(l, '=');
        if (!eq || (strncmp(l, "origin_", 7) != 0 && strncmp(l, "build_", 6) != 0))
            continue;
        *eq = '\0';
        printf("    %-22s %s\n", l, eq + 1);
    }
    free(text);
}

/* A name the catalog does not have yet: what `lab kernels fetch` would
 * fetch, or why it is no kernel at all. */
static int show_plan(const char *name)
{
    struct lab_release_plan p;
    char err[256];
    if (!lab_byname_valid(name, NULL, 0))
        return unknown_kernel(name);
    if (strchr(name, LAB_VARIANT_SEP) || lab_release_plan(name, &p, err, sizeof err) < 0) {
        printf("kernel %s: a variant, not built yet (lab kernels fetch %s)\n", name, name);
        return 0;
    }
    char *base = lab_mirror_base();
    printf("kernel %s: a kernel.org %s, not fetched yet (lab kernels fetch %s)\n", name, p.kind,
           name);
    printf("  %-16s %s (%s)\n", "mirror", base ? base : "(unusable)", LAB_MIRROR_ENV);
    printf("  %-16s linux %s, the first of:\n", "base", p.base);
    for (size_t i = 0; i < p.nbase; i++)
        printf("    %s\n", p.base_paths[i]);
    if (p.npatch)
        printf("  %-16s the first of (applied to %s with -p1):\n", "patch", p.base);
    for (size_t i = 0; i < p.npatch; i++)
        printf("    %s\n", p.patch_paths[i]);
    char tag[48];
    if (getenv(LAB_KERNEL_GIT_ENV) && lab_release_git_tag(name, tag, sizeof tag) == 0)
        printf("  %-16s %s's tag %s first (%s)\n", "git", getenv(LAB_KERNEL_GIT_ENV), tag,
               LAB_KERNEL_GIT_ENV);
    free(base);
    return 0;
}

int lab_kernels_show(int argc, char **argv)
{
    if (argc != 1) {
        lab_error("usage: lab kernels show NAME");
        return 2;
    }
    const struct lab_kernel *k = lab_kernel_find(argv[0]);
    if (!k)
        return show_plan(argv[0]);
    struct lab_kernel_files f;
    int cached = lab_kernel_files_for(k, &f);
    printf("kernel %s\n", k->name);
    printf("  %-16s %s\n", "version", k->version);
    printf("  %-16s %s\n", "release", k->release);
    printf("  %-16s %s\n", "arch", k->arch);
    if (k->dir && lab_byname_made(k)) {
        printf("  %-16s %s (registered in %s), made here from its kernel.org name\n", "source",
               k->source, k->dir);
        print_provenance(k);
    } else if (k->dir) {
        printf("  %-16s %s (registered in %s)%s\n", "source", k->source, k->dir,
               lab_byname_valid(k->name, NULL, 0)
                   ? "; a user kernel: it wins over the kernel.org release of that name"
                   : "");
        if (strcmp(k->source, "build") == 0)
            print_provenance(k);
    }
    if (k->dir) {
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
    lab_kernels_print_era(&era);
    if (k->config_path)
        lab_kernels_print_config_buses(k, &era);
    return 0;
}
