// SPDX-License-Identifier: Apache-2.0
/* uts written against Lace's API (<lace.h>): the same program as
 * uts-weft.c, run through weft's Lace layer. */
/* UTS.  One task per tree node, every child spawned and
 * joined with no cut-off, like the reference parallel UTS and Lace's
 * uts-lace; the tree's irregularity (T3L: binomial, deep and lopsided) is
 * the point of the benchmark.  Same output and checks as uts-seq.
 *
 *   uts-lace -w 2 -t 0 -b 2000 -q 0.200014 -m 5 -r 7      (T3L, 2 workers)
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lace.h>

#include "bench.h"
#include "uts_tree.h"

/* The search of the subtree under child i of `parent`.  The task builds
 * its own node (one SHA-1) when it starts rather than the parent building
 * all its children before spawning them: the same work, but the node is
 * used right after it is made, as in the sequential search, and the
 * parent needs no array of children.  The parent's node stays in its frame
 * until every child is synced.  The 24-byte result comes back in the
 * descriptor. */
static uts_result search(const uts_params *p, const uts_node *node, WorkerP *__lace_worker,
                         Task *__lace_dq_head);

TASK_3(uts_result, uts_child_search, const uts_params *, p, const uts_node *, parent, int, i)
{
    uts_node node;
    uts_child(p, parent, i, &node);
    return search(p, &node, __lace_worker, __lace_dq_head);
}

static uts_result search(const uts_params *p, const uts_node *node, WorkerP *__lace_worker,
                         Task *__lace_dq_head)
{
    int n = uts_num_children(p, node);
    uts_result r = {1, n == 0, (uint64_t)node->height};
    for (int i = 0; i < n; i++)
        SPAWN(uts_child_search, p, node, i);
    for (int i = 0; i < n; i++)
        uts_result_add(&r, SYNC(uts_child_search));
    return r;
}

TASK_2(uts_result, uts_search, const uts_params *, p, const uts_node *, root)
{
    return search(p, root, __lace_worker, __lace_dq_head);
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    uts_params params;
    uint64_t expected_nodes;
    uts_parse_args(argc, argv, "uts-lace", "[-w workers] ", &params, &expected_nodes);
    uts_print_params(&params, stdout);

    lace_start(workers, 0);
    printf("Workers: %u\n", lace_workers());
    fflush(stdout);

    uts_node root;
    uts_root(&params, &root);

    double t0 = bench_now();
    uts_result r = RUN(uts_search, &params, &root);
    double seconds = bench_now() - t0;

    uts_report(&r, seconds);
    lace_count_report_file(stdout);
    lace_stop();

    uts_check(&params, &r, expected_nodes);
    return 0;
}
