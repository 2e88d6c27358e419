/* The sequential-read experiment: read a file of the data disk in lab.bs
 * blocks after dropping its cached pages, timing the run. */
#include "agent.h"
#include "str.h"
#include "sys.h"

int seqread_target(struct agent_run *r, char *buf, size_t cap)
{
    if (data_path(buf, cap, r->c->file) < 0)
        return run_fail(r, "lab.file: path too long", 0);
    r->path = buf;
    r->dev = r->c->dev;
    return 0;
}

static int prepare(struct agent_run *r)
{
    const char *what = "";
    long e = dev_readahead(r->c, &r->ra, &what);
    if (e < 0)
        return run_fail(r, what, e);
    r->have_ra = 1;
    /* By lab.drop's method alone: a posix_fadvise of its own here would
     * run even under drop=remount, the choice that avoids a kernel's
     * broken fadvise. */
    drop_caches(r->c, DROP_FILE, r->path);
    r->fd = sys_open(r->path, O_RDONLY_ | O_LARGEFILE_, 0);
    return r->fd < 0 ? run_fail(r, "open file", r->fd) : 0;
}

int seqread_io(struct agent_run *r)
{
    long e = run_read_seq(r, (int)r->fd);
    if (e)
        return run_fail(r, "read", e);
    if (r->c->size && r->bytes < r->c->size)
        return run_fail(r, "file shorter than lab.size", 0);
    return 0;
}

void seqread_end_keys(const struct agent_run *r, struct agent_line *l)
{
    agent_line_u64(l, "ra_sectors", r->ra);
    agent_line_u64(l, "bs", r->c->bs);
}

const struct agent_test test_seqread = {
    .name = "seqread",
    .mount = 1,
    .verifies = 1,
    .target = seqread_target,
    .prepare = prepare,
    .io = seqread_io,
    .end_keys = seqread_end_keys,
};
AGENT_TEST(test_seqread);
