/* The host's headroom for CPU profiles (host/plan/cpu.h): how fast this
 * host runs the agent's calibration loop under TCG with no instruction
 * counter, measured once by a probe boot and cached per host kernel in
 * $LAB_HOME/cpu-speed-RELEASE (like the accel probe). A profile whose
 * nominal speed leaves less than LAB_CPU_MIN_HEADROOM is refused before
 * any boot, with the figure measured. */
#ifndef LAB_CELL_CPUPROBE_H
#define LAB_CELL_CPUPROBE_H

#include "host/cell/cell.h"
#include "host/plan/cpu.h"

/* The host's speed on the calibration loop (MIPS): the cached figure, or a
 * probe boot of `probe` at fast. 0 with an error when it cannot be had. */
double lab_cpu_host_mips(const struct lab_cell_env *env, const struct lab_cell_spec *probe);

/* 0 when cpu is fast or the host has the headroom for it; else -1 with an
 * error naming the figures. `probe` boots the run's first kernel. */
int lab_cpu_check_headroom(const struct lab_cpu *cpu, const struct lab_cell_env *env,
                           const struct lab_cell_spec *probe);

#endif
