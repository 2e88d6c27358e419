/* The host's speed on the calibration loop, by a cached probe boot, and
 * the refusal of a CPU profile the host cannot sustain. */
#include "host/cell/cpuprobe.h"
#include "common/file.h"
#include "common/msg.h"
#include "common/paths.h"
#include "common/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#define PROBE_SECONDS 60

static char *cache_path(void)
{
    struct utsname u;
    uname(&u);
    return lab_asprintf("%s/cpu-speed-%s", lab_home(), u.release);
}

double lab_cpu_host_mips(const struct lab_cell_env *env, const struct lab_cell_spec *probe)
{
    const char *env_mips = getenv("LAB_CPU_HOST_MIPS"); /* tests: a host of a given speed */
    if (env_mips && *env_mips)
        return atof(env_mips);
    char *path = cache_path();
    char *cached = lab_read_file_max(path, 64, NULL);
    double mips = cached ? atof(cached) : 0;
    free(cached);
    if (mips > 0) {
        free(path);
        return mips;
    }
    fprintf(stderr, "lab: measuring this host's speed for CPU profiles (one boot at fast)...\n");
    struct lab_cell_spec spec = *probe;
    struct lab_cell_result res;
    struct lab_cell_env quiet = *env;
    spec.cpu = NULL;
    /* A CPU profile is QEMU's instruction counter, which only TCG has: the
     * speed that matters is TCG's (and the probe's spec may come from a
     * plan whose cells are given their accelerator only as they run). */
    spec.virt_type = "qemu";
    spec.calib_only = 1;
    spec.timeout_s = PROBE_SECONDS;
    quiet.store = NULL;
    quiet.log_dir = NULL;
    if (lab_cell_run(&quiet, &spec, &res) < 0 || res.cpu_mips <= 0) {
        lab_error("cannot measure this host's speed: %s", res.reason[0] ? res.reason : "no figure");
        free(path);
        return 0;
    }
    char text[32];
    snprintf(text, sizeof text, "%.1f\n", res.cpu_mips);
    lab_mkdir_p(lab_home(), 0755);
    lab_write_file(path, text, strlen(text));
    fprintf(stderr, "lab: this host runs the calibration loop at %.1f MIPS (cached in %s)\n",
            res.cpu_mips, path);
    free(path);
    return res.cpu_mips;
}

int lab_cpu_check_headroom(const struct lab_cpu *cpu, const struct lab_cell_env *env,
                           const struct lab_cell_spec *probe)
{
    if (lab_cpu_is_fast(cpu))
        return 0;
    double host = lab_cpu_host_mips(env, probe);
    if (host <= 0)
        return -1;
    double headroom = lab_cpu_headroom(cpu, host);
    if (headroom >= LAB_CPU_MIN_HEADROOM)
        return 0;
    return lab_error("CPU profile %s (%.2f MIPS) needs %.1fx headroom: this host runs the "
                     "calibration loop at %.1f MIPS, %.2fx (docs/cpu.md; the figure is cached in "
                     "$LAB_HOME/cpu-speed-*)",
                     cpu->name, lab_cpu_nominal_mips(cpu), LAB_CPU_MIN_HEADROOM, host, headroom);
}
