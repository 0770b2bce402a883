// SPDX-License-Identifier: Apache-2.0
/** @file
 * weft work pools: parallel work that is not fork-join.
 *
 * A pool runs P workers, each owning a queue of fixed-size items.  The
 * caller gives the initial items and a function that processes one item;
 * processing may push new items to the calling worker's own queue with
 * weft_pool_push.  Nobody joins: weft_pool_run returns when every item has
 * been processed (graph traversal, spanning trees, tree serialisation with
 * parent counters, pseudo-DFS ...).
 *
 *     static void visit(weft_pool_ctx *ctx, void *item, void *arg)
 *     {
 *         node *n = *(node **)item;
 *         for (size_t i = 0; i < n->n_children; i++)
 *             weft_pool_push(ctx, &n->children[i]);
 *     }
 *
 *     weft_pool_config cfg;
 *     weft_pool_config_init(&cfg, sizeof(node *));
 *     cfg.queue = WEFT_QUEUE_CHASE_LEV;
 *     int err = weft_pool_run(&cfg, &root, 1, visit, NULL, NULL);
 *
 * Queue algorithms (weft_queue_kind) are those compared in "Work-stealing
 * Queues In Practice" (Alkærsig, Didriksen, Harrington): ABP, Chase-Lev
 * (growing, and growing + shrinking), the three idempotent queues of
 * Michael, Vechev and Saraswat, the duplicating queue of the .NET TPL and a
 * central locked queue.  Steal-half (private-deque style transfer) and
 * task coalescing with a user split function follow Acar, Charguéraud and
 * Rainey ("Scheduling parallel programs by work stealing with private
 * deques", section 5).  docs/pool.md explains the queues and memory
 * reclamation, docs/pool-design.md termination detection and sleeping.
 *
 * Threading and ownership:
 *   - weft_pool_run may be called from any thread, also from several
 *     threads at once (each call is an independent pool), and independently
 *     of weft_start/weft_stop.  The calling thread becomes worker 0; P-1
 *     threads are created for the run and joined before it returns (cost:
 *     one pthread_create + join per extra worker and run, tens of
 *     microseconds each).
 *   - Inside a fork-join task too: the process function may then RUN back
 *     into the fork-join pool (WEFT_RUN, weft::run, weft::parallel_for, a
 *     Lace RUN) on every worker.  On the pool's own threads that is a RUN
 *     from outside, which the fork-join worker waiting in weft_pool_run
 *     serves while it waits.  From those threads, weft_stop and
 *     weft_suspend return EDEADLK and TOGETHER and NEWFRAME stop the
 *     program, each with a message: they would wait for that worker,
 *     which waits for them (docs/pool.md, "A pool inside a fork-join
 *     task").
 *   - The process function runs on the pool's workers, possibly on several
 *     at once; `item` points to a worker-private copy of the item, valid
 *     until the function returns.
 *   - weft_pool_push, weft_pool_worker_id and weft_pool_workers take the
 *     ctx passed to the process function and may only be called from that
 *     call (same thread, before it returns); elsewhere (another thread, the
 *     split function, after the run) they report an invalid ctx and do
 *     not touch it.
 *   - Items are copied by value (item_size bytes) into and out of the
 *     queues; what they point to is the caller's business.
 *
 * Errors are errno values, with a "weft: ..." message on stderr; misuse is
 * reported, never a crash or a hang.
 */
#ifndef WEFT_POOL_H
#define WEFT_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <weft/bits/lang.h>
#include <weft/config.h>

WEFT_BEGIN_DECLS

/** The queue each worker owns.  Names (for weft_queue_from_name and the
 * benchmark's -q option) are in brackets. */
typedef enum weft_queue_kind {
    /** [abp] Arora, Blumofe, Plaxton: fixed array, `age` = (tag, top)
     * updated by CAS, the tag against ABA.  Capacity is fixed: see
     * weft_pool_overflow for what a full queue does. */
    WEFT_QUEUE_ABP = 0,
    /** [chase-lev] Chase and Lev: circular array that grows; old arrays
     * are freed when the run ends (at most the size of the live array). */
    WEFT_QUEUE_CHASE_LEV = 1,
    /** [chase-lev-shrink] Chase-Lev that also shrinks to half when a
     * quarter full; old arrays are reclaimed during the run with epochs. */
    WEFT_QUEUE_CHASE_LEV_SHRINK = 2,
    /** [idem-lifo] Michael-Vechev-Saraswat idempotent LIFO: may deliver an
     * item more than once (needs cfg.idempotent). */
    WEFT_QUEUE_IDEMPOTENT_LIFO = 3,
    /** [idem-fifo] idempotent FIFO (needs cfg.idempotent). */
    WEFT_QUEUE_IDEMPOTENT_FIFO = 4,
    /** [idem-deque] idempotent double-ended: owner LIFO, thieves FIFO
     * (needs cfg.idempotent).  Grows up to 65536 items, then overflows. */
    WEFT_QUEUE_IDEMPOTENT_DEQUE = 5,
    /** [duplicating] the .NET TPL duplicating queue: thieves take a lock,
     * the owner none; an item may be delivered twice when the owner and a
     * thief race for the last one (needs cfg.idempotent). */
    WEFT_QUEUE_DUPLICATING = 6,
    /** [central] one locked LIFO shared by all workers: the baseline. */
    WEFT_QUEUE_CENTRAL = 7,
} weft_queue_kind;

