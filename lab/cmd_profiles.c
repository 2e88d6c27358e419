/* lab profiles: the hardware profiles and their key figures. */
#include "lab/commands.h"
#include "host/profile.h"

#include <stdio.h>

int cmd_profiles(int argc, char **argv)
{
    return lab_profiles_list(stdout) < 0 ? 1 : 0;
}
