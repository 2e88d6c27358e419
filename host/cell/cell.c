/* One cell, end to end. The guest is untrusted: every agent line is parsed
 * strictly, the console is scanned for panics, and a deadline catches hangs.
 * Whatever happens, the domain is destroyed and the run directory removed. */
#include "host/cell/cell.h"
#include "host/plan/cellplan.h"
#include "host/plan/celldomain.h"
#include "host/plan/warmup.h"
#include "kernels/bzimage.h"
#include "kernels/catalog.h"
#include "images/datadisk.h"
#include "host/plan/domain.h"
#include "kernels/era.h"
#include "kernels/fetch.h"
#include "images/initramfs.h"
#include "images/initrd.h"
#include "kernels/user.h"
#include "images/fsimage.h"
#include "host/plan/iosched.h"
#include "host/cell/nbd.h"
#include "host/cell/proto.h"
#include "guest-agent/protocol.h"
#include "common/datadir.h"
#include "common/clock.h"
#include "common/file.h"
#include "common/interrupt.h"
#include "common/msg.h"
#include "common/paths.h"
#include "common/str.h"
#include "host/cell/vm.h"
#include "host/cell/rt.h"
#include "host/cell/cellfail.h"
#include "host/cell/contention.h"
#include "host/cell/cpucheck.h"
#include "host/cell/timing.h"
#include "host/plan/testdef.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_REPS 1000

struct cell_run {
    const struct lab_cell_env *env;
    const struct lab_cell_spec *spec;
    struct lab_cell_result *res;
    int64_t cell_id;
    char *dir, *console, *socket, *disk_socket, *disk2_socket, *trace;
    char *system_map; /* the kernel's, for naming an oops's addresses (NULL: none) */
    struct lab_nbd nbd, nbd2;
    struct lab_cell_plan plan; /* decided once, by prepare */
    int fd;
    off_t console_seen;
    char panic[256];      /* the console's panic line, once seen */
    int64_t panic_ns;     /* when it was seen: the channel gets a grace period */
    int64_t t0, start_ns; /* lab_cell_run's start, the domain's */
    int64_t begin_host_ns[MAX_REPS];
    int64_t begin_guest_ns[MAX_REPS]; /* guest_ns of each run's begin record */
    struct lab_linebuf lines;
    struct lab_seqcheck seq;
    int bye;
    int rt_by_lab; /* real-time QEMU set by lab_rt_qemu, not by <cputune> */
    char *stats;   /* the hdd filter's overrun counters, or NULL */
    struct lab_contention cont;
    struct lab_contention_snap snap_begin[MAX_REPS];
    struct lab_timing timing; /* where the cell's time goes (host/cell/timing.h) */
};

const char *lab_cell_status_name(enum lab_cell_status s)
{
    static const char *const names[] = {"ok", "failed", "interrupted"};
    return names[s];
}

static int fail(struct cell_run *c, enum lab_cell_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct cell_run *c, enum lab_cell_status status, const char *fmt, ...)
{
    va_list ap;
    char raw[sizeof c->res->reason];
    if (c->res->status != LAB_CELL_OK)
        return -1; /* keep the first reason */
    /* Whatever failed after a Ctrl-C failed because of it (a child that
     * got the signal too, a wait cut short): never a verdict on the cell. */
    c->res->status = lab_interrupted ? LAB_CELL_INTERRUPTED : status;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    lab_escape(raw, c->res->reason, sizeof c->res->reason); /* it quotes guest text */
    return -1;
}

const char *lab_agent_path(const char *arch)
{
    static char path[4096];
    const char *env = getenv("LAB_AGENT");
    if (env && *env)
        return env;
    snprintf(path, sizeof path, "%s/lab-agent%s", lab_data_dir(LAB_DATA_BUILT),
             strcmp(arch, "x86_64") == 0 ? "" : "-i386");
    return path;
}

/* Looks at what the console printed since last time and notes a panic. The
 * console and the agent's channel are separate paths, so the panic can show
 * before records the agent sent earlier have arrived: a 2.4 kernel whose
 * power-off fails exits init after the agent's bye and panics on it. */
