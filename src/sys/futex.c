// SPDX-License-Identifier: Apache-2.0
/* Linux futex wait and wake (see futex.h). */
#include "sys/futex.h"

#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void weft__futex_wait(_Atomic uint32_t *word, uint32_t expected)
{
    (void)syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

bool weft__futex_wait_for(_Atomic uint32_t *word, uint32_t expected, uint64_t timeout_ns)
{
    /* FUTEX_WAIT takes a relative timeout. */
    struct timespec ts = {.tv_sec = (time_t)(timeout_ns / 1000000000u),
                          .tv_nsec = (long)(timeout_ns % 1000000000u)};
    long r = syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected, &ts, NULL, 0);
    return !(r == -1 && errno == ETIMEDOUT);
}

void weft__futex_wake(_Atomic uint32_t *word, int count)
{
    (void)syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, count, NULL, NULL, 0);
}
