/* Did the built .config take the fragments? See fragment.h. */
#include "kernels/fragment.h"

#include "common/file.h"
#include "common/msg.h"
#include "common/proc.h"
#include "common/str.h"

#include <ctype.h>
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

static int in_list(const char *opt, const char *const *opts, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(opt, opts[i]) == 0)
            return 1;
    return 0;
}

/* Lines of one fragment that serves both x86 arches but only hold on one:
 * the other arch's Kconfig forces them off, as it should. 64BIT is
 * x86_64's; the CPU choice and the PCI BIOS access of 2.4's and 2.6's
 * fragments are i386's (x86_64 has neither). */
static int other_arch_only(const char *opt, int i386)
{
    static const char *const x86_64_opts[] = {"64BIT"};
    static const char *const i386_opts[] = {"M686", "PCI_GOANY", "PCI_BIOS"};
    if (i386)
        return in_list(opt, x86_64_opts, sizeof x86_64_opts / sizeof x86_64_opts[0]);
    return in_list(opt, i386_opts, sizeof i386_opts / sizeof i386_opts[0]);
}

/* Every =y line of the lab's fragment should be in the final .config: an
 * option the tree knows but did not take (a dependency is off) is warned
 * about; options the tree does not have are listed in one line. */
void lab_build_check_fragment(const char *fragment, const char *config_path, const char *srcdir,
                              int i386)
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
                if (other_arch_only(opt, i386)) {
                    /* expected */
                } else if (tree_knows(options, opt)) {
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

/* The option a .config line assigns: [*name, *name + return) or 0. */
static size_t assigned_option(const char *l, size_t n, const char **name)
{
    static const char unset[] = "# CONFIG_";
    if (n > 7 && strncmp(l, "CONFIG_", 7) == 0)
        *name = l;
    else if (n > sizeof unset - 1 && strncmp(l, unset, sizeof unset - 1) == 0)
        *name = l + 2;
    else
        return 0;
    size_t k = 0;
    while (*name + k < l + n && (isalnum((unsigned char)(*name)[k]) || (*name)[k] == '_'))
        k++;
    const char *rest = *name + k;
    if (l[0] == 'C')
        return rest < l + n && *rest == '=' ? k : 0;
    return (size_t)(l + n - rest) >= 11 && strncmp(rest, " is not set", 11) == 0 ? k : 0;
}

/* Whether the option [name, name + k) is assigned again after p. */
static int assigned_later(const char *p, const char *name, size_t k)
{
    for (const char *l = p; *l;) {
        const char *end = strchr(l, '\n');
        size_t n = end ? (size_t)(end - l) : strlen(l);
        const char *other;
        if (assigned_option(l, n, &other) == k && strncmp(other, name, k) == 0)
            return 1;
        l += n + (end ? 1 : 0);
    }
    return 0;
}

char *lab_config_last_wins(const char *text)
{
    size_t len = strlen(text), o = 0;
    char *out = malloc(len + 1);
    if (!out)
        abort();
    for (const char *l = text; *l;) {
        const char *end = strchr(l, '\n');
        size_t n = end ? (size_t)(end - l) + 1 : strlen(l);
        const char *name;
        size_t k = assigned_option(l, end ? n - 1 : n, &name);
        if (!k || !assigned_later(l + n, name, k)) {
            memcpy(out + o, l, n);
            o += n;
        }
        l += n;
    }
    out[o] = '\0';
    return out;
}
