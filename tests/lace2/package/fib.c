// SPDX-License-Identifier: Apache-2.0
/* fib through the installed lace package: FIB_HEADER picks lace32.h (32),
 * lace.h (64) or lace128.h (128); a 128-byte build also runs a task whose
 * arguments only lace128.h's descriptors hold. */
#include <stdint.h>
#include <stdio.h>
#if FIB_HEADER == 32
#include <lace32.h>
#elif FIB_HEADER == 128
#include <lace128.h>
#else
#include <lace.h>
#endif

TASK(int, fib, int, n)

int fib_CALL(lace_worker *lw, int n)
{
    if (n < 2)
        return n;
    fib_SPAWN(lw, n - 1);
    int b = fib_CALL(lw, n - 2);
    return fib_SYNC(lw) + b;
}

#if FIB_HEADER == 128
TASK(uint64_t, wide, uint64_t, a, uint64_t, b, uint64_t, c, uint64_t, d, uint64_t, e, uint64_t, f,
     uint64_t, g, uint64_t, h, uint64_t, i, uint64_t, j)

uint64_t wide_CALL(lace_worker *lw, uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e,
                   uint64_t f, uint64_t g, uint64_t h, uint64_t i, uint64_t j)
{
    (void)lw;
    return a + b + c + d + e + f + g + h + i + j;
}
#endif

int main(void)
{
    lace_start(2, 0, 0);
    int r = fib(24);
#if FIB_HEADER == 128
    if (wide(1, 2, 3, 4, 5, 6, 7, 8, 9, 10) != 55)
        r = -1;
#endif
    lace_stop();
    printf("fib(24) = %d (LACE_TASKSIZE %d)\n", r, (int)LACE_TASKSIZE);
    return r == 46368 ? 0 : 1;
}
