// SPDX-License-Identifier: Apache-2.0
/* A divide-and-conquer parallel for loop, and a helper function that
 * spawns by taking the task context explicitly. */
#include <stdio.h>
#include <weft/weft.h>

#define N 1000000
static double data[N];

/* Plain helper, called from tasks: takes the context to be able to spawn. */
WEFT_VOID_TASK_DECL_3(scale_range, double *, size_t, size_t)
static void scale_halves(WEFT_CONTEXT_PARAMS, double *a, size_t lo, size_t hi)
{
    size_t mid = lo + (hi - lo) / 2;
    WEFT_SPAWN(scale_range, a, lo, mid);
    WEFT_CALL(scale_range, a, mid, hi);
    WEFT_SYNC(scale_range);
}

WEFT_VOID_TASK_IMPL_3(scale_range, double *, a, size_t, lo, size_t, hi)
{
    if (hi - lo <= 2048) { /* grain: the leaves do the real work */
        for (size_t i = lo; i < hi; i++)
            a[i] = 2.0 * a[i] + 1.0;
        return;
    }
    scale_halves(WEFT_CONTEXT, a, lo, hi);
}

int main(void)
{
    for (size_t i = 0; i < N; i++)
        data[i] = (double)i;
    weft_start(0, 0, 0);
    WEFT_RUN(scale_range, data, 0, N);
    weft_stop();
    for (size_t i = 0; i < N; i++)
        if (data[i] != 2.0 * (double)i + 1.0) {
            printf("wrong at %zu\n", i);
            return 1;
        }
    printf("ok: %d elements\n", N);
    return 0;
}
