// SPDX-License-Identifier: Apache-2.0
/* matmul.h's split rule and base case for the C++ kernel (see
 * matmul-peer.h): the same C code weft's matmul runs, compiled as C. */
#include "matmul.h"
#include "matmul-peer.h"

_Static_assert(_Generic((mm_real)0, mm_peer_real : 1, default : 0),
               "matmul-peer.h's mm_peer_real must be matmul.h's mm_real");

static mm_dims to_dims(const mm_peer_dims *d) { return (mm_dims){d->m, d->n, d->p, d->ld, d->add}; }

enum mm_peer_step mm_peer_step(const mm_peer_dims *d)
{
    mm_dims dims = to_dims(d);
    switch (mm_step(&dims)) {
    case MM_BASE: return MM_PEER_BASE;
    case MM_SPLIT_M: return MM_PEER_SPLIT_M;
    case MM_SPLIT_N: return MM_PEER_SPLIT_N;
    case MM_SPLIT_P: return MM_PEER_SPLIT_P;
    }
    fprintf(stderr, "matmul: unknown split step\n");
    abort();
}

void mm_peer_base(const mm_peer_real *A, const mm_peer_real *B, mm_peer_real *C,
                  const mm_peer_dims *d)
{
    mm_dims dims = to_dims(d);
    mm_base(A, B, C, &dims);
}
