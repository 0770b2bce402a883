// SPDX-License-Identifier: Apache-2.0
// strassen with weft::parallel_for: at each step above the cut-off the
// seven products run as a loop of seven (grain 1), then the four quadrants
// of C as a loop of four, as strassen-weft spawns them.  The sequential
// pieces are strassen.h's (the peers' strassen-bridge.c).
#include <cstdlib>

#include <weft/weft.hpp>

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
    // The products only read A and B and write their own M[k].
    weft::parallel_for(0, 7, 1, [=](int k) { product(A, B, M + k * hh, d, k); });
    // The quadrants of C are disjoint.
    weft::parallel_for(0, 4, 1, [=](int q) { sm_peer_combine(C, d.ldc, h, M, q); });
    std::free(M);
}

void strassen_parallel(const double *A, const double *B, double *C, sm_peer_dims d)
{
    weft::run([=] { multiply(A, B, C, d); });
}