static void scan_console(struct cell_run *c)
{
    char buf[8192 + 1];
    int fd = open(c->console, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    /* Re-read a little overlap so a message split across reads is still seen. */
    off_t from = c->console_seen > 256 ? c->console_seen - 256 : 0;
    ssize_t n;
    while ((n = pread(fd, buf, sizeof buf - 1, from)) > 0) {
        buf[n] = '\0';
        for (char *p = buf; (p = memchr(p, 'K', (size_t)(buf + n - p))); p++) {
            if (strncmp(p, "Kernel panic", 12) == 0) {
                char *eol = strchr(p, '\n');
                if (eol)
                    *eol = '\0';
                close(fd);
                if (!c->panic[0]) {
                    snprintf(c->panic, sizeof c->panic, "%.200s", p);
                    c->panic_ns = lab_now_ns();
                }
                return;
            }
        }
        from += n;
        c->console_seen = from;
        if (n < (ssize_t)sizeof buf - 1)
            break;
        from -= 256;
    }
    close(fd);
}

static int connect_agent(struct cell_run *c, virDomainPtr dom)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (strlen(c->socket) >= sizeof sa.sun_path)
        return fail(c, LAB_CELL_FAILED, "socket path too long: %s", c->socket);
    strcpy(sa.sun_path, c->socket);
    for (int i = 0; i < 500; i++) {
        c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (c->fd < 0)
            return fail(c, LAB_CELL_FAILED, "socket: %s", strerror(errno));
        if (connect(c->fd, (struct sockaddr *)&sa, sizeof sa) == 0)
            return 0;
        close(c->fd);
        c->fd = -1;
        if (lab_interrupted)
            return fail(c, LAB_CELL_INTERRUPTED, "interrupted");
        if (!lab_vm_running(dom))
            break;
        usleep(20 * 1000);
    }
    return fail(c, LAB_CELL_FAILED, "cannot connect to the agent channel %s", c->socket);
}

static void store_sample(struct cell_run *c, const struct lab_record *rec, int64_t now)
{
    struct lab_sample s = {.cell = c->cell_id, .test = lab_record_get(rec, "test")};
    uint64_t rep = 0, v;
    char extra[LAB_PROTO_MAX_LINE] = "";
    static const char *const core[] = {"test",    "rep",     "guest_ns", "bytes",
                                       "real_ns", "user_ns", "sys_ns"};

    lab_record_get_u64(rec, "rep", &rep);
    s.rep = (int)rep;
    lab_record_get_u64(rec, "bytes", &s.bytes);
    lab_record_get_u64(rec, "real_ns", &v), s.real_ns = (int64_t)v;
    lab_record_get_u64(rec, "user_ns", &v), s.user_ns = (int64_t)v;
    lab_record_get_u64(rec, "sys_ns", &v), s.sys_ns = (int64_t)v;
    lab_record_get_u64(rec, "guest_ns", &v), s.guest_end_ns = (int64_t)v;
    s.guest_begin_ns = s.guest_end_ns - s.real_ns;
    s.host_begin_ns = rep < MAX_REPS ? c->begin_host_ns[rep] : 0;
    s.host_end_ns = now;
    for (size_t i = 0; i < rec->nkv; i++) {
        int is_core = 0;
        for (size_t k = 0; k < sizeof core / sizeof core[0]; k++)
            is_core |= strcmp(rec->kv[i].key, core[k]) == 0;
        if (!is_core) {
            size_t len = strlen(extra);
            snprintf(extra + len, sizeof extra - len, "%s%s=%s", len ? " " : "", rec->kv[i].key,
                     rec->kv[i].value);
        }
    }
    /* What the guest did not get during the run, measured here. */
    if (rep < MAX_REPS) {
        struct lab_contention_snap end;
        lab_contention_snap(&c->cont, &end);
        int flag = lab_contention_extra(&c->snap_begin[rep], &end, s.real_ns, extra, sizeof extra);
        /* Under a CPU profile: did the guest's clock keep up with the host's? */
        if (!lab_cpu_is_fast(c->spec->cpu) &&
            lab_cpucheck_clock_extra(s.guest_end_ns - c->begin_guest_ns[rep],
                                     now - c->begin_host_ns[rep], extra, sizeof extra) &&
            !flag) {
            size_t len = strlen(extra);
            snprintf(extra + len, sizeof extra - len, " host_flag=1");
            flag = 1;
        }
        /* Warm-ups are left out anyway: only counted runs are rerun. */
        c->res->flagged +=
            flag && !lab_warmup_is(lab_warmup_of_experiment(c->spec->exp), (uint64_t)rep);
    }
    s.extra = extra;
    if (c->env->store)
        lab_store_add_sample(c->env->store, &s);
    c->res->samples++;
}

/* An nbdkit that exited mid-cell ends the cell with what happened to it
 * and where its log is kept; 1 if so. */
static int disk_server_died(struct cell_run *c)
{
    struct lab_nbd *const servers[] = {&c->nbd, &c->nbd2};
    char how[64];
    for (size_t i = 0; i < sizeof servers / sizeof servers[0]; i++) {
        if (!lab_nbd_exited(servers[i], how, sizeof how))
            continue;
        fail(c, LAB_CELL_FAILED, "the disk server (nbdkit) of disk %zu %s (log: %s)", i, how,
             servers[i]->log);
        return 1;
    }
    return 0;
}

