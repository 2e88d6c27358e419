/* The tree tests: treeread (seed 003 b: read every regular file of a tree, as
 * `find | xargs dd` does) and contest (seed 001: the same read with CPU work
 * proportional to the data, standing in for contest's kernel compile) over
 * the walk of walk.c. */
#include "agent.h"
#include "str.h"
#include "sys.h"

struct tree_ctx {
    const struct agent_config *c;
    uint64_t rounds;
    uint64_t bytes;
    uint64_t sum;
};

static long read_one(struct walk *w)
{
    struct tree_ctx *x = w->arg;
    long fd = sys_open(w->path, O_RDONLY_ | O_LARGEFILE_, 0);
    if (fd < 0) {
        w->what = "open";
        return fd;
    }
    long r = 0;
    for (;;) {
        long n = sys_read((int)fd, agent_iobuf, (size_t)x->c->bs);
        if (n == -E_INTR)
            continue;
        if (n < 0) {
            w->what = "read";
            r = n;
        }
        if (n <= 0)
            break;
        x->bytes += (uint64_t)n;
        for (uint64_t k = 0; k < x->rounds; k++)
            x->sum = agent_checksum(x->sum, agent_iobuf, (size_t)n);
    }
    sys_close((int)fd);
    return r;
}

static struct walk tw;
static struct tree_ctx tx;

static int target(struct agent_run *r, char *buf, size_t cap)
{
    if (data_path(buf, cap, r->c->tree) < 0)
        return run_fail(r, "lab.tree: path too long", 0);
    r->path = buf;
    r->dev = is_pid1() ? r->c->dev : NULL;
    return 0;
}

static int prepare(struct agent_run *r, uint64_t rounds)
{
    const struct agent_config *c = r->c;
    if (is_pid1()) {
        const char *what = NULL;
        long e = dev_readahead(c, &r->ra, &what);
        if (e < 0)
            return run_fail(r, what, e);
        r->have_ra = 1;
    }
    drop_caches(c, DROP_TREE, r->path);
    r->f.tree.rounds = rounds;
    tx.c = c;
    tx.rounds = rounds;
    tx.bytes = 0;
    tx.sum = AGENT_SUM_INIT;
    agent_cat(tw.path, sizeof(tw.path), 0, r->path);
    tw.on_file = read_one;
    tw.on_dir = tw.on_dir_done = NULL;
    tw.arg = &tx;
    return 0;
}

static int prepare_treeread(struct agent_run *r)
{
    return prepare(r, 0);
}

static int prepare_contest(struct agent_run *r)
{
    return prepare(r, r->c->cpu_rounds);
}

static int io(struct agent_run *r)
{
    long e = walk_tree(&tw);
    r->bytes = tx.bytes;
    r->f.tree.files = tw.files;
    r->f.tree.dirs = tw.dirs;
    r->f.tree.checksum = tx.sum;
    if (e < 0) {
        size_t at = agent_cat(r->why, sizeof(r->why), 0, tw.what ? tw.what : "walk");
        at = agent_cat(r->why, sizeof(r->why), at, " ");
        agent_cat(r->why, sizeof(r->why), at, tw.path);
        return run_fail(r, r->why, e);
    }
    return 0;
}

static void end_keys(const struct agent_run *r, struct agent_line *l)
{
    const struct tree_figs *o = &r->f.tree;
    agent_line_u64(l, "files", o->files);
    agent_line_u64(l, "dirs", o->dirs);
    agent_line_u64(l, "bs", r->c->bs);
    if (o->rounds) {
        agent_line_u64(l, "cpu_rounds", o->rounds);
        agent_line_u64(l, "checksum", o->checksum);
    }
    if (r->have_ra)
        agent_line_u64(l, "ra_sectors", r->ra);
}

const struct agent_test test_treeread = {
    .name = "treeread",
    .mount = 1,
    .target = target,
    .prepare = prepare_treeread,
    .io = io,
    .end_keys = end_keys,
};
AGENT_TEST(test_treeread);

const struct agent_test test_contest = {
    .name = "contest",
    .mount = 1,
    .target = target,
    .prepare = prepare_contest,
    .io = io,
    .end_keys = end_keys,
};
AGENT_TEST(test_contest);
