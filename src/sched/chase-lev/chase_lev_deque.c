// SPDX-License-Identifier: Apache-2.0
/* The Chase-Lev scheduler: a work-stealing deque of task pointers on a
 * growable circular array (Chase and Lev, "Dynamic Circular Work-Stealing
 * Deque", SPAA 2005), with the C11 orders of Lê et al. (PPoPP 2013): the
 * indices and their fences are <weft/bits/chase_lev.h>, shared with the
 * work pool's Chase-Lev queue (src/workpool/queues/chase_lev.c).  Owner
 * side fast paths: owner.h.
 *
 * What is the scheduler's own and not the pool's queue's (docs/pool.md,
 * "One Chase-Lev protocol"): the array holds task pointers and the task
 * is handed over in its state word (below); the owner's push and pop are
 * inline in task code, so the push keeps a lower bound of top (top_seen)
 * instead of loading it, and a pop that loses the last task joins it
 * (weft__join_stolen) instead of reporting "empty"; an interrupt's frame
 * pushes into an array of its own while freeze/thaw move top over the
 * hidden tasks; sleepers' wake requests are read after the pop's fence.
 *
 *     top ............... bottom
 *     | oldest: thieves    | newest: the owner pushes and pops here
 *
 * - top: only ever increased by a successful CAS (thieves, and the owner
 *   racing them for the last task); the owner also moves it while an
 *   interrupt freezes the deque, when no steal is in flight.
 * - bottom: written by the owner only; own.bottom is its private copy.
 * - The array holds pointers into weft's direct task stack; the descriptor
 *   (arguments, state, result) stays where SPAWN wrote it, and its state
 *   word carries the hand-over exactly as with the other schedulers:
 *   TASK(wrapper) -> STOLEN(thief) -> DONE.
 *
 * Sleepers: every pushed task is stealable at once, so a worker going to
 * sleep (sleep.c) checks `top < bottom` on every deque, and also posts a
 * wake request on each (shared.wake_req).  The owner reads the request at
 * every push and, after its fence, at every pop; the fence makes the pair
 * (owner: store bottom; fence; load request) / (sleeper: seq_cst store
 * request; seq_cst load bottom) a Dekker pair, so a sleeper that missed a
 * task is woken at the owner's next SYNC at the latest.  (Until then the
 * task is not lost: its owner runs it itself if nobody steals it.)
 */
#include "runtime/sched.h"          /* what a scheduler implements */
#include "runtime/sched_services.h" /* what it may use of the runtime */

#include <stdlib.h>

#define INITIAL_SIZE 256 /* tasks; doubles when full */

static weft_cl_array *array_new(int64_t size, weft_cl_array *retired)
{
    weft_cl_array *a = malloc(sizeof *a + (size_t)size * sizeof a->slot[0]);
    if (!a)
        weft__fatal("out of memory growing the task deque to %lld entries", (long long)size);
    a->retired = retired;
    a->mask = size - 1;
    for (int64_t i = 0; i < size; i++)
        atomic_init(&a->slot[i], NULL);
    return a;
}

void weft__sched_init(weft_worker *w)
{
    w->own.bottom = 0;
    w->own.top_seen = 0;
    w->own.array = array_new(INITIAL_SIZE, NULL);
    w->frame_floor = w->dq; /* the root frame may join anything above */
    /* Before any thread can see this worker (published by thread creation). */
    atomic_init(&w->shared.top, 0);
    atomic_init(&w->shared.bottom, 0);
    atomic_init(&w->shared.array, w->own.array);
    atomic_init(&w->shared.wake_req, 0);
}

/* Called at stop (lifecycle.c): no thread uses the deque any more. */
void weft__sched_destroy(weft_worker *w)
{
    weft_cl_array *a = w->own.array;
    while (a) {
        weft_cl_array *next = a->retired;
        free(a);
        a = next;
    }
    w->own.array = NULL;
}

/* ---- owner side ---- */

