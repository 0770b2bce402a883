// SPDX-License-Identifier: Apache-2.0
/* uts-dist: UTS as a distributed work-pool program (include/weft/dist.h).
 * An item is a tree node (32 bytes); processing it counts it and pushes
 * its children; the root starts on rank 0 and the ranks steal from each
 * other.  Same tree flags, output lines and checks as uts-seq and
 * uts-weft, printed by rank 0, plus the distributed counters.
 *
 *   mpirun -np 2 uts-dist -w 1 -t 0 -b 2000 -q 0.200014 -m 5 -r 7  (T3L)
 *   uts-dist --pool -w 2 -t 1 -a 3 -d 13 -b 4 -r 29   (T1L on weft_pool_run,
 *                                                     no MPI)
 *
 * Options before the tree flags (-w first, as in every weft benchmark):
 *   -w N            workers per rank (default: the CPUs)
 *   --queue NAME    the local pool's queue (default chase-lev)
 *   --steal one|half  the local steal policy (default half)
 *   --attempts N    random steal attempts before lifelines (default 2)
 *   --no-lifelines  keep asking random victims instead
 *   --poll-us N     the communicator's longest poll interval while the rank
 *                   has work (default 1000)
 *   --idle-poll-us N  ... while it has none (default 50)
 *   --pool          the shared-memory pool (weft_pool_run) without MPI
 * Rank 0 prints, after uts-seq's lines, `Ranks: R x W workers`, one line of
 * counters per rank (`Rank r: ...`) and the totals (`Dist: ...`); with
 * --pool, the pool's steals (`Pool: ...`).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <weft/dist.h>

#include "bench.h"
#include "uts_tree.h"

typedef struct counts {
    uts_result r;
    char pad[64 - sizeof(uts_result) % 64];
} counts;

typedef struct uts_run {
    const uts_params *params;
    counts *per_worker;
} uts_run;

static void visit(weft_pool_ctx *ctx, void *item, void *arg)
{
    uts_run *run = arg;
    const uts_node *node = item;
    int n = uts_num_children(run->params, node);
    uts_result *c = &run->per_worker[weft_pool_worker_id(ctx)].r;
    c->nodes++;
    c->leaves += n == 0;
    if ((uint64_t)node->height > c->max_depth)
        c->max_depth = (uint64_t)node->height;
    for (int i = 0; i < n; i++) {
        uts_node child;
        uts_child(run->params, node, i, &child);
        weft_pool_push(ctx, &child);
    }
}

/* Takes the options of this program out of argv (they come before the
 * tree flags' parser sees them). */
static void take_options(int *argc, char **argv, weft_dist_config *cfg, bool *pool_only)
{
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < *argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--queue") == 0 && v) {
            if (weft_queue_from_name(v, &cfg->pool.queue) != 0) {
                fprintf(stderr,
                        "uts-dist: --queue %s: must be a queue name (abp, chase-lev, ...)\n", v);
                exit(2);
            }
            cfg->pool.idempotent = weft_queue_is_idempotent(cfg->pool.queue);
            i++;
        } else if (strcmp(a, "--steal") == 0 && v) {
            if (strcmp(v, "one") != 0 && strcmp(v, "half") != 0) {
                fprintf(stderr, "uts-dist: --steal %s: must be one or half\n", v);
                exit(2);
            }
            cfg->pool.steal = strcmp(v, "one") == 0 ? WEFT_POOL_STEAL_ONE : WEFT_POOL_STEAL_HALF;
            i++;
        } else if (strcmp(a, "--attempts") == 0 && v) {
            cfg->steal_attempts = (unsigned)bench_arg_long("uts-dist", "--attempts", v, 1, 1024);
            i++;
        } else if (strcmp(a, "--poll-us") == 0 && v) {
            cfg->poll_us = (unsigned)bench_arg_long("uts-dist", "--poll-us", v, 1, 1000000);
            i++;
        } else if (strcmp(a, "--idle-poll-us") == 0 && v) {
            cfg->idle_poll_us =
                (unsigned)bench_arg_long("uts-dist", "--idle-poll-us", v, 1, 1000000);
            i++;
        } else if (strcmp(a, "--no-lifelines") == 0) {
            cfg->lifelines = false;
        } else if (strcmp(a, "--pool") == 0) {
            *pool_only = true;
        } else {
            argv[out++] = argv[i];
        }
    }
    *argc = out;
    argv[out] = NULL;
}

