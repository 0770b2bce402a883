// SPDX-License-Identifier: Apache-2.0
/* dfor.h's leaf for the C++ kernel (see dfor-peer.h): the same C code
 * weft's dfor runs, compiled as C. */
#include "dfor.h"
#include "dfor-peer.h"

void dfor_peer_leaf(uint64_t *a, long lo, long hi, long iterations)
{
    dfor_leaf(a, lo, hi, iterations);
}
