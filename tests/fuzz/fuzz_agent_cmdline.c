/* libFuzzer harness: the agent's parameter parser (guest-agent/cmdline.c),
 * fed a kernel command line as /proc/cmdline gives it. */
#include <stddef.h>
#include <stdint.h>

#include "guest-agent/cmdline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct agent_config c;
    agent_config_defaults(&c);
    agent_config_parse(&c, (const char *)data, size);
    return 0;
}
