// SPDX-License-Identifier: Apache-2.0
/* weft_dist_run: the checks, the agreement across ranks, the one-rank
 * case, the counters.  The run itself is comm.c's.
 *
 * Every failure before the run is agreed on: each rank checks what it can
 * alone (MPI's state and thread level, its configuration), then one
 * MPI_Allgather of a small record per rank lets every rank see every
 * rank's verdict and configuration, so that all of them report the same
 * problem and return the same error; a second agreement (MPI_Allreduce)
 * follows the set-up of the local pools (memory, threads).  Only then do
 * the pools start, so a failed run has processed nothing anywhere.
 */
#include "dist/dist.h"

#include "runtime/diagnostics.h"
#include "sys/clock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STEAL_ATTEMPTS 1024u
#define MAX_POLL_US 1000000u

void weft_dist_config_init(weft_dist_config *cfg, size_t item_size)
{
    if (cfg == NULL)
        return;
    memset(cfg, 0, sizeof *cfg);
    weft_pool_config_init(&cfg->pool, item_size);
    cfg->pool.steal = WEFT_POOL_STEAL_HALF;
    cfg->steal_attempts = 2;
    cfg->lifelines = true;
    cfg->poll_us = 1000;
    cfg->idle_poll_us = 50;
}

static const char *thread_level_name(int level)
{
    switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
    default: return "an unknown thread level";
    }
}

/* What a rank can check alone: 0, EINVAL or ENOTSUP (with a message). */
static int check_local(const weft_dist_config *cfg, const void *initial, size_t n_initial,
                       weft_pool_fn fn)
{
    int provided = MPI_THREAD_SINGLE, is_main = 0;
    MPI_Query_thread(&provided);
    MPI_Is_thread_main(&is_main);
    int need = is_main ? MPI_THREAD_FUNNELED : MPI_THREAD_SERIALIZED;
    if (provided < need) {
        weft__warn("weft_dist_run: MPI provides %s, but weft_dist_run needs %s (it runs worker "
                   "threads and calls MPI only from the calling thread%s): initialise MPI with "
                   "MPI_Init_thread(&argc, &argv, %s, &provided)",
                   thread_level_name(provided), thread_level_name(need),
                   is_main ? "" : ", which is not the thread that initialised MPI",
                   thread_level_name(need));
        return ENOTSUP;
    }
    if (cfg == NULL) {
        weft__warn("weft_dist_run: cfg is NULL (fill it with weft_dist_config_init)");
        return EINVAL;
    }
    if (cfg->steal_attempts == 0 || cfg->steal_attempts > MAX_STEAL_ATTEMPTS) {
        weft__warn("weft_dist_run: steal_attempts %u is out of range (1 .. %u)",
                   cfg->steal_attempts, MAX_STEAL_ATTEMPTS);
        return EINVAL;
    }
    if (cfg->poll_us == 0 || cfg->poll_us > MAX_POLL_US) {
        weft__warn("weft_dist_run: poll_us %u is out of range (1 .. %u microseconds)", cfg->poll_us,
                   MAX_POLL_US);
        return EINVAL;
    }
    if (cfg->idle_poll_us == 0 || cfg->idle_poll_us > MAX_POLL_US) {
        weft__warn("weft_dist_run: idle_poll_us %u is out of range (1 .. %u microseconds)",
                   cfg->idle_poll_us, MAX_POLL_US);
        return EINVAL;
    }
    return weft__wp_pool_validate(&cfg->pool, initial, n_initial, fn);
}

/* The record each rank contributes to the agreement: its verdict, then
 * the fields every rank must have alike. */
enum {
    REC_ERR,
    REC_ITEM_SIZE,
    REC_QUEUE,
    REC_STEAL,
    REC_OVERFLOW,
    REC_IDEMPOTENT,
    REC_SPLIT,
    REC_HALF_MAX,
    REC_ATTEMPTS,
    REC_LIFELINES,
    REC_FIELDS
};
static const char *const rec_names[REC_FIELDS] = {
    "",
    "cfg.pool.item_size",
    "cfg.pool.queue",
    "cfg.pool.steal",
    "cfg.pool.overflow",
    "cfg.pool.idempotent",
    "cfg.pool.split (set or not)",
    "cfg.pool.steal_half_max",
    "cfg.steal_attempts",
    "cfg.lifelines",
};

