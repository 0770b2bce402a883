// SPDX-License-Identifier: Apache-2.0
// matmul on oneTBB (the recursion of bench/matmul/matmul.h): a split of
// C's rows or columns runs the first half as a task_group task and calls
// the second, then waits; a split of the inner dimension runs both halves
// one after the other (they write the same block of C).  No cut-off
// beyond the base case, which is matmul.h's own C code (matmul-bridge.c).
#include <cstddef>

#include <tbb/task_group.h>

#include "matmul-peer.h"
#include "peer-tbb.hpp"

static void matmul(const mm_peer_real *A, const mm_peer_real *B, mm_peer_real *C, mm_peer_dims d)
{
    mm_peer_dims h = d; // first half
    const size_t ld = static_cast<size_t>(d.ld);
    switch (mm_peer_step(&d)) {
    case MM_PEER_BASE: mm_peer_base(A, B, C, &d); return;
    case MM_PEER_SPLIT_M: { // disjoint rows of C
        h.m = d.m >> 1;
        d.m -= h.m;
        tbb::task_group g;
        g.run([=] { matmul(A, B, C, h); });
        matmul(A + static_cast<size_t>(h.m) * ld, B, C + static_cast<size_t>(h.m) * ld, d);
        g.wait();
        return;
    }
    case MM_PEER_SPLIT_N: // same block of C: one after the other
        h.n = d.n >> 1;
        d.n -= h.n;
        d.add = 1;
        matmul(A, B, C, h);
        matmul(A + h.n, B + static_cast<size_t>(h.n) * ld, C, d);
        return;
    case MM_PEER_SPLIT_P: { // disjoint columns of C
        h.p = d.p >> 1;
        d.p -= h.p;
        tbb::task_group g;
        g.run([=] { matmul(A, B, C, h); });
        matmul(A, B + h.p, C + h.p, d);
        g.wait();
        return;
    }
    }
}

void matmul_parallel(const mm_peer_real *A, const mm_peer_real *B, mm_peer_real *C, int n)
{
    peer_tbb_run([=] { matmul(A, B, C, mm_peer_dims{n, n, n, n, 0}); });
}
