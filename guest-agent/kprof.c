/* The kernel's own profile around each run (seed 004's readprofile): with
 * lab.kprofile=1 the kernel was booted with profile=2, so /proc/profile
 * holds one tick counter per 4 bytes of kernel text. It is reset when a run
 * begins and sent after the run's end record as kprof records of non-zero
 * slots; the host resolves slots to functions with the kernel's System.map. */
#include "agent.h"
#include "str.h"
#include "sys.h"

#define KPROF_PATH "/proc/profile"

static int enabled;
static int broken; /* said once that /proc/profile cannot be used */
static char chunk[65536];

static void say_broken(const char *what, long err)
{
    if (broken++)
        return;
    char m[120];
    size_t at = agent_cat(m, sizeof(m), 0, what);
    at = agent_cat(m, sizeof(m), at, " " KPROF_PATH ": errno ");
    agent_cat_i64(m, sizeof(m), at, -err);
    report_log(m);
}

void kprof_enable(int on)
{
    enabled = on;
}

/* Writing anything but an int-sized buffer zeroes the counters (2.4 and
 * 2.6 write_profile; four bytes would set the SMP profiling multiplier). */
void kprof_reset(void)
{
    if (!enabled)
        return;
    long fd = sys_open(KPROF_PATH, O_WRONLY_, 0);
    if (fd < 0) {
        say_broken("cannot open", fd);
        return;
    }
    long r = sys_write((int)fd, "0", 1);
    sys_close((int)fd);
    if (r < 0)
        say_broken("cannot reset", r);
}

/* Sends what is packed so far as one kprof record. */
static void flush(struct agent_kprof_pack *p, uint64_t step)
{
    if (!p->len)
        return;
    struct agent_line *l = report_start("kprof");
    agent_line_u64(l, "step", step);
    agent_line_strn(l, "slots", p->buf, p->len);
    report_send();
    p->len = 0;
}

/* The file: a u32 slot size in bytes, then one u32 tick count per slot. */
void kprof_report(void)
{
    static struct agent_kprof_pack pack;
    if (!enabled || broken)
        return;
    long fd = sys_open(KPROF_PATH, O_RDONLY_, 0);
    if (fd < 0) {
        say_broken("cannot open", fd);
        return;
    }
    uint64_t step = 0, slot = 0;
    size_t have = 0;
    pack.len = 0;
    for (;;) {
        long n = sys_read((int)fd, chunk + have, sizeof(chunk) - have);
        if (n == -E_INTR)
            continue;
        if (n < 0) {
            say_broken("cannot read", n);
            break;
        }
        have += (size_t)n;
        size_t words = have / 4;
        for (size_t i = 0; i < words; i++) {
            uint32_t v;
            agent_memcpy(&v, chunk + 4 * i, 4);
            if (step == 0) {
                step = v ? v : 1;
                continue;
            }
            if (v && agent_kprof_add(&pack, slot, v) < 0) {
                flush(&pack, step);
                agent_kprof_add(&pack, slot, v);
            }
            slot++;
        }
        /* Keep a partial word for the next read. */
        size_t tail = have - words * 4;
        agent_memcpy(chunk, chunk + words * 4, tail);
        have = tail;
        if (n == 0)
            break;
    }
    sys_close((int)fd);
    flush(&pack, step);
}
