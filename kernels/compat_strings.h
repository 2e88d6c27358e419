/* The era compat layer's "multiline-strings" row (kernels/compat.c): 2.4
 * trees before about 2.4.20 write inline asm as one string literal running
 * over several lines, which gcc up to 3.2 read as if each newline were \n.
 * gcc 3.3 and later refuse it ("missing terminating \" character"). The
 * layer closes and reopens each such literal at the line end, keeping the
 * newline as \n, in the files gcc names, and the build goes again. */
#ifndef LAB_COMPAT_STRINGS_H
#define LAB_COMPAT_STRINGS_H

#include "kernels/era.h"

/* Pure: every string literal of the C text `in` that runs over a raw
 * newline gets `\n"` + newline + `"` there instead; comments, character
 * literals and backslash-newline splices are left as they are. Returns
 * the number of newlines changed, with *out malloc'd (a copy when 0). */
int lab_compat_join_strings(const char *in, char **out);

/* For a tree of version v on arch (the row's range): applies
 * lab_compat_join_strings to each file a "missing terminating \"
 * character" error of log_text names, relative to dir or to a directory
 * make entered, logging each to log (may be NULL). Returns the number of
 * files changed. */
int lab_compat_fix_strings(const char *dir, const char *log_text, const char *log, lab_kver v,
                           unsigned arch);

#endif
