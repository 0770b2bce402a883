// SPDX-License-Identifier: Apache-2.0
/* The non-blocking split deque of Lace (van Dijk and van de Pol, Figure 4).
 *
 * Tasks live in an array `dq` of descriptors (WEFT_TASK_SIZE bytes: 64,
 * or 128 in a build configured so).  Three indices:
 *
 *     0 ........ tail ........ split ........ head ........ end
 *     | stolen    | shared      | private      | empty       |
 *
 * - head (the owner's deque top) is private: it is not stored anywhere, the
 *   task code passes it along (see include/weft/bits/task_macros.h).
 * - tail and split are packed in one 64-bit word `ts` on the thieves' cache
 *   line: a thief steals by CAS (t,s) -> (t+1,s), which fails if any thief
 *   moved tail or the owner moved split meanwhile.
 * - o_split is the owner's copy of split (w->own.split); o_allstolen is
 *   encoded as o_split parked at `end` (see state.h).
 * - splitreq, on its own cache line, is folded with o_split into one word,
 *   `limit`: WEFT_SPLITREQ when a thief has asked, o_split otherwise.  So
 *   SPAWN's fast path is the one test `head < limit` (lines 14 and 20: all
 *   stolen, or asked) and SYNC's is `t >= limit` (lines 23, 25, 29: the task
 *   is private and nobody asked).  Thieves only ever store WEFT_SPLITREQ;
 *   the owner stores o_split, and only clears a request (the paper's
 *   "splitreq = 0", lines 17 and 40) where the paper does; elsewhere it
 *   updates the word with a CAS that leaves a pending request in place.
 * - the join guard (w->join_guard, weft/bits/fork_join.h) is folded into
 *   `limit` too: the owner publishes max(o_split, guard), so a SYNC below
 *   the guard fails the fast path and the core tests its order on the
 *   slow path, and a SPAWN below it comes to push_slow, which has nothing
 *   to do then.  Thieves never read limit's value, only whether it is
 *   WEFT_SPLITREQ, so the guard is the owner's alone
 *   (verification/split_deque.pml with JOIN_GUARD).
 *
 * Where C11 differs from the paper's x86 pseudo-code:
 * - The paper writes the 32-bit `split` half alone (lines 38, 45, 52).  C11
 *   has no atomic access to half of an atomic word, so moving split is an
 *   RMW on the whole word (fetch_add of the difference into the high half),
 *   which cannot lose a concurrent tail increment.
 * - shrink_shared's "split = new_s; MFENCE; t = tail" (lines 45, 47, 48) is
 *   that one RMW: it is totally ordered with every thief's CAS on the same
 *   word, and the tail it returns is the re-read of line 48.  A thief CAS
 *   ordered after it sees the new split; one ordered before it shows up in
 *   the returned tail.  On x86 the RMW is a LOCK XADD, i.e. the paper's
 *   single fence; on ARM/POWER it needs no extra barrier.
 *
 * Memory orders, by the races they order:
 * - task contents (written by the owner with plain stores) vs thieves
 *   reading them: every store of `ts` that makes new tasks shared is
 *   release (or seq_cst); the thief's successful CAS is acquire.  Later
 *   thieves' CASes are RMWs, so they stay in that release sequence.
 * - the result of a stolen task vs the joiner: steal.c (release DONE store,
 *   acquire load by the joiner).
 * - new shared work vs a worker going to sleep: grow_shared and the push
 *   after allstolen are seq_cst and then read the sleeper counts (sleep.c
 *   explains the Dekker pairing).
 */
#include "split_deque.h"

void weft__split_init(weft_worker *w)
{
    w->own.split = w->end; /* o_allstolen: an empty deque has nothing unstolen */
    w->shared.dq = w->dq;
    w->frame_floor = w->dq; /* the root frame may join anything above */
    w->join_guard = w->dq;  /* no second copy of the top yet */
    /* Before any thread can see this worker (published by thread creation). */
    atomic_init(&w->shared.ts, WEFT_TS(0, 0));
    atomic_init(&w->shared.allstolen, 1);
    atomic_init(&w->shared.limit, (uintptr_t)w->own.split);
}