static void fill_record(int64_t *rec, int err, const weft_dist_config *cfg)
{
    memset(rec, 0, REC_FIELDS * sizeof *rec);
    rec[REC_ERR] = err;
    if (cfg == NULL)
        return;
    rec[REC_ITEM_SIZE] = (int64_t)cfg->pool.item_size;
    rec[REC_QUEUE] = cfg->pool.queue;
    rec[REC_STEAL] = cfg->pool.steal;
    rec[REC_OVERFLOW] = cfg->pool.overflow;
    rec[REC_IDEMPOTENT] = cfg->pool.idempotent;
    rec[REC_SPLIT] = cfg->pool.split != NULL;
    rec[REC_HALF_MAX] = cfg->pool.steal_half_max;
    rec[REC_ATTEMPTS] = cfg->steal_attempts;
    rec[REC_LIFELINES] = cfg->lifelines;
}

/* Every rank's verdict on every record: 0 if all agree and none failed. */
static int agree(const int64_t *all, int n, int me)
{
    for (int i = 0; i < n; i++) {
        int64_t err = all[i * REC_FIELDS + REC_ERR];
        if (err != 0) {
            if (i != me)
                weft__warn("weft_dist_run: rank %d: rank %d refused the run (%s; its own message "
                           "says why)",
                           me, i, strerror((int)err));
            return (int)err;
        }
    }
    for (int f = REC_ITEM_SIZE; f < REC_FIELDS; f++) {
        for (int i = 1; i < n; i++) {
            int64_t a = all[f], b = all[i * REC_FIELDS + f];
            if (a != b) {
                weft__warn("weft_dist_run: rank %d: %s differs across ranks: %lld on rank 0, %lld "
                           "on rank %d (every rank must pass the same value)",
                           me, rec_names[f], (long long)a, (long long)b, i);
                return EINVAL;
            }
        }
    }
    return 0;
}

/* The one-rank run: weft_pool_run itself. */
static int run_alone(const weft_dist_config *cfg, const void *initial, size_t n_initial,
                     weft_pool_fn fn, void *arg, weft_dist_stats *stats)
{
    weft_pool_stats ps;
    uint64_t t0 = weft_now_ns();
    int err = weft_pool_run(&cfg->pool, initial, n_initial, fn, arg, &ps);
    if (err != 0 || stats == NULL)
        return err;
    memset(stats, 0, sizeof *stats);
    stats->ranks = 1;
    stats->local.initial = n_initial;
    stats->local.processed = ps.processed;
    stats->local.pushed = ps.pushed;
    stats->local.run_ns = weft_now_ns() - t0;
    stats->local.pool = ps;
    stats->total = stats->local;
    stats->duplicates = ps.duplicates;
    return 0;
}

/* The counters as an array of words, for one MPI_Allreduce. */
#define RANK_WORDS (sizeof(weft_dist_rank_stats) / sizeof(uint64_t))
_Static_assert(sizeof(weft_dist_rank_stats) % sizeof(uint64_t) == 0,
               "weft_dist_rank_stats is made of 64-bit words");
_Static_assert(sizeof(weft_pool_stats) == sizeof(uint64_t) * 17,
               "weft_pool_stats: a 32-bit worker count, padding, 16 counters");

static void sum_stats(MPI_Comm comm, weft_dist_stats *stats)
{
    weft_dist_rank_stats sum;
    wd_check(comm, MPI_Allreduce(&stats->local, &sum, (int)RANK_WORDS, MPI_UINT64_T, MPI_SUM, comm),
             "MPI_Allreduce (counters)", -1);
    /* The worker count is a 32-bit field: summed alone. */
    unsigned long workers = stats->local.pool.workers, all_workers = 0;
    wd_check(comm, MPI_Allreduce(&workers, &all_workers, 1, MPI_UNSIGNED_LONG, MPI_SUM, comm),
             "MPI_Allreduce (workers)", -1);
    sum.pool.workers = (unsigned)all_workers;
    stats->total = sum;
    wd_check(
        comm,
        MPI_Allreduce(&stats->local.idle_ns, &stats->idle_ns_max, 1, MPI_UINT64_T, MPI_MAX, comm),
        "MPI_Allreduce (idle)", -1);
    uint64_t made = sum.initial + sum.pushed + sum.pool.splits;
    stats->duplicates = sum.processed > made ? sum.processed - made : 0;
}

