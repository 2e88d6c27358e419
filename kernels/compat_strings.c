/* The era compat layer's multi-line string literals; see compat_strings.h. */
#include "kernels/compat_strings.h"

#include "kernels/compat.h"
#include "common/file.h"
#include "common/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum lex { CODE, STRING, CHAR, LINE_COMMENT, BLOCK_COMMENT };

/* The state after character c (next: the one after it), for the cases
 * that change it; an escape is handled by the caller. */
static enum lex step(enum lex st, char c, char next)
{
    switch (st) {
    case CODE:
        if (c == '"')
            return STRING;
        if (c == '\'')
            return CHAR;
        if (c == '/' && next == '/')
            return LINE_COMMENT;
        if (c == '/' && next == '*')
            return BLOCK_COMMENT;
        return CODE;
    case STRING:
        return c == '"' ? CODE : STRING;
    case CHAR:
        /* An apostrophe of a preprocessor line's text (#error can't) ends
         * with its line: a character literal never spans one. */
        return c == '\'' || c == '\n' ? CODE : CHAR;
    case LINE_COMMENT:
        return c == '\n' ? CODE : LINE_COMMENT;
    case BLOCK_COMMENT:
        return c == '*' && next == '/' ? CODE : BLOCK_COMMENT;
    }
    return st;
}

/* o grown to twice its capacity; out of memory aborts, as in lab_xcalloc. */
static char *grow(char *o, size_t *cap)
{
    char *g = realloc(o, *cap * 2);
    if (!g)
        abort();
    *cap *= 2;
    return g;
}

int lab_compat_join_strings(const char *in, char **out)
{
    size_t n = strlen(in), cap = n + 1, len = 0;
    char *o = lab_xcalloc(cap, 1);
    int changed = 0;
    enum lex st = CODE;
    /* A preprocessor line (#error can't find "x) ends with its line: an
     * open quote there is not joined to the next. */
    int line_start = 1, directive = 0;
    for (size_t i = 0; i < n; i++) {
        char c = in[i];
        if (len + 5 > cap)
            o = grow(o, &cap);
        if (c == '\\' && i + 1 < n && (st != CODE || in[i + 1] == '\n')) {
            o[len++] = c; /* an escape, or a backslash-newline splice */
            o[len++] = in[++i];
            continue;
        }
        if (st == STRING && c == '\n' && !directive) {
            memcpy(o + len, "\\n\"\n\"", 5);
            len += 5;
            changed++;
            continue;
        }
        if (c == '\n' && st != BLOCK_COMMENT) {
            st = CODE;
            line_start = 1;
            directive = 0;
            o[len++] = c;
            continue;
        }
        if (st == CODE && line_start && c != ' ' && c != '\t') {
            line_start = 0;
            directive = c == '#';
        }
        char next = i + 1 < n ? in[i + 1] : '\0';
        enum lex was = st;
        st = step(st, c, next);
        o[len++] = c;
        /* The two characters that open or close a comment go together. */
        if (((was == CODE && (st == LINE_COMMENT || st == BLOCK_COMMENT)) ||
             (was == BLOCK_COMMENT && st == CODE)))
            o[len++] = in[++i];
    }
    o[len] = '\0';
    *out = o;
    return changed;
}

/* The files of gcc's "FILE:LINE:COL: error: missing terminating \" character"
 * lines, each once. */
static int string_errors(const char *log_text, char **files, int max)
{
    static const char key[] = ": error: missing terminating \" character";
    int n = 0;
    for (const char *p = log_text; (p = strstr(p, key)) && n < max; p += sizeof key - 1) {
        const char *bol = p;
        while (bol > log_text && bol[-1] != '\n')
            bol--;
        /* FILE:LINE:COL before the key: the file ends at the second colon back. */
        const char *end = p;
        for (int colons = 0; end > bol && colons < 2;)
            colons += *--end == ':';
        if (end == bol)
            continue;
        n = lab_compat_keep_once(files, n, strndup(bol, (size_t)(end - bol)));
    }
    return n;
}

static int in_range(lab_kver v, unsigned arch)
{
    for (size_t i = 0; i < lab_compat_fixup_count(); i++) {
        const struct lab_compat_fixup *f = lab_compat_fixup_at(i);
        if (strcmp(f->id, "multiline-strings") == 0)
            return lab_compat_range_has(&f->r, v, arch);
    }
    return 0;
}

/* Joins the strings of the file at path; 1 when it changed. */
static int fix_file(const char *path, const char *log)
{
    size_t len;
    struct stat st;
    char *text = lab_read_file(path, &len), *out = NULL;
    if (!text || stat(path, &st) < 0) {
        free(text);
        return 0;
    }
    int n = lab_compat_join_strings(text, &out);
    int ok = n > 0 && lab_write_file(path, out, strlen(out)) == 0;
    if (ok) {
        chmod(path, st.st_mode & 07777);
        FILE *lf = log ? fopen(log, "a") : NULL;
        if (lf) {
            fprintf(lf, "lab compat: multiline-strings: %s (%d line end(s))\n", path, n);
            fclose(lf);
        }
    }
    free(text);
    free(out);
    return ok;
}

int lab_compat_fix_strings(const char *dir, const char *log_text, const char *log, lab_kver v,
                           unsigned arch)
{
    if (!in_range(v, arch))
        return 0;
    char *files[256], *dirs[256];
    int nf = string_errors(log_text, files, 256), fixed = 0;
    int nd = lab_compat_entered_dirs(log_text, dirs + 1, 255) + 1;
    dirs[0] = lab_xstrdup(dir);
    for (int k = 0; k < nf; k++) {
        for (int d = 0; d < nd; d++) {
            char *path = files[k][0] == '/' ? lab_xstrdup(files[k])
                                            : lab_asprintf("%s/%s", dirs[d], files[k]);
            int exists = access(path, F_OK) == 0;
            fixed += exists && fix_file(path, log);
            free(path);
            if (exists || files[k][0] == '/')
                break;
        }
        free(files[k]);
    }
    for (int d = 0; d < nd; d++)
        free(dirs[d]);
    return fixed;
}
