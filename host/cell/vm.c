/* The libvirt side of a cell: connection, transient domains, teardown. */
#include "host/cell/vm.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/proc.h"
#include "common/str.h"

#include <dirent.h>
#include <errno.h>
#include <libvirt/virterror.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void quiet_errors(void *data, virErrorPtr err)
{
    /* libvirt would print every error itself; the lab reports them in context. */
}

const char *lab_vm_last_error(void)
{
    virErrorPtr err = virGetLastError();
    return err && err->message ? err->message : "unknown libvirt error";
}

const char *lab_vm_uri(void)
{
    const char *env = getenv("LAB_LIBVIRT_URI");
    if (env && *env)
        return env;
    return geteuid() == 0 ? "qemu:///system" : "qemu:///session";
}

/* Both daemons are started detached and without the lab's descriptors
 * (lab_spawn_daemon): a flock or socket the lab holds must not live on in
 * them. libvirt ends a domain only once its QEMU is reaped, and QEMU is an
 * orphan (libvirt forks it twice): the nearest child subreaper above
 * libvirtd reaps it, else PID 1. A PID 1 that reaps late (this machine
 * type's, firecracker's process_api: 1.1-2 s) made every cell's teardown
 * wait for it, so libvirtd runs under tini -s, which reaps at once, when
 * tini is installed. */
static int start_libvirtd(void)
{
    char logd[64], tini[64], daemon[64];
    char *virtlogd[] = {(char *)lab_tool_path("virtlogd", logd, sizeof logd), NULL};
    char *reaped[] = {(char *)lab_tool_path("tini", tini, sizeof tini), "-s", "--",
                      (char *)lab_tool_path("libvirtd", daemon, sizeof daemon), NULL};
    int have_tini = access(reaped[0], X_OK) == 0;
    lab_warn("libvirtd is not running; starting it (virtlogd; %slibvirtd)",
             have_tini ? "tini -s -- " : "");
    lab_spawn_daemon(virtlogd);
    return lab_spawn_daemon(have_tini ? reaped : reaped + 3);
}

/* What to do about a failed connection, first match wins: a permission
 * problem is not a missing package. */
static const struct {
    int root;           /* 1: only as root, 0: only as another user, -1: either */
    const char *in_uri; /* the URI contains this, or NULL */
    const char *in_msg; /* libvirt's message contains this, or NULL */
    const char *hint;
} connect_hints[] = {
    {0, "///system", NULL,
     "qemu:///system needs root or the libvirt group (adduser $USER libvirt, then log in "
     "again); or leave LAB_LIBVIRT_URI unset for qemu:///session"},
    {-1, NULL, "ermission denied",
     "permission denied on the libvirt socket: run as root or join the libvirt group"},
    {1, NULL, NULL,
     "start it with: virtlogd -d && setsid tini -s -- libvirtd &   (or: systemctl start "
     "libvirtd)"},
    {0, NULL, NULL, "install libvirt-daemon-system (make deps) or set LAB_LIBVIRT_URI"},
};

static const char *connect_hint(const char *uri, const char *msg)
{
    int root = geteuid() == 0;
    for (size_t i = 0; i < sizeof connect_hints / sizeof connect_hints[0]; i++) {
        const typeof(connect_hints[0]) *h = &connect_hints[i];
        if ((h->root < 0 || h->root == root) && (!h->in_uri || strstr(uri, h->in_uri)) &&
            (!h->in_msg || strstr(msg, h->in_msg)))
            return h->hint;
    }
    return "";
}

virConnectPtr lab_vm_connect(void)
{
    const char *uri = lab_vm_uri();
    virConnectPtr conn;

    virSetErrorFunc(NULL, quiet_errors);
    conn = virConnectOpen(uri);
    if (!conn && geteuid() == 0 && strcmp(uri, "qemu:///system") == 0 && start_libvirtd() == 0) {
        for (int i = 0; i < 50 && !conn; i++) {
            usleep(100 * 1000);
            conn = virConnectOpen(uri);
        }
    }
    if (!conn) {
        lab_error("cannot connect to libvirt at %s: %s", uri, lab_vm_last_error());
        fprintf(stderr, "  %s\n", connect_hint(uri, lab_vm_last_error()));
        return NULL;
    }
    return conn;
}

