/* libFuzzer harness: the hdd filter's trace reader (host/report/trace.c), over the
 * whole file and over a window. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "host/report/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct lab_trace_summary s;
    char err[256];
    static const struct lab_trace_window windows[] = {{0, 0}, {1000, 2000000000}};
    if (size == 0)
        return 0;
    for (size_t i = 0; i < sizeof windows / sizeof windows[0]; i++) {
        FILE *f = fmemopen((void *)data, size, "r");
        if (!f)
            return 0;
        if (lab_trace_summarize(f, windows[i], &s, err, sizeof err) == 0) {
            FILE *out = fopen("/dev/null", "w");
            if (out) {
                lab_trace_print(out, &s);
                fclose(out);
            }
        }
        fclose(f);
    }
    return 0;
}
