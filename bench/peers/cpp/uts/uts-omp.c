// SPDX-License-Identifier: Apache-2.0
/* UTS on OpenMP tasks: each child but the last is a task that builds its
 * node (one SHA-1) and searches it, the last is called directly, then
 * taskwait and the children's counts are added up.  No cut-off (no
 * if/final clause).  The parent's node and the children's results stay in
 * its frame until the taskwait. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "peer-stack.h"
#include "uts-peer.h"

/* This thread's stack guard (peer-stack.h); 0 until first used.  Tied
 * tasks never move between threads, so a task's frame is on the stack of
 * the thread that checked it. */
static _Thread_local uintptr_t stack_floor;

static uts_result search(const uts_params *p, const uts_node *node);

static uts_result child_search(const uts_params *p, const uts_node *parent, int i)
{
    uts_node node;
    uts_child(p, parent, i, &node);
    return search(p, &node);
}

static uts_result search(const uts_params *p, const uts_node *node)
{
    if (stack_floor == 0)
        stack_floor = peer_stack_floor();
    if ((uintptr_t)__builtin_frame_address(0) < stack_floor)
        peer_too_deep("tree", node->height);

    int n = uts_num_children(p, node);
    uts_result r = {1, n == 0, (uint64_t)node->height};
    if (n == 0)
        return r;
    uts_result inline_kids[UTS_INLINE_KIDS];
    uts_result *kids = inline_kids;
    if (n > UTS_INLINE_KIDS && (kids = malloc((size_t)n * sizeof *kids)) == NULL) {
        fprintf(stderr, "uts: cannot allocate the results of %d children\n", n);
        exit(1);
    }
    for (int i = 0; i < n - 1; i++) {
#pragma omp task shared(kids) firstprivate(p, node, i)
        kids[i] = child_search(p, node, i);
    }
    kids[n - 1] = child_search(p, node, n - 1);
#pragma omp taskwait
    for (int i = 0; i < n; i++)
        uts_result_add(&r, kids[i]);
    if (kids != inline_kids)
        free(kids);
    return r;
}

uts_result uts_parallel(const uts_params *p, const uts_node *root)
{
    uts_result r = {0, 0, 0};
#pragma omp parallel shared(r) firstprivate(p, root)
    {
#pragma omp single
        r = search(p, root);
    }
    return r;
}
