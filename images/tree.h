/* Deterministic synthetic source trees with the shape of a Linux 2.6-era
 * kernel tree: the same (seed, files, dirs) always gives the same paths,
 * sizes and bytes. Pure apart from lab_tree_write. */
#ifndef LAB_IMAGES_TREE_H
#define LAB_IMAGES_TREE_H

#include <stddef.h>
#include <stdint.h>

/* linux-2.6.0: ~15,000 files in ~900 directories. */
#define LAB_TREE_DEFAULT_FILES 15000u
#define LAB_TREE_DEFAULT_DIRS  900u
#define LAB_TREE_MAX_DEPTH     5u
#define LAB_TREE_MAX_SIZE      (1u << 20) /* no file is larger */
/* Every time stamp lab_tree_write sets: 2001-09-09 01:46:40 UTC. */
#define LAB_TREE_TIME 1000000000LL

struct lab_tree_recipe {
    uint64_t seed;
    unsigned files; /* 0 means LAB_TREE_DEFAULT_FILES */
    unsigned dirs;  /* 0 means LAB_TREE_DEFAULT_DIRS (top-level ones included) */
};

struct lab_tree_stats {
    uint64_t files, dirs, bytes; /* dirs: not counting the tree's root */
};

struct lab_tree_entry {
    const char *path; /* relative: "drivers/dir412/file0007.c"; valid until the next call */
    int is_dir;
    unsigned depth; /* path components of the directory: 1..LAB_TREE_MAX_DEPTH */
    uint64_t index; /* file index (content key) or directory index */
    uint64_t size;  /* bytes; 0 for directories */
};

/* Validates the recipe (files 1..10,000,000; dirs 1..1,000,000) with a message. */
int lab_tree_check(const struct lab_tree_recipe *r);

/* Walks the tree: every directory first (a parent before its children), then
 * every file in index order. lab_tree_next returns 1 with an entry, 0 at the
 * end. NULL from lab_tree_iter_new on a bad recipe. */
struct lab_tree_iter;
struct lab_tree_iter *lab_tree_iter_new(const struct lab_tree_recipe *r);
int lab_tree_next(struct lab_tree_iter *it, struct lab_tree_entry *e);
void lab_tree_iter_free(struct lab_tree_iter *it);

/* Bytes [offset, offset+n) of file `index`: text-like (letters, digits,
 * spaces, punctuation, newlines), from a PRNG keyed by (seed, index). */
void lab_tree_content(const struct lab_tree_recipe *r, uint64_t index, uint64_t offset, void *buf,
                      size_t n);

/* Counts without writing. */
int lab_tree_stats(const struct lab_tree_recipe *r, struct lab_tree_stats *out);

/* Writes the tree under dir (created if missing; it must not hold a tree
 * already): directories 0755, files 0644, atime and mtime LAB_TREE_TIME on
 * everything including dir itself. out may be NULL. */
int lab_tree_write(const struct lab_tree_recipe *r, const char *dir, struct lab_tree_stats *out);

#endif