/* The agent's calibration loop: its speed is kept with the cell, and under
 * a CPU profile a speed off the nominal by more than 5% fails the cell. */
static int check_calibration(struct cell_run *c, const struct lab_record *rec)
{
    double mips;
    const struct lab_cpu *cpu = c->spec->cpu;
    if (!lab_cpucheck_calibration(rec, &mips))
        return 0;
    c->res->cpu_mips = mips;
    c->bye |= c->spec->calib_only;
    if (c->env->store) {
        char v[32];
        snprintf(v, sizeof v, "%.2f", mips);
        lab_store_cell_set(c->env->store, c->cell_id, "cpu_mips", v);
    }
    if (lab_cpu_mips_ok(cpu, mips))
        return 0;
    return fail(c, LAB_CELL_FAILED,
                "CPU profile %s: the guest measured %.1f MIPS against a nominal %.2f (off by more "
                "than %.0f%%)",
                cpu->name, mips, lab_cpu_nominal_mips(cpu), LAB_CPU_MIPS_TOLERANCE_PCT);
}

static int handle_record(struct cell_run *c, const char *line, size_t len, int64_t now)
{
    static struct lab_record rec;
    char err[256];

    if (c->env->store) {
        char *copy = strndup(line, len);
        lab_store_add_record(c->env->store, c->cell_id, now, copy);
        free(copy);
        if (lab_store_failure(c->env->store)) /* measuring on would keep nothing */
            return fail(c, LAB_CELL_FAILED, "%s", lab_store_failure(c->env->store));
    }
    if (lab_record_parse(line, len, &rec, err, sizeof err) < 0)
        return fail(c, LAB_CELL_FAILED, "malformed agent record (%s): '%.120s'", err, line);
    if (lab_seqcheck_accept(&c->seq, &rec, err, sizeof err) < 0)
        return fail(c, LAB_CELL_FAILED, "agent records out of order: %s", err);

    switch (rec.type) {
    case LAB_REC_HELLO:
        c->res->hello_ns = now - c->start_ns;
        uint64_t up_cs = 0;
        if (lab_record_get_u64(&rec, "up_cs", &up_cs) == 0)
            c->timing.init_uptime_ns = (int64_t)up_cs * 10000000LL;
        if (c->env->store) {
            char ns[32];
            snprintf(ns, sizeof ns, "%lld", (long long)c->res->hello_ns);
            lab_store_cell_set(c->env->store, c->cell_id, "boot_to_agent_ns", ns);
            if (lab_record_get(&rec, "uname"))
                lab_store_cell_set(c->env->store, c->cell_id, "uname",
                                   lab_record_get(&rec, "uname"));
        }
        c->bye |= c->spec->hello_only;
        break;
    case LAB_REC_LOG:
        lab_info("%s: agent: %s", c->spec->kernel->name, lab_record_get(&rec, "msg"));
        lab_cell_note_xfer(c->env->store, c->cell_id, c->spec->kernel->name, &rec);
        return check_calibration(c, &rec);
    case LAB_REC_BEGIN: {
        uint64_t rep = 0, guest = 0;
        lab_record_get_u64(&rec, "rep", &rep);
        lab_record_get_u64(&rec, "guest_ns", &guest);
        if (rep < MAX_REPS) {
            c->begin_host_ns[rep] = now;
            c->begin_guest_ns[rep] = (int64_t)guest;
            lab_contention_snap(&c->cont, &c->snap_begin[rep]);
        }
        break;
    }
    case LAB_REC_END:
        store_sample(c, &rec, now);
        break;
    case LAB_REC_ERROR:
        if (disk_server_died(c)) /* the guest's IO error is its consequence */
            return -1;
        return fail(c, LAB_CELL_FAILED, "agent error: %s", lab_record_get(&rec, "msg"));
    case LAB_REC_BYE:
        c->bye = 1;
        break;
    case LAB_REC_KPROF:
        break; /* kept in the store's records; host/report/kprof.c reads them there */
    }
    return 0;
}

/* A panic ends the cell: named from the console when it shows an oops,
 * BUG or panic (function, trace, the agent's phase, the key that avoids
 * it; stored as the cell's failure), else by its panic line. */
static void fail_panic(struct cell_run *c)
{
    char what[sizeof c->res->reason - 64];
    if (lab_cell_kernel_failure(c->env->store, c->cell_id, c->console, c->system_map, what,
                                sizeof what))
        fail(c, LAB_CELL_FAILED, "kernel panicked: %s (console: %s)", what, c->console);
    else
        fail(c, LAB_CELL_FAILED, "kernel panicked: %s (console: %s)", c->panic, c->console);
}

