// SPDX-License-Identifier: Apache-2.0
/* strassen.h's sequential pieces for the C++ kernel (see
 * strassen-peer.h): the same C code weft's strassen runs, compiled as C. */
#include "strassen.h"
#include "strassen-peer.h"

static sm_dims to_dims(sm_peer_dims d) { return (sm_dims){d.n, d.lda, d.ldb, d.ldc, d.cutoff}; }

void sm_peer_base(const double *A, const double *B, double *C, sm_peer_dims d)
{
    sm_base(A, B, C, to_dims(d));
}

void sm_peer_operands(const double *A, const double *B, sm_peer_dims d, int k, double *buf,
                      const double **L, const double **R, sm_peer_dims *sub)
{
    int h = d.n / 2;
    *sub = (sm_peer_dims){h, 0, 0, h, d.cutoff};
    *L = sm_operand_block(A, d.lda, h, sm_left[k], buf, &sub->lda);
    *R = sm_operand_block(B, d.ldb, h, sm_right[k], buf + (size_t)h * h, &sub->ldb);
}

void sm_peer_combine(double *C, int ldc, int h, const double *M, int q)
{
    sm_combine(C, ldc, h, M, q);
}

double *sm_peer_alloc(size_t entries) { return sm_alloc(entries); }
