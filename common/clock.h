/* The clocks the lab measures with. */
#ifndef LAB_COMMON_CLOCK_H
#define LAB_COMMON_CLOCK_H

#include <stdint.h>

/* Monotonic and wall clocks in nanoseconds. */
int64_t lab_now_ns(void);
int64_t lab_wall_ns(void);

#endif
