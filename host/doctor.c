/* The checks of `lab doctor`, one table row each. A check never changes
 * the machine (unlike lab run, it starts no daemon): it looks, and says. */
#include "host/doctor.h"
#include "host/cell/rt.h"
#include "kernels/catalog.h"
#include "host/cell/cell.h"
#include "kernels/fetch.h"
#include "host/cell/nbd.h"
#include "common/file.h"
#include "common/paths.h"
#include "common/str.h"
#include "host/cell/vm.h"
#include "host/plan/profile.h"

#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <grp.h>
#include <libvirt/virterror.h>
#include <pwd.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#define GIB             (1024.0 * 1024 * 1024)
#define MIN_FREE_GIB    1.0 /* one boot image, data disk and trace */
#define ENOUGH_FREE_GIB 4.0

typedef void (*check_fn)(struct lab_doctor_result *r);

static void set(struct lab_doctor_result *r, enum lab_doctor_level level, const char *fix,
                const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void set(struct lab_doctor_result *r, enum lab_doctor_level level, const char *fix,
                const char *fmt, ...)
{
    va_list ap;
    r->level = level;
    va_start(ap, fmt);
    vsnprintf(r->what, sizeof r->what, fmt, ap);
    va_end(ap);
    snprintf(r->fix, sizeof r->fix, "%s", fix ? fix : "");
}

/* The pid of a process whose command name is `name`, or 0. */
static long find_process(const char *name)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    long found = 0;
    while (d && !found && (e = readdir(d))) {
        char path[300], comm[64] = "";
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (f && fgets(comm, sizeof comm, f) && strcmp(strtok(comm, "\n"), name) == 0)
            found = atol(e->d_name);
        if (f)
            fclose(f);
    }
    if (d)
        closedir(d);
    return found;
}

static void check_daemon(struct lab_doctor_result *r, const char *name)
{
    long pid = find_process(name);
    char fix[128];
    snprintf(fix, sizeof fix, "systemctl start %s   (or, without systemd: %s -d)", name, name);
    if (pid)
        set(r, LAB_DOCTOR_OK, NULL, "running (pid %ld)", pid);
    else
        set(r, LAB_DOCTOR_FAIL, fix, "not running");
}

static void check_libvirtd(struct lab_doctor_result *r)
{
    check_daemon(r, "libvirtd");
    /* Debian 12 may run the modular daemons instead. */
    if (r->level == LAB_DOCTOR_FAIL && find_process("virtqemud"))
        set(r, LAB_DOCTOR_OK, NULL, "virtqemud running (modular daemons)");
}

static void check_virtlogd(struct lab_doctor_result *r)
{
    check_daemon(r, "virtlogd");
}

static void quiet(void *data, virErrorPtr err)
{
}

/* Connects as lab run would, and asks for the domain type cells use. */
static void check_uri(struct lab_doctor_result *r)
{
    const char *uri = lab_vm_uri();
    unsigned long ver = 0;
    virSetErrorFunc(NULL, quiet);
    virConnectPtr conn = virConnectOpen(uri);
    if (!conn) {
        set(r, LAB_DOCTOR_FAIL,
            "systemctl start libvirtd, or set LAB_LIBVIRT_URI to a libvirt that runs "
            "(unset it for the default)",
            "cannot connect to %s: %s", uri, lab_vm_last_error());
        return;
    }
    char *caps = virConnectGetCapabilities(conn);
    int qemu = caps && strstr(caps, "<domain type='qemu'") != NULL;
    virConnectGetLibVersion(conn, &ver);
    if (qemu)
        set(r, LAB_DOCTOR_OK, NULL, "%s reachable (libvirt %lu.%lu.%lu, QEMU domains)", uri,
            ver / 1000000, ver / 1000 % 1000, ver % 1000);
    else
        set(r, LAB_DOCTOR_FAIL, "apt-get install qemu-system-x86 && systemctl restart libvirtd",
            "%s reachable but offers no QEMU domain type", uri);
    free(caps);
    virConnectClose(conn);
}

