// SPDX-License-Identifier: Apache-2.0
/* The UTS kernel each peer implements (uts-tbb.cpp, uts-omp.c). */
#ifndef WEFT_PEER_UTS_H
#define WEFT_PEER_UTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "peer.h"

/* uts_tree.h (bench/uts) is C with no extern "C" of its own. */
PEER_BEGIN_DECLS
#include "uts_tree.h"

/* Stack of every thread that searches: T3L's 17,844 levels of task
 * frames take tens of MB in these runtimes (scheduler frames between the
 * kernel's), the published XXL/WL trees far more.  Only touched pages are
 * backed by memory. */
#define UTS_PEER_STACK_SIZE ((size_t)256 << 20)

/* Counts the tree under `root` as bench/uts/uts-weft.c does: a task per
 * node, every child searched in a task of its own that first builds its
 * node (one SHA-1), no cut-off. */
uts_result uts_parallel(const uts_params *p, const uts_node *root);
PEER_END_DECLS

/* Results of one node's children: in the node's frame for up to
 * UTS_INLINE_KIDS children (every node of the binomial sample trees but
 * the root), on the heap beyond (GEO nodes may have up to 100, a root
 * b_0). */
#define UTS_INLINE_KIDS 8

#endif
