/* Git plumbing for `lab bisect`: a repository's commits, subjects and the
 * ancestry path between two commits, through the git command line
 * (common/proc.h lab_capture, every word quoted with lab_shell_quote). */
#ifndef LAB_GIT_H
#define LAB_GIT_H

#include <stddef.h>

#define LAB_GIT_MAX_COMMITS 100000 /* at most this many on a path */

/* 0 when repo is a directory git can read; else -1, said (missing, not a
 * directory, not a repository), so a wrong --repo is not a wrong commit. */
int lab_git_repo_check(const char *repo);
/* The full hash of the commit ref names into out; -1, said, if none. */
int lab_git_commit(const char *repo, const char *ref, char out[41]);
/* The commit's subject line into out ("?" when git cannot say). */
void lab_git_subject(const char *repo, const char *hash, char *out, size_t len);
/* good, then good..bad on the ancestry path, oldest first (malloc'd into
 * *out; at most LAB_GIT_MAX_COMMITS): their number, or 0, said, when good
 * is not an ancestor of bad or nothing lies between. */
size_t lab_git_path(const char *repo, const char *good, const char *bad, char (**out)[41]);
/* All of the above for two refs: the repository checked, both resolved,
 * the path between them (the good commit first, the bad one last). */
size_t lab_git_range(const char *repo, const char *good_ref, const char *bad_ref, char (**out)[41]);

#endif
