/* Reports from the result store. Each test has its own table shape (a
 * table of columns, not code per test); every number comes from samples. */
#include "host/report/table.h"

#include "host/cell/contention.h"
#include "host/cell/cpucheck.h"
#include "host/plan/cpu.h"
#include "host/report/kprof.h"
#include "host/report/seedreport.h"
#include "host/stats/runmodel.h"
#include "host/stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double mean_of(const double *x, size_t n)
{
    struct lab_summary s;
    return lab_summarize(x, n, &s) == 0 ? s.mean : 0;
}

static void print_header(FILE *out, const struct lab_shape *sh, int lw)
{
    fprintf(out, "%-*s %3s", lw, "kernel", "n");
    for (const struct lab_column *c = sh->cols; c->title; c++) {
        if (c->stats)
            fprintf(out, "  %-35s", c->title);
        else
            fprintf(out, " %8s", c->title);
    }
    fprintf(out, "\n%-*s %3s", lw, "", "");
    for (const struct lab_column *c = sh->cols; c->title; c++) {
        if (c->stats)
            fprintf(out, "  %8s %8s %8s %7s", "min", "mean", "max", "stddev");
        else
            fprintf(out, " %8s", "mean");
    }
    fputc('\n', out);
}

static void print_cell(FILE *out, int decimals, int width, double v)
{
    fprintf(out, " %*.*f", width, decimals, v);
}

static void print_table(FILE *out, struct lab_model *rep, const struct lab_shape *sh)
{
    /* The label column: 22 wide, or the longest label (a load and a
     * scheduler make long ones). */
    int lw = 22;
    for (size_t i = 0; i < rep->nrows; i++)
        if ((int)strlen(rep->rows[i].label) > lw)
            lw = (int)strlen(rep->rows[i].label);
    print_header(out, sh, lw);
    for (size_t i = 0; i < rep->nrows; i++) {
        struct lab_model_row *r = &rep->rows[i];
        fprintf(out, "%-*s %3zu", lw, r->label, r->n);
        if (r->n == 0) {
            fprintf(out, "  (no samples)\n");
            continue;
        }
        for (const struct lab_column *c = sh->cols; c->title; c++) {
            struct lab_summary s;
            lab_summarize(r->v[c->m], r->n, &s);
            if (c->stats) {
                fputc(' ', out);
                print_cell(out, c->decimals, 8, s.min);
                print_cell(out, c->decimals, 8, s.mean);
                print_cell(out, c->decimals, 8, s.max);
                print_cell(out, c->decimals, 7, s.stddev);
            } else {
                print_cell(out, c->decimals, 8, s.mean);
            }
        }
        fputc('\n', out);
    }
}

/* Rows of more than one boot: the compared figure's variation within a
 * boot and between boots, and each boot's mean. */
static void print_boots(FILE *out, const struct lab_model *rep, const struct lab_shape *sh)
{
    int any = 0, lw = 22;
    for (size_t i = 0; i < rep->nrows; i++) {
        any |= rep->rows[i].nboots > 1;
        if ((int)strlen(rep->rows[i].label) > lw)
            lw = (int)strlen(rep->rows[i].label);
    }
    if (!any)
        return;
    fprintf(out, "\n%-*s boots runs %15s %19s %19s  boot means\n", lw, sh->compare_name,
            "mean of boots", "within-boot sd", "between-boot sd");
    for (size_t i = 0; i < rep->nrows; i++) {
        const struct lab_model_row *r = &rep->rows[i];
        struct lab_boot_var v;
        if (lab_model_boot_variation(r, sh->compare, &v) < 0)
            continue;
        double gm = fabs(v.grand_mean) > 0 ? fabs(v.grand_mean) : 1;
        char within[32] = "-", between[32] = "-";
        if (!isnan(v.within_sd))
            snprintf(within, sizeof within, "%.3g (%.1f%%)", v.within_sd, 100 * v.within_sd / gm);
        if (!isnan(v.between_sd))
            snprintf(between, sizeof between, "%.3g (%.1f%%)", v.between_sd,
                     100 * v.between_sd / gm);
        fprintf(out, "%-*s %5u %4zu %15.4g %19s %19s ", lw, r->label, v.nboots, v.n, v.grand_mean,
                within, between);
        for (unsigned k = 0; k < v.nboots; k++)
            fprintf(out, " %.4g", v.mean[k]);
        fputc('\n', out);
    }
}

