// SPDX-License-Identifier: Apache-2.0
/* The dfor kernel each peer implements (dfor-tbb.cpp, dfor-omp.c), and
 * for the C++ kernel, which cannot include bench/dfor/dfor.h (C only),
 * the header's leaf behind a plain C function (dfor-bridge.c). */
#ifndef WEFT_PEER_DFOR_H
#define WEFT_PEER_DFOR_H

#include <stdint.h>

#include "peer.h"

PEER_BEGIN_DECLS

/* `repetitions` divide-and-conquer parallel loops over a[0..n), one after
 * the other: a range longer than `grain` is split at its middle, down to
 * leaves of dfor.h's body, as bench/dfor/dfor-weft.c. */
void dfor_parallel(uint64_t *a, long n, long iterations, long repetitions, long grain);

/* dfor.h's dfor_leaf. */
void dfor_peer_leaf(uint64_t *a, long lo, long hi, long iterations);

PEER_END_DECLS

#endif
