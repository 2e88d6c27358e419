/* Where the lab keeps things: its cache and its run directory. */
#include "common/paths.h"
#include "common/msg.h"
#include "common/str.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

const char *lab_home(void)
{
    static char *home;
    const char *env = getenv("LAB_HOME");
    if (home)
        return home;
    if (env && *env)
        home = lab_xstrdup(env);
    else if (geteuid() == 0)
        home = lab_xstrdup("/var/cache/lab");
    else
        home = lab_asprintf("%s/.cache/lab", getenv("HOME") ? getenv("HOME") : "/tmp");
    return home;
}

/* 1 if path is a directory (not a symlink) of ours that nobody else may
 * enter: a name in /tmp anyone could have made first. */
static int private_dir(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
           (st.st_mode & 077) == 0;
}

/* A non-root user without XDG_RUNTIME_DIR: /tmp/lab-UID, made 0700 and
 * checked to be ours; if another user made that name first, a fresh
 * private directory instead (this process's cells then cannot be swept by
 * a later lab, which is the lesser harm). */
static char *private_tmp_root(void)
{
    char *root = lab_asprintf("/tmp/lab-%ld", (long)geteuid());
    mkdir(root, 0700);
    if (private_dir(root))
        return root;
    lab_warn("%s is not a private directory of this user; using a new one", root);
    free(root);
    root = lab_asprintf("/tmp/lab-%ld-XXXXXX", (long)geteuid());
    if (!mkdtemp(root))
        abort(); /* /tmp unusable: nothing sensible left to do */
    return root;
}

const char *lab_run_root(void)
{
    static char *root;
    const char *env = getenv("LAB_RUN_DIR");
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    if (root)
        return root;
    if (env && *env)
        root = lab_xstrdup(env);
    else if (geteuid() == 0)
        root = lab_xstrdup("/run/lab");
    else if (xdg && *xdg)
        root = lab_asprintf("%s/lab", xdg); /* the session's own, already private */
    else
        root = private_tmp_root();
    return root;
}

char *lab_run_log_dir(int64_t run)
{
    return lab_asprintf("%s/logs/run-%lld", lab_home(), (long long)run);
}