/* Reads agent records until bye, a failure, the deadline or Ctrl-C. */
static void pump(struct cell_run *c, virDomainPtr dom)
{
    int64_t deadline = c->start_ns + (int64_t)c->plan.timeout_s * 1000000000LL;
    char buf[4096];

    while (!c->bye && c->res->status == LAB_CELL_OK) {
        struct pollfd pfd = {.fd = c->fd, .events = POLLIN};
        int n = poll(&pfd, 1, 200);
        int64_t now = lab_now_ns();
        if (lab_interrupted) {
            fail(c, LAB_CELL_INTERRUPTED, "interrupted by signal %d", lab_interrupted);
            return;
        }
        if (n > 0) {
            ssize_t got = read(c->fd, buf, sizeof buf);
            if (got > 0) {
                size_t off = 0;
                while (off < (size_t)got) {
                    off += (size_t)lab_linebuf_feed(&c->lines, buf + off, (size_t)got - off);
                    const char *line;
                    size_t len;
                    int r;
                    while ((r = lab_linebuf_next(&c->lines, &line, &len)) != 0) {
                        if (r < 0) {
                            fail(c, LAB_CELL_FAILED, "agent line longer than %d bytes",
                                 LAB_PROTO_MAX_LINE);
                            return;
                        }
                        if (handle_record(c, line, len, now) < 0 || c->bye)
                            break;
                    }
                    if (c->res->status != LAB_CELL_OK || c->bye)
                        break;
                }
                continue;
            }
            if (got == 0) {
                /* The channel closed: the guest went away. */
                pfd.revents = POLLHUP;
            }
        }
        /* Here the channel had nothing to read: what it held came first.
         * A panic ends the cell a second later, or once the guest is gone. */
        scan_console(c);
        if (disk_server_died(c))
            return;
        int running = lab_vm_running(dom);
        if (c->panic[0] && (now - c->panic_ns > 1000000000LL || !running)) {
            fail_panic(c);
            return;
        }
        if (!running && !lab_vm_alive(c->env->conn)) {
            fail(c, LAB_CELL_FAILED, "lost the connection to libvirt at %s (libvirtd stopped?)",
                 lab_vm_uri());
            return;
        }
        if (!running) {
            scan_console(c);
            if (c->panic[0]) {
                fail_panic(c);
                return;
            }
            /* Not the guest: QEMU itself went (killed, crashed, or it
             * failed). A guest's reboot or power-off has other reasons. */
            char why[32];
            if (lab_vm_stop_reason(dom, why, sizeof why) == 0 &&
                (strcmp(why, "crashed") == 0 || strcmp(why, "failed") == 0)) {
                fail(c, LAB_CELL_FAILED,
                     "QEMU ended before the agent finished: killed or crashed (libvirt: %s; "
                     "console: %s)",
                     why, c->console);
                return;
            }
            fail(c, LAB_CELL_FAILED, "guest stopped before the agent finished%s (console: %s)",
                 c->console_seen ? ""
                                 : "; the kernel printed nothing: too little guest memory, or "
                                   "a kernel that cannot run on this machine type?",
                 c->console);
            return;
        }
        if (now > deadline) {
            fail(c, LAB_CELL_FAILED, "no result within %u s: guest hung? (console: %s)",
                 c->plan.timeout_s, c->console);
            return;
        }
        if (n > 0 && (pfd.revents & (POLLHUP | POLLERR)))
            usleep(100 * 1000); /* wait for the domain to be reported gone */
    }
}

/* After bye the agent powers the guest off; give it a moment, then force. */
static void wait_poweroff(virDomainPtr dom)
{
    /* 10 s at most, polled every 10 ms: the power-off itself takes tens
     * of ms once the agent's bye is in. */
    for (int i = 0; i < 1000 && lab_vm_running(dom) && !lab_interrupted; i++)
        usleep(10 * 1000);
}

/* Keeps src (a file in the run directory) as cell-N-KERNEL.SUFFIX in the
 * run's log directory; the reason then names the kept copy. */
static void keep_file(struct cell_run *c, const char *src, const char *suffix)
{
    if (!c->env->log_dir || !src)
        return;
    char *name = lab_asprintf("cell-%d-%s.%s", c->spec->index, c->spec->kernel->name, suffix);
    char *dst = lab_keep_copy(src, c->env->log_dir, name);
    /* The run directory goes away: point the reason at the kept copy. */
    char *p = strstr(c->res->reason, src);
    if (dst && p) {
        char tail[1024];
        snprintf(tail, sizeof tail, "%s%s", dst, p + strlen(src));
        snprintf(p, sizeof c->res->reason - (size_t)(p - c->res->reason), "%s", tail);
    }
    free(name);
    free(dst);
}