/* MPI is usable and comm is an intracommunicator: 0, or the error. */
static int check_mpi_and_comm(MPI_Comm comm)
{
    int inited = 0, finalized = 0;
    MPI_Initialized(&inited);
    MPI_Finalized(&finalized);
    if (!inited || finalized) {
        weft__warn("weft_dist_run: MPI is %s (call MPI_Init_thread first, and MPI_Finalize after)",
                   finalized ? "already finalized" : "not initialised");
        return ENOTSUP;
    }
    if (comm == MPI_COMM_NULL) {
        weft__warn("weft_dist_run: comm is MPI_COMM_NULL");
        return EINVAL;
    }
    int inter = 0;
    if (MPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter) {
        weft__warn("weft_dist_run: comm must be an intracommunicator");
        return EINVAL;
    }
    return 0;
}

/* Agreement 1: every rank's checks and configuration, gathered; 0 when
 * all ranks accept the run and agree on it. */
static int agree_on_config(MPI_Comm run, int me, int n, const weft_dist_config *cfg,
                           const void *initial, size_t n_initial, weft_pool_fn fn)
{
    int err = check_local(cfg, initial, n_initial, fn);
    if (err != 0)
        weft__warn("weft_dist_run: rank %d refuses the run (%s: the message above says why)", me,
                   strerror(err));
    int64_t mine[REC_FIELDS];
    fill_record(mine, err, cfg);
    int64_t *all = malloc((size_t)n * sizeof mine);
    if (all == NULL)
        weft__fatal("out of memory: the configurations of %d ranks", n);
    wd_check(run, MPI_Allgather(mine, REC_FIELDS, MPI_INT64_T, all, REC_FIELDS, MPI_INT64_T, run),
             "MPI_Allgather (configurations)", -1);
    err = agree(all, n, me);
    free(all);
    return err;
}

/* Agreement 2: every rank's pool is set up, its threads waiting.  0 with
 * *pool set, or the worst error of all ranks (this rank's pool, if it has
 * one, already released). */
static int agree_on_pools(MPI_Comm run, int me, const weft_dist_config *cfg, weft_pool_fn fn,
                          void *arg, const void *initial, size_t n_initial, wp_pool **pool)
{
    *pool = NULL;
    int err = weft__wp_hosted_create(&cfg->pool, fn, arg, initial, n_initial, pool);
    if (err == ENOBUFS)
        weft__warn("weft_dist_run: rank %d: %zu initial items do not fit queue '%s' of %zu items "
                   "per worker (overflow policy FAIL)",
                   me, n_initial, weft_queue_name(cfg->pool.queue), cfg->pool.capacity);
    else if (err != 0)
        weft__warn("weft_dist_run: rank %d: cannot set up the local pool (%s)", me, strerror(err));
    int worst = 0;
    wd_check(run, MPI_Allreduce(&err, &worst, 1, MPI_INT, MPI_MAX, run), "MPI_Allreduce (set-up)",
             -1);
    if (worst != 0 && err == 0) {
        weft__warn("weft_dist_run: rank %d: another rank could not set up its pool (%s)", me,
                   strerror(worst));
        weft__wp_hosted_start(*pool, false);
    }
    return worst;
}

/* This rank's figures once its pool has ended. */
static void take_local_stats(wp_pool *pool, size_t n_initial, weft_dist_stats *local)
{
    /* The pool's counters: its "initial" items are those given here;
     * received ones are counted by the communicator. */
    weft__wp_hosted_stats(pool, n_initial, &local->local.pool);
    local->local.processed = local->local.pool.processed;
    local->local.pushed = local->local.pool.pushed;
    uint64_t made =
        n_initial + local->local.items_received + local->local.pushed + local->local.pool.splits;
    made = made > local->local.items_shipped ? made - local->local.items_shipped : 0;
    local->local.pool.duplicates =
        local->local.processed > made ? local->local.processed - made : 0;
}