static void print_rank(const char *label, const weft_dist_rank_stats *s)
{
    printf("%s: processed %llu, steal requests sent %llu failed %llu served %llu refused %llu, "
           "lifelines %llu pushes %llu, items shipped %llu received %llu, bytes shipped %llu, "
           "messages %llu, idle %.3f ms, comm cpu %.3f ms\n",
           label, (unsigned long long)s->processed, (unsigned long long)s->steal_requests_sent,
           (unsigned long long)s->steal_requests_failed,
           (unsigned long long)s->steal_requests_served,
           (unsigned long long)s->steal_requests_refused, (unsigned long long)s->lifelines_sent,
           (unsigned long long)s->lifeline_pushes, (unsigned long long)s->items_shipped,
           (unsigned long long)s->items_received, (unsigned long long)s->bytes_shipped,
           (unsigned long long)s->messages_sent, (double)s->idle_ns / 1e6,
           (double)s->comm_cpu_ns / 1e6);
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    weft_dist_config cfg;
    weft_dist_config_init(&cfg, sizeof(uts_node));
    bool pool_only = false;
    take_options(&argc, argv, &cfg, &pool_only);
    uts_params params;
    uint64_t expected_nodes;
    uts_parse_args(argc, argv, "uts-dist",
                   "[-w workers] [--queue Q] [--steal one|half] [--attempts N] [--no-lifelines] "
                   "[--poll-us N] [--idle-poll-us N] [--pool] ",
                   &params, &expected_nodes);
    cfg.pool.workers = workers;

    int me = 0, ranks = 1;
    if (!pool_only) {
        int provided;
        MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
        MPI_Comm_rank(MPI_COMM_WORLD, &me);
        MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    }
    unsigned nw = workers ? workers : WEFT_POOL_MAX_WORKERS; /* 0: the CPUs, at most the limit */
    uts_run run = {&params, calloc(nw, sizeof(counts))};
    if (run.per_worker == NULL) {
        fprintf(stderr, "uts-dist: out of memory\n");
        return 1;
    }
    uts_node root;
    uts_root(&params, &root);
    if (me == 0) {
        uts_print_params(&params, stdout);
        if (pool_only && workers)
            printf("Ranks: shared-memory pool (weft_pool_run) x %u workers\n", workers);
        else if (pool_only)
            printf("Ranks: shared-memory pool (weft_pool_run) x one worker per CPU\n");
        fflush(stdout);
    }

    double seconds;
    weft_dist_stats st;
    int err;
    if (pool_only) {
        double t0 = bench_now();
        weft_pool_stats ps;
        err = weft_pool_run(&cfg.pool, &root, 1, visit, &run, &ps);
        seconds = bench_seconds_since(t0);
        memset(&st, 0, sizeof st);
        st.ranks = 1;
        st.local.processed = ps.processed;
        st.local.pool = ps;
        st.total = st.local;
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = bench_now();
        err = weft_dist_run(MPI_COMM_WORLD, &cfg, &root, me == 0, visit, &run, &st);
        seconds = bench_seconds_since(t0);
    }
    if (err != 0) {
        fprintf(stderr, "uts-dist: the run failed: %s\n", strerror(err));
        if (!pool_only)
            MPI_Abort(MPI_COMM_WORLD, 1);
        return 1;
    }
    uts_result mine = {0, 0, 0};
    for (unsigned i = 0; i < nw; i++)
        uts_result_add(&mine, run.per_worker[i].r);
    uts_result all = mine;
    if (!pool_only) {
        uint64_t sums[2] = {mine.nodes, mine.leaves}, tot[2];
        MPI_Reduce(sums, tot, 2, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
        MPI_Reduce(&mine.max_depth, &all.max_depth, 1, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
        all.nodes = tot[0];
        all.leaves = tot[1];
    }
    /* Every rank's counters, for rank 0's lines. */
    weft_dist_rank_stats *each = me == 0 ? calloc((size_t)ranks, sizeof *each) : NULL;
    if (!pool_only)
        MPI_Gather(&st.local, sizeof st.local, MPI_BYTE, each, sizeof st.local, MPI_BYTE, 0,
                   MPI_COMM_WORLD);
    if (me == 0) {
        uts_report(&all, seconds);
        if (pool_only)
            printf("Pool: steals %llu, stolen items %llu, steal-half requests %llu, sleeps %llu\n",
                   (unsigned long long)st.local.pool.steals,
                   (unsigned long long)st.local.pool.stolen_items,
                   (unsigned long long)st.local.pool.requests,
                   (unsigned long long)st.local.pool.sleeps);
        else {
            printf("Ranks: %d x %u workers\n", ranks, st.local.pool.workers);
            for (int r = 0; r < ranks; r++) {
                char label[32];
                snprintf(label, sizeof label, "Rank %d", r);
                print_rank(label, &each[r]);
            }
            print_rank("Dist", &st.total);
            printf("Dist: termination rounds %llu, most idle rank %.3f ms\n",
                   (unsigned long long)st.total.termination_rounds, (double)st.idle_ns_max / 1e6);
        }
        fflush(stdout);
        uts_check(&params, &all, expected_nodes);
    }
    free(each);
    free(run.per_worker);
    if (!pool_only)
        MPI_Finalize();
    return 0;
}
