/* CPU profiles: an era CPU as QEMU's instruction counter (-icount) gives it.
 *
 * Under `-icount shift=N` every guest instruction advances the guest's
 * clock by 2^N ns, so the guest runs at 1000 / 2^N MIPS of its own time:
 * 1000, 500, 250, 125, 62.5, 31.25 ... Only those powers of two exist
 * (QEMU 7.2 takes an integer shift), so a profile is the era CPU whose
 * cited MIPS figure lies nearest one of them; both figures are kept, the
 * emulated one is the nominal the lab checks against (docs/cpu.md).
 * `align=on` holds the guest's clock to the host's real time (the disk
 * model's deadlines are real time), `sleep=on` lets an idle guest's clock
 * run on while the host sleeps. `fast` is the host's own speed, no counter. */
#ifndef LAB_PLAN_CPU_H
#define LAB_PLAN_CPU_H

#include <stddef.h>
#include <stdio.h>

struct lab_cpu {
    const char *name;
    int shift;         /* -icount shift; -1 for fast (no counter) */
    double cited_mips; /* the era CPU's figure (0 for fast) */
    const char *what;  /* the CPU and its year */
};

/* A measured speed this far off the nominal fails the cell. */
#define LAB_CPU_MIPS_TOLERANCE_PCT 5.0

/* The table's row for NAME, or NULL (lab_cpu_resolve says why). */
const struct lab_cpu *lab_cpu_find(const char *name);
/* The row, or NULL with an error naming the profiles (exit 2 material). */
const struct lab_cpu *lab_cpu_resolve(const char *name);
int lab_cpu_is_fast(const struct lab_cpu *c);
/* 1000 / 2^shift; 0 for fast. */
double lab_cpu_nominal_mips(const struct lab_cpu *c);
/* "shift=N,align=on,sleep=on" into buf; -1 for fast (no counter). */
int lab_cpu_icount_arg(const struct lab_cpu *c, char *buf, size_t len);
/* MIPS from the agent's calibration record; 0 when ns is 0. */
double lab_cpu_mips(unsigned long long instructions, unsigned long long ns);
/* 1 when measured is within LAB_CPU_MIPS_TOLERANCE_PCT of the nominal
 * (always 1 for fast, which has no nominal). */
int lab_cpu_mips_ok(const struct lab_cpu *c, double measured);
/* The host's headroom for a profile: the host's own speed on the
 * calibration loop (measured under fast) over the profile's nominal. */
double lab_cpu_headroom(const struct lab_cpu *c, double host_mips);
/* Below this headroom a profile is refused before boot (docs/cpu.md has
 * the figures it was chosen from). */
#define LAB_CPU_MIN_HEADROOM 4.0
/* `lab cpus`: the table. */
void lab_cpu_list(FILE *out);

#endif
