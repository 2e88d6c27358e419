/* The CPU profiles: era CPUs as QEMU's instruction counter gives them. */
#include "host/plan/cpu.h"
#include "common/msg.h"

#include <math.h>
#include <string.h>

/* Each row: an era CPU and the MIPS figure Stephen White's table gives it
 * ("A Brief History of Computing: Microprocessors", 2000,
 * trillian.randomstuff.org.uk/~stephen/history/microprocessor.html,
 * "approximate speed in MIPS"), at the power-of-two rate nearest that
 * figure (1000 / 2^shift MIPS). The emulated rate is what the guest gets
 * and what the lab checks; the cited figure says how far it is from the
 * real chip. Rows are ordered slowest first. */
static const struct lab_cpu cpus[] = {
    {"fast", -1, 0, "the host's own speed under TCG, no instruction counter"},
    {"486dx2-50", 5, 35, "Intel 486 DX2 50 MHz (1992)"},
    {"486dx4-100", 4, 60, "Intel 486 DX4 100 MHz (1994)"},
    {"pentium-66", 3, 100, "Intel Pentium 66 MHz (1993)"},
    {"am5x86-133", 3, 150, "AMD Am5x86 133 MHz (1995)"},
    {"pentium-133", 2, 240, "Intel Pentium 133 MHz (1995)"},
    {"pentium2-233", 1, 560, "Intel Pentium II 233 MHz (1997)"},
};
#define NCPUS (sizeof cpus / sizeof cpus[0])

const struct lab_cpu *lab_cpu_find(const char *name)
{
    for (size_t i = 0; name && i < NCPUS; i++)
        if (strcmp(cpus[i].name, name) == 0)
            return &cpus[i];
    return NULL;
}

const struct lab_cpu *lab_cpu_resolve(const char *name)
{
    const struct lab_cpu *c = lab_cpu_find(name);
    if (!c)
        lab_error("unknown CPU profile '%s'; `lab cpus` lists them", name ? name : "");
    return c;
}

int lab_cpu_is_fast(const struct lab_cpu *c)
{
    return !c || c->shift < 0;
}

double lab_cpu_nominal_mips(const struct lab_cpu *c)
{
    return lab_cpu_is_fast(c) ? 0.0 : 1000.0 / (double)(1u << c->shift);
}

int lab_cpu_icount_arg(const struct lab_cpu *c, char *buf, size_t len)
{
    if (lab_cpu_is_fast(c))
        return -1;
    snprintf(buf, len, "shift=%d,align=on,sleep=on", c->shift);
    return 0;
}

double lab_cpu_mips(unsigned long long instructions, unsigned long long ns)
{
    return ns ? (double)instructions * 1000.0 / (double)ns : 0.0;
}

int lab_cpu_mips_ok(const struct lab_cpu *c, double measured)
{
    if (lab_cpu_is_fast(c))
        return 1;
    double nominal = lab_cpu_nominal_mips(c);
    return fabs(measured - nominal) * 100.0 <= LAB_CPU_MIPS_TOLERANCE_PCT * nominal;
}

double lab_cpu_headroom(const struct lab_cpu *c, double host_mips)
{
    return lab_cpu_is_fast(c) ? 0.0 : host_mips / lab_cpu_nominal_mips(c);
}

void lab_cpu_list(FILE *out)
{
    fprintf(out, "%-13s %6s %9s %7s  %s\n", "CPU", "SHIFT", "EMULATED", "CITED", "WHAT");
    for (size_t i = 0; i < NCPUS; i++) {
        const struct lab_cpu *c = &cpus[i];
        if (lab_cpu_is_fast(c)) {
            fprintf(out, "%-13s %6s %9s %7s  %s\n", c->name, "-", "-", "-", c->what);
            continue;
        }
        fprintf(out, "%-13s %6d %9.2f %7.0f  %s (%+.0f%%)\n", c->name, c->shift,
                lab_cpu_nominal_mips(c), c->cited_mips, c->what,
                100.0 * (lab_cpu_nominal_mips(c) - c->cited_mips) / c->cited_mips);
    }
}
