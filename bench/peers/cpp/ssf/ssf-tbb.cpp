// SPDX-License-Identifier: Apache-2.0
// ssf on oneTBB: each search is tbb::parallel_for over the positions with
// grain 1 and the simple_partitioner, which splits the position range in
// halves down to one position per task -- ssf-weft's tree of n - 1
// spawns (TBB's own sub-string finder example is a parallel_for too).
// The searches run one after the other inside one arena call.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "peer-tbb.hpp"
#include "ssf-peer.h"

void ssf_parallel(const char *text, int n, int *best_len, int *best_pos, long repetitions)
{
    peer_tbb_run([=] {
        for (long r = 0; r < repetitions; r++)
            tbb::parallel_for(
                tbb::blocked_range<int>(0, n, 1),
                [=](const tbb::blocked_range<int> &positions) {
                    for (int i = positions.begin(); i < positions.end(); i++)
                        ssf_peer_position(text, n, i, best_len, best_pos);
                },
                tbb::simple_partitioner());
    });
}
