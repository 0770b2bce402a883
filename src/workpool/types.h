// SPDX-License-Identifier: Apache-2.0
/* The work pool's data (include/weft/pool.h): the pool, its workers, the
 * queue interface every algorithm implements, and the counters.  Types and
 * field accessors only; each module of src/workpool declares its own
 * functions in its own header (README.md lists them, bottom up).  Not
 * installed.  Internal names start with wp_ (the fork-join runtime's are
 * weft_*), so a reader always knows which of the two a worker, a counter
 * or a sleep belongs to.  The design note is docs/pool-design.md.
 */
#ifndef WEFT_WORKPOOL_TYPES_H
#define WEFT_WORKPOOL_TYPES_H

#include <weft/weft.h>

#include "runtime/diagnostics.h"
#include "runtime/memory.h"
#include "runtime/overflow.h"
#include "observe/profiler.h"
#include "observe/trace.h"
#include "sys/clock.h"
#include "sys/cpu.h"
#include "sys/futex.h"
#include "sys/rng.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <weft/pool.h>

/* In a profiling build every queued item carries one hidden word past the
 * caller's bytes: the path length at its push (docs/profiling.md, "Work
 * pool runs"); it travels with the item through every queue, overflow
 * stack, transfer and inbox, which all copy `words` words. */
#if WEFT_PROFILE
#define WP_PROF_WORDS 1u
#else
#define WP_PROF_WORDS 0u
#endif
#define WP_MAX_WORDS (WEFT_POOL_MAX_ITEM_SIZE / 8 + WP_PROF_WORDS)

typedef struct wp_pool wp_pool;
typedef struct wp_worker wp_worker;
typedef struct wp_queue wp_queue;

/* ---- counters: owner-written plain fields, summed after the run ---- */
typedef struct wp_counters {
    uint64_t pushed, processed, steals, steal_empty, steal_aborts, stolen_items;
    uint64_t requests, splits, grows, shrinks, overflows, reclaimed, sleeps, wakes;
} wp_counters;

/* ---- queues ---- */
typedef enum wp_steal_result {
    WP_STEAL_EMPTY = 0,
    WP_STEAL_OK = 1,
    WP_STEAL_ABORT = 2,
} wp_steal_result;

/* Every queue operation says who calls it: the owner (push, take, carve)
 * or any thread (steal, steal_half, size).  Items are `words` 64-bit words.
 * Fields left out of a table are false / NULL. */
typedef struct wp_queue_ops {
    weft_queue_kind kind;
    const char *name;
    bool idempotent;  /* may deliver an item more than once */
    bool fixed;       /* push may report "full" */
    bool take_fences; /* take runs a seq_cst fence after its own stores */
    bool shared;      /* one queue for the whole pool */
    /* Creates worker `owner`'s queue (initial capacity cap, a power of two
     * except for ABP). */
    int (*create)(wp_pool *p, wp_worker *owner, size_t cap, wp_queue **out);
    void (*destroy)(wp_queue *q);
    /* Owner.  false: full (fixed-size queues only). */
    bool (*push)(wp_queue *q, const uint64_t *item, wp_worker *self);
    /* Owner.  false: empty. */
    bool (*take)(wp_queue *q, uint64_t *item, wp_worker *self);
    /* Any thread but the owner. */
    wp_steal_result (*steal)(wp_queue *q, uint64_t *item, wp_worker *thief);
    /* Any thread but the owner: up to max of the oldest items (native
     * steal-half), or NULL if the algorithm has none. */
    size_t (*steal_half)(wp_queue *q, uint64_t *items, size_t max, wp_worker *thief);
    /* Owner: removes up to max items from the end thieves steal from, for a
     * transfer; NULL for the central queue. */
    size_t (*carve)(wp_queue *q, uint64_t *items, size_t max, wp_worker *self);
    /* Any thread: the number of items (exact when nobody is operating on
     * the queue, an estimate otherwise). */
    size_t (*size)(wp_queue *q);
} wp_queue_ops;

/* Common head of every queue. */
struct wp_queue {
    const wp_queue_ops *ops;
    wp_pool *pool;
    unsigned words;
    unsigned owner;
};

/* ---- the pool ---- */
/* What the process function receives: only its address matters (it
 * identifies the worker; see ctx_worker in loop.c). */
struct weft_pool_ctx {
    wp_worker *w;
};

typedef struct wp_retired {
    void *ptr;
    uint64_t epoch;
} wp_retired;

/* Steal-half request cell values (besides a thief's id) and the ready bit
 * of an answer cell. */
enum { WP_REQ_NONE = -1, WP_REQ_BLOCKED = -2 };
#define WP_RESP_READY 0x80000000u

/* What a hosted pool (hosted.c) adds: an inbox of items injected from
 * outside, which workers take from like a victim's queue, and a bell rung
 * when the idle set fills, which the host waits on.  The host's agent, the
 * entry past the workers in wp_pool.workers, takes shares from the workers
 * with the thieves' own operations. */
typedef struct wp_host {
    /* Items in the inbox: written under the lock, peeked without it. */
    _Alignas(WEFT_CACHE_LINE) _Atomic size_t inbox_n;
    pthread_mutex_t lock;
    uint64_t *inbox;
    size_t inbox_cap;
    /* Incremented (and futex-woken) by the worker whose join fills the
     * idle set; the host waits on it with a timeout. */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint32_t bell;
    /* The SIGSEGV handler of the workers' stacks was installed. */
    bool handler;
} wp_host;