/** Number of queue kinds (they are numbered 0 .. WEFT_QUEUE_KINDS - 1). */
#define WEFT_QUEUE_KINDS 8

/** The kind's name ("abp", "chase-lev", ...), or "?" for an unknown kind. */
const char *weft_queue_name(weft_queue_kind kind);
/** Parses a name; returns 0, or EINVAL (no message) if unknown. */
int weft_queue_from_name(const char *name, weft_queue_kind *out);
/** True if the kind may deliver an item more than once. */
bool weft_queue_is_idempotent(weft_queue_kind kind);

/** What an idle worker takes from a victim. */
typedef enum weft_pool_steal {
    /** One item, straight from the victim's concurrent queue. */
    WEFT_POOL_STEAL_ONE = 0,
    /** Half of the victim's items (up to steal_half_max).  The duplicating
     * queue takes them under its lock; the other per-worker queues use a
     * private-deque style transfer: the thief posts a request, the victim
     * answers between two items with half of its queue (or, if it holds
     * one item and cfg.split is set, with the half the split function cuts
     * off it).  No effect on the central queue. */
    WEFT_POOL_STEAL_HALF = 1,
} weft_pool_steal;

/** What weft_pool_push does when a fixed-size queue (ABP, or the
 * idempotent deque at 65536 items) is full.  Never corruption. */
typedef enum weft_pool_overflow {
    /** The item goes to a private overflow stack of the worker (unbounded,
     * not stealable except by steal-half transfers), which the worker
     * empties before its queue.  Counted in weft_pool_stats.overflows. */
    WEFT_POOL_OVERFLOW_SPILL = 0,
    /** weft_pool_push returns ENOBUFS and the item is not queued (the
     * caller may process it in place).  Counted in overflows. */
    WEFT_POOL_OVERFLOW_FAIL = 1,
} weft_pool_overflow;

/** The context of one call of the process function. */
typedef struct weft_pool_ctx weft_pool_ctx;

/** Processes one item.  `item` is a worker-private, 8-byte aligned copy. */
typedef void (*weft_pool_fn)(weft_pool_ctx *ctx, void *item, void *arg);

/** Task coalescing: splits a batch item.  Moves part of the work described
 * by `item` (about half) into a new item written to `out` (item_size
 * bytes) and updates `item` to describe the rest; returns true.  Returns
 * false, leaving both untouched, if the item cannot be split.  Called by
 * the item's current owner worker, never concurrently on one item. */
typedef bool (*weft_pool_split_fn)(void *item, void *out, void *arg);

/** Limits: the most workers a pool may have (WEFT_MAX_WORKERS of weft/config.h). */
#define WEFT_POOL_MAX_WORKERS WEFT_MAX_WORKERS
/** Limits: the largest item, in bytes. */
#define WEFT_POOL_MAX_ITEM_SIZE 256u

/** A pool's settings: weft_pool_config_init fills the defaults. */
typedef struct weft_pool_config {
    /** Worker threads (1 .. WEFT_POOL_MAX_WORKERS); 0: the CPUs the process
     * may use (its affinity mask, at most its CPU quota: docs/configuration.md,
     * "Worker count"). */
    unsigned workers;
    /** The queue algorithm. */
    weft_queue_kind queue;
    /** Bytes per item, 1 .. WEFT_POOL_MAX_ITEM_SIZE. */
    size_t item_size;
    /** Items per worker queue: the fixed size of ABP, the initial size of
     * the growing queues (rounded up to a power of two; the shrinking
     * Chase-Lev never shrinks below it).  0: 65536 for ABP, 256 else. */
    size_t capacity;
    /** Steal one item or half of the victim's. */
    weft_pool_steal steal;
    /** What a push into a full fixed-size queue does. */
    weft_pool_overflow overflow;
    /** Task coalescing: split function for batch items, used when a
     * steal-half request finds the victim with a single item.  NULL: off. */
    weft_pool_split_fn split;
    /** The caller's promise that processing an item twice is harmless.
     * Required by the queues that may deliver an item more than once
     * (weft_queue_is_idempotent); weft_pool_run refuses them otherwise. */
    bool idempotent;
    /** Most items one steal-half transfer moves (1 .. 65536; the
     * duplicating queue's thieves take at most 256 per steal). */
    unsigned steal_half_max;
    /** How long an idle worker searches before it sleeps, in microseconds
     * (0 .. 10,000,000). */
    unsigned idle_spin_us;
    /** Bytes of stack for each worker, the calling thread's work included:
     * every worker runs on a stack of weft's (address space; only touched
     * pages use memory) with a guard below it, so a deep or large-framed
     * process function does not depend on `ulimit -s`, and an overflow
     * stops the program with a message naming this field.  0: 64 MiB;
     * else 64 KiB .. 1 TiB. */
    size_t stack_size;
} weft_pool_config;

