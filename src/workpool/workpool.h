// SPDX-License-Identifier: Apache-2.0
/* The work pool (include/weft/pool.h): declarations shared by the files
 * of src/workpool.  Not installed.  Internal names start with wp_ (the
 * fork-join runtime's are weft_*), so a reader always knows which of the
 * two a worker, a counter or a sleep belongs to.
 *
 * Files (one concept each):
 *   run.c             configuration, weft_pool_run: set-up, threads, teardown
 *   loop.c            the worker loop: own queue, overflow stack, stealing,
 *                     weft_pool_push, and the owner's wake points
 *   sleep.h           idle workers: the last look, whom to wake, the wake
 *                     points' rules (the sleep itself: src/runtime/parking.h)
 *   termination.c     the idle set: termination detection
 *   transfer.c        steal-half: requests, transfers, coalescing splits
 *   hosted.c          a pool run by a host (the distributed layer, src/dist):
 *                     local quiescence instead of termination, items
 *                     injected from outside, shares taken from outside
 *   ebr.c             epoch-based reclamation (shrinking Chase-Lev)
 *   counters.c        counters: sum and print
 *   queues/table.c    the table of queue kinds; slot arrays and ring
 *                     queues, the pieces the algorithms share
 *   queues/abp.c, chase_lev.c, idem_lifo.c, idem_fifo.c, idem_deque.c,
 *   duplicating.c, central.c: one algorithm each
 * sleep.h holds the sleep/wake functions (static inline) for loop.c and
 * termination.c.
 * The design note is docs/pool.md.
 */
#ifndef WEFT_WORKPOOL_H
#define WEFT_WORKPOOL_H

#include <weft/weft.h>

#include "runtime/diagnostics.h"
#include "runtime/memory.h"
#include "runtime/overflow.h"
#include "observe/hooks.h"
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

#include "workpool/hosted.h"


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

extern const wp_queue_ops weft__wp_abp_ops, weft__wp_chase_lev_ops, weft__wp_chase_lev_shrink_ops,
    weft__wp_idem_lifo_ops, weft__wp_idem_fifo_ops, weft__wp_idem_deque_ops,
    weft__wp_duplicating_ops, weft__wp_central_ops;
const wp_queue_ops *weft__wp_queue_ops_of(weft_queue_kind kind);

/* ---- slot arrays: items as relaxed atomic words, so that a thief reading a
 * slot the owner overwrites is a race the algorithm resolves (its CAS or
 * validation fails and the read is dropped), not undefined behaviour ---- */
static inline void wp_slot_store(_Atomic uint64_t *slot, const uint64_t *src, unsigned words)
{
    for (unsigned i = 0; i < words; i++)
        /* Relaxed: published by the queue's release of its index word. */
        atomic_store_explicit(&slot[i], src[i], memory_order_relaxed);
}

static inline void wp_slot_load(_Atomic uint64_t *slot, uint64_t *dst, unsigned words)
{
    for (unsigned i = 0; i < words; i++)
        /* Relaxed: ordered by the queue's acquire of its index word; a torn
         * read is only ever kept if the queue's CAS/validation succeeds. */
        dst[i] = atomic_load_explicit(&slot[i], memory_order_relaxed);
}

/* A circular array of 2^k slots of `words` words (zeroed).  `next` links
 * retired arrays. */
typedef struct wp_ring {
    size_t cap, mask;
    struct wp_ring *next;
    _Atomic uint64_t slots[];
} wp_ring;

wp_ring *weft__wp_ring_new(size_t cap, unsigned words);
static inline _Atomic uint64_t *wp_ring_slot(wp_ring *r, uint64_t index, unsigned words)
{
    return &r->slots[(size_t)(index & r->mask) * words];
}
/* Frees a ring and every ring linked behind it. */
void weft__wp_ring_free_list(wp_ring *r);
/* Copies positions [lo, hi) of one ring into the same positions of another
 * (the owner's resize; the slots are read as a thief would). */
void weft__wp_ring_copy(wp_ring *from, wp_ring *to, uint64_t lo, uint64_t hi, unsigned words);
/* Reads the k items at positions from, from+1, ... into items (a carve). */
void weft__wp_ring_read(wp_ring *r, uint64_t from, size_t k, uint64_t *items, unsigned words);
/* The carve of a queue whose owner takes from the end thieves steal from
 * (the idempotent LIFO and FIFO): up to max owner takes. */
size_t weft__wp_carve_by_takes(wp_queue *q, uint64_t *items, size_t max, wp_worker *self);
/* A queue's size from its two 64-bit indices, read at different moments
 * (so possibly crossed): hi - lo, or 0. */
static inline size_t wp_items_between(uint64_t lo, uint64_t hi)
{
    return (int64_t)(hi - lo) > 0 ? (size_t)(hi - lo) : 0;
}
/* Rounds up to a power of two (at least 2). */
size_t weft__wp_pow2(size_t n);

