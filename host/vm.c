/* The libvirt side of a cell: connection, transient domains, teardown. */
#include "vm.h"
#include "util.h"

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

static int start_libvirtd(void)
{
    char *virtlogd[] = {"virtlogd", "-d", NULL};
    char *libvirtd[] = {"libvirtd", "-d", NULL};
    lab_warn("libvirtd is not running; starting it (virtlogd -d; libvirtd -d)");
    lab_spawn_wait(virtlogd, "/dev/null");
    return lab_spawn_wait(libvirtd, "/dev/null");
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
        if (geteuid() == 0)
            fprintf(stderr, "  start it with: virtlogd -d && libvirtd -d"
                            "   (or: systemctl start libvirtd)\n");
        else
            fprintf(stderr, "  install libvirt-daemon-system (make deps) or set LAB_LIBVIRT_URI\n");
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

void lab_vm_teardown(virDomainPtr dom)
{
    if (!dom)
        return;
    if (virDomainIsActive(dom) == 1)
        virDomainDestroy(dom);
    virDomainFree(dom);
}