/* The cell's plan (host/plan/cellplan.h), and what the kernel's .config says:
 * a kernel with a known .config must have the drivers the cell needs. */
static int check_plan(const struct lab_cell_spec *spec, struct lab_cell_plan *plan, char *reason,
                      size_t len)
{
    struct lab_era era;
    int have_era = lab_kernel_era(spec->kernel, &era) == 0;
    if (lab_cell_plan(spec, have_era ? &era : NULL, plan, reason, len) < 0)
        return -1;
    if (!lab_kernel_cell_ok(spec->kernel, &plan->era, plan->bus->name,
                            plan->channel == LAB_CHANNEL_UART ? LAB_AGENT_CHAN_UART
                                                              : LAB_AGENT_CHAN_VIRTIO_PORT,
                            plan->fs, reason, len))
        return -1;
    return lab_cell_cmdline_check(plan, spec->exp, reason, len);
}

int lab_cell_check(const struct lab_cell_spec *spec, char *reason, size_t len)
{
    struct lab_cell_plan plan;
    return check_plan(spec, &plan, reason, len);
}

/* nbdkit serves the data disk: through the hdd timing filter for a model
 * profile, plain for fast and iotune. */
static int start_disk(struct cell_run *c, int i, const char *image)
{
    const struct lab_profile *p = c->spec->profile;
    int model = p && p->kind == LAB_PROFILE_MODEL;
    char *log = lab_asprintf("%s/nbdkit%d.log", c->dir, i);
    if (i == 1) {
        /* The second disk is the same drive model, untraced. */
        struct lab_nbd_spec ns = {.image = image,
                                  .socket = c->disk2_socket,
                                  .log = log,
                                  .filter = model ? lab_hdd_filter_path() : NULL,
                                  .profile = model ? p->path : NULL,
                                  .rt_priority = c->spec->rt_priority ? LAB_RT_NBD_PRIO : 0,
                                  .pin_cpu = c->spec->pin_cpu};
        int rc = lab_nbd_start(&ns, &c->nbd2);
        free(log);
        return rc < 0 ? fail(c, LAB_CELL_FAILED, "cannot serve the second disk (nbdkit)") : 0;
    }
    if (model && c->env->log_dir) {
        lab_mkdir_p(c->env->log_dir, 0755);
        c->trace = lab_asprintf("%s/cell-%d-%s.trace", c->env->log_dir, c->spec->index,
                                c->spec->kernel->name);
    }
    struct lab_nbd_spec ns = {
        .image = image,
        .socket = c->disk_socket,
        .log = log,
        .filter = model ? lab_hdd_filter_path() : NULL,
        .profile = model ? p->path : NULL,
        .trace = c->trace,
        .stats = model ? (c->stats = lab_asprintf("%s/disk0.stats", c->dir)) : NULL,
        .rt_priority = c->spec->rt_priority ? LAB_RT_NBD_PRIO : 0,
        .pin_cpu = c->spec->pin_cpu,
    };
    int rc = lab_nbd_start(&ns, &c->nbd);
    free(log);
    if (rc < 0)
        return fail(c, LAB_CELL_FAILED, "cannot serve the data disk (nbdkit)");
    if (c->trace && c->env->store)
        lab_store_cell_set(c->env->store, c->cell_id, "trace", c->trace);
    return 0;
}

/* The kernel, checked whole, and the boot image with the agent, its
 * parameters and the plan's modules. */
static int prepare_boot(struct cell_run *c, struct lab_kernel_files *kf, char **initrd)
{
    const struct lab_cell_spec *spec = c->spec;
    const struct lab_cell_plan *p = &c->plan;
    char reason[256];
    if (lab_kernel_fetch(spec->kernel, kf) < 0)
        return fail(c, LAB_CELL_FAILED, "cannot fetch kernel %s", spec->kernel->name);
    struct lab_bzimage bz; /* a cut-short image would fail later, unexplained */
    if (lab_bzimage_check_file(kf->bzimage, &bz, reason, sizeof reason) < 0)
        return fail(c, LAB_CELL_FAILED, "kernel %s: %s: %s", spec->kernel->name, kf->bzimage,
                    reason);
    char *params = lab_cell_agent_params(p, spec->exp);
    struct lab_initramfs_spec is = {
        .agent_path = lab_agent_path(spec->kernel->arch),
        .params = params,
        .modules_dir = kf->modules_dir,
        .modules = p->modules,
        .nmodules = p->nmodules,
    };
    int rc = p->era.boot == LAB_BOOT_EXT2_INITRD ? lab_ext2_initrd_get(&is, initrd)
                                                 : lab_initramfs_get(&is, initrd);
    free(params);
    if (rc < 0)
        return fail(c, LAB_CELL_FAILED, "cannot build the boot image for %s", spec->kernel->name);
    return 0;
}

