/* A running cell's QEMU seen from /proc: see qemuproc.h. */
#include "host/cell/qemuproc.h"

#include "common/file.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lab_qemu_is_vcpu_name(const char *comm)
{
    unsigned n;
    char accel[8];
    /* One thread per vCPU ("CPU 0/TCG", "CPU 0/KVM"), or under the
     * instruction counter (CPU profiles) TCG's single round-robin thread
     * that runs them all. */
    return sscanf(comm, "CPU %u/%7s", &n, accel) == 2 || strcmp(comm, "ALL CPUs/TCG") == 0;
}

/* "guest=NAME," or "guest=NAME" as a whole argument of the command line. */
static int cmdline_names(const char *cmd, size_t len, const char *name)
{
    size_t nl = strlen(name);
    for (size_t i = 0; i < len; i += strlen(cmd + i) + 1) {
        const char *p = strstr(cmd + i, "guest=");
        if (p && strncmp(p + 6, name, nl) == 0 && (p[6 + nl] == ',' || p[6 + nl] == '\0'))
            return 1;
    }
    return 0;
}

pid_t lab_qemu_pid(const char *name)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    pid_t found = -1;
    if (!d)
        return -1;
    while (found < 0 && (e = readdir(d))) {
        char *end, path[64];
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0)
            continue;
        snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
        size_t len = 0;
        char *cmd = lab_read_file(path, &len);
        if (cmd && len && strstr(cmd, "qemu") && cmdline_names(cmd, len, name))
            found = (pid_t)pid;
        free(cmd);
    }
    closedir(d);
    return found;
}

int lab_qemu_threads(pid_t pid, int vcpu_only, pid_t *tids, size_t max)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/task", (long)pid);
    DIR *d = opendir(path);
    struct dirent *e;
    size_t n = 0;
    if (!d)
        return -1;
    while (n < max && (e = readdir(d))) {
        char *end;
        long tid = strtol(e->d_name, &end, 10);
        if (*end || tid <= 0)
            continue;
        if (vcpu_only) {
            char cpath[96], comm[64] = "";
            snprintf(cpath, sizeof cpath, "/proc/%ld/task/%ld/comm", (long)pid, tid);
            FILE *f = fopen(cpath, "r");
            if (!f)
                continue;
            if (!fgets(comm, sizeof comm, f))
                comm[0] = '\0';
            fclose(f);
            comm[strcspn(comm, "\n")] = '\0';
            if (!lab_qemu_is_vcpu_name(comm))
                continue;
        }
        tids[n++] = (pid_t)tid;
    }
    closedir(d);
    return (int)n;
}
