// SPDX-License-Identifier: Apache-2.0
/* The cilksort kernel each peer implements (cilksort-tbb.cpp,
 * cilksort-omp.c), and for the C++ kernel, which cannot include
 * bench/cilksort/cilksort.h (C only), that header's sequential pieces
 * behind plain C functions (cilksort-bridge.c). */
#ifndef WEFT_PEER_CILKSORT_H
#define WEFT_PEER_CILKSORT_H

#include <stddef.h>
#include <stdint.h>

#include "peer.h"

PEER_BEGIN_DECLS

/* cilksort.h's cs_key; cilksort-bridge.c checks they agree. */
typedef uint64_t cs_peer_key;

/* Sorts a[0..n) with tmp[0..n) as scratch by cilksort.h's recursion, as
 * bench/cilksort/cilksort-weft.c: the quarter sorts and the halves of
 * every parallel merge are tasks, with the header's cut-offs. */
void cilksort_parallel(cs_peer_key *a, cs_peer_key *tmp, size_t n);

/* If n is below the header's quicksort cut-off, sorts a[0..n)
 * sequentially and returns 1; otherwise returns 0. */
int cs_peer_sort_leaf(cs_peer_key *a, size_t n);
/* cilksort.h's cs_merge_split: one level of the parallel merge (merges
 * sequentially and returns 0 below the cut-off; otherwise returns 1 with
 * the runs ordered and the split points in *s1, *s2). */
int cs_peer_merge_split(const cs_peer_key **l1, const cs_peer_key **h1, const cs_peer_key **l2,
                        const cs_peer_key **h2, cs_peer_key *dest, const cs_peer_key **s1,
                        const cs_peer_key **s2);

PEER_END_DECLS

#endif
