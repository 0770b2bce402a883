/* The work pool (include/weft/pool.h): declarations shared by the files
 * of src/workpool.  Not installed.
 *
 * Files (one concept each):
 *   run.c             configuration, weft_pool_run: set-up, threads, teardown
 *   loop.c            the worker loop, idle set and termination, sleep/wake
 *   transfer.c        steal-half: requests, transfers, coalescing splits
 *   ebr.c             epoch-based reclamation (shrinking Chase-Lev)
 *   counters.c        counters: sum and print
 *   queues/table.c    the table of queue kinds, slot arrays
 *   queues/abp.c, chase_lev.c, idem_lifo.c, idem_fifo.c, idem_deque.c,
 *   duplicating.c, central.c: one algorithm each
 * The design note is docs/pool.md.
 */
#ifndef WEFT_WORKPOOL_H
#define WEFT_WORKPOOL_H

#include <weft/weft.h>

#include "runtime/diagnostics.h"
#include "runtime/observe.h"
#include "sys/clock.h"
#include "sys/cpu.h"
#include "sys/futex.h"
#include "sys/rng.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <weft/pool.h>

#define POOL_LINE 64
#define POOL_MAX_WORDS (WEFT_POOL_MAX_ITEM_SIZE / 8)

typedef struct pool pool;
typedef struct pool_worker pool_worker;
typedef struct pq pq;

/* ---- counters: owner-written plain fields, summed after the run ---- */
typedef struct pool_counters {
    uint64_t pushed, processed, steals, steal_empty, steal_aborts, stolen_items;
    uint64_t requests, splits, grows, shrinks, overflows, reclaimed, sleeps, wakes;
} pool_counters;

/* ---- queues ---- */
typedef enum pq_result { PQ_EMPTY = 0, PQ_OK = 1, PQ_ABORT = 2 } pq_result;

/* Every queue operation says who calls it: the owner (push, take, carve)
 * or any thread (steal, steal_half, size).  Items are `words` 64-bit words. */
typedef struct pq_ops {
    weft_queue_kind kind;
    const char *name;
    bool idempotent;  /* may deliver an item more than once */
    bool fixed;       /* push may report "full" */
    bool take_fences; /* take runs a seq_cst fence after its own stores */
    bool shared;      /* one queue for the whole pool */
    /* Creates worker `owner`'s queue (initial capacity cap, a power of two). */
    int (*create)(pool *p, pool_worker *owner, size_t cap, pq **out);
    void (*destroy)(pq *q);
    /* Owner.  false: full (fixed-size queues only). */
    bool (*push)(pq *q, const uint64_t *item, pool_worker *self);
    /* Owner.  false: empty. */
    bool (*take)(pq *q, uint64_t *item, pool_worker *self);
    /* Any thread but the owner. */
    pq_result (*steal)(pq *q, uint64_t *item, pool_worker *thief);
    /* Any thread but the owner: up to max of the oldest items (native
     * steal-half), or NULL if the algorithm has none. */
    size_t (*steal_half)(pq *q, uint64_t *items, size_t max, pool_worker *thief);
    /* Owner: removes up to max items from the end thieves steal from, for a
     * transfer; NULL for the central queue. */
    size_t (*carve)(pq *q, uint64_t *items, size_t max, pool_worker *self);
    /* Any thread: the number of items (exact when nobody is operating on
     * the queue, an estimate otherwise). */
    size_t (*size)(pq *q);
} pq_ops;

/* Common head of every queue. */
struct pq {
    const pq_ops *ops;
    pool *pool;
    unsigned words;
    unsigned owner;
};

extern const pq_ops pq_abp_ops, pq_chaselev_ops, pq_chaselev_shrink_ops, pq_idem_lifo_ops,
    pq_idem_fifo_ops, pq_idem_deque_ops, pq_dup_ops, pq_central_ops;
const pq_ops *pq_ops_of(weft_queue_kind kind);

/* ---- slot arrays: items as relaxed atomic words, so that a thief reading a
 * slot the owner overwrites is a race the algorithm resolves (its CAS or
 * validation fails and the read is dropped), not undefined behaviour ---- */
static inline void pq_slot_store(_Atomic uint64_t *slot, const uint64_t *src, unsigned words)
{
    for (unsigned i = 0; i < words; i++)
        /* Relaxed: published by the queue's release of its index word. */
        atomic_store_explicit(&slot[i], src[i], memory_order_relaxed);
}

