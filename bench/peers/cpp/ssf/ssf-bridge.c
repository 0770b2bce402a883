// SPDX-License-Identifier: Apache-2.0
/* ssf.h's per-position search for the C++ kernel (see ssf-peer.h): the
 * same C code weft's ssf runs, compiled as C. */
#include "ssf.h"
#include "ssf-peer.h"

void ssf_peer_position(const char *text, int n, int i, int *best_len, int *best_pos)
{
    ssf_position(text, n, i, best_len, best_pos);
}
