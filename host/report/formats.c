/* The output formats of a stored run: the table; see formats.h. */
#include "host/report/formats.h"
#include "host/report/json.h"
#include "host/report/table.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The tables `lab run` prints (table.h), to stdout or a file. */
static int text_write(struct lab_store *st, int64_t run, const char *path)
{
    if (strcmp(path, "-") == 0)
        return lab_report_run(stdout, st, run) < 0 ? -1 : 0;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return lab_error("out of memory");
    int rc = lab_report_run(f, st, run) < 0 ? -1 : 0;
    fclose(f);
    if (rc == 0)
        rc = lab_write_file(path, buf, len);
    free(buf);
    return rc;
}

/* In --help's order; the first is lab show's default. */
static const struct lab_format formats[] = {
    {"text", text_write}, {"json", lab_json_write}, /* json.h: one document, schema in README.md */
};
#define NFORMATS (sizeof formats / sizeof formats[0])

const struct lab_format *lab_format_find(const char *name)
{
    for (size_t i = 0; name && i < NFORMATS; i++)
        if (strcmp(formats[i].name, name) == 0)
            return &formats[i];
    return NULL;
}

char *lab_format_names(const char *sep, const char *last)
{
    char *out = lab_xstrdup("");
    for (size_t i = 0; i < NFORMATS; i++) {
        const char *join = i == 0 ? "" : i + 1 == NFORMATS ? last : sep;
        char *next = lab_asprintf("%s%s%s", out, join, formats[i].name);
        free(out);
        out = next;
    }
    return out;
}
