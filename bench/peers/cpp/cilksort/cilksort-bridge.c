// SPDX-License-Identifier: Apache-2.0
/* cilksort.h's sequential pieces for the C++ kernel (see
 * cilksort-peer.h): the same C code weft's cilksort runs, compiled as C. */
#include "cilksort.h"
#include "cilksort-peer.h"

_Static_assert(_Generic((cs_key)0, cs_peer_key : 1, default : 0),
               "cilksort-peer.h's cs_peer_key must be cilksort.h's cs_key");

int cs_peer_sort_leaf(cs_peer_key *a, size_t n)
{
    if (n >= CILKSORT_QUICK_CUTOFF)
        return 0;
    cs_quicksort(a, a + n);
    return 1;
}

int cs_peer_merge_split(const cs_peer_key **l1, const cs_peer_key **h1, const cs_peer_key **l2,
                        const cs_peer_key **h2, cs_peer_key *dest, const cs_peer_key **s1,
                        const cs_peer_key **s2)
{
    return cs_merge_split(l1, h1, l2, h2, dest, s1, s2);
}
