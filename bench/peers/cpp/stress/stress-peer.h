// SPDX-License-Identifier: Apache-2.0
/* The stress kernel each peer implements (stress-tbb.cpp, stress-omp.c). */
#ifndef WEFT_PEER_STRESS_H
#define WEFT_PEER_STRESS_H

#include <stdint.h>

#include "peer.h"

PEER_BEGIN_DECLS
/* The sum of `repetitions` trees of 2^height leaves of leaf_iterations
 * additions (bench/stress/stress.h), evaluated one after the other inside
 * one parallel region, with a task per inner node (left subtree a task,
 * right one called), as bench/stress/stress-weft.c. */
uint64_t stress_parallel(int height, uint64_t leaf_iterations, uint64_t repetitions);
PEER_END_DECLS

#endif
