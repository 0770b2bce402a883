// SPDX-License-Identifier: Apache-2.0
/* dfor on OpenMP tasks: each repetition is a divide-and-conquer loop, a
 * range longer than the grain split at its middle, the upper half a task
 * and the lower half called, then taskwait; the loops run one after the
 * other inside one parallel region.  (A taskloop would cut the range into
 * chunks from one thread, and `omp for` into static or dynamic chunks:
 * other algorithms than the one measured here.) */
#include "dfor.h"
#include "dfor-peer.h"

static void parallel_for(uint64_t *a, long lo, long hi, long iterations, long grain)
{
    if (hi - lo <= grain) {
        dfor_leaf(a, lo, hi, iterations);
        return;
    }
    /* The halves write disjoint indices: the upper one becomes a task. */
    long mid = lo + (hi - lo) / 2;
#pragma omp task firstprivate(a, mid, hi, iterations, grain)
    parallel_for(a, mid, hi, iterations, grain);
    parallel_for(a, lo, mid, iterations, grain);
#pragma omp taskwait
}

void dfor_parallel(uint64_t *a, long n, long iterations, long repetitions, long grain)
{
#pragma omp parallel firstprivate(a, n, iterations, repetitions, grain)
    {
#pragma omp single
        for (long r = 0; r < repetitions; r++)
            parallel_for(a, 0, n, iterations, grain);
    }
}