/* The plan's data disks, built (or found cached) and served. */
static int prepare_disks(struct cell_run *c)
{
    const struct lab_cell_plan *p = &c->plan;
    char *disk = NULL;
    int rc = -1;
    if (p->tree_disk) {
        lab_info("building the tree disk (%u copies of %u files); the first build takes a while",
                 p->tree.tree_copies, p->tree.tree.files);
        if (lab_fsimage_get(&p->tree, &disk) < 0) {
            fail(c, LAB_CELL_FAILED, "cannot build the tree disk");
            goto out;
        }
    } else if (lab_datadisk_get(&p->data, &disk) < 0) {
        fail(c, LAB_CELL_FAILED, "cannot build the data disk");
        goto out;
    }
    lab_timing_mark(&c->timing, LAB_MARK_IMAGES);
    if (start_disk(c, 0, disk) < 0)
        goto out;
    if (p->second_disk) {
        char *disk2 = NULL;
        c->disk2_socket = lab_asprintf("%s/disk1.sock", c->dir);
        int bad = lab_fsimage_get(&p->scratch, &disk2) < 0 || start_disk(c, 1, disk2) < 0;
        free(disk2);
        if (bad) {
            fail(c, LAB_CELL_FAILED, "cannot build or serve the second disk");
            goto out;
        }
    }
    lab_timing_mark(&c->timing, LAB_MARK_DISKS);
    rc = 0;
out:
    free(disk);
    return rc;
}

/* The cell's facts: where it ran. */
static void store_facts(struct cell_run *c, const struct lab_kernel_files *kf)
{
    struct lab_store *st = c->env->store;
    const struct lab_cell_spec *spec = c->spec;
    if (kf->system_map && lab_file_exists(kf->system_map) && !c->system_map)
        c->system_map = lab_xstrdup(kf->system_map);
    if (!st)
        return;
    lab_store_cell_set(st, c->cell_id, "bus", c->plan.bus->name);
    lab_store_cell_set(st, c->cell_id, "channel",
                       c->plan.channel == LAB_CHANNEL_UART ? "uart" : "virtio-port");
    lab_store_cell_set(st, c->cell_id, "profile", spec->profile ? spec->profile->name : "fast");
    if (spec->exp->scheduler)
        lab_store_cell_set(st, c->cell_id, "scheduler", spec->exp->scheduler);
    /* What the seed's thread reported, for the report to set beside the
     * run's figures (host/stats/agreement.h). */
    if (spec->exp->reported_text)
        lab_store_cell_set(st, c->cell_id, "reported", spec->exp->reported_text);
    if (kf->system_map && lab_file_exists(kf->system_map))
        lab_store_cell_set(st, c->cell_id, "system_map", kf->system_map);
}

/* Everything before the boot: the plan, kernel, boot image, disks, facts
 * and the domain's XML. */
static int prepare(struct cell_run *c, char **xml)
{
    const struct lab_cell_spec *spec = c->spec;
    struct lab_kernel_files kf = {0};
    char *initrd = NULL, *name = NULL, *cmdline = NULL, reason[256];
    int rc = -1;

    if (check_plan(spec, &c->plan, reason, sizeof reason) < 0) {
        fail(c, LAB_CELL_FAILED, "cannot run here: %s", reason);
        goto out;
    }
    if (prepare_boot(c, &kf, &initrd) < 0 || prepare_disks(c) < 0)
        goto out;
    store_facts(c, &kf);
    name = lab_vm_domain_name(spec->index, spec->kernel->name);
    struct lab_cell_paths paths = {.name = name,
                                   .kernel = kf.bzimage,
                                   .initrd = initrd,
                                   .console_log = c->console,
                                   .agent_socket = c->socket,
                                   .disk_socket = c->disk_socket,
                                   .disk2_socket = c->disk2_socket};
    struct lab_domain_spec ds;
    cmdline = lab_cell_domain(&c->plan, spec->profile, spec->exp, spec->virt_type, &paths, &ds);
    char why[200];
    c->rt_by_lab = spec->rt_priority && !lab_rt_cputune_usable(why, sizeof why);
    ds.rt_priority = c->rt_by_lab ? 0 : (unsigned)spec->rt_priority;
    char icount[64];
    ds.icount = lab_cpu_icount_arg(spec->cpu, icount, sizeof icount) == 0 ? icount : NULL;
    *xml = lab_domain_xml(&ds);
    rc = *xml ? 0 : fail(c, LAB_CELL_FAILED, "cannot generate the domain XML");
out:
    lab_kernel_files_free(&kf);
    free(initrd);
    free(name);
    free(cmdline);
    return rc;
}

