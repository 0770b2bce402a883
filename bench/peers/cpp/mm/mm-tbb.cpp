// SPDX-License-Identifier: Apache-2.0
// mm on oneTBB: each product is tbb::parallel_for over the rows with
// grain 1 and the simple_partitioner, which splits the row range in halves
// down to one row per task -- mm-weft's tree of n - 1 spawns, with no
// partitioner heuristics of its own.  The products run one after the
// other inside one arena call.
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "mm-peer.h"
#include "peer-tbb.hpp"

void mm_parallel(const double *a, const double *b, double *c, int n, long repetitions)
{
    peer_tbb_run([=] {
        for (long r = 0; r < repetitions; r++)
            tbb::parallel_for(
                tbb::blocked_range<int>(0, n, 1),
                [=](const tbb::blocked_range<int> &rows) {
                    for (int i = rows.begin(); i < rows.end(); i++)
                        mm_peer_row(a, b, c, n, i);
                },
                tbb::simple_partitioner());
    });
}
