/* The output formats of a stored run, one row each. `lab show RUN --format
 * NAME` reads this table for its usage, its check and its dispatch, so a
 * new format is its writer (a file of this folder) and its row in
 * formats.c (host/report/README.md, "Adding an output format"). */
#ifndef LAB_REPORT_FORMATS_H
#define LAB_REPORT_FORMATS_H

#include <stdint.h>

struct lab_store;

struct lab_format {
    const char *name; /* --format NAME */
    /* Writes the stored run to path ("-": stdout): 0, or -1 with an error said. */
    int (*write)(struct lab_store *st, int64_t run, const char *path);
};

/* The format called name, or NULL. */
const struct lab_format *lab_format_find(const char *name);
/* The formats' names in the table's order, joined by sep, the last two by
 * last ("text|json", "text or json"): malloc'd. */
char *lab_format_names(const char *sep, const char *last);

#endif
