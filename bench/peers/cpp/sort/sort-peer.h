// SPDX-License-Identifier: Apache-2.0
/* The sort kernel each peer implements: sort-tbb.cpp (oneTBB's
 * tbb::parallel_sort) and sort-omp.c (OpenMP has no sort of its own: a
 * quicksort on tasks). */
#ifndef WEFT_PEER_SORT_H
#define WEFT_PEER_SORT_H

#include <stddef.h>

#include "peer.h"

PEER_BEGIN_DECLS

/* Sorts a[0..n) ascending: the runtime's own parallel sort, or a
 * quicksort on its tasks where it has none. */
void sort_parallel(int *a, size_t n);

PEER_END_DECLS

#endif
