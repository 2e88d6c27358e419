/* Kernel profiles (seed 004's readprofile): the ticks /proc/profile counted
 * during each run, sent by the agent as kprof records after the run's end
 * record and kept with the cell's records in the store. Summed over a
 * cell's counted runs and resolved to functions with the kernel's
 * System.map, they print as readprofile prints: ticks, function, and the
 * load normalised by the function's length. */
#ifndef LAB_KPROF_H
#define LAB_KPROF_H

#include "host/store/store.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The text symbols of a System.map ("ADDR TYPE NAME" lines; t, T, w, W),
 * sorted by address; stext/etext bound the profiled text. */
struct lab_sym {
    uint64_t addr;
    char *name;
    uint64_t ticks; /* filled by lab_kprof_add */
};
struct lab_symtab {
    struct lab_sym *v;
    size_t n;
    uint64_t stext, etext;
};

/* Parses System.map text. 0; -1 with a reason in err (a malformed line, no
 * _stext, a file of no text symbols). Bounded: lines over 512 bytes and
 * maps of over 4 million symbols are refused. */
int lab_symtab_parse(const char *text, size_t len, struct lab_symtab *out, char *err,
                     size_t errlen);
/* Reads (at most 256 MiB) and parses; -1 with a lab_error message. */
int lab_symtab_load(const char *path, struct lab_symtab *out);
void lab_symtab_free(struct lab_symtab *t);
/* The symbol whose span holds addr (up to the next symbol or etext), -1. */
long lab_symtab_find(const struct lab_symtab *t, uint64_t addr);

/* Adds one kprof record's slots ("slot:ticks,slot:ticks", slot i covering
 * _stext + i * step) to the symbols' ticks; slots outside the text go to
 * *unresolved. 0; -1 with a reason for a malformed value. */
int lab_kprof_add(struct lab_symtab *t, uint64_t step, const char *slots, uint64_t *total,
                  uint64_t *unresolved, char *err, size_t errlen);

#define LAB_KPROF_TOP 12 /* functions per kernel in a report */

/* Prints the profile of every cell of the run that has kprof records:
 * readprofile's table of the top `top` functions and the total line.
 * Cells without a System.map say so. 0 (also when no cell has a profile),
 * -1 on a store error. */
int lab_kprof_report(FILE *out, struct lab_store *st, int64_t run, size_t top);

#endif