static inline void pq_slot_load(_Atomic uint64_t *slot, uint64_t *dst, unsigned words)
{
    for (unsigned i = 0; i < words; i++)
        /* Relaxed: ordered by the queue's acquire of its index word; a torn
         * read is only ever kept if the queue's CAS/validation succeeds. */
        dst[i] = atomic_load_explicit(&slot[i], memory_order_relaxed);
}

/* A circular array of 2^k slots of `words` words (zeroed).  `next` links
 * retired arrays. */
typedef struct pq_ring {
    size_t cap, mask;
    struct pq_ring *next;
    _Atomic uint64_t slots[];
} pq_ring;

pq_ring *pq_ring_new(size_t cap, unsigned words);
static inline _Atomic uint64_t *pq_ring_slot(pq_ring *r, uint64_t index, unsigned words)
{
    return &r->slots[(size_t)(index & r->mask) * words];
}
/* Frees a ring and every ring linked behind it. */
void pq_ring_free_list(pq_ring *r);
/* Copies positions [lo, hi) of one ring into the same positions of another
 * (the owner's resize; the slots are read as a thief would). */
void pq_ring_copy(pq_ring *from, pq_ring *to, uint64_t lo, uint64_t hi, unsigned words);
/* Growth of the idempotent queues: a ring of twice the capacity holding
 * positions [lo, hi) of *own at the same positions, published to thieves
 * through *shared; the old ring goes on *retired (a thief may still read
 * it) until the run ends.  False, changing nothing, at max_cap or without
 * memory. */
bool pq_ring_double(_Atomic(pq_ring *) *shared, pq_ring **own, pq_ring **retired, uint64_t lo,
                    uint64_t hi, size_t max_cap, unsigned words);
/* Rounds up to a power of two (at least 2). */
size_t pq_pow2(size_t n);

/* ---- epoch-based reclamation (ebr.c) ---- */
void pool_ebr_enter(pool_worker *w);  /* thief: before loading the array */
void pool_ebr_exit(pool_worker *w);   /* thief: after the last access */
/* Owner, after unlinking ptr (its store of the new array pointer). */
void pool_ebr_retire(pool_worker *owner, void *ptr);
/* Owner: tries to advance the epoch and frees what is safe. */
void pool_ebr_collect(pool_worker *owner);
/* After the run (no thread left): frees everything retired. */
void pool_ebr_drain(pool_worker *w);

/* ---- the pool ---- */
/* What the process function receives: only its address matters (it
 * identifies the worker; see ctx_worker in worker.c). */
struct weft_pool_ctx {
    pool_worker *w;
};

typedef struct pool_retired {
    void *ptr;
    uint64_t epoch;
} pool_retired;

enum { REQ_NONE = -1, REQ_BLOCKED = -2 };
#define RESP_READY 0x80000000u

struct pool_worker {
    /* Line 0: owner-private, hot. */
    _Alignas(POOL_LINE) unsigned id;
    pool *pool;
    pq *q;
    uint64_t rng;
    unsigned since_fence;  /* items since the last periodic fence */
    weft_pool_ctx ctx;
    bool in_fn;            /* inside the process function (push is allowed) */
    uint64_t *item;        /* the item being processed (words) */
    /* Overflow stack (WEFT_POOL_OVERFLOW_SPILL). */
    uint64_t *spill;
    size_t spill_n, spill_cap;
    /* Epoch reclamation: arrays this owner retired. */
    pool_retired *retired;
    size_t n_retired, cap_retired;
    pool_counters ctr;

    /* Steal-half request cell: REQ_NONE, REQ_BLOCKED (idle: ask nobody
     * here), or the id of the thief that asked.  Written by thieves (CAS)
     * and the owner. */
    _Alignas(POOL_LINE) _Atomic int32_t req;
    /* This worker's answer cell as a thief: 0 while waiting, else
     * RESP_READY | number of items in xfer. Written by its victim. */
    _Alignas(POOL_LINE) _Atomic uint32_t resp;
    uint64_t *xfer;        /* transfer buffer, steal_half_max items */
    /* Futex word: SLEEP_AWAKE or SLEEP_ASLEEP. */
    _Alignas(POOL_LINE) _Atomic uint32_t sleep_word;
    /* Epoch announcement: (epoch << 1) | 1 inside a steal, 0 outside. */
    _Alignas(POOL_LINE) _Atomic uint64_t ebr_ann;
    pthread_t thread;
    /* Its track when the run is traced (src/runtime/trace.c), else NULL;
     * set before the threads start. */
    weft_trace_track *trace;
};

enum { SLEEP_AWAKE = 0, SLEEP_ASLEEP = 1 };

