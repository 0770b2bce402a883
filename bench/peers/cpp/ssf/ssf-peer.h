// SPDX-License-Identifier: Apache-2.0
/* The ssf kernel each peer implements (ssf-tbb.cpp, ssf-omp.c), and for
 * the C++ kernel, which cannot include bench/ssf/ssf.h (C only), the
 * header's per-position search behind a plain C function (ssf-bridge.c). */
#ifndef WEFT_PEER_SSF_H
#define WEFT_PEER_SSF_H

#include "peer.h"

PEER_BEGIN_DECLS

/* `repetitions` searches of every position of text[0..n), one after the
 * other, each with its position range split in halves down to one
 * position per task (n - 1 tasks a search), as bench/ssf/ssf-weft.c. */
void ssf_parallel(const char *text, int n, int *best_len, int *best_pos, long repetitions);

/* ssf.h's ssf_position: the search for position i. */
void ssf_peer_position(const char *text, int n, int i, int *best_len, int *best_pos);

PEER_END_DECLS

#endif
