/* cilksort.h's sequential pieces for the C++ kernel (see
 * cilksort-peer.h): the same C code weft's cilksort runs, compiled as C. */
#include "cilksort.h"
#include "cilksort-peer.h"

_Static_assert(_Generic((cs_key)0, cs_peer_key: 1, default: 0),
               "cilksort-peer.h's cs_peer_key must be cilksort.h's cs_key");

int cs_peer_sort_leaf(cs_peer_key *a, size_t n)
{
    if (n >= CILKSORT_QUICK_CUTOFF)
        return 0;
    cs_quicksort(a, a + n);
    return 1;
}

int cs_peer_merge_leaf(const cs_peer_key *l1, const cs_peer_key *h1, const cs_peer_key *l2,
                       const cs_peer_key *h2, cs_peer_key *dest)
{
    if ((h1 - l1) + (h2 - l2) >= CILKSORT_MERGE_CUTOFF)
        return 0;
    cs_seq_merge(l1, h1, l2, h2, dest);
    return 1;
}

const cs_peer_key *cs_peer_lower_bound(const cs_peer_key *lo, const cs_peer_key *hi,
                                       cs_peer_key k)
{
    return cs_lower_bound(lo, hi, k);
}