/** Fills *cfg with the defaults for items of item_size bytes: workers 0
 * (one per CPU), Chase-Lev, default capacity, steal one, spill on
 * overflow, no split, not idempotent, steal_half_max 512, 200 us spin,
 * 64 MiB stacks. */
void weft_pool_config_init(weft_pool_config *cfg, size_t item_size);

/** Counters of one run, summed over the workers.  Always collected (each
 * worker counts in its own memory; the sum is taken after the run). */
typedef struct weft_pool_stats {
    unsigned workers;   /**< workers the run had */
    uint64_t initial;   /**< items given to weft_pool_run */
    uint64_t pushed;    /**< successful weft_pool_push calls */
    uint64_t processed; /**< calls of the process function */
    uint64_t
        duplicates; /**< processed - initial - pushed - splits: items run twice (idempotent queues) */
    uint64_t steals;       /**< successful steals (steal-half: successful transfers) */
    uint64_t steal_empty;  /**< steal attempts that found the victim empty or declined */
    uint64_t steal_aborts; /**< steal attempts that lost a race (CAS, lock, validation) */
    uint64_t stolen_items; /**< items moved by steals and transfers */
    uint64_t requests;     /**< steal-half requests posted */
    uint64_t splits;       /**< batch items split for a transfer (coalescing) */
    uint64_t grows;        /**< queue array growths */
    uint64_t shrinks;      /**< queue array shrinks */
    uint64_t overflows;    /**< pushes into a full fixed-size queue (spilled or refused) */
    uint64_t reclaimed;    /**< old arrays freed during the run (epochs) */
    uint64_t sleeps;       /**< times a worker went to sleep */
    uint64_t wakes;        /**< times a worker woke a sleeper */
} weft_pool_stats;

/** Runs a pool until every item is processed.  The n_initial items at
 * `initial` (item_size bytes each) are dealt round-robin to the workers'
 * queues; `fn(ctx, item, arg)` is called once per item (at least once on
 * an idempotent queue).  If stats is not NULL it receives the counters.
 *
 * Returns 0, or:
 *   ECANCELED  the process function called weft_pool_cancel;
 *   EINVAL  bad configuration (message names the field), fn NULL,
 *           initial NULL with n_initial > 0, or a queue that may deliver
 *           items twice without cfg->idempotent;
 *   ENOBUFS the initial items do not fit a fixed-size queue and
 *           cfg->overflow is WEFT_POOL_OVERFLOW_FAIL;
 *   ENOMEM, EAGAIN  memory or threads could not be had.
 * Nothing has been processed when it fails (but for ECANCELED).
 *
 * A C++ exception must not leave the process function (it would leave the
 * other threads running, or end the program): from C++, weft::pool_run
 * (weft/pool.hpp) catches it, cancels the run and rethrows it. */
int weft_pool_run(const weft_pool_config *cfg, const void *initial, size_t n_initial,
                  weft_pool_fn fn, void *arg, weft_pool_stats *stats);

/** Pushes a copy of `item` (item_size bytes) to the calling worker's queue.
 * Only inside the process function, with its ctx.  Returns 0; ENOBUFS if
 * the queue is full and the overflow policy is FAIL (the item was not
 * queued); EINVAL (with a message) if ctx is not the calling process
 * function's context or item is NULL. */
int weft_pool_push(weft_pool_ctx *ctx, const void *item);

/** Ends the run early: every worker returns after the item it is
 * processing, or one it has just taken (the caller's worker included),
 * the items not yet processed are dropped, and weft_pool_run returns
 * ECANCELED once every thread has been joined (stats, if asked for, count
 * what ran).  Only inside the process
 * function, with its ctx; any number of calls, from any workers.  Returns
 * 0; EINVAL (with a message) for a ctx that is not the calling process
 * function's; ENOTSUP in a pool of the distributed layer. */
int weft_pool_cancel(weft_pool_ctx *ctx);

/** The calling worker's number, 0 .. workers-1 (e.g. to index per-worker
 * scratch memory); UINT32_MAX for an invalid ctx. */
unsigned weft_pool_worker_id(const weft_pool_ctx *ctx);
/** The number of workers of the running pool; 0 for an invalid ctx. */
unsigned weft_pool_workers(const weft_pool_ctx *ctx);

/** Prints the counters on one block of lines. */
void weft_pool_stats_print(const weft_pool_stats *stats, FILE *out);

WEFT_END_DECLS

#endif
