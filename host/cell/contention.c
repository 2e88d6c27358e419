/* Contention on record: see contention.h. */
#include "host/cell/contention.h"

#include "host/hdd/stats.h"
#include "host/cell/qemuproc.h"
#include "common/file.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int lab_psi_parse(const char *text, double *avg10, int64_t *total_us)
{
    const char *p = text ? strstr(text, "some ") : NULL;
    long long total;
    if (!p || sscanf(p, "some avg10=%lf", avg10) != 1)
        return -1;
    const char *t = strstr(p, "total=");
    if (!t || sscanf(t, "total=%lld", &total) != 1)
        return -1;
    *total_us = total;
    return 0;
}

int lab_schedstat_parse(const char *text, int64_t *wait_ns)
{
    unsigned long long run, wait;
    if (!text || sscanf(text, "%llu %llu", &run, &wait) != 2)
        return -1;
    *wait_ns = (int64_t)wait;
    return 0;
}

/* A small /proc file into buf (lab_read_file's 128 KiB buffer per read is
 * too much at every record). */
static int read_small(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, len - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    return 0;
}

int lab_contention_attach(struct lab_contention *c, const char *name, const char *stats_path)
{
    memset(c, 0, sizeof *c);
    c->stats_path = stats_path;
    pid_t pid = lab_qemu_pid(name);
    if (pid < 0)
        return -1;
    int n = lab_qemu_threads(pid, 1, c->vcpu, sizeof c->vcpu / sizeof c->vcpu[0]);
    c->nvcpu = n > 0 ? n : 0;
    return c->nvcpu ? 0 : -1;
}

void lab_contention_snap(const struct lab_contention *c, struct lab_contention_snap *s)
{
    char buf[512], path[96];
    memset(s, 0, sizeof *s);
    s->vcpu_wait_ns = c->nvcpu ? 0 : -1;
    for (int i = 0; i < c->nvcpu; i++) {
        int64_t w;
        snprintf(path, sizeof path, "/proc/%ld/schedstat", (long)c->vcpu[i]);
        if (read_small(path, buf, sizeof buf) == 0 && lab_schedstat_parse(buf, &w) == 0)
            s->vcpu_wait_ns += w;
        else
            s->vcpu_wait_ns = -1;
        if (s->vcpu_wait_ns < 0)
            break;
    }
    s->psi_some_us = -1;
    if (read_small("/proc/pressure/cpu", buf, sizeof buf) == 0)
        lab_psi_parse(buf, &s->psi_avg10, &s->psi_some_us);
    if (c->stats_path) {
        int fd = open(c->stats_path, O_RDONLY | O_CLOEXEC);
        struct hdd_stats st;
        if (fd >= 0 && pread(fd, &st, sizeof st, 0) == (ssize_t)sizeof st &&
            st.magic == HDD_STATS_MAGIC) {
            s->have_disk = 1;
            s->disk_reqs = st.requests;
            s->disk_late = st.late;
            s->disk_late_ns = st.late_ns;
            s->disk_max_late_ns = st.max_late_ns;
        }
        if (fd >= 0)
            close(fd);
    }
}

int lab_contention_extra(const struct lab_contention_snap *b, const struct lab_contention_snap *e,
                         int64_t run_ns, char *buf, size_t len)
{
    size_t used = strlen(buf);
    int flag = 0;
#define ADD(...)                                                                                   \
    do {                                                                                           \
        if (used < len)                                                                            \
            used += (size_t)snprintf(buf + used, len - used, __VA_ARGS__);                         \
    } while (0)
    if (b->vcpu_wait_ns >= 0 && e->vcpu_wait_ns >= b->vcpu_wait_ns) {
        int64_t w = e->vcpu_wait_ns - b->vcpu_wait_ns;
        ADD("%shost_vcpu_wait_ns=%lld", used ? " " : "", (long long)w);
        flag |= run_ns > 0 && w > LAB_CONTENTION_VCPU_FLOOR_NS &&
                100.0 * (double)w / (double)run_ns > LAB_CONTENTION_VCPU_PCT;
    }
    if (b->psi_some_us >= 0 && e->psi_some_us >= b->psi_some_us)
        ADD("%shost_psi_cpu_us=%lld host_psi_cpu_avg10=%.2f", used ? " " : "",
            (long long)(e->psi_some_us - b->psi_some_us), e->psi_avg10);
    if (b->have_disk && e->have_disk) {
        uint64_t late_ns = e->disk_late_ns - b->disk_late_ns;
        ADD("%shost_disk_reqs=%llu host_disk_late=%llu host_disk_late_ns=%llu", used ? " " : "",
            (unsigned long long)(e->disk_reqs - b->disk_reqs),
            (unsigned long long)(e->disk_late - b->disk_late), (unsigned long long)late_ns);
        flag |= run_ns > 0 && 100.0 * (double)late_ns / (double)run_ns > LAB_CONTENTION_DISK_PCT;
    }
    if (flag)
        ADD("%shost_flag=1", used ? " " : "");
#undef ADD
    return flag;
}
