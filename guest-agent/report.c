/* The protocol writer: numbers the records and sends each with one write(). */
#include "agent.h"
#include "str.h"
#include "sys.h"

static int chan_fd = -1;
static uint64_t seq;
static struct agent_line line;
static int mirror = 1;

void report_mirror(int on)
{
    mirror = on;
}

void report_init(int fd)
{
    chan_fd = fd;
    seq = 0;
}

struct agent_line *report_start(const char *type)
{
    agent_line_start(&line, seq, type);
    return &line;
}

static int write_all(const char *p, size_t n)
{
    while (n) {
        long r = sys_write(chan_fd, p, n);
        if (r == -E_INTR)
            continue;
        if (r <= 0)
            return r < 0 ? (int)r : -E_IO;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

int report_send(void)
{
    long n = agent_line_end(&line);
    if (n < 0) {
        /* Refused (too long or a bad key): say so instead, same seq. */
        agent_line_start(&line, seq, "error");
        agent_line_str(&line, "msg", "agent record refused (too long or malformed)");
        n = agent_line_end(&line);
        if (n < 0)
            return -E_INVAL;
    }
    /* Mirror to the console for whoever reads the boot log. */
    if (mirror)
        sys_write(2, line.buf, (size_t)n);
    if (chan_fd < 0)
        return -E_IO;
    /* A virtio port or tty takes the whole record in the first write();
     * the loop only matters if it ever does not. */
    int r = write_all(line.buf, (size_t)n);
    if (r == 0)
        seq++;
    return r;
}

/* A UART sends at its own pace: wait until the last record has left the
 * tty (TCSBRK with a non-zero argument is tcdrain), or the guest may power
 * off with it unsent. A virtio port answers ENOTTY, which is fine. */
void report_drain(void)
{
    if (chan_fd >= 0)
        sys_ioctl(chan_fd, TCSBRK_, 1);
}

/* Messages are cut at 1000 bytes: encoded they stay far below the line limit. */
#define MSG_MAX 1000

void report_log(const char *msg)
{
    struct agent_line *l = report_start("log");
    size_t n = agent_strlen(msg);
    agent_line_strn(l, "msg", msg, n > MSG_MAX ? MSG_MAX : n);
    report_send();
}

void report_error(const char *msg, const char *test, int64_t rep)
{
    struct agent_line *l = report_start("error");
    size_t n = agent_strlen(msg);
    agent_line_strn(l, "msg", msg, n > MSG_MAX ? MSG_MAX : n);
    if (test) {
        agent_line_str(l, "test", test);
        if (rep >= 0)
            agent_line_u64(l, "rep", (uint64_t)rep);
    }
    report_send();
}

/* The first record of every boot: protocol, agent version, kernel, arch. */
void report_hello(void)
{
    struct k_utsname u;
    if (sys_uname(&u) < 0)
        agent_cat(u.release, sizeof(u.release), 0, "unknown");
    u.release[sizeof(u.release) - 1] = 0;
    struct agent_line *l = report_start("hello");
    agent_line_u64(l, "v", LAB_PROTO_VERSION);
    agent_line_str(l, "agent", LAB_AGENT_VERSION);
    agent_line_str(l, "uname", u.release);
    agent_line_str(l, "arch", LAB_ARCH_NAME);
    if (agent_start_uptime_cs)
        agent_line_u64(l, "up_cs", agent_start_uptime_cs);
    report_send();
}

void report_failure(const char *what, const char *detail, long err)
{
    char m[200];
    size_t at = agent_cat(m, sizeof(m), 0, what);
    at = agent_cat(m, sizeof(m), at, ": ");
    at = agent_cat(m, sizeof(m), at, detail);
    if (err) {
        at = agent_cat(m, sizeof(m), at, ": errno ");
        agent_cat_i64(m, sizeof(m), at, -err);
    }
    report_error(m, NULL, -1);
}
