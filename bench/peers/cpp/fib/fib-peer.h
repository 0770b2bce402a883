// SPDX-License-Identifier: Apache-2.0
/* The fib kernel each peer implements (fib-tbb.cpp, fib-omp.c). */
#ifndef WEFT_PEER_FIB_H
#define WEFT_PEER_FIB_H

#include "peer.h"

PEER_BEGIN_DECLS
/* fib(n) with a task per call and no cut-off, as bench/fib/fib-weft.c. */
long fib_parallel(int n);
PEER_END_DECLS

#endif
