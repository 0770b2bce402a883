// SPDX-License-Identifier: Apache-2.0
/* mm on OpenMP tasks: each product splits its row range in halves, the
 * lower half a task and the upper one called, then taskwait, down to one
 * row per task -- mm-weft's tree of n - 1 spawns.  The products run one
 * after the other inside one parallel region. */
#include "mm.h"
#include "mm-peer.h"

static void rows(const double *a, const double *b, double *c, int n, int lo, int hi)
{
    if (hi - lo == 1) {
        mm_row(a, b, c, n, lo);
        return;
    }
    int mid = lo + (hi - lo) / 2;
#pragma omp task firstprivate(a, b, c, n, lo, mid)
    rows(a, b, c, n, lo, mid);
    rows(a, b, c, n, mid, hi);
#pragma omp taskwait
}

void mm_parallel(const double *a, const double *b, double *c, int n, long repetitions)
{
#pragma omp parallel firstprivate(a, b, c, n, repetitions)
    {
#pragma omp single
        for (long r = 0; r < repetitions; r++)
            rows(a, b, c, n, 0, n);
    }
}
