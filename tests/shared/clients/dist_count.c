// SPDX-License-Identifier: Apache-2.0
/* A weft::dist client: counts the nodes of a complete binary tree of
 * depth 12 across the ranks; rank 0 checks the total. */
#include <weft/dist.h>

#include <mpi.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_ulong visited;

static void visit(weft_pool_ctx *ctx, void *item, void *arg)
{
    (void)arg;
    int depth = *(int *)item;
    /* Relaxed: a count read after weft_dist_run returned. */
    atomic_fetch_add_explicit(&visited, 1, memory_order_relaxed);
    if (depth < 12) {
        int child = depth + 1;
        weft_pool_push(ctx, &child);
        weft_pool_push(ctx, &child);
    }
}

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    weft_dist_config cfg;
    weft_dist_config_init(&cfg, sizeof(int));
    cfg.pool.workers = 2;
    int root = 0;
    int err = weft_dist_run(MPI_COMM_WORLD, &cfg, &root, rank == 0, visit, NULL, NULL);
    unsigned long mine = atomic_load_explicit(&visited, memory_order_relaxed), total = 0;
    MPI_Reduce(&mine, &total, 1, MPI_UNSIGNED_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    int ok = err == 0 && (rank != 0 || total == (1ul << 13) - 1);
    if (rank == 0)
        printf("dist: %lu nodes (%s)\n", total, ok ? "right" : "WRONG");
    MPI_Finalize();
    return ok ? 0 : 1;
}
