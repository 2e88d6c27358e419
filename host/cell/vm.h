/* The libvirt side of a cell: connecting (starting libvirtd when we may),
 * choosing TCG or KVM, starting a transient domain and always tearing it down. */
#ifndef LAB_VM_H
#define LAB_VM_H

#include <libvirt/libvirt.h>

/* Opens the URI ($LAB_LIBVIRT_URI, else qemu:///system as root and
 * qemu:///session otherwise). When libvirtd is unreachable and we are root,
 * starts virtlogd and libvirtd and retries; otherwise says what to run. */
virConnectPtr lab_vm_connect(void);
/* The URI lab_vm_connect opens. */
const char *lab_vm_uri(void);

/* Destroys lab domains left by lab processes that no longer exist. */
void lab_vm_sweep_stale(virConnectPtr conn);

/* Domain name "lab-<pid>-<cell>-<kernel>"; the pid lets the sweep find orphans. */
char *lab_vm_domain_name(int cell_index, const char *kernel);

/* Starts a transient domain that libvirt destroys by itself if our
 * connection closes (so even a killed lab leaks no guest). */
virDomainPtr lab_vm_start(virConnectPtr conn, const char *xml);

/* 1 while the domain runs, 0 once it has stopped. */
int lab_vm_running(virDomainPtr dom);
/* Why libvirt ended a stopped domain: the reason of the "shutting down,
 * reason=R" line it writes last into the domain's QEMU log ("shutdown":
 * the guest powered off; "crashed": QEMU died or was killed; "destroyed"),
 * for a local qemu:///system or qemu:///session. 0, or -1 when there is
 * no such log or line (a remote URI, another log directory). */
int lab_vm_stop_reason(virDomainPtr dom, char *out, size_t len);

/* Destroys the domain if it still runs, and frees the handle. When the
 * connection is lost (libvirtd died), libvirt can neither destroy it nor
 * autodestroy it later, so its QEMU process is killed directly. */
void lab_vm_teardown(virDomainPtr dom);

/* 1 while the connection to libvirtd works; 0 once it is lost (libvirtd
 * stopped or died: the next call fails instead of killing us by SIGPIPE). */
int lab_vm_alive(virConnectPtr conn);
/* The last libvirt error message, for reports. */
const char *lab_vm_last_error(void);

#endif
