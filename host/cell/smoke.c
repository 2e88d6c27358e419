/* The kernel smoke test; see smoke.h. */
#include "host/cell/smoke.h"

#include "host/cell/accel.h"
#include "host/plan/bus.h"
#include "host/plan/experiment.h"
#include "host/store/store.h"
#include "kernels/user.h"
#include "common/interrupt.h"
#include "common/str.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct smoke_check {
    int64_t cell;
    unsigned samples, bad_bytes, verify_errors;
    double secs;
};

static int last_cell(const struct lab_cell_info *ci, void *ctx)
{
    ((struct smoke_check *)ctx)->cell = ci->id;
    return 0;
}

static int check_sample(const struct lab_sample *s, void *ctx)
{
    struct smoke_check *sc = ctx;
    const char *v = s->extra ? strstr(s->extra, "verify_errors=") : NULL;
    sc->samples++;
    sc->bad_bytes += s->bytes != (uint64_t)LAB_SMOKE_FILE_MIB << 20;
    /* A missing figure is a failure: the agent did not say it checked. */
    sc->verify_errors += !v || strtoull(v + strlen("verify_errors="), NULL, 10) != 0;
    sc->secs += (double)s->real_ns / 1e9;
    return 0;
}

/* A lab build must drive its IDE data disk with DMA, as every 2.4 and 2.6
 * fragment asks (kernels/kconfig.h lab_kconfig_ide_dma_at_boot): one in
 * PIO reads at a tenth of the era disk's rate, and every comparison with
 * it would be about the transfer mode. A user's image may run PIO (its
 * .config's choice; lab.ide_dma=on sets DMA). 1 with why in out. */
static int build_in_pio(struct lab_store *st, int64_t cell, const struct lab_kernel *k, char *out,
                        size_t len)
{
    char stack[16], dma[8], mode[24];
    if (!k->source || strcmp(k->source, "build") != 0 ||
        !lab_store_cell_get(st, cell, "ide_stack", stack, sizeof stack) ||
        strcmp(stack, "ide") != 0 || !lab_store_cell_get(st, cell, "ide_dma", dma, sizeof dma) ||
        strcmp(dma, "0") != 0)
        return 0;
    if (!lab_store_cell_get(st, cell, "ide_mode", mode, sizeof mode))
        snprintf(mode, sizeof mode, "?");
    snprintf(out, len,
             "the IDE data disk ran in PIO (%s): the build's .config leaves DMA off "
             "(CONFIG_IDEDMA_PCI_AUTO, and CONFIG_PIIX_TUNING before 2.4.21)",
             mode);
    return 1;
}

/* Where the smoke test's reads went, for its note: " on hda (drivers/ide)
 * in mwdma2", so a build's record says it ran DMA; "" on a disk that is not
 * ATA. */
static void disk_mode(struct lab_store *st, int64_t cell, char *out, size_t len)
{
    static const struct {
        const char *stack, *name;
    } stacks[] = {{"ide", "drivers/ide"}, {"libata", "libata"}};
    char stack[16], dev[16], mode[24];
    out[0] = '\0';
    if (!lab_store_cell_get(st, cell, "ide_stack", stack, sizeof stack) ||
        !lab_store_cell_get(st, cell, "ide_mode", mode, sizeof mode))
        return;
    if (!lab_store_cell_get(st, cell, "ide_dev", dev, sizeof dev))
        snprintf(dev, sizeof dev, "?");
    for (size_t i = 0; i < sizeof stacks / sizeof stacks[0]; i++)
        if (strcmp(stack, stacks[i].stack) == 0)
            snprintf(out, len, " on %s (%s) in %s", dev, stacks[i].name, mode);
}

int lab_kernel_smoke(const struct lab_cell_env *env, const struct lab_kernel *k, const char *accel,
                     char *note, size_t len)
{
    static const char text[] = "test = seqread\n"
                               "summary = the lab's IO smoke test of a kernel\n"
                               "file_size = 32M\n"
                               "verify = 1\n"
                               "reps = 2\n"
                               "warmup = 0\n";
    struct lab_experiment exp;
    if (lab_experiment_parse("(smoke test)", text, &exp) < 0 ||
        lab_experiment_check("(smoke test)", &exp) < 0) {
        snprintf(note, len, "the smoke experiment does not parse");
        return -1;
    }
    free(exp.name);
    exp.name = lab_xstrdup("smoke");
    struct lab_cell_spec spec = {
        .kernel = k, .exp = &exp, .bus = lab_bus_find("ide"), .smoke_test = 1};
    struct lab_cell_result res;
    char reason[512];
    int rc;
    if (lab_cell_check(&spec, reason, sizeof reason) < 0) {
        snprintf(note, len, "cannot run a cell: %s", reason);
        rc = -1;
    } else if (!(spec.virt_type = lab_accel_choose(accel, env, &spec))) {
        snprintf(note, len, "no accelerator to run it with");
        rc = -1;
    } else if (lab_cell_run(env, &spec, &res) < 0) {
        snprintf(note, len, "%s", res.reason);
        rc = 0;
    } else {
        struct smoke_check sc = {0};
        lab_store_foreach_cell(env->store, env->run_id, last_cell, &sc);
        lab_store_foreach_sample(env->store, sc.cell, check_sample, &sc);
        rc = sc.samples == LAB_SMOKE_REPS && !sc.bad_bytes && !sc.verify_errors;
        char pio[160];
        if (rc && build_in_pio(env->store, sc.cell, k, pio, sizeof pio)) {
            snprintf(note, len, "%s", pio);
            rc = 0;
        } else if (rc) {
            char where[80];
            disk_mode(env->store, sc.cell, where, sizeof where);
            snprintf(note, len,
                     "boot-to-agent %.1f s, %u reads of %d MiB at %.1f MB/s%s, every word as "
                     "written",
                     (double)res.hello_ns / 1e9, sc.samples, LAB_SMOKE_FILE_MIB,
                     sc.secs > 0 ? sc.samples * (double)(LAB_SMOKE_FILE_MIB << 20) / 1e6 / sc.secs
                                 : 0.0,
                     where);
        } else
            snprintf(note, len,
                     "%u of %d reads came back, %u short, %u with content other than written",
                     sc.samples, LAB_SMOKE_REPS, sc.bad_bytes, sc.verify_errors);
    }
    lab_experiment_free(&exp);
    return rc;
}

int lab_kernel_verify(const struct lab_cell_env *env, const char *name, const char *accel,
                      int again, char *note, size_t len)
{
    const struct lab_kernel *k = lab_kernel_find(name);
    if (!k) {
        snprintf(note, len, "unknown kernel '%s'", name);
        return -1;
    }
    if (!again && k->verified && strcmp(k->verified, "passed") == 0) {
        snprintf(note, len, "%s", k->verified_note ? k->verified_note : "passed earlier");
        return 1;
    }
    int v = lab_kernel_smoke(env, k, accel, note, len);
    /* An interrupted test is no verdict; one that could not run neither. */
    if (v >= 0 && !lab_interrupted && k->dir &&
        lab_user_kernel_set_verified(name, v == 1, note) < 0)
        return -1;
    return v;
}
