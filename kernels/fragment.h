/* After olddefconfig, every =y line of a config fragment should be in the
 * final .config. */
#ifndef LAB_KERNELS_FRAGMENT_H
#define LAB_KERNELS_FRAGMENT_H

/* An option the tree knows but did not take (a dependency is off) is a
 * warning each; options the tree does not have (the fragment serves a range
 * of releases) are listed in one line. srcdir may be NULL (no lookup).
 * i386: an i386 build (ARCH=i386), where the fragment's x86_64-only lines
 * (CONFIG_64BIT=y) are not expected to hold. */
void lab_build_check_fragment(const char *fragment, const char *config_path, const char *srcdir,
                              int i386);

/* A .config text with only the last assignment of each option kept
 * ("CONFIG_X=..." or "# CONFIG_X is not set"); other lines stay in place.
 * The builder appends the fragments to the base .config, and kconfig
 * before 2.6.2x keeps the FIRST assignment ("trying to reassign symbol"),
 * later ones the last: with one assignment each, every era reads the
 * fragment's. malloc'd. */
char *lab_config_last_wins(const char *text);

#endif