/* Owner: what the fast paths compare with when no thief asks: o_split, or
 * the join guard where it is higher (see the top of this file). */
static inline uintptr_t owner_limit(const weft_worker *w)
{
    return (uintptr_t)(w->own.split > w->join_guard ? w->own.split : w->join_guard);
}

static inline uint32_t slot_index(const weft_worker *w, const weft_task *t)
{
    return (uint32_t)(t - w->dq);
}

/* Owner: is a thief asking?  Relaxed: the owner acts on it in its own time. */
static inline bool splitreq(weft_worker *w)
{
    return atomic_load_explicit(&w->shared.limit, memory_order_relaxed) == WEFT_SPLITREQ;
}

/* Owner: the paper's "splitreq = 0" -- the request is served -- together
 * with publishing the current o_split to the fast paths.  Both callers
 * then read the sleeper counts (weft__wake_for_work).  seq_cst: the owner's
 * "write mine, then read theirs" against a sleeper's "count myself, then
 * read the request": either we see the sleeper and wake it, or it sees the
 * cleared word and asks again.  With a relaxed store the clear could sit in
 * a store buffer past our count read and wipe a request the sleeper
 * believed still stood (found by the spin model, docs/verification.md,
 * finding 1).  Slow paths only. */
static inline void clear_splitreq(weft_worker *w)
{
    atomic_store_explicit(&w->shared.limit, owner_limit(w), memory_order_seq_cst);
}

/* Owner: o_split, o_allstolen or the join guard changed; publish it
 * unless a thief has asked meanwhile, whose request must survive until it
 * is served.  Relaxed load: the owner's own last store, or a thief's
 * request, which the CAS re-checks.  Relaxed CAS: the value itself is all
 * that matters, on this one word. */
static inline void update_limit(weft_worker *w)
{
    uintptr_t cur = atomic_load_explicit(&w->shared.limit, memory_order_relaxed);
    if (cur != WEFT_SPLITREQ)
        atomic_compare_exchange_strong_explicit(&w->shared.limit, &cur, owner_limit(w),
                                                memory_order_relaxed, memory_order_relaxed);
}

void weft__split_guard_moved(weft_worker *w) { update_limit(w); }

/* ========================================================================
 * Thief side: called by any worker on a victim's deque.
 * ======================================================================== */

/* Figure 4, lines 1-9. */
weft_steal_result weft__split_steal(weft_worker *victim, weft_task **out)
{
    /* line 2: if allstolen: return None.  Relaxed: only a hint; the CAS
     * below is what decides. */
    if (atomic_load_explicit(&victim->shared.allstolen, memory_order_relaxed))
        return WEFT_STEAL_NONE;

    /* line 3: (t,s) = (tail,split).  Relaxed: the CAS re-checks both. */
    uint64_t ts = atomic_load_explicit(&victim->shared.ts, memory_order_relaxed);
    uint32_t t = WEFT_TS_TAIL(ts), s = WEFT_TS_SPLIT(ts);

    if (t < s) { /* line 4 */
        WEFT_RACE_POINT(WEFT_RP_THIEF_BEFORE_CLAIM);
        /* line 5: cas((tail,split), (t,s), (t+1,s)).  Acquire on success:
         * pairs with the owner's release that made task t shared, so its
         * arguments and wrapper are visible.  tail < split < 2^31: the
         * increment cannot carry into split. */
        if (atomic_compare_exchange_strong_explicit(&victim->shared.ts, &ts, ts + 1,
                                                    memory_order_acquire, memory_order_relaxed)) {
            WEFT_RACE_POINT(WEFT_RP_THIEF_CLAIMED);
            *out = victim->shared.dq + t; /* line 6: return Task(t) */
            return t + 1 < s ? WEFT_STEAL_OK_MORE : WEFT_STEAL_OK;
        }
        WEFT_RACE_POINT(WEFT_RP_THIEF_LOST);
        return WEFT_STEAL_BUSY; /* line 7 */
    }

    /* line 8: if !splitreq: splitreq = 1.  Written only when it must
     * change, so idle thieves do not keep pulling the owner's cache line.
     * Relaxed: the owner polls it; any delay only delays sharing. */
    WEFT_RACE_POINT(WEFT_RP_THIEF_BEFORE_ASK);
    if (atomic_load_explicit(&victim->shared.limit, memory_order_relaxed) != WEFT_SPLITREQ)
        atomic_store_explicit(&victim->shared.limit, WEFT_SPLITREQ, memory_order_relaxed);
    return WEFT_STEAL_NONE; /* line 9 */
}

