// SPDX-License-Identifier: Apache-2.0
// dfor on oneTBB: each repetition is tbb::parallel_for over a
// blocked_range with the program's grain and the simple_partitioner,
// which is this very algorithm -- split a range longer than the grain at
// its middle, down to leaves of at most `grain` indices -- with no
// partitioner heuristics of its own.  The loops run one after the other
// inside one arena call.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "dfor-peer.h"
#include "peer-tbb.hpp"

void dfor_parallel(uint64_t *a, long n, long iterations, long repetitions, long grain)
{
    peer_tbb_run([=] {
        for (long r = 0; r < repetitions; r++)
            tbb::parallel_for(
                tbb::blocked_range<long>(0, n, static_cast<size_t>(grain)),
                [=](const tbb::blocked_range<long> &range) {
                    dfor_peer_leaf(a, range.begin(), range.end(), iterations);
                },
                tbb::simple_partitioner());
    });
}
