// SPDX-License-Identifier: Apache-2.0
// cilksort's workload (n random 64-bit keys) sorted by weft::parallel_sort:
// a merge sort with introsort leaves and parallel merges split by binary
// search, as cilksort's; the library allocates its own scratch (tmp, the
// driver's, is not used).
#include <weft/weft.hpp>

#include "cilksort-peer.h"

void cilksort_parallel(cs_peer_key *a, cs_peer_key *tmp, size_t n)
{
    (void)tmp;
    weft::run([a, n] { weft::parallel_sort(a, a + n); });
}
