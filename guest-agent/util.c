/* Small helpers of the guest agent: console, files, pending notes, power off. */
#include "agent.h"
#include "str.h"
#include "sys.h"

void con_puts(const char *s)
{
    sys_write(2, s, agent_strlen(s));
}

void agent_phase(const char *what)
{
    if (!is_pid1())
        return;
    con_puts("lab-agent: phase: ");
    con_puts(what);
    con_puts("\n");
}

long read_file(const char *path, char *buf, size_t cap)
{
    long fd = sys_open(path, O_RDONLY_, 0);
    if (fd < 0)
        return fd;
    size_t n = 0;
    while (n + 1 < cap) {
        long r = sys_read((int)fd, buf + n, cap - 1 - n);
        if (r == -E_INTR)
            continue;
        if (r < 0) {
            sys_close((int)fd);
            return r;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    sys_close((int)fd);
    buf[n] = 0;
    return (long)n;
}

#define NOTES_MAX 32
#define NOTE_LEN  240
static char notes[NOTES_MAX][NOTE_LEN];
static size_t nnotes;

void note(const char *msg)
{
    con_puts("lab-agent: ");
    con_puts(msg);
    con_puts("\n");
    if (nnotes < NOTES_MAX) {
        agent_cat(notes[nnotes], NOTE_LEN, 0, msg);
        nnotes++;
    }
}

size_t notes_count(void)
{
    return nnotes;
}

const char *notes_get(size_t i)
{
    return i < nnotes ? notes[i] : "";
}

int is_pid1(void)
{
    return sys_getpid() == 1;
}

void finish(void)
{
    report_drain();
    sys_sync();
    if (!is_pid1())
        sys_exit(0);
    sys_reboot(LINUX_REBOOT_CMD_POWER_OFF_);
    con_puts("lab-agent: power off failed; halting here\n");
    for (;;) {
        sys_pause();
        sys_sleep_ms(1000);
    }
}