/* The push found the array possibly full: re-read top, grow if it is. */
void weft__cl_push_slow(weft_worker *w, weft_task *t)
{
    int64_t b = w->own.bottom;
    /* Entries below top are the thieves' and may be overwritten only once
     * we have seen them taken. */
    int64_t top = weft__cl_owner_top(&w->shared.top);
    w->own.top_seen = top;
    weft_cl_array *a = w->own.array;
    if (b - top >= a->mask) {
        /* Keep what thieves may still take. */
        int64_t from = top;
        int64_t size = (a->mask + 1) * 2;
        while (b - from >= size - 1)
            size *= 2;
        weft_cl_array *bigger = array_new(size, a);
        for (int64_t i = from; i < b; i++)
            /* Relaxed (both): our own entries; the new array is published
             * by the release store below. */
            atomic_store_explicit(&bigger->slot[i & bigger->mask],
                                  atomic_load_explicit(&a->slot[i & a->mask], memory_order_relaxed),
                                  memory_order_relaxed);
        /* Release: a thief that reads the new array (acquire) sees its
         * entries.  The old one stays readable for thieves still using it:
         * the entries they can take there are the same. */
        atomic_store_explicit(&w->shared.array, bigger, memory_order_release);
        w->own.array = bigger;
        a = bigger;
        WEFT_COUNT(w, sched.grows, 1);
    }
    /* Relaxed: published by the release store of bottom. */
    atomic_store_explicit(&a->slot[b & a->mask], t, memory_order_relaxed);
    weft__cl_publish(&w->shared.bottom, b + 1);
    w->own.bottom = b + 1;
    /* Relaxed: as in weft_cl_push. */
    if (atomic_load_explicit(&w->shared.wake_req, memory_order_relaxed))
        weft__cl_serve_wake_req(w);
}

void weft__cl_serve_wake_req(weft_worker *w)
{
    /* Nothing to share: keep the request for the push that will share (a
     * sleeper asks only once; clearing it here lost it).  Relaxed top:
     * thieves only raise it, so a stale value errs towards waking. */
    if (w->own.bottom - atomic_load_explicit(&w->shared.top, memory_order_relaxed) <= 0)
        return;
    WEFT_RACE_POINT(WEFT_RP_OWNER_PUBLISHED); /* tasks stealable, request not yet cleared */
    /* seq_cst: clear before looking for sleepers; a sleeper that posts a
     * new request after this exchange is seen at the next push, pop or
     * poll. */
    atomic_exchange_explicit(&w->shared.wake_req, 0, memory_order_seq_cst);
    weft__wake_for_work(w);
}

/* SYNC when the fast path saw top >= b: t (at index b) is the last task,
 * raced for by thieves, or it is gone.  bottom_shared is b already. */
bool weft__cl_sync_slow(weft_worker *w, weft_task *t)
{
    int64_t b = w->own.bottom - 1;
    if (WEFT_UNLIKELY(b < 0))
        weft__fatal("SYNC or DROP without a matching SPAWN on worker %u "
                    "(nothing is spawned in this task)",
                    w->id);
    weft_sync_slot_check(w, t);
    /* Relaxed: after the fast path's fence. */
    int64_t top = atomic_load_explicit(&w->shared.top, memory_order_relaxed);
    bool ours = false;
    if (top == b) {
        /* The last task: take it with the same CAS thieves use. */
        WEFT_RACE_POINT(WEFT_RP_OWNER_BEFORE_RECLAIM);
        ours = weft__cl_claim(&w->shared.top, &top, b + 1);
        WEFT_RACE_POINT(WEFT_RP_OWNER_RECLAIMED); /* won or lost: `ours` says which */
    }
    /* Empty now either way: top == b + 1. */
    weft__cl_restore(&w->shared.bottom, b + 1);
    w->own.bottom = b + 1;
    w->own.top_seen = b + 1;
    if (!ours) {
        /* Stolen: wait for it while stealing (src/runtime/steal.c). */
        weft__join_stolen(w, t);
        WEFT_RACE_POINT(WEFT_RP_OWNER_STOLEN_JOINED);
    }
    /* Relaxed: our slot again (DONE seen with acquire, or never stolen);
     * EMPTY keeps the head-discovery invariant. */
    atomic_store_explicit(&t->state, WEFT_STATE_EMPTY, memory_order_relaxed);
    return !ours;
}

/* ---- thief side ---- */

weft_steal_result weft__sched_steal(weft_worker *thief, weft_worker *victim, bool leap,
                                    weft_task **out, uintptr_t *wrapper)
{
    (void)leap; /* any task may be taken */
    /* We see the owner's decremented bottom or it sees our CAS; the slot
     * and the descriptor below bottom are visible. */
    int64_t top;
    int64_t bottom = weft__cl_steal_window(&victim->shared.top, &victim->shared.bottom, &top);
    if (top >= bottom)
        return WEFT_STEAL_NONE;
    /* Acquire: pairs with the release store of a grown array. */
    weft_cl_array *a = atomic_load_explicit(&victim->shared.array, memory_order_acquire);
    /* Relaxed: the acquire of bottom (or of the array) ordered it. */
    weft_task *t = atomic_load_explicit(&a->slot[top & a->mask], memory_order_relaxed);
    WEFT_RACE_POINT(WEFT_RP_THIEF_BEFORE_CLAIM);
    /* One total order with the owner's CAS for the last task and its pop
     * fence. */
    if (!weft__cl_claim(&victim->shared.top, &top, top + 1)) {
        WEFT_RACE_POINT(WEFT_RP_THIEF_LOST);
        return WEFT_STEAL_BUSY;
    }
    WEFT_RACE_POINT(WEFT_RP_THIEF_CLAIMED);
    /* Relaxed: the acquire of bottom made the descriptor visible. */
    *wrapper = atomic_load_explicit(&t->state, memory_order_relaxed);
    /* Relaxed: STOLEN(thief) only tells the joiner whom to leapfrog. */
    atomic_store_explicit(&t->state, WEFT_STATE_STOLEN(thief), memory_order_relaxed);
    *out = t;
    return top + 1 < bottom ? WEFT_STEAL_OK_MORE : WEFT_STEAL_OK;
}

