/* The raw block device devread and randread read (or, in the self-test, a
 * file): open, readahead, size, sector size and the drop of its cache. */
#include "agent.h"
#include "str.h"
#include "sys.h"

int blk_open(struct agent_run *r, int direct, uint64_t *size, unsigned *ssz)
{
    const struct agent_config *c = r->c;
    *size = 0;
    *ssz = 512;
    long fd = sys_open(r->path, O_RDONLY_ | O_LARGEFILE_ | (direct ? O_DIRECT_ : 0), 0);
    if (fd < 0)
        return run_fail(r, direct ? "open with O_DIRECT" : "open", fd);
    r->fd = fd;
    if (c->ra > 0 || (c->given & AGENT_GIVEN_RA_SET)) {
        long e = sys_ioctl((int)fd, BLKRASET_, (unsigned long)c->ra);
        if (e < 0 && e != -E_NOTTY)
            return run_fail(r, "BLKRASET", e);
    }
    unsigned long ra = 0;
    if (sys_ioctl((int)fd, BLKRAGET_, (unsigned long)&ra) == 0) {
        r->ra = ra;
        r->have_ra = 1;
    }
    int n = 0;
    if (sys_ioctl((int)fd, BLKSSZGET_, (unsigned long)&n) == 0 && n >= 512 && n <= 65536)
        *ssz = (unsigned)n;
    long e = sys_dev_size((int)fd, size);
    if (e < 0)
        return run_fail(r, "device size", e);
    if (!direct) {
        drop_caches(c, DROP_DEVICE, r->path);
        e = sys_ioctl((int)fd, BLKFLSBUF_, 0);
        if (e < 0 && e != -E_NOTTY)
            test_log_errno(r->test, "BLKFLSBUF", e);
        e = sys_fadvise_dontneed((int)fd);
        if (e < 0 && e != -E_NOSYS)
            test_log_errno(r->test, "fadvise DONTNEED", e);
    }
    return 0;
}

int blk_target(struct agent_run *r, char *buf, size_t cap)
{
    size_t at = agent_cat(buf, cap, 0, "/dev/");
    agent_cat(buf, cap, at, r->c->dev);
    r->path = buf;
    r->dev = r->c->dev;
    return 0;
}