static const char *const verdict_text[] = {
    [LAB_VERDICT_SAME] = "no significant difference",
    [LAB_VERDICT_SLOWER] = "SLOWER (significant)",
    [LAB_VERDICT_FASTER] = "FASTER (significant)",
};

/* Rows on different CPU profiles measure different machines: the verdict
 * line says so (an empty string when they agree). */
static const char *cpu_mismatch(const struct lab_model *rep, const struct lab_model_cmp *mc,
                                char *buf, size_t len)
{
    const char *a = rep->rows[mc->base].cpu, *b = rep->rows[mc->row].cpu;
    buf[0] = '\0';
    if (strcmp(a, b) != 0)
        snprintf(buf, len, " [DIFFERENT CPUs: %s vs %s]", b, a);
    return buf;
}

/* Two rows whose data disks ran in different transfer modes (PIO against
 * DMA, or different DMA modes): the comparison measures the mode too, and
 * its verdict line says so. */
static const char *xfer_flag(const struct lab_model_row *row, const struct lab_model_row *base,
                             char *buf, size_t len)
{
    buf[0] = '\0';
    if (row->xfer[0] && base->xfer[0] && strcmp(row->xfer, base->xfer) != 0)
        snprintf(buf, len,
                 " [transfer modes differ: %s, %s: partly the disk's mode, not the IO path]",
                 base->xfer, row->xfer);
    return buf;
}

/* Two rows of which one ran without a real-time slot (host/cell/rt.h): a
 * busy host could slow that side, so the verdict line says so. */
static const char *rt_flag(const struct lab_model_row *row, const struct lab_model_row *base,
                           char *buf, size_t len)
{
    buf[0] = '\0';
    if (row->rt[0] && base->rt[0] && strcmp(row->rt, base->rt) != 0)
        snprintf(buf, len, " [real time differs: %s vs %s]", row->rt, base->rt);
    return buf;
}

static void print_comparisons(FILE *out, const struct lab_model *rep, const struct lab_shape *sh)
{
    for (size_t i = 0; i < rep->ncmps; i++) {
        const struct lab_model_cmp *mc = &rep->cmps[i];
        const struct lab_comparison *c = &mc->c;
        const char *label = rep->rows[mc->row].label, *base = rep->rows[mc->base].label;
        char xfer[160], cpus[96], rt[64], flag[320];
        /* what the two rows differ in besides the kernel: each said */
        snprintf(flag, sizeof flag, "%s%s%s", cpu_mismatch(rep, mc, cpus, sizeof cpus),
                 xfer_flag(&rep->rows[mc->row], &rep->rows[mc->base], xfer, sizeof xfer),
                 rt_flag(&rep->rows[mc->row], &rep->rows[mc->base], rt, sizeof rt));
        if (mc->verdict == LAB_VERDICT_TOO_FEW) {
            fprintf(out, "%s vs %s: too few samples to compare (need 2 each)%s\n", label, base,
                    flag);
            continue;
        }
        if (mc->method == LAB_BOOT_RUNS)
            fprintf(out,
                    "%s vs %s: %s %+.1f%% (95%% CI %+.1f%% .. %+.1f%%), Welch p=%.3g, "
                    "Mann-Whitney p=%.3g, d=%.2f: %s%s\n",
                    label, base, sh->compare_name, c->diff_pct, c->diff_ci_lo, c->diff_ci_hi,
                    c->welch_p, c->mwu_p, c->cohen_d, verdict_text[mc->verdict], flag);
        else
            fprintf(
                out,
                "%s vs %s: %s %+.1f%% (95%% CI %+.1f%% .. %+.1f%%), p=%.3g by %s over %u and "
                "%u boots (runs as units: Welch p=%.3g), d=%.2f: %s%s\n",
                label, base, sh->compare_name, c->diff_pct, c->diff_ci_lo, c->diff_ci_hi, mc->p,
                mc->method == LAB_BOOT_MEANS ? "Welch on per-boot means" : "a two-level bootstrap",
                mc->boots_a, mc->boots_b, mc->runs_p, c->cohen_d, verdict_text[mc->verdict], flag);
    }
}

/* Each row's CPU profile beside the speed its boots' calibration loop
 * measured (host/plan/cpu.h): only where a profile was asked for. */
