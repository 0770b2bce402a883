// SPDX-License-Identifier: Apache-2.0
/** @file
 * weft distributed work pools: the work pool of <weft/pool.h> across the
 * ranks of an MPI communicator.
 *
 * Every rank calls weft_dist_run with the same configuration; each runs a
 * local pool of workers with the configured queue, and the process
 * function pushes new items with weft_pool_push exactly as under
 * weft_pool_run.  Initial items may be given on any subset of the ranks
 * (the others pass n_initial = 0).  A rank whose workers run dry asks other
 * ranks for work: a few random victims, then lifelines on a hypercube
 * (Saraswat et al.'s lifeline-based global load balancing); a victim
 * answers with a share of its items taken the way its own idle workers
 * take them (a steal-half transfer answered between two items), never by
 * stopping its workers.  weft_dist_run returns on every rank once no item
 * exists anywhere and none is in flight (Dijkstra-Safra termination
 * detection).  docs/distributed.md explains the design, the message
 * counts, the scaling model and the limits.
 *
 *     MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
 *     weft_dist_config cfg;
 *     weft_dist_config_init(&cfg, sizeof(node));
 *     cfg.pool.workers = 4;
 *     int rank;
 *     MPI_Comm_rank(MPI_COMM_WORLD, &rank);
 *     int err = weft_dist_run(MPI_COMM_WORLD, &cfg, &root, rank == 0, visit,
 *                             NULL, &stats);
 *
 * MPI threading: weft_dist_run calls MPI only from the calling thread; its
 * worker threads never do.  It needs MPI_THREAD_FUNNELED when called from
 * the thread that initialised MPI (MPI_Is_thread_main), and
 * MPI_THREAD_SERIALIZED otherwise (the caller must then make sure no
 * other thread calls MPI during the run).  With less it returns ENOTSUP
 * on every rank with a message saying what to ask MPI_Init_thread for.
 *
 * It is collective: every rank of comm must call it (a rank that does not
 * leaves the others waiting in MPI, as with any collective).  It works on
 * a duplicate of comm, so its messages never mix with the caller's.
 *
 * Faults: a configuration that differs across ranks (item size, queue,
 * policies, ...) or that a rank refuses is reported on every rank, which
 * all return EINVAL (no hang).  An MPI error during the run ends the
 * whole run with MPI_Abort and a message naming this rank and the peer; a
 * rank that dies (a crash, exit) is reported by the MPI launcher, which
 * ends every rank (Open MPI's mpirun does so by default, naming the rank).
 * There is no fault tolerance beyond that: docs/distributed.md, "Faults".
 */
#ifndef WEFT_DIST_H
#define WEFT_DIST_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <weft/pool.h>

#include <weft/bits/lang.h>

WEFT_BEGIN_DECLS

/** The settings of a distributed run: weft_dist_config_init fills the
 * defaults. */
typedef struct weft_dist_config {
    /** Each rank's local pool.  workers, capacity, idle_spin_us and
     * stack_size may differ from rank to rank; every other field must be
     * the same on every rank. */
    weft_pool_config pool;
    /** Random victims an idle rank asks, one at a time, before it registers
     * on its lifelines (1 .. 1024; capped at ranks - 1). */
    unsigned steal_attempts;
    /** true: after its random attempts an idle rank registers with its
     * lifeline buddies (a hypercube) and waits quietly for them to push
     * work; false: it keeps asking random victims (the UTS-MPI policy). */
    bool lifelines;
    /** The longest interval, in microseconds, between two looks at the
     * network while this rank has work (1 .. 1,000,000): the bound on how
     * long a thief waits for this rank's answer.  Its cost is one timed
     * wake-up of the calling thread per interval, taken from the workers'
     * cores (about 7-20 us of CPU each on the machines measured). */
    unsigned poll_us;
    /** The same while this rank has no work (1 .. 1,000,000): how soon it
     * sees an answer, a lifeline push or the termination token.  Its
     * wake-ups cost nothing but on an oversubscribed machine. */
    unsigned idle_poll_us;
} weft_dist_config;