struct pool {
    /* Read-only during the run. */
    weft_pool_config cfg;
    const pq_ops *ops;
    unsigned n;
    unsigned words;
    size_t item_size;
    bool half;             /* steal-half transfers in use */
    unsigned wake_min;     /* a push wakes a sleeper when the queue holds this many */
    weft_pool_fn fn;
    void *arg;
    pool_worker **workers;

    /* Idle set (worker.c): count of members (low half), departures (high). */
    _Alignas(POOL_LINE) _Atomic uint64_t idle;
    _Atomic uint32_t done;
    /* Start gate: 1 = go, 2 = abort (thread creation failed). */
    _Atomic uint32_t gate;
    /* Sleepers. */
    _Alignas(POOL_LINE) _Atomic uint32_t n_sleeping;
    /* Reclamation epoch. */
    _Alignas(POOL_LINE) _Atomic uint64_t epoch;
    /* The run's tracks when it is traced, else NULL. */
    weft_trace_pool_run *trace;
};

/* worker.c */
void pool_worker_loop(pool_worker *w);
/* Longest sleep before a sleeper looks again on its own (ms), the safety net
 * behind the wake-ups; 0: sleep until woken (tests use it to prove that no
 * wake-up is lost).  Not synchronised: set it while no pool runs. */
extern unsigned pool_sleep_max_ms;
void pool_wake_one(pool *p, pool_worker *self);
void pool_wake_all(pool *p);
/* Pushes to the own queue, or on "full" to the overflow stack; a user push
 * with the FAIL policy is refused instead (false). */
bool pool_local_push(pool_worker *w, const uint64_t *item, bool user);

/* transfer.c */
void pool_block_requests(pool_worker *w);
void pool_unblock_requests(pool_worker *w);
void pool_serve_request(pool_worker *w);
/* Thief: asks victim v for half its items; true if some arrived (pushed
 * to the thief's own queue). */
bool pool_request_half(pool_worker *w, pool_worker *v);
/* Thief: native steal-half (duplicating queue); true if it got items. */
bool pool_steal_half_native(pool_worker *w, pool_worker *v);

static inline void pool_poll_requests(pool_worker *w)
{
    /* Relaxed: a peek; serving claims the request with a CAS. */
    if (WEFT_UNLIKELY(atomic_load_explicit(&w->req, memory_order_relaxed) >= 0))
        pool_serve_request(w);
}

/* stats.c */
void pool_stats_sum(pool *p, uint64_t initial, weft_pool_stats *out);

/* The tracer's hooks (docs/profiling.md): a worker's state changes
 * (processing a batch of items, looking for work, asleep), steals and
 * transfers, wake-ups.  Nothing without -DWEFT_TRACE=ON; one test of the
 * track pointer while the run is not traced. */
#if WEFT_TRACE
static inline weft_trace_counts pool_trace_counts(const pool_worker *w)
{
    return (weft_trace_counts){w->ctr.processed, w->ctr.steal_empty + w->ctr.steal_aborts};
}
static inline void pool_trace_push(pool_worker *w, weft_trace_frame *f, int state)
{
    f->state = WEFT_TRACE_NONE;
    if (w->trace)
        weft_trace_track_push(w->trace, f, state, pool_trace_counts(w));
}
#define POOL_TRACE_SET(w, state)                                                              \
    ((w)->trace ? weft_trace_track_set((w)->trace, (state), pool_trace_counts(w)) : (void)0)
#define POOL_TRACE_PUSH(w, var, state)                                                        \
    weft_trace_frame var;                                                                     \
    pool_trace_push((w), &var, (state))
#define POOL_TRACE_POP(w, var)                                                                \
    ((w)->trace ? weft_trace_track_pop((w)->trace, &(var), pool_trace_counts(w)) : (void)0)
#define POOL_TRACE_STEAL(w, transfer, victim, items)                                          \
    ((w)->trace ? weft_trace_track_steal((w)->trace, (transfer), (victim), (items),          \
                                         pool_trace_counts(w))                                \
                : (void)0)
#define POOL_TRACE_WAKE(self, woken)                                                          \
    ((self)->trace ? weft_trace_track_wake((self)->trace, (woken)) : (void)0)
#else
#define POOL_TRACE_SET(w, state) ((void)0)
#define POOL_TRACE_PUSH(w, var, state) ((void)0)
#define POOL_TRACE_POP(w, var) ((void)0)
#define POOL_TRACE_STEAL(w, transfer, victim, items) ((void)(items))
#define POOL_TRACE_WAKE(self, woken) ((void)0)
#endif

/* The calling thread's worker (NULL outside a pool's process function). */
extern __thread pool_worker *pool_tls __attribute__((tls_model("initial-exec")));

#endif
