// SPDX-License-Identifier: Apache-2.0
/* The queens kernel each peer implements (queens-tbb.cpp, queens-omp.c). */
#ifndef WEFT_PEER_QUEENS_H
#define WEFT_PEER_QUEENS_H

#include "peer.h"

PEER_BEGIN_DECLS
/* Solutions of the n-queens problem by the Cilk/Lace recursion of
 * bench/queens/queens.h: a task per legal partial board, no cut-off. */
long queens_parallel(int n);
PEER_END_DECLS

#endif
