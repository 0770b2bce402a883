// SPDX-License-Identifier: Apache-2.0
/* The mm kernel each peer implements (mm-tbb.cpp, mm-omp.c), and for the
 * C++ kernel, which cannot include bench/mm/mm.h (C only), the header's
 * row kernel behind a plain C function (mm-bridge.c). */
#ifndef WEFT_PEER_MM_H
#define WEFT_PEER_MM_H

#include "peer.h"

PEER_BEGIN_DECLS

/* `repetitions` products C = A B of n x n doubles, one after the other,
 * each with its rows split in halves down to one row per task (n - 1
 * tasks a product), as bench/mm/mm-weft.c. */
void mm_parallel(const double *a, const double *b, double *c, int n, long repetitions);

/* mm.h's mm_row: row i of C. */
void mm_peer_row(const double *a, const double *b, double *c, int n, int i);

PEER_END_DECLS

#endif
