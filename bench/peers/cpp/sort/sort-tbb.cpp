// SPDX-License-Identifier: Apache-2.0
// sort on oneTBB: tbb::parallel_sort, in the arena peer_start made.
#include <tbb/parallel_sort.h>

#include "peer-tbb.hpp"
#include "sort-peer.h"

void sort_parallel(int *a, size_t n)
{
    peer_tbb_run([a, n] { tbb::parallel_sort(a, a + n); });
}
