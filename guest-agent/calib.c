/* The calibration loop (a bogomips): a loop of a known number of x86
 * instructions, timed on the guest's own clock, sent once per boot as
 *
 *     log msg=calibration calib_instructions=N calib_ns=T
 *
 * so the host can print the speed the guest saw (N * 1000 / T MIPS) beside
 * the CPU profile's nominal figure (host/plan/cpu.h). Under QEMU's
 * instruction counter the guest's clock advances 2^shift ns per
 * instruction, so the loop reads the profile's speed; without it, the
 * speed TCG translates this loop at (an upper bound for real code).
 *
 * The loop is written in assembly so that no compiler can change its
 * count: each iteration is one `dec` and one `jnz`, two instructions. */
#include "agent.h"
#include "sys.h"

/* 8 M instructions: 64 ms at 125 MIPS, 256 ms at 31.25 MIPS. */
#define CALIB_ITERATIONS     4000000UL
#define CALIB_INSNS_PER_ITER 2u
#define CALIB_PASSES         2

static void spin(unsigned long n)
{
    __asm__ volatile("1:\n\tdec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

/* The faster of two passes: an interrupt or the first translation of the
 * loop only ever make a pass slower. */
void calib_report(void)
{
    uint64_t best = 0;
    for (int i = 0; i < CALIB_PASSES; i++) {
        uint64_t t0 = sys_now_ns();
        spin(CALIB_ITERATIONS);
        uint64_t dt = sys_now_ns() - t0;
        if (!best || dt < best)
            best = dt;
    }
    struct agent_line *l = report_start("log");
    agent_line_str(l, "msg", "calibration");
    agent_line_u64(l, "calib_instructions", (uint64_t)CALIB_ITERATIONS * CALIB_INSNS_PER_ITER);
    agent_line_u64(l, "calib_ns", best ? best : 1);
    report_send();
}
