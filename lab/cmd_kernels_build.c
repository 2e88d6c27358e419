/* lab kernels add, remove, build and verify: user kernels registered from
 * files (kernels/user.h) and kernels built here (kernels/build.h), each
 * smoke-tested before it counts (lab/kernelnames.h). */
#include "kernels/build.h"
#include "kernels/catalog.h"
#include "kernels/user.h"
#include "lab/cmd_kernels.h"
#include "lab/kernelnames.h"
#include "common/interrupt.h"
#include "common/msg.h"
#include "common/str.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int lab_kernels_add(int argc, char **argv)
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
            fprintf(stderr, "%s\n", usage);
            return 2;
        }
    }
    if (optind + 1 != argc || !s.image) {
        fprintf(stderr, "%s\n", usage);
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

int lab_kernels_remove(int argc, char **argv)
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

/* --patch FILE: one more of the series, readable, within the bound. */
static int add_patch(struct lab_build_spec *s, const char **patches, size_t max, const char *file)
{
    if (s->npatches == max)
        return lab_error("at most %zu --patch files", max);
    if (access(file, R_OK) != 0)
        return lab_error("cannot read the patch file %s", file);
    patches[s->npatches++] = file;
    s->patches = patches;
    return 0;
}

int lab_kernels_build(int argc, char **argv)
{
    struct lab_build_spec s = {0};
    const char *patches[16];
    static const struct option opts[] = {{"patch", required_argument, NULL, 'P'},
                                         {"name", required_argument, NULL, 'n'},
                                         {"config", required_argument, NULL, 'c'},
                                         {"cc", required_argument, NULL, 'C'},
                                         {"wrap", required_argument, NULL, 'w'},
                                         {"jobs", required_argument, NULL, 'j'},
                                         {"repo", required_argument, NULL, 'R'},
                                         {"ref", required_argument, NULL, 'r'},
                                         {"arch", required_argument, NULL, 'a'},
                                         {"keep", no_argument, NULL, 'k'},
                                         {NULL, 0, NULL, 0}};
    const char *usage =
        "usage: lab kernels build SRC|--repo DIR --ref REF [--name NAME] [--config FRAGMENT] "
        "[--cc CC] [--wrap PREFIX] [--jobs N] [--arch x86_64|i686] [--keep] [--patch FILE]...\n"
        "  SRC: a source tarball, a directory (built with O=, left clean) or REPO:REF\n"
        "  --patch FILE: applied in order to the lab's copy (-p1, or -p0), dry run first";
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
        case 'P':
            if (add_patch(&s, patches, sizeof patches / sizeof patches[0], optarg) < 0)
                return 2;
            break;
        default:
            fprintf(stderr, "%s\n", usage);
            return 2;
        }
    }
    if (optind < argc)
        s.src = argv[optind++];
    if (optind != argc || (!s.src && !s.repo)) {
        fprintf(stderr, "%s\n", usage);
        return 2;
    }
    char *name = NULL;
    lab_install_signal_handlers(); /* Ctrl-C stops make and gcc, keeps no half tree */
    int rc = lab_kernel_build(&s, &name);
    if (lab_interrupted) {
        free(name);
        return 130;
    }
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
    rc = lab_kernel_smoke_and_mark(name, argc, argv);
    free(name);
    return rc;
}

int lab_kernels_verify(int argc, char **argv)
{
    if (argc != 2) {
        lab_error("usage: lab kernels verify NAME");
        return 2;
    }
    return lab_kernel_smoke_and_mark(argv[1], argc, argv);
}
