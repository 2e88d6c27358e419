/* hdd-expect PROFILE [SPAN_BYTES]: the model's analytic expectations, one
 * key=value per line, for host/hdd/measure.sh and by hand. */
#include <stdio.h>
#include <stdlib.h>

#include "host/hdd/profile.h"

int main(int argc, char **argv)
{
    struct hdd_params p;
    char err[512], line[512];
    if (argc < 2) {
        fprintf(stderr, "usage: hdd-expect PROFILE [SPAN_BYTES]\n");
        return 2;
    }
    if (hdd_profile_load(argv[1], &p, err, sizeof(err)) < 0) {
        fprintf(stderr, "hdd-expect: %s\n", err);
        return 1;
    }
    uint64_t span = argc > 2 ? strtoull(argv[2], NULL, 0) : p.capacity_bytes;
    hdd_profile_summary(&p, line, sizeof(line));
    printf("summary=%s\n", line);
    printf("capacity_bytes=%llu\n", (unsigned long long)p.capacity_bytes);
    printf("seq_rate_outer_mbs=%.3f\n", hdd_expect_seq_rate(&p, 0) / 1e6);
    printf("media_rate_outer_mbs=%.3f\n", hdd_expect_media_rate(&p, 0) / 1e6);
    printf("avg_seek_ms=%.3f\n", hdd_expect_avg_seek_ms(&p, span));
    printf("random_4k_ms=%.3f\n", hdd_expect_random_ms(&p, span, 4096));
    return 0;
}