char *lab_vm_domain_name(int cell_index, const char *kernel)
{
    char *name = lab_asprintf("lab-%ld-%d-%s", (long)getpid(), cell_index, kernel);
    for (char *p = name; *p; p++)
        if (!(*p == '-' || *p == '.' || *p == '_' || (*p >= '0' && *p <= '9') ||
              (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
            *p = '_';
    return name;
}

void lab_vm_sweep_stale(virConnectPtr conn)
{
    virDomainPtr *doms = NULL;
    int n = virConnectListAllDomains(conn, &doms, VIR_CONNECT_LIST_DOMAINS_TRANSIENT);
    for (int i = 0; i < n; i++) {
        const char *name = virDomainGetName(doms[i]);
        long pid;
        if (name && sscanf(name, "lab-%ld-", &pid) == 1 && pid > 0 && kill((pid_t)pid, 0) < 0 &&
            errno == ESRCH) {
            lab_warn("destroying %s, left by lab process %ld that no longer runs", name, pid);
            virDomainDestroy(doms[i]);
        }
        virDomainFree(doms[i]);
    }
    free(doms);
}

virDomainPtr lab_vm_start(virConnectPtr conn, const char *xml)
{
    virDomainPtr dom = virDomainCreateXML(conn, xml, VIR_DOMAIN_START_AUTODESTROY);
    if (!dom)
        lab_error("libvirt could not start the guest: %s", lab_vm_last_error());
    return dom;
}

int lab_vm_running(virDomainPtr dom)
{
    int state = 0, reason = 0;
    if (virDomainGetState(dom, &state, &reason, 0) < 0)
        return 0; /* a transient domain that stopped no longer exists */
    return state == VIR_DOMAIN_RUNNING || state == VIR_DOMAIN_BLOCKED || state == VIR_DOMAIN_PAUSED;
}

/* Where libvirt keeps a local URI's per-domain QEMU logs (its defaults). */
static char *qemu_log_dir(void)
{
    const char *uri = lab_vm_uri(), *p = strstr(uri, ":///");
    if (!p || strncmp(uri, "qemu", 4) != 0) /* a host in it: the log is not here */
        return NULL;
    if (strncmp(p + 4, "system", 6) == 0)
        return lab_xstrdup("/var/log/libvirt/qemu");
    if (strncmp(p + 4, "session", 7) != 0)
        return NULL;
    const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (cache && *cache)
        return lab_asprintf("%s/libvirt/qemu/log", cache);
    return home ? lab_asprintf("%s/.cache/libvirt/qemu/log", home) : NULL;
}

int lab_vm_stop_reason(virDomainPtr dom, char *out, size_t len)
{
    static const char tag[] = "shutting down, reason=";
    const char *name = dom ? virDomainGetName(dom) : NULL; /* kept client-side */
    char *dir = qemu_log_dir();
    char *path = dir && name ? lab_asprintf("%s/%s.log", dir, name) : NULL;
    char *text = path ? lab_read_text(path, 4 << 20, NULL) : NULL;
    const char *last = NULL;
    for (const char *p = text ? strstr(text, tag) : NULL; p; p = strstr(p + 1, tag))
        last = p + sizeof tag - 1;
    if (last)
        snprintf(out, len, "%.*s", (int)strcspn(last, " \n"), last);
    free(text);
    free(path);
    free(dir);
    return last && *out ? 0 : -1;
}

int lab_vm_alive(virConnectPtr conn)
{
    return conn && virConnectIsAlive(conn) == 1;
}

/* 1 if /proc/PID/cmdline is a QEMU started for the domain `name` (libvirt
 * passes "-name guest=NAME,..."). */
static int is_qemu_of(const char *pid, const char *name)
{
    char path[64], buf[8192];
    snprintf(path, sizeof path, "/proc/%s/cmdline", pid);
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    char *want = lab_asprintf("guest=%s,", name);
    int found = 0;
    buf[n] = '\0';
    for (size_t off = 0; off < n && !found; off += strlen(buf + off) + 1)
        found = strncmp(buf + off, want, strlen(want)) == 0;
    free(want);
    return found;
}

/* The domain's QEMU outlives a dead libvirtd (and a restarted one adopts
 * it without the autodestroy of our lost connection): kill it ourselves. */
static void kill_orphan_qemu(const char *name)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    if (!d)
        return;
    while ((e = readdir(d))) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9' || !is_qemu_of(e->d_name, name))
            continue;
        lab_warn("libvirt is gone: killing %s's QEMU (pid %s) directly", name, e->d_name);
        kill((pid_t)atol(e->d_name), SIGKILL);
    }
    closedir(d);
}

void lab_vm_teardown(virDomainPtr dom)
{
    if (!dom)
        return;
    int active = virDomainIsActive(dom);
    if (active == 1)
        virDomainDestroy(dom);
    else if (active < 0 && !lab_vm_alive(virDomainGetConnect(dom)))
        kill_orphan_qemu(virDomainGetName(dom));
    virDomainFree(dom);
}
