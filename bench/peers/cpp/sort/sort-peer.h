// SPDX-License-Identifier: Apache-2.0
/* The sort kernel each peer implements (sort-tbb.cpp; OpenMP has no
 * parallel sort of its own, so there is no sort-omp). */
#ifndef WEFT_PEER_SORT_H
#define WEFT_PEER_SORT_H

#include <stddef.h>

#include "peer.h"

PEER_BEGIN_DECLS

/* Sorts a[0..n) ascending with the runtime's own parallel sort. */
void sort_parallel(int *a, size_t n);

PEER_END_DECLS

#endif
