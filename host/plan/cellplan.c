/* A cell's plan, decided once; see cellplan.h. */
#include "host/plan/cellplan.h"
#include "host/plan/iosched.h"
#include "host/plan/testdef.h"
#include "kernels/catalog.h"
#include "guest-agent/protocol.h"
#include "common/str.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct lab_bus *plan_bus(const struct lab_cell_spec *spec)
{
    if (spec->bus)
        return spec->bus;
    return lab_bus_find(spec->profile ? spec->profile->bus : "ide");
}

/* "Linux X" where the era table's row for f starts. */
static const char *since(enum lab_era_feature f, char *buf, size_t len)
{
    lab_kver_format(lab_era_row(f)->since, buf, len);
    return buf;
}

static int choose_channel(const struct lab_cell_spec *spec, const struct lab_era *era,
                          enum lab_channel_kind *out, char *reason, size_t len)
{
    const char *want = spec->channel;
    if (!want)
        want = era->channel == LAB_AGENT_CHAN_VIRTIO_PORT ? "virtio-port" : "uart";
    if (strcmp(want, "uart") == 0) {
        *out = LAB_CHANNEL_UART;
        return 0;
    }
    if (strcmp(want, "virtio-port") != 0) {
        snprintf(reason, len, "unknown channel '%s' (use virtio-port or uart)", want);
        return -1;
    }
    if (era->channel != LAB_AGENT_CHAN_VIRTIO_PORT) {
        char v[32];
        snprintf(reason, len, "named virtio-serial ports need Linux %s or later (this is %s)",
                 since(LAB_FEAT_VIRTIO_PORTS, v, sizeof v), era->version_str);
        return -1;
    }
    *out = LAB_CHANNEL_VIRTIO_SERIAL;
    return 0;
}

/* A lab build is used only once it has passed the IO smoke test; any
 * kernel that failed it is refused, with what it did. */
static int unverified(const struct lab_cell_spec *spec, char *reason, size_t len)
{
    const struct lab_kernel *k = spec->kernel;
    const char *v = k->verified;
    if (spec->smoke_test || (v && strcmp(v, "passed") == 0))
        return 0;
    if (v && strcmp(v, "failed") == 0) {
        snprintf(reason, len,
                 "kernel %s failed the lab's IO smoke test (%s); it may be miscompiled. "
                 "Run it again with: lab kernels verify %s",
                 k->name, k->verified_note ? k->verified_note : "no details", k->name);
        return 1;
    }
    if (k->source && strcmp(k->source, "build") == 0) {
        snprintf(reason, len,
                 "kernel %s was built by the lab but has not passed its IO smoke test; "
                 "run: lab kernels verify %s",
                 k->name, k->name);
        return 1;
    }
    return 0;
}

/* drop = fadvise | drop_caches on a kernel without that call or file:
 * refused before boot, naming the method the era has. */
static int drop_ok(const struct lab_era *era, const char *drop, char *reason, size_t len)
{
    static const struct {
        const char *method;
        enum lab_era_feature needs;
        const char *what;
    } methods[] = {
        {"fadvise", LAB_FEAT_FADVISE, "posix_fadvise needs Linux 2.6.0"},
        {"drop_caches", LAB_FEAT_DROP_CACHES, "/proc/sys/vm/drop_caches needs Linux 2.6.16"},
    };
    for (size_t i = 0; drop && i < sizeof methods / sizeof methods[0]; i++)
        if (strcmp(drop, methods[i].method) == 0 && !lab_era_has(era, methods[i].needs)) {
            snprintf(reason, len, "drop = %s: %s (this kernel is %s); use drop = auto or remount",
                     drop, methods[i].what, era->version_str);
            return -1;
        }
    return 0;
}

/* The experiment's needs the era may lack: its scheduler, its tunables,
 * its cache drop, O_DIRECT (on the device, and on ext3 files). */
static int era_has_what_exp_needs(const struct lab_era *era, const struct lab_experiment *e,
                                  const char *fs, char *reason, size_t len)
{
    char v[32];
    if (lab_tunables_check(era, e->sysfs, e->elvtune, reason, len) < 0 ||
        drop_ok(era, e->drop, reason, len) < 0)
        return -1;
    if (e->direct && !lab_era_has(era, LAB_FEAT_O_DIRECT_BLKDEV)) {
        snprintf(reason, len, "O_DIRECT reads need Linux %s or later (this is %s)",
                 since(LAB_FEAT_O_DIRECT_BLKDEV, v, sizeof v), era->version_str);
        return -1;
    }
    /* The host always passes lab.direct, so this is the agent's mode. */
    if (e->direct && strcmp(fs, "ext3") == 0 && !lab_era_has(era, LAB_FEAT_O_DIRECT_EXT3)) {
        snprintf(reason, len,
                 "O_DIRECT on ext3 files needs Linux %s or later (%s's ext3 has no direct "
                 "IO: every read would be EINVAL); set direct = 0",
                 since(LAB_FEAT_O_DIRECT_EXT3, v, sizeof v), era->version_str);
        return -1;
    }
    return 0;
}

