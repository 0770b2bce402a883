// SPDX-License-Identifier: Apache-2.0
/* ssf on OpenMP tasks: each search splits its position range in halves,
 * the lower half a task and the upper one called, then taskwait, down to
 * one position per task -- ssf-weft's tree of n - 1 spawns.  The searches
 * run one after the other inside one parallel region. */
#include "ssf.h"
#include "ssf-peer.h"

static void positions(const char *text, int n, int *best_len, int *best_pos, int lo, int hi)
{
    if (hi - lo == 1) {
        ssf_position(text, n, lo, best_len, best_pos);
        return;
    }
    int mid = lo + (hi - lo) / 2;
#pragma omp task firstprivate(text, n, best_len, best_pos, lo, mid)
    positions(text, n, best_len, best_pos, lo, mid);
    positions(text, n, best_len, best_pos, mid, hi);
#pragma omp taskwait
}

void ssf_parallel(const char *text, int n, int *best_len, int *best_pos, long repetitions)
{
#pragma omp parallel firstprivate(text, n, best_len, best_pos, repetitions)
    {
#pragma omp single
        for (long r = 0; r < repetitions; r++)
            positions(text, n, best_len, best_pos, 0, n);
    }
}
