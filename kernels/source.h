/* The builder's view of a kernel source: what kind it is, its top
 * Makefile (for the version, read before anything is unpacked) and an id of
 * its content for the build cache's key. */
#ifndef LAB_KERNELS_SOURCE_H
#define LAB_KERNELS_SOURCE_H

#include "common/hash.h"
#include "kernels/build.h"

enum src_kind { SRC_TARBALL, SRC_DIR, SRC_GIT };

struct lab_build_source {
    enum src_kind kind;
    char *path; /* tarball, directory or repo */
    char *ref;
    char *makefile;
    char tree_id[LAB_HASH_HEX_LEN + 1];
};

/* From the spec's src (tarball, directory, REPO:REF) or repo + ref; reads
 * the top Makefile. 0, or -1 with the reason said. */
int lab_build_source_open(const struct lab_build_spec *b, struct lab_build_source *s);
/* tree_id: the git tree, a hash of the tarball, or of a directory's paths,
 * sizes and mtimes. */
int lab_build_source_tree_id(struct lab_build_source *s);
void lab_build_source_free(struct lab_build_source *s);

#endif