weft_worker *weft__sched_giver(weft_worker *thief, weft_worker *victim)
{
    (void)thief;
    return victim; /* the victim owns every task in its deque */
}

bool weft__sched_has_work_for(weft_worker *sleeper, weft_worker *victim)
{
    (void)sleeper; /* any worker may steal any task */
    /* seq_cst (both): the sleeper's half of the Dekker pairs (sleep.c). */
    int64_t top = atomic_load_explicit(&victim->shared.top, memory_order_seq_cst);
    return top < atomic_load_explicit(&victim->shared.bottom, memory_order_seq_cst);
}

void weft__sched_ask_for_sleeper(weft_worker *victim, weft_worker *sleeper)
{
    (void)sleeper;
    /* Test first: don't bounce the line if a request is pending.  seq_cst
     * (load and store): the sleeper's half of the Dekker pair with the
     * owner's pop fence (see the top of this file) and with the owner's
     * seq_cst clear-then-count in weft__cl_serve_wake_req: a relaxed test
     * could read a 1 the owner has already cleared (C11 lets a relaxed
     * load read a stale value) and so skip the store after the owner
     * stopped looking at the sleeper counts. */
    if (!atomic_load_explicit(&victim->shared.wake_req, memory_order_seq_cst))
        atomic_store_explicit(&victim->shared.wake_req, 1, memory_order_seq_cst);
}

/* ---- interrupts: hide the deque below head, and bring it back ---- */

void weft__sched_freeze(weft_worker *w, weft_task *head, weft_sched_saved *saved)
{
    (void)head; /* the frame's tasks go on at bottom */
    int64_t b = w->own.bottom;
    /* Move top up to bottom: thieves see an empty deque, and a thief's CAS
     * on an older top fails.  seq_cst: one order with their CASes. */
    int64_t top = atomic_load_explicit(&w->shared.top, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(&w->shared.top, &top, b, memory_order_seq_cst,
                                                  memory_order_relaxed))
        ;
    /* top <= b always: thieves never take past bottom. */
    saved->top = top;
    saved->bottom = b;
    /* The frame pushes into an array of its own: the hidden entries
     * [top, b) stay in theirs, which no push of the frame (however many,
     * nested interrupts too) can reach. */
    saved->array = w->own.array;
    weft_cl_array *frame = array_new(INITIAL_SIZE, NULL);
    w->own.array = frame;
    /* Release: a thief that reads the frame's array sees it initialised
     * (it reads the array after a bottom the frame published). */
    atomic_store_explicit(&w->shared.array, frame, memory_order_release);
    w->own.top_seen = b;
}

void weft__sched_thaw(weft_worker *w, const weft_sched_saved *saved)
{
    /* After the interrupt's last barrier no thief is in a steal here, and
     * the frame has synced everything it pushed: its arrays (the first
     * and those it grew into) go. */
    weft_cl_array *a = w->own.array;
    while (a) {
        weft_cl_array *next = a->retired;
        free(a);
        a = next;
    }
    int64_t top = saved->top, b = saved->bottom;
    w->own.array = saved->array;
    w->own.bottom = b;
    w->own.top_seen = top;
    /* Relaxed (both): published by the seq_cst store of top below. */
    atomic_store_explicit(&w->shared.array, saved->array, memory_order_relaxed);
    atomic_store_explicit(&w->shared.bottom, b, memory_order_relaxed);
    /* seq_cst: re-shares the hidden tasks (waker's half of the Dekker
     * pairing with sleepers, as for a push). */
    atomic_store_explicit(&w->shared.top, top, memory_order_seq_cst);
    if (top < b)
        weft__wake_for_work(w);
}

const weft_sched_counter_name weft__sched_counter_names[] = {
    {"grows", offsetof(weft_sched_counters, grows), offsetof(weft_stats, grows)},
};
const unsigned weft__sched_counter_count = 1;

void weft__sched_idle(weft_worker *w) { (void)w; /* thieves never wait for the owner */ }

const bool weft__sched_hands_out_tasks = false;