/* The cell's row and the facts known before it starts. */
static void begin_cell(struct cell_run *c)
{
    const struct lab_cell_env *env = c->env;
    const struct lab_cell_spec *spec = c->spec;
    if (!env->store)
        return;
    char *params = lab_experiment_cmdline(spec->exp);
    c->cell_id =
        lab_store_cell_begin(env->store, env->run_id, spec->kernel->name, spec->exp->name, params);
    free(params);
    lab_store_cell_set(env->store, c->cell_id, "accel", spec->virt_type);
    /* The column for reports; under a profile also the fact, which a
     * result bundle's import and `lab compare`'s like-with-like read (none
     * for fast, as in the cells stored before CPU profiles). */
    lab_store_cell_cpu(env->store, c->cell_id, spec->cpu ? spec->cpu->name : "fast");
    if (!lab_cpu_is_fast(spec->cpu))
        lab_store_cell_set(env->store, c->cell_id, "cpu", spec->cpu->name);
    char warmup[16];
    snprintf(warmup, sizeof warmup, "%u", spec->exp->warmup);
    lab_store_cell_set(env->store, c->cell_id, "warmup", warmup);
    if (spec->rt_note)
        lab_store_cell_set(env->store, c->cell_id, "rt", spec->rt_note);
    /* Not an agent parameter, so not in params: `lab compare` reads it here. */
    if (spec->exp->boot_args)
        lab_store_cell_set(env->store, c->cell_id, "boot_args", spec->exp->boot_args);
    if (spec->boot) {
        char boot[16];
        snprintf(boot, sizeof boot, "%u", spec->boot);
        lab_store_cell_set(env->store, c->cell_id, "boot", boot);
    }
}

/* QEMU's threads real-time (when the lab sets them) and the contention
 * counters attached to its vCPU. */
static void attach_qemu(struct cell_run *c)
{
    const struct lab_cell_spec *spec = c->spec;
    char *dom_name = lab_vm_domain_name(spec->index, spec->kernel->name);
    if (c->rt_by_lab) {
        char why[200] = "";
        if (lab_rt_qemu(dom_name, spec->rt_priority, why, sizeof why) < 0)
            lab_warn("%s: QEMU runs without SCHED_FIFO: %s", spec->kernel->name, why);
    }
    if (spec->pin_cpu) { /* --jobs: the cell's own core */
        char why[200] = "";
        if (lab_rt_pin_qemu(dom_name, (int)spec->pin_cpu - 1, spec->rt_priority, why, sizeof why) <
            0)
            lab_warn("%s: QEMU not pinned to CPU %u: %s", spec->kernel->name, spec->pin_cpu - 1,
                     why);
    }
    if (lab_contention_attach(&c->cont, dom_name, c->stats) < 0)
        lab_warn("%s: no vCPU thread of QEMU found: runs will have no vCPU wait on record",
                 spec->kernel->name);
    free(dom_name);
}

/* The agent's records until bye; the reader's own run-queue wait kept. */
static void measure(struct cell_run *c, virDomainPtr dom)
{
    const struct lab_cell_env *env = c->env;
    if (connect_agent(c, dom) != 0)
        return;
    /* The reader stamps the host's clock on each record: it runs just
     * above normal threads while it pumps (host/cell/rt.h). */
    struct lab_rt_saved rt = {0};
    if (c->spec->rt_priority) /* pinned (--jobs): above the vCPU that holds its core */
        lab_rt_enter(c->spec->pin_cpu ? c->spec->rt_priority + LAB_RT_EMULATOR_ABOVE
                                      : LAB_RT_READER_PRIO,
                     &rt);
    int64_t wait0 = lab_rt_thread_wait_ns();
    pump(c, dom);
    int64_t wait1 = lab_rt_thread_wait_ns();
    lab_rt_leave(&rt);
    if (env->store && wait0 >= 0 && wait1 >= wait0) {
        char ns[32];
        snprintf(ns, sizeof ns, "%lld", (long long)(wait1 - wait0));
        lab_store_cell_set(env->store, c->cell_id, "reader_wait_ns", ns);
    }
}

/* Whatever happened: the domain, the disk servers and the run directory
 * go; the logs the reason points at are kept; the cell's row ends. */
