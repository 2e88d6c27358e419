/* The recursive directory walk the tree tests, the copy load and the cache
 * drop share (getdents64, else getdents on 2.4), and remove_tree on it. */
#include "agent.h"
#include "str.h"
#include "sys.h"

#define WALK_DEPTH_MAX 64
#define DT_DIR_        4
#define DT_REG_        8
#define DT_UNKNOWN_    0

static long walk_dir(struct walk *w, unsigned depth)
{
    char dents[2048] __attribute__((aligned(8)));
    if (depth > WALK_DEPTH_MAX) {
        w->what = "tree deeper than 64";
        return -E_INVAL;
    }
    long fd = sys_open(w->path, O_RDONLY_ | O_DIRECTORY_ | O_LARGEFILE_, 0);
    if (fd < 0) {
        w->what = "open directory";
        return fd;
    }
    w->dirs++;
    long r = w->on_dir ? w->on_dir(w) : 0;
    if (r < 0)
        w->what = "directory";
    size_t len = agent_strlen(w->path);
    long n = 0;
    while (r == 0 && (n = sys_getdents((int)fd, dents, sizeof(dents))) > 0) {
        for (long i = 0; i < n && r == 0;) {
            struct k_dirent64 *d = (struct k_dirent64 *)(dents + i);
            i += d->d_reclen;
            const char *nm = d->d_name;
            if (nm[0] == '.' && (nm[1] == 0 || (nm[1] == '.' && nm[2] == 0)))
                continue;
            if (len + 1 + agent_strlen(nm) + 1 > sizeof(w->path)) {
                w->what = "path too long";
                r = -E_INVAL;
                break;
            }
            size_t at = agent_cat(w->path, sizeof(w->path), len, "/");
            agent_cat(w->path, sizeof(w->path), at, nm);
            int is_dir = d->d_type == DT_DIR_;
            int is_reg = d->d_type == DT_REG_;
            if (d->d_type == DT_UNKNOWN_) {
                /* getdents (2.4) or a filesystem without d_type. */
                long t = sys_open(w->path, O_RDONLY_ | O_DIRECTORY_ | O_LARGEFILE_, 0);
                if (t >= 0) {
                    sys_close((int)t);
                    is_dir = 1;
                } else if (t == -E_NOTDIR) {
                    is_reg = 1; /* or a device, fifo or symlink: opening tells */
                }
            }
            if (is_dir) {
                r = walk_dir(w, depth + 1);
            } else if (is_reg) {
                w->files++;
                r = w->on_file ? w->on_file(w) : 0;
                if (r < 0 && !w->what)
                    w->what = "file";
            }
            w->path[len] = 0;
        }
    }
    if (r == 0 && n < 0) {
        w->what = "getdents";
        r = n;
    }
    sys_close((int)fd);
    if (r == 0 && w->on_dir_done) {
        r = w->on_dir_done(w);
        if (r < 0)
            w->what = "directory done";
    }
    return r;
}

long walk_tree(struct walk *w)
{
    size_t n = agent_strlen(w->path);
    while (n > 1 && w->path[n - 1] == '/')
        w->path[--n] = 0;
    w->rootlen = n;
    w->files = w->dirs = 0;
    w->what = NULL;
    return walk_dir(w, 0);
}

static long rm_file(struct walk *w)
{
    long r = sys_unlink(w->path);
    return r == -E_NOENT ? 0 : r;
}

static long rm_dir(struct walk *w)
{
    long r = sys_rmdir(w->path);
    /* Entries removed while listing may hide others from getdents: the
     * caller walks again. */
    return r == -E_NOENT || r == -E_NOTEMPTY ? 0 : r;
}

long remove_tree(const char *path)
{
    static struct walk w;
    for (int pass = 0; pass < 4; pass++) {
        agent_cat(w.path, sizeof(w.path), 0, path);
        w.on_file = rm_file;
        w.on_dir = NULL;
        w.on_dir_done = rm_dir;
        w.arg = NULL;
        long r = walk_tree(&w);
        if (r == -E_NOENT)
            return 0;
        if (r == -E_NOTDIR)
            return rm_file(&w);
        if (r < 0)
            return r;
    }
    long r = sys_rmdir(path);
    return r == -E_NOENT ? 0 : r;
}
