/* Where the lab keeps things: its cache and its run directory. */
#include "common/paths.h"
#include "common/hash.h"
#include "common/msg.h"
#include "common/str.h"

#include <stdlib.h>
#include <string.h>
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

/* The absolute path, symlinks resolved where it exists (malloc'd). */
static char *absolute(const char *path)
{
    char *real = realpath(path, NULL), cwd[4096];
    if (real)
        return real;
    if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
        return lab_xstrdup(path);
    return lab_asprintf("%s/%s", cwd, path);
}

char *lab_run_log_dir(const char *store_path, int64_t run)
{
    char *store = absolute(store_path), *def_path = lab_asprintf("%s/results.db", lab_home());
    char *def = absolute(def_path), hex[LAB_HASH_HEX_LEN + 1], *dir;
    struct lab_hash h;
    if (strcmp(store, def) == 0) {
        dir = lab_asprintf("%s/logs/run-%lld", lab_home(), (long long)run);
    } else if (lab_hash_init(&h) == 0) {
        lab_hash_update(&h, store, strlen(store));
        if (lab_hash_final(&h, hex) < 0)
            abort(); /* OpenSSL cannot hash: nothing sensible left to do */
        dir = lab_asprintf("%s/logs/store-%.12s/run-%lld", lab_home(), hex, (long long)run);
    } else {
        abort();
    }
    free(store);
    free(def_path);
    free(def);
    return dir;
}