/* Line 8 on behalf of a sleeping worker (it will not ask again).  seq_cst,
 * unlike line 8: pairs with the owner's seq_cst clear-then-count in
 * grow_shared's no-op branch, so either the owner sees the sleeper or the
 * request lands after the owner's clear. */
void weft__split_ask_for_sleeper(weft_worker *victim)
{
    if (atomic_load_explicit(&victim->shared.limit, memory_order_seq_cst) != WEFT_SPLITREQ)
        atomic_store_explicit(&victim->shared.limit, WEFT_SPLITREQ, memory_order_seq_cst);
}

/* For a worker about to sleep: does victim have a shared, unstolen task?
 * seq_cst: the sleeper's half of the Dekker pairing in sleep.c. */
bool weft__split_has_shared(weft_worker *victim)
{
    uint64_t ts = atomic_load_explicit(&victim->shared.ts, memory_order_seq_cst);
    return WEFT_TS_TAIL(ts) < WEFT_TS_SPLIT(ts);
}

/* ========================================================================
 * Owner side: only the worker that owns the deque calls these.
 * ======================================================================== */

/* Figure 4, lines 36-40: share the lower half of the private tasks. */
void weft__split_grow_shared(weft_worker *w, weft_task *head)
{
    /* Acquire fence: our caller read the request with a relaxed load; if a
     * worker going to sleep wrote it (release), this makes its sleeper-count
     * increment visible to weft__wake_for_work below (sleep.c). */
    atomic_thread_fence(memory_order_acquire);
    uint32_t o_split = slot_index(w, w->own.split);
    uint32_t h = slot_index(w, head);
    uint32_t new_s = (o_split + h + 1) / 2; /* line 37 */

    if (new_s == o_split) {
        /* Nothing private to share (head == o_split).  The paper clears
         * splitreq anyway; awake thieves will ask again, but a sleeping one
         * will not, so while anyone sleeps the request stays for the next
         * push, which will share that task and wake the sleeper.  Clear
         * first, then count (both seq_cst): a sleeper asking meanwhile is
         * either counted here or asks after the clear. */
        atomic_store_explicit(&w->shared.limit, owner_limit(w), memory_order_seq_cst);
        if (weft__sleepers_want_work_from(w))
            /* Relaxed: re-raising for the sleeper; a racing thief can only
             * store the same SPLITREQ. */
            atomic_store_explicit(&w->shared.limit, WEFT_SPLITREQ, memory_order_relaxed);
        return;
    }

    WEFT_RACE_POINT(WEFT_RP_OWNER_BEFORE_PUBLISH);
    /* line 38: split = new_s, as an RMW (see the top of this file).
     * seq_cst: release publishes tasks [o_split, new_s) to thieves; the
     * total order pairs with sleepers (weft__wake_for_work reads their
     * count next). */
    atomic_fetch_add_explicit(&w->shared.ts, (uint64_t)(new_s - o_split) << 32,
                              memory_order_seq_cst);
    w->own.split = w->dq + new_s; /* line 39 */
    WEFT_RACE_POINT(WEFT_RP_OWNER_PUBLISHED);
    /* line 40: splitreq = 0.  A request that arrives between line 38 and
     * here is lost, as in the paper: an awake thief retries, and a sleeper
     * that asked is woken by the wake-up below (this share). */
    clear_splitreq(w);
    WEFT_COUNT(w, sched.grows, 1);
    weft__wake_for_work(w);
}