/* The data disk, and io_other's second disk. */
static void plan_disks(const struct lab_cell_spec *spec, struct lab_cell_plan *p)
{
    const struct lab_experiment *e = spec->exp;
    const struct lab_profile *profile = spec->profile;
    p->tree_disk = strcmp(e->disk, "ext3tree") == 0;
    if (p->tree_disk) {
        /* Room for the copy load's two copies of a tree and io_load's file. */
        p->tree = (struct lab_fsimage_recipe){
            .fs = "ext3",
            .big_file_size = e->file_size,
            .tree_copies = e->tree_copies,
            .tree = {.seed = e->tree_seed, .files = e->tree_files, .dirs = e->tree_dirs},
            .extra_bytes = e->disk_free,
        };
    } else {
        p->data = (struct lab_datadisk_recipe){.fs = e->disk,
                                               .file_name = "big_file",
                                               .file_size = e->file_size,
                                               .seed = LAB_CONTENT_SEED_DEFAULT};
        /* disk_size 0 ("full"): the drive's real capacity, so seeks span
         * the whole stroke as the datasheet's average assumes. */
        if (strcmp(e->disk, "raw") == 0)
            p->data.file_size = e->disk_size ? e->disk_size
                                : profile && profile->kind == LAB_PROFILE_MODEL
                                    ? profile->params.capacity_bytes
                                    : 256ULL << 20;
    }
    p->second_disk = e->load && strcmp(e->load, "io_other") == 0;
    if (p->second_disk)
        p->scratch = (struct lab_fsimage_recipe){
            .fs = "ext3", .extra_bytes = 2 * e->load_size + (64 << 20), .label = LAB_SCRATCH_LABEL};
}

int lab_cell_plan_rules(struct lab_cell_plan *p, const struct lab_experiment *e, char *reason,
                        size_t len)
{
    lab_run_rules_for(p->era.version, &p->rules);
    return lab_sched_plan(&p->era, e->scheduler, &p->sched, reason, len);
}

#define LAB_CPU_DEADLINE_MIPS 250.0

unsigned lab_cell_plan_timeout(const struct lab_cell_spec *spec)
{
    const struct lab_experiment *e = spec->exp;
    uint64_t per_run;
    if (spec->timeout_s)
        return spec->timeout_s;
    if (e->timeout)
        return e->timeout;
    const struct lab_testdef *t = lab_test_find(e->test);
    switch (t ? t->work : LAB_WORK_FILE) {
    case LAB_WORK_REQUESTS:
        per_run = e->count / 10 + 1;
        break;
    case LAB_WORK_TREE:
        per_run = (uint64_t)e->tree_files * 16384 * (1 + e->cpu_rounds) / (2 << 20);
        break;
    case LAB_WORK_DEVICE:
        per_run = (e->read_size   ? e->read_size
                   : e->disk_size ? e->disk_size
                                  : 1ULL << 30) /
                  (2 << 20);
        break;
    case LAB_WORK_FILE:
    default:
        per_run = e->file_size / (2 << 20);
        break;
    }
    /* Under a writer on the same disk a 2.4 elevator starves reads: the
     * lab's gcc-12 2.4.22 took 129 s per contest io_load run whose no-load
     * run took 0.54 s. A load gets ten times the time and a second per MiB
     * it writes, so only a guest that is stuck runs out of it. */
    if (e->load && strcmp(e->load, "none") != 0)
        per_run = per_run * 10 + e->load_size / (1 << 20);
    unsigned groups = 1;
    for (const char *p = e->readahead_list; p && *p; p++)
        groups += *p == ',';
    uint64_t s = 180 + groups * (e->reps + e->warmup) * per_run;
    /* A CPU profile (host/plan/cpu.h) slows the boot and the work alike:
     * the derived deadline grows by 250 MIPS over the profile's (the
     * order of TCG's own speed on kernel code here), at least 1x. */
    double nominal = lab_cpu_nominal_mips(spec->cpu);
    if (nominal > 0 && nominal < LAB_CPU_DEADLINE_MIPS)
        s = (uint64_t)((double)s * LAB_CPU_DEADLINE_MIPS / nominal);
    return s > LAB_TIMEOUT_MAX_S ? LAB_TIMEOUT_MAX_S : (unsigned)s;
}

