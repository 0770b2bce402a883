// SPDX-License-Identifier: Apache-2.0
/* The cholesky kernel each peer implements (cholesky-tbb.cpp,
 * cholesky-omp.c), and for the C++ kernel, which cannot include
 * bench/cholesky/cholesky.h (C only), the header's block type and
 * sequential pieces: the type by the same definition, the pieces behind
 * plain C functions (cholesky-bridge.c). */
#ifndef WEFT_PEER_CHOLESKY_H
#define WEFT_PEER_CHOLESKY_H

#include "peer.h"

/* cholesky.h's CHOL_LEAF (cholesky-main.c checks they agree). */
#define CHOL_PEER_LEAF 4

#ifdef __cplusplus
/* cholesky.h's chol_block, the same definition. */
struct chol_block {
    union {
        chol_block *quad[4]; /* 00, 01, 10, 11 */
        double entry[CHOL_PEER_LEAF][CHOL_PEER_LEAF];
    } u;
};
#else
typedef struct chol_block chol_block;
#endif

PEER_BEGIN_DECLS

/* `repetitions` times: copy the input tree, factor the copy in place and
 * (but the last) free it, with cholesky-weft's tasks: the quadrants of an
 * update, the two block rows of a solve, and copying and freeing per
 * quadrant.  Returns the last factor. */
chol_block *cholesky_parallel(const chol_block *input, int order, long repetitions);

/* cholesky.h's sequential pieces. */
chol_block *chol_peer_new_block(void);
chol_block *chol_peer_copy(const chol_block *b, int order);
void chol_peer_leaf_factor(chol_block *a);
void chol_peer_leaf_solve(chol_block *x, const chol_block *l);
void chol_peer_leaf_update(chol_block *c, const chol_block *a, const chol_block *b, int lower);
int chol_peer_update_quadrant_shape(int lower, int q);
chol_block *chol_peer_drop_if_empty(chol_block *c, int fresh);

PEER_END_DECLS

#endif
