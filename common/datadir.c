/* Where the lab's own files are; see datadir.h. */
#include "common/datadir.h"
#include "common/str.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The build tree's places, from the Makefile; a build without them (the
 * fuzz harnesses) looks relative to the working directory. */
#ifndef LAB_SOURCE_DIR
#define LAB_SOURCE_DIR "."
#endif
#ifndef LAB_BUILD_DIR
#define LAB_BUILD_DIR "build"
#endif

static const struct data_row {
    enum lab_data what;
    const char *env;       /* overrides both layouts */
    const char *installed; /* under PREFIX */
    const char *tree_base; /* LAB_SOURCE_DIR or LAB_BUILD_DIR */
    const char *tree;      /* under tree_base ("" for the base itself) */
} rows[] = {
    {LAB_DATA_EXPERIMENTS, "LAB_EXPERIMENTS", "share/lab/experiments", LAB_SOURCE_DIR,
     "/lab/experiments"},
    {LAB_DATA_PROFILES, "LAB_PROFILES", "share/lab/profiles", LAB_SOURCE_DIR, "/lab/profiles"},
    {LAB_DATA_KERNEL_CONFIGS, "LAB_KERNEL_CONFIGS", "share/lab/kernel-configs", LAB_SOURCE_DIR,
     "/kernels/configs"},
    {LAB_DATA_BUILT, "LAB_LIBDIR", "lib/lab", LAB_BUILD_DIR, ""},
    {LAB_DATA_DOCS, "LAB_DOCS", "share/lab/docs", LAB_SOURCE_DIR, "/docs"},
};

const char *lab_install_prefix(void)
{
    static int done;
    static char *prefix;
    char exe[PATH_MAX], *share;
    struct stat st;
    ssize_t n;
    if (done)
        return prefix;
    done = 1;
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = '\0';
    /* PREFIX/bin/lab: strip "/lab", then "/bin". */
    char *slash = strrchr(exe, '/');
    if (!slash || slash == exe)
        return NULL;
    *slash = '\0';
    slash = strrchr(exe, '/');
    if (!slash || strcmp(slash, "/bin") != 0)
        return NULL;
    *slash = '\0';
    share = lab_asprintf("%s/share/lab/experiments", exe[0] ? exe : "");
    if (stat(share, &st) == 0 && S_ISDIR(st.st_mode))
        prefix = lab_xstrdup(exe[0] ? exe : "/");
    free(share);
    return prefix;
}

const char *lab_data_dir(enum lab_data what)
{
    static char *dirs[sizeof rows / sizeof rows[0]];
    const struct data_row *r = rows;
    const char *env, *prefix;
    while (r->what != what)
        r++;
    env = getenv(r->env);
    if (env && *env)
        return env;
    if (!dirs[what]) {
        prefix = lab_install_prefix();
        dirs[what] = prefix ? lab_asprintf("%s/%s", strcmp(prefix, "/") ? prefix : "", r->installed)
                            : lab_asprintf("%s%s", r->tree_base, r->tree);
    }
    return dirs[what];
}
