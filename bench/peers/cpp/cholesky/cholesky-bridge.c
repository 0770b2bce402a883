// SPDX-License-Identifier: Apache-2.0
/* cholesky.h's sequential pieces for the C++ kernel (see
 * cholesky-peer.h): the same C code weft's cholesky runs, compiled as C. */
#include "cholesky.h"
#include "cholesky-peer.h"

chol_block *chol_peer_new_block(void) { return chol_new_block(); }

chol_block *chol_peer_copy(const chol_block *b, int order) { return chol_copy(b, order); }

void chol_peer_leaf_factor(chol_block *a) { chol_leaf_factor(a); }

void chol_peer_leaf_solve(chol_block *x, const chol_block *l) { chol_leaf_solve(x, l); }

void chol_peer_leaf_update(chol_block *c, const chol_block *a, const chol_block *b, int lower)
{
    chol_leaf_update(c, a, b, lower);
}

int chol_peer_update_quadrant_shape(int lower, int q)
{
    return chol_update_quadrant_shape(lower, q);
}

chol_block *chol_peer_drop_if_empty(chol_block *c, int fresh)
{
    return chol_drop_if_empty(c, fresh);
}