/* What lab_accel_choose would pick for --accel auto, without probing. */
static void check_accel(struct lab_doctor_result *r)
{
    struct utsname u;
    uname(&u);
    char *path = lab_asprintf("%s/accel-%s", lab_home(), u.release);
    char *cached = lab_read_file(path, NULL);
    if (access("/dev/kvm", R_OK | W_OK) != 0)
        set(r, LAB_DOCTOR_NOTE,
            "for KVM: load kvm_intel or kvm_amd, or enable nested virtualisation",
            "TCG: /dev/kvm is not usable (%s); cells run emulated, slower, same figures",
            strerror(errno));
    else if (!cached)
        set(r, LAB_DOCTOR_OK, NULL,
            "/dev/kvm usable; the first lab run probes whether KVM "
            "guests boot here");
    else if (strncmp(cached, "kvm", 3) == 0)
        set(r, LAB_DOCTOR_OK, NULL, "KVM (a probe guest booted; %s)", path);
    else
        set(r, LAB_DOCTOR_NOTE, "rm the cached verdict to probe again",
            "TCG: /dev/kvm exists but KVM guests do not boot here (probe cached in %s)", path);
    free(cached);
    free(path);
}

/* QEMU runs as libvirt-qemu under qemu:///system and reads the kernels and
 * images from the cache: try it as that user, in a child. */