/* Figure 4, lines 41-57.  Called when head == o_split, i.e. every task
 * left is shared.  Moves split down to take about half of them back.
 * Returns true if none is left to take back (all stolen). */
bool weft__split_shrink_shared(weft_worker *w, weft_task *head)
{
    (void)head; /* == o_split == split here */
    /* line 42: (t,s) = (tail,split).  Relaxed: tail only grows, so a stale
     * t only makes the first guess of new_s conservative; the RMW below
     * returns the exact value. */
    uint64_t ts = atomic_load_explicit(&w->shared.ts, memory_order_relaxed);
    uint32_t t = WEFT_TS_TAIL(ts), s = WEFT_TS_SPLIT(ts);

    if (t != s) {                     /* line 43 */
        uint32_t new_s = (t + s) / 2; /* line 44 */
        WEFT_RACE_POINT(WEFT_RP_OWNER_BEFORE_RECLAIM);
        /* lines 45, 47, 48: split = new_s; MFENCE; t = tail -- one RMW.
         * Relaxed suffices: what must be ordered is this word against the
         * thieves' CASes on the same word, and an RMW always reads the
         * latest value in its modification order.  No task contents are
         * published or consumed here. */
        ts = atomic_fetch_sub_explicit(&w->shared.ts, (uint64_t)(s - new_s) << 32,
                                       memory_order_relaxed);
        w->own.split = w->dq + new_s; /* line 46 */
        WEFT_COUNT(w, sched.shrinks, 1);
        t = WEFT_TS_TAIL(ts); /* line 48 */
        WEFT_RACE_POINT(WEFT_RP_OWNER_RECLAIMED);
        if (t != s) {                /* line 49 */
            if (t > new_s) {         /* line 50: thieves took tasks past new_s */
                new_s = (t + s) / 2; /* line 51 */
                /* line 52: split = new_s.  A plain store is safe: tail >=
                 * split now, so no thief's CAS can succeed until this store.
                 * Release (in seq_cst): it makes [t, new_s) shared again and
                 * breaks the release sequence of the store that first
                 * shared them. */
                atomic_store_explicit(&w->shared.ts, WEFT_TS(t, new_s), memory_order_seq_cst);
                w->own.split = w->dq + new_s; /* line 53 */
                /* [t, new_s) is stealable again, and a worker may have
                 * fallen asleep seeing tail > split meanwhile (seq_cst
                 * above: the waker's half of sleep.c's Dekker pairing). */
                if (new_s > t)
                    weft__wake_for_work(w);
            }
            update_limit(w);
            return false; /* line 54 */
        }
    }
    /* line 55: allstolen = 1.  Relaxed: a hint for thieves; the (t,s) word
     * already shows nothing to steal. */
    atomic_store_explicit(&w->shared.allstolen, 1, memory_order_relaxed);
    w->own.split = w->end; /* line 56: o_allstolen = 1 */
    update_limit(w);
    return true; /* line 57 */
}

/* Figure 4, lines 10-20, the part the inline weft_split_push leaves here:
 * called with the new head (after line 13) when o_allstolen or a request. */
