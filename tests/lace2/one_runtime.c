// SPDX-License-Identifier: Apache-2.0
/* Halves of programs that mix Lace layers, which the link must refuse
 * (tests lace2_one_runtime and lace_one_layer): main and a task with
 * lace.h (Lace 2, 64-byte descriptors); other_half, a task with lace128.h
 * (LACE2_TEST_HEADER 128) or with Lace 1's lace.h (LACE2_TEST_HEADER 1). */
#if LACE2_TEST_HEADER == 128
#include <lace128.h>

TASK(long, wide, long, a)

long wide_CALL(lace_worker *lw, long a)
{
    (void)lw;
    return a;
}

long other_half(long a) { return wide(a); }
#elif LACE2_TEST_HEADER == 1
#include <lace.h>

TASK_1(long, lace1_task, long, a) { return a; }

long other_half(long a) { return RUN(lace1_task, a); }
#else
#include <lace.h>

long other_half(long a);

TASK(long, narrow, long, a)

long narrow_CALL(lace_worker *lw, long a)
{
    (void)lw;
    return a;
}

int main(void)
{
    lace_start(1, 0, 0);
    long r = narrow(1) + other_half(2);
    lace_stop();
    return r == 3 ? 0 : 1;
}
#endif
