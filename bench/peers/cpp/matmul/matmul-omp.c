// SPDX-License-Identifier: Apache-2.0
/* matmul on OpenMP tasks (the recursion of bench/matmul/matmul.h): a split
 * of C's rows or columns runs the first half as a task and calls the
 * second, then taskwait; a split of the inner dimension runs both halves
 * one after the other (they write the same block of C).  No cut-off
 * beyond the base case, matmul.h's mm_base. */
#include "matmul.h"
#include "matmul-peer.h"

static void matmul(const mm_real *A, const mm_real *B, mm_real *C, mm_dims d)
{
    mm_dims h = d; /* first half */
    switch (mm_step(&d)) {
    case MM_BASE: mm_base(A, B, C, &d); return;
    case MM_SPLIT_M: /* disjoint rows of C */ h.m = d.m >> 1; d.m -= h.m;
#pragma omp task firstprivate(A, B, C, h)
        matmul(A, B, C, h);
        matmul(A + (size_t)h.m * d.ld, B, C + (size_t)h.m * d.ld, d);
#pragma omp taskwait
        return;
    case MM_SPLIT_N: /* same block of C: one after the other */
        h.n = d.n >> 1;
        d.n -= h.n;
        d.add = 1;
        matmul(A, B, C, h);
        matmul(A + h.n, B + (size_t)h.n * d.ld, C, d);
        return;
    case MM_SPLIT_P: /* disjoint columns of C */ h.p = d.p >> 1; d.p -= h.p;
#pragma omp task firstprivate(A, B, C, h)
        matmul(A, B, C, h);
        matmul(A, B + h.p, C + h.p, d);
#pragma omp taskwait
        return;
    }
}

void matmul_parallel(const mm_real *A, const mm_real *B, mm_real *C, int n)
{
#pragma omp parallel firstprivate(A, B, C, n)
    {
#pragma omp single
        matmul(A, B, C, (mm_dims){n, n, n, n, 0});
    }
}