static void check_qemu_user(struct lab_doctor_result *r)
{
    struct passwd *pw = getpwnam("libvirt-qemu");
    const char *home = lab_home();
    if (geteuid() != 0) {
        set(r, LAB_DOCTOR_OK, NULL, "not root: QEMU runs as you under qemu:///session");
        return;
    }
    if (!pw) {
        set(r, LAB_DOCTOR_FAIL, "apt-get install libvirt-daemon-system", "no libvirt-qemu user");
        return;
    }
    pid_t pid = fork();
    if (pid == 0) {
        if (setgroups(0, NULL) < 0 || setgid(pw->pw_gid) < 0 || setuid(pw->pw_uid) < 0)
            _exit(2);
        _exit(access(home, R_OK | X_OK) == 0 ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    char fix[512];
    snprintf(fix, sizeof fix, "chmod o+rx %s and its parents, or set LAB_HOME outside /root", home);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        set(r, LAB_DOCTOR_OK, NULL, "libvirt-qemu can read %s", home);
    else
        set(r, LAB_DOCTOR_FAIL, fix, "libvirt-qemu cannot read %s", home);
}

/* The filter is built against the installed nbdkit's ABI; the real test is
 * nbdkit loading it, which refuses a filter of another version. */
static void check_nbdkit(struct lab_doctor_result *r)
{
    const char *filter = lab_hdd_filter_path();
    char *cmd = lab_xstrdup("nbdkit --version 2>/dev/null");
    char version[64] = "";
    FILE *p = popen(cmd, "r");
    if (p && !fgets(version, sizeof version, p))
        version[0] = '\0';
    if (p)
        pclose(p);
    free(cmd);
    strtok(version, "\n");
    if (!version[0]) {
        set(r, LAB_DOCTOR_FAIL, "apt-get install nbdkit nbdkit-plugin-dev", "nbdkit not found");
        return;
    }
    char profile[4096];
    snprintf(profile, sizeof profile, "%s/pata-2003.profile", lab_profiles_dir());
    cmd = lab_asprintf("nbdkit -U - --filter=%s null size=1M profile=%s --run true "
                       ">/dev/null 2>&1",
                       filter, profile);
    int rc = system(cmd);
    free(cmd);
    if (rc == 0)
        set(r, LAB_DOCTOR_OK, NULL, "%s loads the era-disk filter %s", version, filter);
    else
        set(r, LAB_DOCTOR_FAIL, "make (rebuilds the filter against the installed nbdkit)",
            "%s does not load the filter %s (missing, or built for another nbdkit)", version,
            filter);
}

/* The era disk sleeps until each request's deadline; a real-time policy
 * keeps that deadline under load. Not needed: only a note. */
static void check_rt(struct lab_doctor_result *r)
{
    pid_t pid = fork();
    if (pid == 0) {
        struct sched_param sp = {.sched_priority = sched_get_priority_min(SCHED_FIFO)};
        _exit(sched_setscheduler(0, SCHED_FIFO, &sp) == 0 ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    char why[200];
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && !lab_rt_cputune_usable(why, sizeof why))
        set(r, LAB_DOCTOR_OK, NULL,
            "permitted (SCHED_FIFO); RT group scheduling: the lab sets QEMU's threads itself");
    else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        set(r, LAB_DOCTOR_OK, NULL, "permitted (SCHED_FIFO)");
    else
        set(r, LAB_DOCTOR_NOTE, "run as root, or allow rtprio in /etc/security/limits.conf",
            "not permitted: era-disk deadlines may slip on a loaded machine");
}

static void check_space(struct lab_doctor_result *r)
{
    struct statvfs v;
    const char *home = lab_home();
    char fix[512];
    lab_mkdir_p(home, 0755);
    if (statvfs(home, &v) < 0) {
        set(r, LAB_DOCTOR_FAIL, "set LAB_HOME to a writable directory", "%s: %s", home,
            strerror(errno));
        return;
    }
    double gib = (double)v.f_bavail * (double)v.f_frsize / GIB;
    snprintf(fix, sizeof fix, "free space in %s (old logs: %s/logs), or set LAB_HOME", home, home);
    if (gib < MIN_FREE_GIB)
        set(r, LAB_DOCTOR_FAIL, fix, "%.1f GiB free in %s; a cell needs %.0f GiB", gib, home,
            MIN_FREE_GIB);
    else
        set(r, gib < ENOUGH_FREE_GIB ? LAB_DOCTOR_NOTE : LAB_DOCTOR_OK,
            gib < ENOUGH_FREE_GIB ? fix : NULL, "%.1f GiB free in %s", gib, home);
}

static void check_kernels(struct lab_doctor_result *r)
{
    char cached[256] = "", missing[256] = "";
    size_t ncached = 0, n = 0;
    for (size_t i = 0; lab_kernel_at(i); i++) {
        const struct lab_kernel *k = lab_kernel_at(i);
        int have = lab_kernel_is_cached(k);
        char *list = have ? cached : missing;
        size_t len = strlen(list);
        snprintf(list + len, sizeof cached - len, "%s%s", len ? ", " : "", k->name);
        ncached += have != 0;
        n++;
    }
    char fix[300];
    snprintf(fix, sizeof fix, "lab kernels fetch NAME (lab run fetches them itself): %s", missing);
    set(r, ncached ? LAB_DOCTOR_OK : LAB_DOCTOR_NOTE, ncached == n ? NULL : fix,
        "%zu of %zu cached%s%s", ncached, n, ncached ? ": " : "", cached);
}

/* The guest agent and the filter are build products: a fresh checkout has
 * neither. */
static void check_build(struct lab_doctor_result *r)
{
    const char *agent = lab_agent_path("x86_64");
    if (access(agent, R_OK) == 0)
        set(r, LAB_DOCTOR_OK, NULL, "guest agent %s", agent);
    else
        set(r, LAB_DOCTOR_FAIL, "make", "no guest agent at %s", agent);
}

static const struct {
    const char *name;
    check_fn fn;
} checks[] = {
    {"libvirtd", check_libvirtd}, {"virtlogd", check_virtlogd},   {"libvirt", check_uri},
    {"accelerator", check_accel}, {"qemu user", check_qemu_user}, {"nbdkit", check_nbdkit},
    {"real-time", check_rt},      {"disk space", check_space},    {"kernels", check_kernels},
    {"build", check_build},
};

static const char *const level_names[] = {"ok", "note", "FAIL"};

int lab_doctor_run(FILE *out)
{
    int failed = 0;
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        struct lab_doctor_result r = {0};
        checks[i].fn(&r);
        fprintf(out, "  %-4s  %-12s %s\n", level_names[r.level], checks[i].name, r.what);
        if (r.fix[0])
            fprintf(out, "  %-4s  %-12s fix: %s\n", "", "", r.fix);
        failed += r.level == LAB_DOCTOR_FAIL;
    }
    return failed;
}
