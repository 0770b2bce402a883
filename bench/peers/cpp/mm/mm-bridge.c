// SPDX-License-Identifier: Apache-2.0
/* mm.h's row kernel for the C++ kernel (see mm-peer.h): the same C code
 * weft's mm runs, compiled as C. */
#include "mm.h"
#include "mm-peer.h"

void mm_peer_row(const double *a, const double *b, double *c, int n, int i)
{
    mm_row(a, b, c, n, i);
}
