// SPDX-License-Identifier: Apache-2.0
/* pi on OpenMP tasks: a range of more than `grain` samples is halved, the
 * upper half a task and the lower half called, then taskwait -- the same
 * splitting as pi-weft (the grain is the program's argument, so no
 * taskloop or reduction with a schedule of its own). */
#include "pi.h"
#include "pi-peer.h"

static long count_hits(long lo, long hi, long grain)
{
    if (hi - lo <= grain)
        return pi_count(lo, hi);
    long mid = lo + (hi - lo) / 2;
    long upper;
#pragma omp task shared(upper) firstprivate(mid, hi, grain)
    upper = count_hits(mid, hi, grain);
    long lower = count_hits(lo, mid, grain);
#pragma omp taskwait
    return lower + upper;
}

long pi_parallel(long samples, long grain)
{
    long hits = 0;
#pragma omp parallel shared(hits) firstprivate(samples, grain)
    {
#pragma omp single
        hits = count_hits(0, samples, grain);
    }
    return hits;
}