void weft__split_push_slow(weft_worker *w, weft_task *head)
{
    if (w->own.split == w->end) { /* line 14: if o_allstolen */
        uint32_t h = slot_index(w, head);
        /* line 15: (tail,split) = (head-1, head).  A store: with allstolen,
         * tail >= split, so no thief CAS can be in flight on this value.
         * seq_cst: release publishes the task at head-1; the total order
         * pairs with sleepers (read below). */
        atomic_store_explicit(&w->shared.ts, WEFT_TS(h - 1, h), memory_order_seq_cst);
        WEFT_RACE_POINT(WEFT_RP_OWNER_PUBLISHED);
        /* line 16: allstolen = 0.  Relaxed: a hint (thieves CAS on ts). */
        atomic_store_explicit(&w->shared.allstolen, 0, memory_order_relaxed);
        w->own.split = head; /* lines 18-19: o_split = head; o_allstolen = 0 */
        clear_splitreq(w);   /* line 17 */
        weft__wake_for_work(w);
    } else if (splitreq(w)) { /* line 20: elif splitreq: grow_shared() */
        weft__split_grow_shared(w, head);
    }
}

/* WEFT_YIELD with a request pending (not in the paper): served as line 20
 * serves it at a SPAWN, sharing half of the private tasks below head.
 * With every task stolen there is nothing private, and the request stays
 * for the next push (line 14), which shares the task it pushes. */
void weft__split_poll_slow(weft_worker *w, weft_task *head)
{
    if (w->own.split != w->end && splitreq(w))
        weft__split_grow_shared(w, head);
}

/* Figure 4, lines 31-35, after the stolen task at t (the new head, line 32)
 * has completed. */
void weft__split_pop_stolen(weft_worker *w, weft_task *t)
{
    /* Relaxed: the thief is done with the slot (we saw DONE with acquire);
     * EMPTY keeps the head-discovery invariant. */
    atomic_store_explicit(&t->state, WEFT_STATE_EMPTY, memory_order_relaxed);
    /* Leapfrogging ran tasks above t and may have cleared allstolen; the
     * tasks below t are still all stolen. */
    WEFT_RACE_POINT(WEFT_RP_OWNER_STOLEN_JOINED);
    if (w->own.split != w->end) { /* line 33 */
        /* line 34: allstolen = 1.  Relaxed: a hint, (t,s) has tail >= split. */
        atomic_store_explicit(&w->shared.allstolen, 1, memory_order_relaxed);
        w->own.split = w->end; /* line 35 */
        update_limit(w);
    }
}

/* The SYNC slow path: Figure 4 `pop` when the fast path could not decide,
 * then Figure 1 lines 5-9.  t is the new head.  Returns true if the task
 * was stolen (it has completed and its result is in t), false if the
 * caller must run it inline. */
bool weft__split_sync_slow(weft_worker *w, weft_task *t)
{
    weft_sync_slot_check(w, t);

    if (t >= w->own.split) {
        /* Private: we are here because of a request (lines 28-29) or
         * because t is below the join guard. */
        if (splitreq(w))
            weft__split_grow_shared(w, t);
    } else if (w->own.split != w->end && !weft__split_shrink_shared(w, t + 1)) {
        /* lines 25-26: all shared; shrink took some back, t is private
         * again (new o_split <= t).  Then lines 28-29. */
        if (splitreq(w))
            weft__split_grow_shared(w, t);
    } else {
        /* lines 24 / 27: STOLEN.  Wait for it while stealing (Figure 1). */
        weft__join_stolen(w, t);
        weft__split_pop_stolen(w, t);
        return true;
    }
    /* Private: line 28 done by the caller's --head; keep the invariant. */
    atomic_store_explicit(&t->state, WEFT_STATE_EMPTY, memory_order_relaxed);
    return false;
}

/* ========================================================================
 * Interrupts (interrupt.c): a new frame starts at head with an empty
 * deque; the tasks below are hidden from thieves until it ends.
 * ======================================================================== */