int weft_dist_run(MPI_Comm comm, const weft_dist_config *cfg, const void *initial, size_t n_initial,
                  weft_pool_fn fn, void *arg, weft_dist_stats *stats)
{
    int err = check_mpi_and_comm(comm);
    if (err != 0)
        return err;
    MPI_Comm run;
    int rc = MPI_Comm_dup(comm, &run);
    if (rc != MPI_SUCCESS)
        weft__wd_mpi_failed(comm, rc, "MPI_Comm_dup", -1);
    MPI_Comm_set_errhandler(run, MPI_ERRORS_RETURN);
    int me, n;
    MPI_Comm_rank(run, &me);
    MPI_Comm_size(run, &n);

    err = agree_on_config(run, me, n, cfg, initial, n_initial, fn);
    if (err != 0 || n == 1) {
        MPI_Comm_free(&run);
        return err != 0 ? err : run_alone(cfg, initial, n_initial, fn, arg, stats);
    }
    wp_pool *pool;
    err = agree_on_pools(run, me, cfg, fn, arg, initial, n_initial, &pool);
    if (err != 0) {
        MPI_Comm_free(&run);
        return err;
    }

    weft_dist_stats local;
    memset(&local, 0, sizeof local);
    local.rank = me;
    local.ranks = n;
    local.local.initial = n_initial;
    weft__wd_communicate(run, cfg, pool, n_initial, &local.local);
    take_local_stats(pool, n_initial, &local);
    weft__wp_hosted_destroy(pool);
    sum_stats(run, &local);
    MPI_Comm_free(&run);
    if (stats != NULL)
        *stats = local;
    return 0;
}

void weft_dist_stats_print(const weft_dist_stats *s, FILE *out)
{
    if (s == NULL || out == NULL)
        return;
    const weft_dist_rank_stats *rs[2] = {&s->local, &s->total};
    for (int i = 0; i < 2; i++) {
        const weft_dist_rank_stats *c = rs[i];
        if (i == 0)
            fprintf(out, "rank %d of %d:", s->rank, s->ranks);
        else
            fprintf(out, "all %d ranks:", s->ranks);
        fprintf(out,
                " initial %llu  processed %llu  pushed %llu\n"
                "  steal requests sent %llu  failed %llu  served %llu  refused %llu  "
                "lifelines sent %llu  lifeline pushes %llu\n"
                "  work messages sent %llu  received %llu  items shipped %llu  received %llu  "
                "bytes shipped %llu  messages sent %llu  received %llu\n"
                "  tokens passed %llu  termination rounds %llu  idle %.3f ms  run %.3f ms  "
                "comm cpu %.3f ms\n",
                (unsigned long long)c->initial, (unsigned long long)c->processed,
                (unsigned long long)c->pushed, (unsigned long long)c->steal_requests_sent,
                (unsigned long long)c->steal_requests_failed,
                (unsigned long long)c->steal_requests_served,
                (unsigned long long)c->steal_requests_refused,
                (unsigned long long)c->lifelines_sent, (unsigned long long)c->lifeline_pushes,
                (unsigned long long)c->work_messages_sent,
                (unsigned long long)c->work_messages_received, (unsigned long long)c->items_shipped,
                (unsigned long long)c->items_received, (unsigned long long)c->bytes_shipped,
                (unsigned long long)c->messages_sent, (unsigned long long)c->messages_received,
                (unsigned long long)c->tokens_passed, (unsigned long long)c->termination_rounds,
                (double)c->idle_ns / 1e6, (double)c->run_ns / 1e6, (double)c->comm_cpu_ns / 1e6);
    }
    fprintf(out, "  most idle rank %.3f ms  duplicates %llu\n", (double)s->idle_ns_max / 1e6,
            (unsigned long long)s->duplicates);
}
