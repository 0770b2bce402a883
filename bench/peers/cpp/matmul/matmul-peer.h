// SPDX-License-Identifier: Apache-2.0
/* The matmul kernel each peer implements (matmul-tbb.cpp, matmul-omp.c),
 * and for the C++ kernel, which cannot include bench/matmul/matmul.h (C
 * only: restrict, implicit void * conversions), that header's split rule
 * and base case behind plain C functions (matmul-bridge.c). */
#ifndef WEFT_PEER_MATMUL_H
#define WEFT_PEER_MATMUL_H

#include "peer.h"

PEER_BEGIN_DECLS

/* matmul.h's mm_real; matmul-bridge.c and matmul-main.c check they agree. */
typedef float mm_peer_real;

/* C = A * B for row-major n x n matrices by matmul.h's recursion: a task
 * for one half of every split of C's rows or columns, no cut-off beyond
 * the base case, as bench/matmul/matmul-weft.c. */
void matmul_parallel(const mm_peer_real *A, const mm_peer_real *B, mm_peer_real *C, int n);

/* matmul.h's mm_dims and mm_step, field for field. */
typedef struct mm_peer_dims {
    int m, n, p, ld, add;
} mm_peer_dims;
enum mm_peer_step { MM_PEER_BASE, MM_PEER_SPLIT_M, MM_PEER_SPLIT_N, MM_PEER_SPLIT_P };
enum mm_peer_step mm_peer_step(const mm_peer_dims *d);
void mm_peer_base(const mm_peer_real *A, const mm_peer_real *B, mm_peer_real *C,
                  const mm_peer_dims *d);

PEER_END_DECLS

#endif
