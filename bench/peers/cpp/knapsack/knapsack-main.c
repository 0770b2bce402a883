// SPDX-License-Identifier: Apache-2.0
/* knapsack peers' driver: knapsack-weft's command line, instance, output
 * and answer check around the peer's kernel (knapsack-tbb.cpp or
 * knapsack-omp.c).
 *
 *   knapsack-tbb -w <workers> <items> <seed>
 */
#include <stddef.h>

#include "knapsack.h"
#include "knapsack-peer.h"

/* knap_peer_item is knap_item field for field (knapsack-peer.h). */
_Static_assert(sizeof(knap_peer_item) == sizeof(knap_item) &&
                   offsetof(knap_peer_item, weight) == offsetof(knap_item, weight) &&
                   offsetof(knap_peer_item, value) == offsetof(knap_item, value) &&
                   offsetof(knap_peer_item, index) == offsetof(knap_item, index),
               "knap_peer_item must be laid out as knap_item");

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    knap_problem p = knap_args(argc, argv, "[-w workers] <items> <seed>");
    const knap_peer_item *item = (const knap_peer_item *)p.item;
    for (int i = 0; i < p.items; i++)
        BENCH_CHECK(knap_peer_bound(item, i, p.capacity, 0) == knap_bound(&p, i, p.capacity, 0),
                    "knap_peer_bound differs from knapsack.h's knap_bound at item %d", i);

    printf("runtime: %s\n", peer_runtime());
    printf("workers: %u\n", peer_start(workers, 0));
    double t0 = bench_now();
    long best = knapsack_parallel(item, p.items, p.capacity);
    double t1 = bench_now();

    knap_print(&p, best);
    knap_check(&p, best);
    bench_print_time(t1 - t0);
    peer_stop();
    free(p.item);
    return 0;
}
