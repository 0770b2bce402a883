// SPDX-License-Identifier: Apache-2.0
/* strassen on OpenMP tasks (the recursion of bench/strassen/strassen.h):
 * at each step above the cut-off, products 1-6 are tasks and product 7 is
 * called, taskwait; then quadrants 1-3 of C are tasks and quadrant 4 is
 * called, taskwait.  A product forms its operand sums in a buffer of its
 * own and recurses. */
#include "strassen.h"
#include "strassen-peer.h"

static void multiply(const double *A, const double *B, double *C, sm_dims d);

/* Product k of the step on A, B into M. */
static void product(const double *A, const double *B, double *M, sm_dims d, int k)
{
    int h = d.n / 2;
    double *buf = sm_alloc(2 * (size_t)h * h);
    sm_dims sub = {h, 0, 0, h, d.cutoff};
    const double *L = sm_operand_block(A, d.lda, h, sm_left[k], buf, &sub.lda);
    const double *R = sm_operand_block(B, d.ldb, h, sm_right[k], buf + (size_t)h * h, &sub.ldb);
    multiply(L, R, M, sub);
    free(buf);
}

static void multiply(const double *A, const double *B, double *C, sm_dims d)
{
    if (d.n <= d.cutoff) {
        sm_base(A, B, C, d);
        return;
    }
    int h = d.n / 2;
    size_t hh = (size_t)h * h;
    double *M = sm_alloc(7 * hh);
    /* The products only read A and B and write their own M[k]. */
    for (int k = 0; k < 6; k++) {
#pragma omp task firstprivate(A, B, M, hh, d, k)
        product(A, B, M + k * hh, d, k);
    }
    product(A, B, M + 6 * hh, d, 6);
#pragma omp taskwait
    /* The quadrants of C are disjoint. */
    for (int q = 0; q < 3; q++) {
#pragma omp task firstprivate(C, d, h, M, q)
        sm_combine(C, d.ldc, h, M, q);
    }
    sm_combine(C, d.ldc, h, M, 3);
#pragma omp taskwait
    free(M);
}

void strassen_parallel(const double *A, const double *B, double *C, sm_peer_dims pd)
{
    sm_dims d = {pd.n, pd.lda, pd.ldb, pd.ldc, pd.cutoff};
#pragma omp parallel firstprivate(A, B, C, d)
    {
#pragma omp single
        multiply(A, B, C, d);
    }
}
