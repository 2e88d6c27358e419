/* The era compat layer: what the lab does to build 2.4 and 2.6 trees with
 * the host's modern gcc and binutils (docs/era-kernels.md). Four tables:
 *  - coverage: which versions and arches the layer covers, with which gcc;
 *  - refusals: every other version below 5.16 (gcc 12 builds 5.16 on
 *    natively), by range, with the reason;
 *  - flags: compiler, assembler and linker flags per era, and how each
 *    era's Makefile takes them (CC="gcc FLAGS", AS=, LD=);
 *  - fixups: small source changes by version range, each a pattern-based
 *    transform (a POSIX regex with \1..\9 in the replacement, or a
 *    structured rewrite of GNU asm statements) over a set of files, with the
 *    modern tool it works around.
 * Fixups are applied to the lab's copy of a tree, never to the user's. One
 * class of failure is fixed from gcc's own diagnostics after a build pass:
 * 2.4's "conflicting types" for FASTCALL functions (the prototype has
 * regparm(3), the definition does not): the definition gets the attribute
 * where gcc reports the conflict, so the regparm ABI is kept. */
#ifndef LAB_KERNELS_COMPAT_H
#define LAB_KERNELS_COMPAT_H

#include "kernels/era.h"

#include <stddef.h>

#define LAB_COMPAT_I386   1u
#define LAB_COMPAT_X86_64 2u
#define LAB_COMPAT_ANY    3u

/* A version range: from <= v < until (until 0: open). Ranges start at the
 * release's -rc0, so -rc kernels belong to their release. */
struct lab_compat_range {
    lab_kver from, until;
    unsigned arch; /* LAB_COMPAT_* mask */
};

/* The versions the layer covers: accepted with the host's gcc. */
struct lab_compat_cover {
    struct lab_compat_range r;
    int gcc_min, gcc_max; /* LAB_CC(); gcc_max N.99: any N.x */
    const char *note;
};

enum lab_compat_where {
    LAB_COMPAT_CFLAGS, /* appended to CC: every C and .S compile, and links through $(CC) */
    LAB_COMPAT_AS,     /* the AS= make variable */
    LAB_COMPAT_LD,     /* the LD= make variable */
    LAB_COMPAT_HOSTCC, /* appended to HOSTCC: the host tools the build compiles and runs */
};

struct lab_compat_flag {
    struct lab_compat_range r;
    enum lab_compat_where where;
    const char *value; /* "-fgnu89-inline", "as --32" */
    const char *why;
};

enum lab_compat_kind {
    LAB_COMPAT_REGEX,      /* pattern -> replace (POSIX ERE, whole file, . matches \n) */
    LAB_COMPAT_ASM_RMW,    /* asm outputs "=m" -> "+m", and a "memory" clobber */
    LAB_COMPAT_ASM_SEGREG, /* movl %%seg,%N / movl %N,%%seg: operand N "m" -> "r", %N -> %kN */
    LAB_COMPAT_FUNC_PASTE, /* pasted __FUNCTION__ -> its literal (kernels/compat_paste.h) */
    LAB_COMPAT_DIAG,       /* applied from gcc's diagnostics after a build pass */
};

struct lab_compat_fixup {
    const char *id;
    struct lab_compat_range r;
    const char *files; /* space-separated globs relative to the tree; "**" "/GLOB": any depth */
    enum lab_compat_kind kind;
    const char *pattern; /* LAB_COMPAT_REGEX */
    const char *replace;
    const char *what; /* what it changes */
    const char *tool; /* the modern tool it works around, and its diagnostic */
};

size_t lab_compat_cover_count(void);
const struct lab_compat_cover *lab_compat_cover_at(size_t i);
size_t lab_compat_flag_count(void);
const struct lab_compat_flag *lab_compat_flag_at(size_t i);
size_t lab_compat_fixup_count(void);
const struct lab_compat_fixup *lab_compat_fixup_at(size_t i);

/* "i686" and "i386" -> LAB_COMPAT_I386, "x86_64" (or NULL) -> LAB_COMPAT_X86_64. */
unsigned lab_compat_arch(const char *arch);
int lab_compat_range_has(const struct lab_compat_range *r, lab_kver v, unsigned arch);
/* The coverage row for (v, arch), or NULL: the layer does not cover it. */
const struct lab_compat_cover *lab_compat_covers(lab_kver v, unsigned arch);

