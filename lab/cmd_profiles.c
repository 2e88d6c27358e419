/* lab profiles, lab cpus: the hardware and CPU profiles and their figures. */
#include "lab/commands.h"
#include "host/plan/cpu.h"
#include "host/plan/profile.h"

#include <stdio.h>

int cmd_profiles(int argc, char **argv)
{
    return lab_profiles_list(stdout) < 0 ? 1 : 0;
}

int cmd_cpus(int argc, char **argv)
{
    lab_cpu_list(stdout);
    return 0;
}
