// SPDX-License-Identifier: Apache-2.0
// One of the seven products of a Strassen step, for the C++ kernels
// (strassen-tbb.cpp here, bench/strassen/strassen-cpp.cpp): forms product
// k's operands on A, B (shape d) in a buffer of its own and multiplies
// them into M with the kernel's multiply(L, R, M, sub).
#ifndef WEFT_PEER_STRASSEN_PRODUCT_HPP
#define WEFT_PEER_STRASSEN_PRODUCT_HPP

#include <cstdlib>

#include "strassen-peer.h"

template <class Multiply>
void strassen_product(const double *A, const double *B, double *M, sm_peer_dims d, int k,
                      Multiply multiply)
{
    int h = d.n / 2;
    double *buf = sm_peer_alloc(2 * static_cast<size_t>(h) * h);
    const double *L, *R;
    sm_peer_dims sub;
    sm_peer_operands(A, B, d, k, buf, &L, &R, &sub);
    multiply(L, R, M, sub);
    std::free(buf);
}

#endif