static void teardown(struct cell_run *c, virDomainPtr dom)
{
    struct lab_cell_result *res = c->res;
    if (c->fd >= 0)
        close(c->fd);
    lab_vm_teardown(dom);
    lab_nbd_stop(&c->nbd);
    lab_nbd_stop(&c->nbd2);
    keep_file(c, c->console, "console.log");
    for (int i = 0; i < 2; i++) { /* a disk server's log the reason points at */
        char *log = lab_asprintf("%s/nbdkit%d.log", c->dir, i), suffix[16];
        snprintf(suffix, sizeof suffix, "nbdkit%d.log", i);
        if (strstr(res->reason, log))
            keep_file(c, log, suffix);
        free(log);
    }
    lab_rm_rf(c->dir);
    res->total_ns = lab_now_ns() - c->t0;
    lab_timing_mark(&c->timing, LAB_MARK_END);
    lab_timing_finish(&c->timing, c->env->store, c->cell_id, res->hello_ns,
                      lab_warmup_of_experiment(c->spec->exp));
    if (c->env->store && c->cell_id > 0)
        lab_store_cell_end(c->env->store, c->cell_id, lab_cell_status_name(res->status),
                           res->status == LAB_CELL_OK ? NULL : res->reason);
}

static void free_cell(struct cell_run *c)
{
    free(c->dir);
    free(c->console);
    free(c->socket);
    free(c->disk_socket);
    free(c->disk2_socket);
    free(c->trace);
    free(c->system_map);
    free(c->stats);
    free(c);
}

static int cell_run(const struct lab_cell_env *env, const struct lab_cell_spec *spec,
                    struct lab_cell_result *res)
{
    struct cell_run *c = lab_xcalloc(1, sizeof *c);
    virDomainPtr dom = NULL;
    char *xml = NULL;

    memset(res, 0, sizeof *res);
    c->t0 = lab_now_ns();
    lab_timing_mark(&c->timing, LAB_MARK_START);
    c->env = env;
    c->spec = spec;
    c->res = res;
    c->fd = -1;
    lab_linebuf_init(&c->lines);
    c->dir = lab_asprintf("%s/%ld-%d", lab_run_root(), (long)getpid(), spec->index);
    c->console = lab_asprintf("%s/console.log", c->dir);
    c->socket = lab_asprintf("%s/agent.sock", c->dir);
    c->disk_socket = lab_asprintf("%s/disk0.sock", c->dir);
    begin_cell(c);

    if (env->store && lab_store_failure(env->store)) { /* no boot whose results are lost */
        fail(c, LAB_CELL_FAILED, "%s", lab_store_failure(env->store));
        goto teardown;
    }
    lab_rm_rf(c->dir);
    if (lab_mkdir_p(c->dir, 0755) < 0) {
        fail(c, LAB_CELL_FAILED, "cannot create %s", c->dir);
        goto teardown;
    }
    if (prepare(c, &xml) < 0)
        goto teardown;
    if (lab_interrupted) {
        fail(c, LAB_CELL_INTERRUPTED, "interrupted");
        goto teardown;
    }
    lab_timing_boot(&c->timing, c->dir, c->console);
    c->start_ns = lab_now_ns();
    dom = lab_vm_start(env->conn, xml);
    if (!dom) {
        fail(c, LAB_CELL_FAILED, "libvirt could not start the guest: %s", lab_vm_last_error());
        goto teardown;
    }
    lab_timing_mark(&c->timing, LAB_MARK_DOMAIN);
    attach_qemu(c);
    measure(c, dom);
    lab_timing_mark(&c->timing, LAB_MARK_AGENT_END);
    if (c->bye && res->status == LAB_CELL_OK && !spec->hello_only && !spec->calib_only)
        wait_poweroff(dom);
    else if (!c->bye && res->status == LAB_CELL_OK)
        fail(c, LAB_CELL_FAILED, "agent channel closed before bye (console: %s)", c->console);

teardown:
    teardown(c, dom);
    free(xml);
    int rc = res->status == LAB_CELL_OK ? 0 : -1;
    free_cell(c);
    return rc;
}

/* A real-time cell first takes one of the host's real-time slots
 * (host/cell/rt.h); without one it runs as a normal cell and says why. */
int lab_cell_run(const struct lab_cell_env *env, const struct lab_cell_spec *spec,
                 struct lab_cell_result *res)
{
    struct lab_cell_spec local = *spec;
    char why[256], note[320];
    int slot = -1;
    if (spec->rt_priority && (slot = lab_rt_slot_take(why, sizeof why)) < 0) {
        snprintf(note, sizeof note, "off: %s", why);
        local.rt_priority = 0;
        local.rt_note = note;
        lab_info("cell %d runs without real-time scheduling: %s", spec->index, why);
    }
    int rc = cell_run(env, &local, res);
    lab_rt_slot_give(slot);
    return rc;
}