/* Sleep word values (sleep.h). */
enum { WP_AWAKE = 0, WP_ASLEEP = 1 };

/* A fork-join worker waiting in this run (runtime/external_queue.h). */
struct weft_waiting_worker;

struct wp_worker {
    /* Line 0: owner-private, hot. */
    _Alignas(WEFT_CACHE_LINE) unsigned id;
    wp_pool *pool;
    wp_queue *q;
    uint64_t rng;         /* victim choice (sys/rng.h) */
    unsigned since_fence; /* items since the last periodic wake point */
    weft_pool_ctx ctx;
    bool in_fn;     /* inside the process function (push is allowed) */
    uint64_t *item; /* the item being processed (words) */
    /* Worker 0 of a run inside a fork-join task: that fork-join worker,
     * which serves RUNs from outside while it waits (run.c); else NULL. */
    const struct weft_waiting_worker *waiting;
    /* Overflow stack (WEFT_POOL_OVERFLOW_SPILL). */
    uint64_t *spill;
    size_t spill_n, spill_cap;
    /* Epoch reclamation: arrays this owner retired. */
    wp_retired *retired;
    size_t n_retired, cap_retired;
    wp_counters ctr;

    /* Steal-half request cell: WP_REQ_NONE, WP_REQ_BLOCKED (idle: ask
     * nobody here), or the id of the thief that asked.  Written by thieves
     * (CAS) and the owner. */
    _Alignas(WEFT_CACHE_LINE) _Atomic int32_t req;
    /* This worker's answer cell as a thief: 0 while waiting, else
     * WP_RESP_READY | number of items in xfer. Written by its victim. */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint32_t resp;
    uint64_t *xfer; /* transfer buffer, steal_half_max items */
    /* Futex word: WP_AWAKE or WP_ASLEEP (sleep.h). */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint32_t sleep_word;
    /* Epoch announcement: (epoch << 1) | 1 inside a steal, 0 outside. */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint64_t ebr_ann;
    pthread_t thread;
    /* 1 once its thread has done its last work (run.c): the caller's join
     * that serves RUNs waits on it, on the monotonic clock. */
    _Atomic uint32_t thread_done;
    /* Its stack (run.c): mapped with a guard below, described for the
     * overflow report while the worker runs on it. */
    void *stack_lo;
    weft_thread_stack stack;
    /* Its track when the run is traced (src/observe/trace.c), else NULL;
     * set before the threads start. */
    weft_trace_track *trace;
#if WEFT_PROFILE
    /* Its items' work and paths (src/observe/profiler.c). */
    weft_profile_pool_meter prof;
#endif
};

struct wp_pool {
    /* Read-only during the run. */
    weft_pool_config cfg;
    const wp_queue_ops *ops;
    unsigned n;
    unsigned words;
    size_t item_size;
    unsigned user_words; /* words of the caller's bytes; words adds WP_PROF_WORDS */
    bool half;           /* steal-half transfers in use */
    /* Items a queue must hold before a thief may take from it: 1, or 2
     * with steal-half transfers and no split function (a transfer takes
     * half, and half of one is nothing).  Thieves, sleepers and wakers
     * all judge "work to take" by it (wp_shareable). */
    unsigned share_min;
    /* A push wakes a sleeper when the queue then holds this many: 2 (the
     * newest item is the owner's next, the one below it can be shared), 1
     * with steal-half and a split function (a transfer splits one item). */
    unsigned wake_min;
    weft_pool_fn fn;
    void *arg;
    /* Set once by weft_pool_cancel; read after every item (relaxed: the
     * run's end is ordered by `done`, below).  On this read-mostly line,
     * away from the idle word's writes. */
    _Atomic uint32_t cancelled;
    /* The workers, and for a hosted pool its agent at index n. */
    wp_worker **workers;
    /* NULL for weft_pool_run; see hosted.c. */
    wp_host *host;
    /* The calling thread is itself waited on by a fork-join worker (a
     * pool's thread, its pool run inside a task): so are this pool's
     * threads (runtime/gate.h).  Set before the threads start. */
    bool caller_waited_on;

    /* Idle set (termination.c): count of members (low half), departures
     * (high half). */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint64_t idle;
    _Atomic uint32_t done;
    /* Start gate: 1 = go, 2 = abort (thread creation failed). */
    _Atomic uint32_t gate;
    /* Workers between their announcement and their wake-up (sleep.h). */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint32_t n_sleeping;
    /* Reclamation epoch. */
    _Alignas(WEFT_CACHE_LINE) _Atomic uint64_t epoch;
    /* The run's tracks when it is traced, else NULL. */
    weft_trace_pool_run *trace;
};

/* True if a queue holding `size` items has work for a thief. */
static inline bool wp_shareable(const wp_pool *p, size_t size) { return size >= p->share_min; }

/* An item of the caller's bytes as the queues hold it: whole words, the
 * last one's padding zeroed (the hidden profiling word is set by the
 * caller of this: wp_item_set_path). */
static inline void wp_item_from_user(const wp_pool *p, uint64_t *buf, const void *item)
{
    if (p->item_size == 8) { /* the common case: one word, no padding */
        memcpy(buf, item, 8);
    } else {
        buf[p->user_words - 1] = 0;
        memcpy(buf, item, p->item_size);
    }
}

#endif
