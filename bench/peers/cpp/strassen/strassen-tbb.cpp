// SPDX-License-Identifier: Apache-2.0
// strassen on oneTBB (the recursion of bench/strassen/strassen.h): at each
// step above the cut-off, products 1-6 are task_group tasks and product 7
// is called, wait; then quadrants 1-3 of C are tasks and quadrant 4 is
// called, wait.  A product forms its operand sums in a buffer of its own
// and recurses.  The sequential pieces are the header's
// (strassen-bridge.c).
#include <cstdlib>

#include <tbb/task_group.h>

#include "peer-tbb.hpp"
#include "strassen-product.hpp"

static void multiply(const double *A, const double *B, double *C, sm_peer_dims d);

// Product k of the step on A, B into M.
static void product(const double *A, const double *B, double *M, sm_peer_dims d, int k)
{
    strassen_product(A, B, M, d, k, multiply);
}

static void multiply(const double *A, const double *B, double *C, sm_peer_dims d)
{
    if (d.n <= d.cutoff) {
        sm_peer_base(A, B, C, d);
        return;
    }
    int h = d.n / 2;
    size_t hh = static_cast<size_t>(h) * h;
    double *M = sm_peer_alloc(7 * hh);
    tbb::task_group g;
    // The products only read A and B and write their own M[k].
    for (int k = 0; k < 6; k++)
        g.run([=] { product(A, B, M + k * hh, d, k); });
    product(A, B, M + 6 * hh, d, 6);
    g.wait();
    // The quadrants of C are disjoint.
    for (int q = 0; q < 3; q++)
        g.run([=] { sm_peer_combine(C, d.ldc, h, M, q); });
    sm_peer_combine(C, d.ldc, h, M, 3);
    g.wait();
    std::free(M);
}

void strassen_parallel(const double *A, const double *B, double *C, sm_peer_dims d)
{
    peer_tbb_run([=] { multiply(A, B, C, d); });
}
