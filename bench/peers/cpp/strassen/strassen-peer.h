// SPDX-License-Identifier: Apache-2.0
/* The strassen kernel each peer implements (strassen-tbb.cpp,
 * strassen-omp.c), and for the C++ kernel, which cannot include
 * bench/strassen/strassen.h (C only), the header's sequential pieces
 * behind plain C functions (strassen-bridge.c). */
#ifndef WEFT_PEER_STRASSEN_H
#define WEFT_PEER_STRASSEN_H

#include <stddef.h>

#include "peer.h"

PEER_BEGIN_DECLS

/* strassen.h's sm_dims field for field (strassen-main.c checks it). */
typedef struct sm_peer_dims {
    int n;
    int lda, ldb, ldc;
    int cutoff;
} sm_peer_dims;

/* C = A * B by strassen.h's recursion, as bench/strassen/strassen-weft.c:
 * the seven products of each step are tasks, then the four quadrants of
 * C are combined as tasks. */
void strassen_parallel(const double *A, const double *B, double *C, sm_peer_dims d);

/* strassen.h's base case (sm_base). */
void sm_peer_base(const double *A, const double *B, double *C, sm_peer_dims d);
/* Product k's operands at a step on A, B of shape d: the quadrant, or the
 * quadrant sum formed in buf (2 h x h entries, h = d.n / 2); sets *L, *R
 * and the product's shape *sub (strassen.h's sm_operand_block). */
void sm_peer_operands(const double *A, const double *B, sm_peer_dims d, int k, double *buf,
                      const double **L, const double **R, sm_peer_dims *sub);
/* Quadrant q of C from the seven products (sm_combine). */
void sm_peer_combine(double *C, int ldc, int h, const double *M, int q);
/* sm_alloc: `entries` doubles, or exits with "FAILED: ...". */
double *sm_peer_alloc(size_t entries);

PEER_END_DECLS

#endif
