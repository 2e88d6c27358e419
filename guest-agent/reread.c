/* Row `reread`: a file of the data disk read twice, timing only the second
 * read. Seed 004's profiles showed 2.6 "spends oodles of time copying to
 * user space" where 2.4 did not; with the file already in the page cache the
 * run holds no disk IO, only the kernel's read path and its copy to user
 * space, so two kernels' times compare that cost alone. prepare reads the
 * file once, untimed, to bring it in (the guest's memory must hold it); the
 * run's dev_read_bytes (near 0) shows the timed read came from the cache.
 * Its target, timed read and end keys are seqread's. */
#include "agent.h"
#include "sys.h"

static int prepare(struct agent_run *r)
{
    const char *what = "";
    long e = dev_readahead(r->c, &r->ra, &what);
    if (e < 0)
        return run_fail(r, what, e);
    r->have_ra = 1;
    r->fd = sys_open(r->path, O_RDONLY_ | O_LARGEFILE_, 0);
    if (r->fd < 0)
        return run_fail(r, "open file", r->fd);
    e = run_read_seq(r, (int)r->fd); /* untimed: the file into the page cache */
    if (e)
        return run_fail(r, "read (to fill the cache)", e);
    e = sys_lseek((int)r->fd, 0, 0); /* SEEK_SET: the timed read starts at byte 0 */
    return e < 0 ? run_fail(r, "lseek", e) : 0;
}

static const struct agent_test test_reread = {
    .name = "reread",
    .mount = 1,
    .verifies = 1,
    .target = seqread_target,
    .prepare = prepare,
    .io = seqread_io,
    .end_keys = seqread_end_keys,
};
AGENT_TEST(test_reread);