static void print_cpus(FILE *out, const struct lab_model *rep)
{
    for (size_t i = 0; i < rep->nrows; i++) {
        const struct lab_model_row *r = &rep->rows[i];
        const struct lab_cpu *c = lab_cpu_find(r->cpu);
        if (lab_cpu_is_fast(c))
            continue;
        fprintf(out, "cpu: %s: %s (%s), nominal %.2f MIPS, measured ", r->label, c->name, c->what,
                lab_cpu_nominal_mips(c));
        if (!r->nmips)
            fprintf(out, "nothing (no calibration record)\n");
        else if (r->nmips == 1)
            fprintf(out, "%.2f MIPS\n", r->mips_min);
        else
            fprintf(out, "%.2f .. %.2f MIPS over %u boots\n", r->mips_min, r->mips_max, r->nmips);
    }
}

/* Runs the host saw contended (host/cell/contention.h): left out, and rerun. */
static void print_flagged(FILE *out, const struct lab_model *rep)
{
    unsigned total = 0;
    for (size_t i = 0; i < rep->nrows; i++)
        total += rep->rows[i].flagged;
    if (!total)
        return;
    fprintf(out,
            "%u run(s) over a contention threshold (vCPU wait > %.0f%% or disk replies late > "
            "%.0f%% of the run, or under a CPU profile the guest's clock off the host's by > "
            "%.0f%%):",
            total, LAB_CONTENTION_VCPU_PCT, LAB_CONTENTION_DISK_PCT, LAB_CLOCK_DRIFT_PCT);
    for (size_t i = 0; i < rep->nrows; i++)
        if (rep->rows[i].flagged)
            fprintf(out, " %s %u%s", rep->rows[i].label, rep->rows[i].flagged,
                    rep->rows[i].contended ? " (kept: no uncontended runs to replace them)"
                                           : " (left out)");
    fputc('\n', out);
}

/* A data disk in PIO where the drive and drivers/ide could do DMA: a
 * finding about the setup, not the kernel's IO path. */
static void check_xfer(FILE *out, const struct lab_model *rep)
{
    for (size_t i = 0; i < rep->nrows; i++)
        if (rep->rows[i].xfer_pio_dma_capable)
            fprintf(out,
                    "warning: %s: the IDE data disk ran in PIO (%s) on a controller and drive "
                    "with DMA; the kernel's .config or command line left DMA off "
                    "(--set ide_dma=on turns it on, as hdparm -d1)\n",
                    rep->rows[i].label, rep->rows[i].xfer);
}

/* The guest's clock can lose ticks under emulation; the host's is the
 * reference. Say so when they disagree. */
static void check_clocks(FILE *out, struct lab_model *rep)
{
    for (size_t i = 0; i < rep->nrows; i++) {
        struct lab_model_row *r = &rep->rows[i];
        /* With a background load the host's span also covers starting and
         * stopping it, so the two clocks measure different things. */
        if (r->variant[0] && strcmp(r->variant, "no_load") != 0)
            continue;
        double g = mean_of(r->v[LAB_FIG_SECS], r->n), h = mean_of(r->v[LAB_FIG_HOST_SECS], r->n);
        if (r->n && g > 0.05 && (h / g > 1.10 || h / g < 0.90))
            fprintf(out,
                    "warning: %s: guest clock says %.3f s per run, host clock %.3f s: "
                    "the guest may be losing timer ticks\n",
                    r->kernel, g, h);
    }
}

int lab_report_run(FILE *out, struct lab_store *st, int64_t run)
{
    struct lab_model *rep = lab_model_load(st, run);
    if (!rep)
        return -1;
    const struct lab_shape *sh = rep->shape;
    fprintf(out, "run %lld: %s", (long long)run, rep->experiment);
    if (rep->rows[0].bytes && sh->bytes_per_run)
        fprintf(out, ", %.1f MiB per run", (double)rep->rows[0].bytes / (1 << 20));
    fprintf(out, " (%s)\n\n", sh->unit_note);
    print_table(out, rep, sh);
    print_boots(out, rep, sh);
    fputc('\n', out);
    print_comparisons(out, rep, sh);
    print_cpus(out, rep);
    check_xfer(out, rep);
    check_clocks(out, rep);
    print_flagged(out, rep);
    for (size_t i = 0; i < rep->nrows; i++)
        if (strcmp(rep->rows[i].status, "ok") != 0)
            fprintf(out, "%s: %s%s%s\n", rep->rows[i].kernel, rep->rows[i].status,
                    rep->rows[i].reason[0] ? ": " : "", rep->rows[i].reason);
    lab_seed_report(out, rep);
    int rc = lab_kprof_report(out, st, run, LAB_KPROF_TOP) < 0 ? -1 : 0;
    lab_model_free(rep);
    return rc;
}
