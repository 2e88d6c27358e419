/* After olddefconfig, every =y line of a config fragment should be in the
 * final .config. */
#ifndef LAB_KERNELS_FRAGMENT_H
#define LAB_KERNELS_FRAGMENT_H

/* An option the tree knows but did not take (a dependency is off) is a
 * warning each; options the tree does not have (the fragment serves a range
 * of releases) are listed in one line. srcdir may be NULL (no lookup). */
void lab_build_check_fragment(const char *fragment, const char *config_path, const char *srcdir);

#endif