void weft__sched_freeze(weft_worker *w, weft_task *head, weft_sched_saved *saved)
{
    uint32_t h = slot_index(w, head);
    saved->split = slot_index(w, w->own.split);
    saved->allstolen =
        atomic_load_explicit(&w->shared.allstolen, memory_order_relaxed); /* owner's own hint */
    /* One exchange: thieves' CASes on the old value fail from here on, and
     * the frame starts empty (tail == split == head).  seq_cst: the
     * interrupt's barrier is what the other workers wait on; ordering this
     * before our arrival there is all that is needed (acq_rel would do). */
    saved->ts = atomic_exchange_explicit(&w->shared.ts, WEFT_TS(h, h), memory_order_seq_cst);
    atomic_store_explicit(&w->shared.allstolen, 1, memory_order_relaxed); /* hint */
    w->own.split = w->end; /* o_allstolen: the first push of the frame shares */
    update_limit(w);
}

void weft__sched_thaw(weft_worker *w, const weft_sched_saved *saved)
{
    /* After the interrupt's last barrier no thief is in a steal on this
     * deque's frame.  Release (in seq_cst): re-shares the old tasks (a new
     * release sequence for thieves that steal them now).  A thief holding the old
     * (t,s) from before the freeze may succeed now: that is correct, the
     * state is exactly what it read. */
    atomic_store_explicit(&w->shared.ts, saved->ts, memory_order_seq_cst);
    atomic_store_explicit(&w->shared.allstolen, saved->allstolen, memory_order_relaxed); /* hint */
    w->own.split = w->dq + saved->split;
    update_limit(w);
    /* A worker that left the interrupt first may have gone to sleep before
     * these tasks were stealable again (seq_cst store above: the waker's
     * half of the Dekker pairing). */
    if (WEFT_TS_TAIL(saved->ts) < WEFT_TS_SPLIT(saved->ts))
        weft__wake_for_work(w);
}

/* ========================================================================
 * The rest of the seam (src/runtime/sched.h) on top of Figure 4.
 * ======================================================================== */

void weft__sched_init(weft_worker *w) { weft__split_init(w); }

void weft__sched_destroy(weft_worker *w) { (void)w; /* nothing allocated */ }

void weft__sched_idle(weft_worker *w) { (void)w; /* thieves never wait for the owner */ }

weft_steal_result weft__sched_steal(weft_worker *thief, weft_worker *victim, bool leap,
                                    weft_task **out, uintptr_t *wrapper)
{
    (void)leap; /* any shared task may be taken, leapfrogging or not */
    weft_steal_result r = weft__split_steal(victim, out);
    if (r == WEFT_STEAL_OK || r == WEFT_STEAL_OK_MORE) {
        /* Relaxed: our acquire CAS on the victim's (tail,split) already
         * made the descriptor's contents visible. */
        *wrapper = atomic_load_explicit(&(*out)->state, memory_order_relaxed);
        /* STOLEN(thief): tells the joiner whom to leapfrog.  Relaxed: the
         * joiner needs only the value; our worker was published at start. */
        atomic_store_explicit(&(*out)->state, WEFT_STATE_STOLEN(thief), memory_order_relaxed);
    }
    return r;
}

weft_worker *weft__sched_giver(weft_worker *thief, weft_worker *victim)
{
    (void)thief;
    return victim; /* the victim owns every task in its deque */
}

bool weft__sched_has_work_for(weft_worker *sleeper, weft_worker *victim)
{
    (void)sleeper; /* any worker may steal any shared task */
    return weft__split_has_shared(victim);
}

void weft__sched_ask_for_sleeper(weft_worker *victim, weft_worker *sleeper)
{
    (void)sleeper; /* splitreq does not say who asked */
    weft__split_ask_for_sleeper(victim);
}

const weft_sched_counter_name weft__sched_counter_names[] = {
    {"grows", offsetof(weft_sched_counters, grows), offsetof(weft_stats, grows)},
    {"shrinks", offsetof(weft_sched_counters, shrinks), offsetof(weft_stats, shrinks)},
};
const unsigned weft__sched_counter_count = 2;

const bool weft__sched_hands_out_tasks = false;