/* The versions the layer refuses, each with the reason. Together with the
 * coverage rows and the versions gcc 12 builds natively (5.16 on), every
 * version from 2.4.0 on resolves to one decision (tests/unit/test_compat.c
 * walks them all). */
struct lab_compat_refusal {
    struct lab_compat_range r;
    const char *reason;
    int no_arch; /* the tree has no code for this arch: no compiler of any era helps */
};
size_t lab_compat_refusal_count(void);
const struct lab_compat_refusal *lab_compat_refusal_at(size_t i);
/* The refusal row for (v, arch), or NULL. */
const struct lab_compat_refusal *lab_compat_refuses(lab_kver v, unsigned arch);

/* The make variables for an era build: extra CC flags (space-separated),
 * AS and LD (empty when the Makefile's own are right). Each malloc'd. */
struct lab_compat_vars {
    char *cflags;
    char *as;
    char *ld;
    char *hostcc; /* flags for HOSTCC */
};
void lab_compat_vars_for(lab_kver v, unsigned arch, struct lab_compat_vars *out);
void lab_compat_vars_free(struct lab_compat_vars *vars);

/* A text digest of every row that applies to (v, arch), for the build cache
 * key: a change to the table rebuilds. malloc'd. */
char *lab_compat_describe(lab_kver v, unsigned arch);

/* Applies one fixup's transform to a text: *out gets the new text
 * (malloc'd, also when nothing changed). Returns the number of changes, or
 * -1 (bad pattern: a bug in the table). */
int lab_compat_transform(const struct lab_compat_fixup *f, const char *in, char **out);

/* The structured asm rewrites on their own (for the tests). */
int lab_compat_asm_rmw(const char *in, char **out);
int lab_compat_asm_segreg(const char *in, char **out);

/* Applies every file fixup for (v, arch) to the tree at dir, logging each
 * file changed (and each fixup that changed nothing) to log (may be NULL).
 * Returns the number of files changed, or -1. */
int lab_compat_apply_tree(const char *dir, lab_kver v, unsigned arch, const char *log);

/* One "conflicting types" diagnostic that names a definition: file (as gcc
 * printed it), line and column of the identifier, the name, and the
 * calling convention of the previous declaration gcc points at: 3 for
 * FASTCALL/fastcall/regparm(3), 0 for asmlinkage (regparm(0) on i386), -1
 * for anything else (not a conflict the layer fixes). */
struct lab_compat_conflict {
    char file[256];
    int line, col;
    char name[128];
    int regparm;
};
/* Finds gcc's "FILE:LINE:COL: error: conflicting types for 'NAME'" lines
 * in a build log (ASCII or UTF-8 quotes) and the "note: previous
 * declaration" that follows (with the source line gcc echoes). Up to max
 * entries, deduplicated; returns how many. */
int lab_compat_find_conflicts(const char *log, struct lab_compat_conflict *out, int max);
/* Inserts "__attribute__((regparm(N))) " before the identifier at (line,
 * col) of text, when the identifier there is name and not already
 * attributed. 1 changed (*out malloc'd), 0 not. */
int lab_compat_add_regparm(const char *text, int line, int col, const char *name, int n,
                           char **out);
/* Applies lab_compat_add_regparm for every conflict in the log to files
 * under dir (a file is relative to dir, as make printed it). Returns the
 * number of definitions changed. */
int lab_compat_fix_conflicts(const char *dir, const char *log_text, const char *log);
/* The directories make entered in a build log ("Entering directory"), up
 * to max, each malloc'd: 2.4 runs gcc inside each subdirectory, so its
 * diagnostics name files relative to one of them. Returns how many. */
int lab_compat_entered_dirs(const char *log_text, char **out, int max);
/* list[0..n) with s (malloc'd, or NULL) added unless already there (then
 * s is freed): the new n. The log scans keep each name once so. */
int lab_compat_keep_once(char **list, int n, char *s);

/* The trees built and booted with this layer (kernels/README.md). */
struct lab_compat_verified {
    const char *version;
    const char *arch;
    const char *gcc;
    const char *date;   /* when it was built and booted here: "2026-12-01" */
    const char *result; /* "built 52 s (-j2, niced), booted: hda read" */
};
size_t lab_compat_verified_count(void);
const struct lab_compat_verified *lab_compat_verified_at(size_t i);

#endif