/* A queue on a ring that grows and whose thieves load the ring pointer:
 * Chase-Lev and the three idempotent queues.  `own` is the owner's copy of
 * the current ring, `shared` the one thieves load (acquire), `retired` the
 * old rings, freed with the queue (a thief may still read an old ring
 * during the run; the shrinking Chase-Lev retires through ebr.c instead).
 * Each queue puts one as its first member. */
typedef struct wp_ring_queue {
    wp_queue base;
    wp_ring *own;
    wp_ring *retired;
    _Atomic(wp_ring *) shared;
} wp_ring_queue;

/* Allocates a queue of `size` bytes (line-aligned, a wp_ring_queue first)
 * with a ring of cap slots; NULL without memory. */
void *weft__wp_ring_queue_new(size_t size, wp_pool *p, size_t cap);
/* The destroy operation of a ring queue: frees the rings and the queue. */
void weft__wp_ring_queue_destroy(wp_queue *q);
/* Growth: a ring of twice the capacity holding positions [lo, hi) of the
 * current one at the same positions, published to thieves with release;
 * the old ring goes on `retired`.  False, changing nothing, at max_cap or
 * without memory. */
bool weft__wp_ring_queue_grow(wp_ring_queue *q, uint64_t lo, uint64_t hi, size_t max_cap);

/* ---- epoch-based reclamation (ebr.c) ---- */
void weft__wp_ebr_enter(wp_worker *w); /* thief: before loading the array */
void weft__wp_ebr_exit(wp_worker *w);  /* thief: after the last access */
/* Owner, after unlinking ptr (its store of the new array pointer). */
void weft__wp_ebr_retire(wp_worker *owner, void *ptr);
/* Owner: tries to advance the epoch and frees what is safe. */
void weft__wp_ebr_collect(wp_worker *owner);
/* After the run (no thread left): frees everything retired. */
void weft__wp_ebr_drain(wp_worker *w);

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
    /* Its stack (run.c): mapped with a guard below, described for the
     * overflow report while the worker runs on it. */
    void *stack_lo;
    weft_thread_stack stack;
    /* Its track when the run is traced (src/observe/trace.c), else NULL;
     * set before the threads start. */
    weft_trace_track *trace;
#if WEFT_PROFILE
    /* Its items' work and paths (src/observe/profile.c). */
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

/* run.c: the pieces of a run, shared by weft_pool_run and hosted.c
 * (weft__wp_pool_validate, exported for the dist library, is in hosted.h) */
/* A pool with its workers and queues; hosted: with a host and an agent. */
wp_pool *weft__wp_pool_create(const weft_pool_config *cfg, weft_pool_fn fn, void *arg, bool hosted,
                              int *err);
void weft__wp_pool_destroy(wp_pool *p);
/* The initial items, round-robin, before the threads start; false if they
 * do not fit a fixed-size queue with the FAIL policy. */
bool weft__wp_pool_seed(wp_pool *p, const void *initial, size_t n_initial);
/* Threads for workers first .. n-1, waiting at the gate; returns the index
 * of the first worker without one (n if all were created). */
unsigned weft__wp_pool_start_threads(wp_pool *p, unsigned first);
/* Opens the gate: go, or tell the threads to exit. */
void weft__wp_pool_open_gate(wp_pool *p, bool go);
void weft__wp_pool_join_threads(wp_pool *p, unsigned first, unsigned end);

/* loop.c */
void weft__wp_worker_loop(wp_worker *w);

/* termination.c: the idle set */
/* Joins the idle set (no work left, queue empty); true if that ended the run. */
bool weft__wp_idle_join(wp_worker *w);
/* A member's look at the set while it searches; true if the run is over. */
bool weft__wp_idle_recheck(wp_worker *w);
/* Leaves the idle set, before a steal attempt. */
void weft__wp_idle_leave(wp_worker *w);
/* The run is over: sets done and wakes every sleeper. */
void weft__wp_finish(wp_pool *p);
/* The idle set is full (value v) and every queue and the inbox are empty,
 * confirmed by a CAS of the idle word: nothing can be created any more
 * until items are injected.  Ends nothing by itself. */
bool weft__wp_quiescent_at(wp_pool *p, uint64_t v);
/* Pushes to the own queue, or on "full" to the overflow stack; a user push
 * with the FAIL policy is refused instead (false). */
bool weft__wp_local_push(wp_worker *w, const uint64_t *item, bool user);

/* transfer.c */
void weft__wp_block_requests(wp_worker *w);
void weft__wp_unblock_requests(wp_worker *w);
void weft__wp_serve_request(wp_worker *w);
/* Thief: asks victim v for half its items; true if some arrived (pushed
 * to the thief's own queue). */
