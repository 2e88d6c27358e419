/* Did the built .config take the fragments? See fragment.h. */
#include "kernels/fragment.h"

#include "common/file.h"
#include "common/msg.h"
#include "common/proc.h"
#include "common/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every option name a tree defines, one per line with a leading newline:
 * "config NAME" / "menuconfig NAME" in Kconfig* (2.6 on), CONFIG_NAME in
 * 2.4's config.in/Config.in. One pass over the tree; malloc'd, or NULL. */
static char *tree_options(const char *srcdir)
{
    char *qd = lab_shell_quote(srcdir), *out = NULL;
    char *cmd = lab_asprintf(
        "cd %s && { find . -name 'Kconfig*' -print0 | xargs -0 grep -hoE "
        "'^[[:space:]]*(menu)?config[[:space:]]+[A-Za-z0-9_]+' 2>/dev/null | "
        "sed -E 's/^[[:space:]]*(menu)?config[[:space:]]+//'; find . \\( -name 'Config.in' "
        "-o -name 'config.in' \\) -print0 | xargs -0 grep -hoE 'CONFIG_[A-Za-z0-9_]+' "
        "2>/dev/null | sed 's/^CONFIG_//'; } | sort -u",
        qd);
    char *names;
    if ((names = lab_capture(cmd)))
        out = lab_asprintf("\n%s", names);
    free(names);
    free(cmd);
    free(qd);
    return out;
}

static int tree_knows(const char *options, const char *opt)
{
    if (!options)
        return 1;
    char *key = lab_asprintf("\n%s\n", opt);
    int yes = strstr(options, key) != NULL;
    free(key);
    return yes;
}

/* Every =y line of the lab's fragment should be in the final .config: an
 * option the tree knows but did not take (a dependency is off) is warned
 * about; options the tree does not have are listed in one line. */
void lab_build_check_fragment(const char *fragment, const char *config_path, const char *srcdir)
{
    size_t len;
    char *cfg = lab_read_file(config_path, &len);
    if (!cfg)
        return;
    char *absent = lab_xstrdup(""), *options = NULL;
    int nabsent = 0;
    for (const char *l = fragment; l && *l;) {
        const char *end = strchr(l, '\n');
        size_t n = end ? (size_t)(end - l) : strlen(l);
        if (n > 9 && strncmp(l, "CONFIG_", 7) == 0 && l[n - 1] == 'y' && l[n - 2] == '=') {
            char *line = lab_asprintf("\n%.*s\n", (int)n, l);
            if (!strstr(cfg, line)) {
                char *opt = lab_asprintf("%.*s", (int)(n - 9), l + 7);
                if (!options && srcdir)
                    options = tree_options(srcdir);
                if (tree_knows(options, opt)) {
                    lab_warn("the built config lacks %.*s (a dependency is off)", (int)n, l);
                } else {
                    char *a = lab_asprintf("%s%s%s", absent, nabsent++ ? ", " : "", opt);
                    free(absent);
                    absent = a;
                }
                free(opt);
            }
            free(line);
        }
        l = end ? end + 1 : NULL;
    }
    /* One fragment serves a range of releases: options of other releases
     * are expected, so they are one line, not a warning each. */
    if (nabsent)
        fprintf(stderr, "lab: %d option(s) of the fragment are not in this tree (ignored): %s\n",
                nabsent, absent);
    free(absent);
    free(options);
    free(cfg);
}