/** Fills *cfg with the defaults for items of item_size bytes: the pool's
 * defaults (weft_pool_config_init) with steal-half transfers, 2 random
 * steal attempts, lifelines on, polls at most 1000 us apart while the rank
 * has work and 50 us while it has none. */
void weft_dist_config_init(weft_dist_config *cfg, size_t item_size);

/** The counters of one rank. */
typedef struct weft_dist_rank_stats {
    uint64_t initial;                /**< items given to weft_dist_run here */
    uint64_t processed;              /**< calls of the process function here */
    uint64_t pushed;                 /**< successful weft_pool_push calls here */
    uint64_t steal_requests_sent;    /**< random steal requests sent */
    uint64_t steal_requests_failed;  /**< of those, refused by the victim */
    uint64_t steal_requests_served;  /**< requests (random or lifeline) answered with items */
    uint64_t steal_requests_refused; /**< random requests answered with a refusal */
    uint64_t lifelines_sent;         /**< lifeline registrations sent */
    uint64_t lifeline_pushes;        /**< shares sent along a lifeline after a wait */
    uint64_t work_messages_sent;     /**< messages carrying items */
    uint64_t work_messages_received; /**< messages carrying items, received */
    uint64_t items_shipped;          /**< items sent to other ranks */
    uint64_t items_received;         /**< items received from other ranks */
    uint64_t bytes_shipped;          /**< payload bytes of the items sent */
    uint64_t messages_sent;          /**< every message, of every kind */
    uint64_t messages_received;      /**< every message, of every kind, received */
    uint64_t tokens_passed;          /**< termination tokens passed on */
    uint64_t termination_rounds;     /**< token rounds started (rank 0 only) */
    uint64_t idle_ns;                /**< time with no work here (local pool quiescent) */
    uint64_t run_ns;                 /**< time from the start of the run to its end */
    uint64_t comm_cpu_ns;            /**< CPU time of the communicating (calling) thread */
    weft_pool_stats pool;            /**< the local pool's counters */
} weft_dist_rank_stats;

/** The counters of a distributed run, as weft_dist_run reports them. */
typedef struct weft_dist_stats {
    int rank;                   /**< this rank in comm */
    int ranks;                  /**< comm's size */
    weft_dist_rank_stats local; /**< this rank's counters */
    weft_dist_rank_stats total; /**< the sum over all ranks (the same on every rank) */
    uint64_t idle_ns_max;       /**< the largest idle_ns of any rank */
    uint64_t duplicates;        /**< items processed twice anywhere (idempotent queues) */
} weft_dist_stats;

/** Runs the distributed pool until no item exists on any rank and none is
 * in flight; collective over comm.  `initial`: this rank's n_initial items
 * (item_size bytes each; NULL if n_initial is 0).  fn is called once per
 * item somewhere (at least once on an idempotent queue).  If stats is not
 * NULL it receives this rank's and the summed counters.  On a
 * one-rank communicator this is weft_pool_run.
 *
 * Returns the same value on every rank: 0, or
 *   EINVAL  a rank's configuration is invalid (its message names the
 *           field) or differs from another rank's (every rank says which);
 *   ENOTSUP MPI is not initialised, or its thread level is too low;
 *   ENOMEM, EAGAIN, ENOBUFS  a rank could not set up its pool (memory,
 *           threads, initial items that do not fit a fixed-size queue with
 *           the FAIL policy).
 * Nothing has been processed when it fails.  An MPI error during the run
 * aborts the whole run (MPI_Abort) with a message. */
int weft_dist_run(MPI_Comm comm, const weft_dist_config *cfg, const void *initial, size_t n_initial,
                  weft_pool_fn fn, void *arg, weft_dist_stats *stats);

/** Prints this rank's counters and the totals on a few lines. */
void weft_dist_stats_print(const weft_dist_stats *stats, FILE *out);

WEFT_END_DECLS

#endif