bool weft__wp_request_half(wp_worker *w, wp_worker *v);
/* Thief: native steal-half (duplicating queue); true if it got items. */
bool weft__wp_steal_half_native(wp_worker *w, wp_worker *v);
/* Thief: posts a steal-half request to v and waits for the answer; the
 * number of items v put in w->xfer (0: declined or withdrawn). */
size_t weft__wp_request_items(wp_worker *w, wp_worker *v);

static inline void wp_poll_requests(wp_worker *w)
{
    /* Relaxed: a peek; serving claims the request with a CAS. */
    if (WEFT_UNLIKELY(atomic_load_explicit(&w->req, memory_order_relaxed) >= 0))
        weft__wp_serve_request(w);
}

/* hosted.c: a worker's look at the inbox; true if it took items (pushed
 * to its own queue).  Called outside the idle set. */
bool weft__wp_host_take_inbox(wp_worker *w);

/* counters.c */
void weft__wp_stats_sum(wp_pool *p, uint64_t initial, weft_pool_stats *out);

/* The calling thread's worker (NULL outside a pool's process function). */
extern __thread wp_worker *weft__wp_tls __attribute__((tls_model("initial-exec")));


/* An item of the caller's bytes as the queues hold it: whole words, the
 * last one's padding zeroed (the hidden profiling word is the caller's
 * of this, WP_PROF_*). */
static inline void wp_item_from_user(const wp_pool *p, uint64_t *buf, const void *item)
{
    if (p->item_size == 8) { /* the common case: one word, no padding */
        memcpy(buf, item, 8);
    } else {
        buf[p->user_words - 1] = 0;
        memcpy(buf, item, p->item_size);
    }
}

/* The profiler's hooks (docs/profiling.md, "Work pool runs"): an item's
 * hidden word is set at its push (0 for the run's initial items) and read
 * when it is processed.  Nothing without -DWEFT_PROFILE=ON. */
#if WEFT_PROFILE
#define WP_PROF_PATH_SET(p, buf, path) ((buf)[(p)->words - 1] = (path))
#define WP_PROF_PATH_COPY(p, to, from) ((to)[(p)->words - 1] = (from)[(p)->words - 1])
#define WP_PROF_PUSHED(w, buf) \
    WP_PROF_PATH_SET((w)->pool, (buf), weft__profile_pool_item_path(&(w)->prof))
#define WP_PROF_ITEM_BEGIN(w, item) \
    weft__profile_pool_item_begin(&(w)->prof, (item)[(w)->pool->words - 1])
#define WP_PROF_ITEM_END(w) weft__profile_pool_item_end(&(w)->prof)
#else
#define WP_PROF_PATH_SET(p, buf, path) ((void)0)
#define WP_PROF_PATH_COPY(p, to, from) ((void)0)
#define WP_PROF_PUSHED(w, buf) ((void)0)
#define WP_PROF_ITEM_BEGIN(w, item) ((void)0)
#define WP_PROF_ITEM_END(w) ((void)0)
#endif

/* The tracer's hooks (docs/profiling.md): a worker's state changes
 * (processing a batch of items, looking for work, asleep), steals and
 * transfers, wake-ups.  Nothing without -DWEFT_TRACE=ON; one test of the
 * track pointer while the run is not traced. */
#if WEFT_TRACE
static inline weft_trace_counts wp_trace_counts(const wp_worker *w)
{
    return (weft_trace_counts){w->ctr.processed, w->ctr.steal_empty + w->ctr.steal_aborts};
}
static inline void wp_trace_push(wp_worker *w, weft_trace_frame *f, int state)
{
    f->state = WEFT_TRACE_NONE;
    if (w->trace)
        weft__trace_track_push(w->trace, f, state, wp_trace_counts(w));
}
#define WP_TRACE_SET(w, state) \
    ((w)->trace ? weft__trace_track_set((w)->trace, (state), wp_trace_counts(w)) : (void)0)
#define WP_TRACE_PUSH(w, var, state) \
    weft_trace_frame var; \
    wp_trace_push((w), &var, (state))
#define WP_TRACE_POP(w, var) \
    ((w)->trace ? weft__trace_track_pop((w)->trace, &(var), wp_trace_counts(w)) : (void)0)
#define WP_TRACE_STEAL(w, transfer, victim, items) \
    ((w)->trace \
         ? weft__trace_track_steal((w)->trace, (transfer), (victim), (items), wp_trace_counts(w)) \
         : (void)0)
#define WP_TRACE_WAKE(self, woken) \
    ((self)->trace ? weft__trace_track_wake((self)->trace, (woken)) : (void)0)
#else
#define WP_TRACE_SET(w, state) ((void)0)
#define WP_TRACE_PUSH(w, var, state) ((void)0)
#define WP_TRACE_POP(w, var) ((void)0)
#define WP_TRACE_STEAL(w, transfer, victim, items) ((void)(items))
#define WP_TRACE_WAKE(self, woken) ((void)0)
#endif

#endif
