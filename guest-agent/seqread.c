/* The sequential-read experiment: read a file of the data disk in lab.bs
 * blocks after dropping its cached pages, timing the run. */
#include "agent.h"
#include "str.h"
#include "sys.h"

long seqread_open(const char *path, long *fadv)
{
    long fd = sys_open(path, O_RDONLY_ | O_LARGEFILE_, 0);
    if (fd < 0)
        return fd;
    sys_sync();
    *fadv = sys_fadvise_dontneed((int)fd);
    return fd;
}

static int target(struct agent_run *r, char *buf, size_t cap)
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
    drop_caches(r->c, DROP_FILE, r->path);
    r->fd = seqread_open(r->path, &e);
    if (r->fd < 0)
        return run_fail(r, "open file", r->fd);
    if (e < 0 && e != -E_NOSYS)
        test_fail(r->test, "fadvise DONTNEED", e, r->rep); /* reported, the run goes on */
    return 0;
}

static int io(struct agent_run *r)
{
    long e = run_read_seq(r, (int)r->fd);
    if (e)
        return run_fail(r, "read", e);
    if (r->c->size && r->bytes < r->c->size)
        return run_fail(r, "file shorter than lab.size", 0);
    return 0;
}

static void end_keys(const struct agent_run *r, struct agent_line *l)
{
    agent_line_u64(l, "ra_sectors", r->ra);
    agent_line_u64(l, "bs", r->c->bs);
}

const struct agent_test test_seqread = {
    .name = "seqread",
    .mount = 1,
    .verifies = 1,
    .target = target,
    .prepare = prepare,
    .io = io,
    .end_keys = end_keys,
};