int lab_cell_plan(const struct lab_cell_spec *spec, const struct lab_era *era,
                  struct lab_cell_plan *p, char *reason, size_t len)
{
    const struct lab_experiment *e = spec->exp;
    memset(p, 0, sizeof *p);
    if (!(p->bus = plan_bus(spec))) {
        snprintf(reason, len, "unknown bus");
        return -1;
    }
    if (!era) {
        snprintf(reason, len, "no era facts for kernel version %s", spec->kernel->version);
        return -1;
    }
    p->era = *era;
    /* The filesystem the guest mounts for the data disk. */
    p->fs = strcmp(e->disk, "ext3tree") == 0 ? "ext3" : e->disk; /* "ext2" or "raw" */
    if (!lab_era_bus_supported(era, p->bus->name, reason, len) || unverified(spec, reason, len) ||
        lab_cell_plan_rules(p, e, reason, len) < 0 ||
        lab_ide_mode_plan(&p->era, p->bus, &p->rules, e, &p->ide, reason, len) < 0 ||
        era_has_what_exp_needs(era, e, p->fs, reason, len) < 0 ||
        choose_channel(spec, era, &p->channel, reason, len) < 0)
        return -1;
    plan_disks(spec, p);
    /* 2.4 cannot load modules from PID 1: its drivers are built in. */
    if (era->modules_loadable && !spec->kernel->builtin_drivers)
        p->nmodules = lab_era_bus_modules(era, p->bus->name, p->modules, LAB_CELL_PLAN_MAX_MODULES);
    if (p->nmodules > LAB_CELL_PLAN_MAX_MODULES)
        p->nmodules = LAB_CELL_PLAN_MAX_MODULES;
    p->timeout_s = lab_cell_plan_timeout(spec);
    return 0;
}

static char *append(char *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *append(char *s, const char *fmt, ...)
{
    va_list ap;
    char *add;
    va_start(ap, fmt);
    if (vasprintf(&add, fmt, ap) < 0)
        abort();
    va_end(ap);
    char *out = lab_asprintf("%s%s", s, add);
    free(s);
    free(add);
    return out;
}

char *lab_cell_plan_describe(const struct lab_cell_plan *p)
{
    char *s = lab_asprintf("era: Linux %s %s, boot image %s, drop caches by %s, scheduler by %s\n",
                           p->era.version_str, p->era.arch, lab_boot_image_name(p->era.boot),
                           lab_cache_drop_name(p->era.drop), lab_sched_iface_name(p->era.sched));
    s = append(s, "bus: %s (libvirt %s, first disk %s)\n", p->bus->name, p->bus->libvirt_bus,
               p->bus->target);
    s = append(s, "channel: %s\n", p->channel == LAB_CHANNEL_UART ? "uart" : "virtio-port");
    s = append(s, "guest mounts: %s\n", p->fs);
    if (p->tree_disk)
        s = append(s,
                   "data disk: %s tree image, big_file %llu bytes, %u tree copies of %u files "
                   "in %u dirs (seed %llu), %llu bytes free\n",
                   p->tree.fs, (unsigned long long)p->tree.big_file_size, p->tree.tree_copies,
                   p->tree.tree.files, p->tree.tree.dirs, (unsigned long long)p->tree.tree.seed,
                   (unsigned long long)p->tree.extra_bytes);
    else
        s = append(s, "data disk: %s, %s %llu bytes\n", p->data.fs,
                   strcmp(p->data.fs, "raw") == 0 ? "device of" : p->data.file_name,
                   (unsigned long long)p->data.file_size);
    if (p->second_disk)
        s = append(s, "second disk: %s scratch, %llu bytes free\n", p->scratch.fs,
                   (unsigned long long)p->scratch.extra_bytes);
    else
        s = append(s, "second disk: none\n");
    s = append(s, "modules:");
    for (size_t i = 0; i < p->nmodules; i++)
        s = append(s, " %s", p->modules[i]);
    s = append(s, "%s\ntimeout: %u s\n", p->nmodules ? "" : " none (built in)", p->timeout_s);
    return s;
}
