/* The JSON document of a stored run (`lab show RUN --format json`,
 * `lab run --json FILE`): the run, its cells with their facts and every
 * sample, the rows' summaries and the comparisons, built with json-c. The
 * schema is in docs/json.md; LAB_JSON_VERSION changes when a field
 * changes meaning or goes away (adding one does not). */
#ifndef LAB_JSON_H
#define LAB_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "host/store/store.h"

#define LAB_JSON_VERSION 1

/* How the lab prints its documents (json-c flags): indented, "k": v, and
 * "MB/s" not "MB\/s". */
#define LAB_JSON_FLAGS                                                                             \
    (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE)

struct json_object;

/* The document (the caller puts it), or NULL with an error when the run
 * does not exist or has no cells. */
struct json_object *lab_json_run(struct lab_store *st, int64_t run);

/* The document as pretty-printed text, for writing: malloc'd, NULL on error. */
char *lab_json_run_text(struct lab_store *st, int64_t run);

/* Writes it to path ("-": stdout). 0, or -1 with an error. */
int lab_json_write(struct lab_store *st, int64_t run, const char *path);

#endif
