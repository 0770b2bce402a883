// SPDX-License-Identifier: Apache-2.0
/* uts-weft: UTS on weft.  One task per tree node, every child spawned and
 * joined with no cut-off, like the reference parallel UTS and Lace's
 * uts-lace; the tree's irregularity (T3L: binomial, deep and lopsided) is
 * the point of the benchmark.  Same output and checks as uts-seq.
 *
 *   uts-weft -w 2 -t 0 -b 2000 -q 0.200014 -m 5 -r 7      (T3L, 2 workers)
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>

#include <weft/weft.h>

#include "bench.h"
#include "uts_tree.h"

/* The search of the subtree under child i of `parent`.  The task builds
 * its own node (one SHA-1) when it starts rather than the parent building
 * all its children before spawning them: the same work, but the node is
 * used right after it is made, as in the sequential search, and the
 * parent needs no array of children.  The parent's node stays in its frame
 * until every child is synced.  The 24-byte result comes back in the
 * descriptor. */
static uts_result search(const uts_params *p, const uts_node *node, weft_worker *w,
                         weft_task *head);

WEFT_TASK_3(uts_result, uts_child_search, const uts_params *, p, const uts_node *, parent, int, i)
{
    uts_node node;
    uts_child(p, parent, i, &node);
    return search(p, &node, weft_w, weft_head);
}

static uts_result search(const uts_params *p, const uts_node *node, WEFT_CONTEXT_PARAMS)
{
    int n = uts_num_children(p, node);
    uts_result r = {1, n == 0, (uint64_t)node->height};
    for (int i = 0; i < n; i++)
        WEFT_SPAWN(uts_child_search, p, node, i);
    for (int i = 0; i < n; i++)
        uts_result_add(&r, WEFT_SYNC(uts_child_search));
    return r;
}

WEFT_TASK_2(uts_result, uts_search, const uts_params *, p, const uts_node *, root)
{
    return search(p, root, WEFT_CONTEXT);
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    uts_params params;
    uint64_t expected_nodes;
    uts_parse_args(argc, argv, "uts-weft", "[-w workers] ", &params, &expected_nodes);
    uts_print_params(&params, stdout);

    printf("Workers: %u\n", bench_weft_start(workers));
    fflush(stdout);

    uts_node root;
    uts_root(&params, &root);

    double t0 = bench_now();
    uts_result r = WEFT_RUN(uts_search, &params, &root);
    double seconds = bench_seconds_since(t0);

    uts_report(&r, seconds);
    bench_weft_stop();

    uts_check(&params, &r, expected_nodes);
    return 0;
}
