// SPDX-License-Identifier: Apache-2.0
/* Lace's time functions, the same in both API generations (each declares
 * them in its lace.h).  Built into each Lace library. */
#include <lace.h>

#include <errno.h>
#include <stdint.h>
#include <time.h>

void lace_sleep_us(int64_t microseconds)
{
    if (microseconds <= 0)
        return;
    struct timespec ts = {(time_t)(microseconds / 1000000), (long)(microseconds % 1000000) * 1000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

uint64_t lace_gethrtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
