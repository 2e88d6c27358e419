/* The raw-device sequential read (lab.test=devread): all of /dev/<lab.dev>
 * (or lab.size bytes) in lab.bs blocks, through the page cache after dropping
 * it (BLKFLSBUF, fadvise DONTNEED) or with O_DIRECT, with the CPU split from
 * /proc/stat over the run. */
#include "agent.h"
#include "str.h"
#include "sys.h"

static int multiple_of(uint64_t n, unsigned ssz)
{
    return (n & (uint64_t)(ssz - 1)) == 0; /* ssz is a power of two */
}

static int prepare(struct agent_run *r)
{
    const struct agent_config *c = r->c;
    unsigned ssz;
    if (blk_open(r, (int)c->direct, &r->f.dev.devsize, &ssz) < 0)
        return -1;
    if (c->size > r->f.dev.devsize)
        return run_fail(r, "lab.size larger than the device", 0);
    if (c->direct && (!multiple_of(c->bs, ssz) || !multiple_of(c->size, ssz)))
        return run_fail(r, "O_DIRECT needs lab.bs and lab.size in whole sectors", 0);
    return 0;
}

static int io(struct agent_run *r)
{
    long e = run_read_seq(r, (int)r->fd);
    if (e)
        return run_fail(r, "read", e);
    /* lab.size 0 reads to the end in whole blocks: a short last read, never
     * a length O_DIRECT would refuse. */
    if (r->bytes != (r->c->size ? r->c->size : r->f.dev.devsize))
        return run_fail(r, "read fewer bytes than the device size", 0);
    return 0;
}

static void end_keys(const struct agent_run *r, struct agent_line *l)
{
    agent_line_u64(l, "bs", r->c->bs);
    agent_line_u64(l, "direct", r->c->direct ? 1 : 0);
    if (r->have_ra)
        agent_line_u64(l, "ra_sectors", r->ra);
}

const struct agent_test test_devread = {
    .name = "devread",
    .mount = 0,
    .verifies = 1,
    .target = blk_target,
    .prepare = prepare,
    .io = io,
    .end_keys = end_keys,
};
AGENT_TEST(test_devread);
