/* Patches on the lab's copy of a kernel tree; see patch.h. */
#include "kernels/patch.h"

#include "common/file.h"
#include "common/msg.h"
#include "common/proc.h"
#include "common/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The decompressor for a file name, or NULL for a plain patch. */
static const char *decompressor(const char *path)
{
    static const struct {
        const char *ext, *cmd;
    } tools[] = {{".xz", "xz -dc"}, {".bz2", "bzip2 -dc"}, {".gz", "gzip -dc"}};
    size_t pl = strlen(path);
    for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++) {
        size_t el = strlen(tools[i].ext);
        if (pl > el && strcmp(path + pl - el, tools[i].ext) == 0)
            return tools[i].cmd;
    }
    return NULL;
}

/* A plain copy of the patch beside the tree (decompressed); malloc'd. */
static char *plain_copy(const char *tree, const char *path, size_t i)
{
    char *dest = lab_asprintf("%s.patch%zu", tree, i);
    const char *dc = decompressor(path);
    char *qp = lab_shell_quote(path), *qd = lab_shell_quote(dest);
    char *cmd = lab_asprintf("%s < %s > %s", dc ? dc : "cat", qp, qd);
    char *argv[] = {"sh", "-c", cmd, NULL};
    int rc = lab_spawn_wait(argv, NULL);
    free(cmd);
    free(qp);
    free(qd);
    if (rc != 0) {
        lab_error("cannot read the patch %s%s", path,
                  dc ? " (it does not decompress to its end: truncated?)" : "");
        unlink(dest);
        free(dest);
        return NULL;
    }
    return dest;
}

char *lab_patch_text(const char *path, size_t *len)
{
    const char *dc = decompressor(path);
    if (!dc)
        return lab_read_file(path, len);
    char *qp = lab_shell_quote(path);
    char *cmd = lab_asprintf("%s < %s", dc, qp);
    char *text = lab_capture(cmd);
    free(cmd);
    free(qp);
    if (!text)
        lab_error("cannot decompress the patch %s", path);
    else
        *len = strlen(text);
    return text;
}

int lab_patch_first_failure(const char *output, char *out, size_t len)
{
    char file[512] = "", last[512] = "";
    for (const char *l = output; l && *l;) {
        const char *end = strchr(l, '\n');
        int n = end ? (int)(end - l) : (int)strlen(l);
        int hunk, at;
        if (sscanf(l, "checking file %511[^\n]", file) == 1 ||
            sscanf(l, "patching file %511[^\n]", file) == 1) {
        } else if (sscanf(l, "Hunk #%d FAILED at %d", &hunk, &at) == 2) {
            snprintf(out, len, "hunk #%d of %s FAILED at line %d", hunk, file, at);
            return 1;
        } else if (n > 0 && strncmp(l, "patch: ", 7) == 0) {
            snprintf(last, sizeof last, "%.*s", n, l);
        } else if (n > 0 && strstr(l, "can't find file to patch")) {
            snprintf(last, sizeof last, "%.*s", n, l);
        }
        l = end ? end + 1 : NULL;
    }
    if (!last[0])
        return 0;
    snprintf(out, len, "%s", last);
    return 1;
}

/* patch(1) on the tree; its output in *output (malloc'd). The exit code. */
static int run_patch(const char *tree, const char *plain, int level, int dry, char **output)
{
    char *qt = lab_shell_quote(tree), *qp = lab_shell_quote(plain);
    char *cmd = lab_asprintf("patch -d %s -p%d -E -f --no-backup-if-mismatch%s -i %s 2>&1; echo "
                             "\"lab-patch-rc=$?\"",
                             qt, level, dry ? " --dry-run" : " -s", qp);
    char *out = lab_capture(cmd);
    free(cmd);
    free(qt);
    free(qp);
    int rc = -1;
    const char *mark = out ? strstr(out, "lab-patch-rc=") : NULL;
    if (mark)
        rc = atoi(mark + strlen("lab-patch-rc="));
    *output = out ? out : lab_xstrdup("");
    return rc;
}

/* Appends what patch said to the build log. */
static void log_output(const char *log, const char *what, const char *out)
{
    FILE *f = log ? fopen(log, "a") : NULL;
    if (!f)
        return;
    fprintf(f, "lab patch: %s\n%s", what, out);
    fclose(f);
}

/* Dry runs at -p1, then -p0; the level that applies cleanly, or -1 with
 * the failure of -p1 said. */
static int strip_level(const char *tree, const char *plain, const char *name, const char *log)
{
    char *out1, *out0;
    if (run_patch(tree, plain, 1, 1, &out1) == 0) {
        free(out1);
        return 1;
    }
    int ok0 = run_patch(tree, plain, 0, 1, &out0) == 0;
    free(out0);
    if (ok0) {
        free(out1);
        return 0;
    }
    char why[768];
    if (!lab_patch_first_failure(out1, why, sizeof why))
        snprintf(why, sizeof why, "patch(1) refuses it (see the log)");
    log_output(log, name, out1);
    free(out1);
    lab_error("patch %s does not apply (-p1 or -p0): %s; nothing was built (log %s)", name, why,
              log ? log : "-");
    return -1;
}

int lab_patch_apply_series(const char *tree, const char *const *patches, size_t n, const char *log)
{
    for (size_t i = 0; i < n; i++) {
        char *plain = plain_copy(tree, patches[i], i);
        if (!plain)
            return -1;
        int level = strip_level(tree, plain, patches[i], log);
        char *out = NULL;
        int rc = level < 0 ? -1 : run_patch(tree, plain, level, 0, &out);
        if (level >= 0) {
            log_output(log, patches[i], out);
            if (rc != 0)
                lab_error("patch %s failed on the tree after a clean dry run (log %s)", patches[i],
                          log ? log : "-");
            else
                fprintf(stderr, "lab: applied %s (-p%d)\n", patches[i], level);
        }
        free(out);
        unlink(plain);
        free(plain);
        if (rc != 0)
            return -1;
    }
    return 0;
}
