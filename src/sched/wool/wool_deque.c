// SPDX-License-Identifier: Apache-2.0
/* Wool's direct task stack (Faxén, "Efficient work stealing for fine
 * grained parallelism", Figure 3) with the private tasks and trip wire of
 * section III-B.  The design note, with the reasoning for each step and
 * where weft differs from the paper, is docs/sched-wool.md.
 *
 *     0 ........ bot ............ public_end ............ head ........ end
 *     | stolen    | public (stealable) | private                | EMPTY    |
 *
 * Tasks live in the owner's array `dq`; owner and thieves synchronise on
 * the state word of the one descriptor they both want (TASK / STOLEN(thief)
 * / DONE, bits/worker.h), not on the indices:
 * - head (the paper's `top`) is the owner's: the task code passes it along.
 * - bot is the slot thieves try.  The paper leaves it unsynchronised
 *   ("implicitly owned" by whoever stole or joined the task it points
 *   to); here a thief moves it with a CAS that is also its back-off check.
 * - public_end: slots below are public, slots from it on are private.
 *   Private tasks are joined with a plain load and store; thieves never
 *   commit a steal of one.  Thieves that find a private task at bot ask the
 *   owner for more (the trip wire); the owner makes about half of its
 *   private tasks public at its next SPAWN, private SYNC or YIELD.  After
 *   WEFT_WOOL_PRIVATIZE_AFTER public tasks were joined inline with nobody
 *   asking, it makes the slots from its head up private again.
 *
 * Figure 3, `RTS_steal`, in weft (peek, claim, settle below):
 *     t = victim->bot; s1 = t->state           peek (and: is t public?)
 *     cas_val(&t->state, s1, EMPTY)            claim: TASK -> STOLEN(thief)
 *     if (... victim->bot != t) back off       settle: CAS bot t -> t+1, or
 *         t->state = s1                          restore s1 with a CAS
 *     t->state = STOLEN; victim->bot = t+1     (done by the two CASes)
 *     run; t->state = DONE                     src/runtime/steal.c (run_stolen)
 * (the paper's bot is victim->shared.bot here).  `join_f`: owner.h
 * (weft_wool_pop); `RTS_join`: join_public below, then src/runtime/join.c
 * (weft__join_stolen: leapfrogging); `bot--` is the store of bot at the end
 * of join_public.
 */
#include "wool_deque.h"

#include <sched.h>

void weft__wool_init(weft_worker *w)
{
    w->own.public_end = w->dq; /* everything private until a thief asks */
    w->own.public_inlined = 0;
    w->shared.dq = w->dq;
    w->shared.slots = (uint32_t)w->deque_slots;
    w->frame_floor = w->dq; /* the root frame may join anything above */
    /* Before any thread can see this worker (published by thread creation). */
    atomic_init(&w->shared.bot, 0);
    atomic_init(&w->shared.public_end, 0);
    atomic_init(&w->shared.plain_from, (uintptr_t)w->dq);
}

/* A thief is between its claim and its decision: a few instructions,
 * unless it was preempted.  Spin briefly, then give the CPU away. */
static void wait_for_thief(unsigned *spins)
{
    if (++*spins < 64)
        weft_cpu_relax();
    else
        sched_yield();
}

/* ========================================================================
 * Thief side: called by any worker on a victim's deque.
 * ======================================================================== */

/* The trip wire's notification (section III-B): ask the owner to make more
 * tasks public.  Written only when it changes, so idle thieves do not keep
 * pulling the owner's line.  Relaxed (load and store): the owner polls it
 * on SPAWN/SYNC/YIELD; a request seen late only delays sharing. */
static void ask_owner(weft_worker *thief, weft_worker *victim)
{
    (void)thief; /* counted only with WEFT_STATS */
    if (atomic_load_explicit(&victim->shared.plain_from, memory_order_relaxed) !=
        WEFT_WOOL_REQUEST) {
        atomic_store_explicit(&victim->shared.plain_from, WEFT_WOOL_REQUEST, memory_order_relaxed);
        WEFT_COUNT(thief, sched.requests, 1);
    }
}

weft_steal_result weft__wool_peek(weft_worker *thief, weft_worker *victim, weft_wool_attempt *a)
{
    /* Task *t = victim->shared.bot.  Relaxed (both): settle checks them again
     * after the claim, when it matters. */
    uint32_t b = atomic_load_explicit(&victim->shared.bot, memory_order_relaxed);
    uint32_t pe = atomic_load_explicit(&victim->shared.public_end, memory_order_relaxed);
    if (b >= pe) {
        /* Nothing public at bot.  If the next task is private, this thief
         * has found the first private task: it trips the wire.  (Checked
         * only while no request is pending, so idle thieves leave the
         * owner's busiest slot alone.)  Relaxed: as in ask_owner; the
         * state only decides whether asking is useful. */
        if (b < victim->shared.slots &&
            atomic_load_explicit(&victim->shared.plain_from, memory_order_relaxed) !=
                WEFT_WOOL_REQUEST &&
            weft_wool_is_task(
                atomic_load_explicit(&victim->shared.dq[b].state, memory_order_relaxed))) {
            WEFT_RACE_POINT(WEFT_RP_THIEF_BEFORE_ASK);
            ask_owner(thief, victim);
        }
        return WEFT_STEAL_NONE;
    }
    weft_task *t = victim->shared.dq + b;
    /* State s1 = t->state.  Relaxed: the claim's CAS compares it. */
    uintptr_t s1 = atomic_load_explicit(&t->state, memory_order_relaxed);
    if (!weft_wool_is_task(s1))
        /* EMPTY: the owner has joined down to bot; STOLEN: another thief
         * is settling its claim on it. */
        return s1 == WEFT_STATE_EMPTY ? WEFT_STEAL_NONE : WEFT_STEAL_BUSY;
    a->t = t;
    a->b = b;
    a->s1 = s1;
    WEFT_RACE_POINT(WEFT_RP_THIEF_BEFORE_CLAIM);
    return WEFT_STEAL_OK;
}

bool weft__wool_claim(weft_worker *thief, const weft_wool_attempt *a)
{
    uintptr_t expected = a->s1;
    /* Figure 3's cas_val(&t->state, s1, EMPTY), writing STOLEN(thief) at
     * once: weft's EMPTY means "unused slot" (weft_current_head), and the
     * mark is what the owner waits on until we settle.  Acquire on
     * success: pairs with SPAWN's release (the arguments; a lowering of
     * public_end before it) or with a backing-off thief's release. */
    if (atomic_compare_exchange_strong_explicit(&a->t->state, &expected, WEFT_STATE_STOLEN(thief),
                                                memory_order_acquire, memory_order_relaxed)) {
        WEFT_RACE_POINT(WEFT_RP_THIEF_CLAIMED);
        return true;
    }
    WEFT_RACE_POINT(WEFT_RP_THIEF_LOST);
    return false;
}

/* Backing off: "if (s1 == s2) t->state = s1".  A CAS, not the paper's
 * store: if a private join took the task (and overwrote our mark) the slot
 * is the owner's again and must not be touched.  Release: a later thief's
 * acquire claim of the restored task sees what we saw (the arguments). */
static void restore(const weft_wool_attempt *a, uintptr_t mark)
{
    uintptr_t expected = mark;
    atomic_compare_exchange_strong_explicit(&a->t->state, &expected, a->s1, memory_order_release,
                                            memory_order_relaxed);
}

weft_steal_result weft__wool_settle(weft_worker *thief, weft_worker *victim,
                                    const weft_wool_attempt *a)
{
    uintptr_t mark = WEFT_STATE_STOLEN(thief);
    /* Is the task still public?  A claim can hit a task spawned private
     * after we read the boundary (the owner joined our slot, lowered the
     * boundary and spawned there again, with the same wrapper).  Acquire: pairs
     * with the owner's raise (seq_cst store in weft__wool_serve); the
     * claim's acquire already made any lowering before the task's spawn
     * visible. */
    uint32_t pe = atomic_load_explicit(&victim->shared.public_end, memory_order_acquire);
    if (a->b >= pe) {
        restore(a, mark);
        return WEFT_STEAL_BUSY;
    }
    /* A raise we just read may come after a private join of this very
     * task, which overwrote our mark: the task is the owner's.  Relaxed:
     * the acquire above orders this load after such a join. */
    if (atomic_load_explicit(&a->t->state, memory_order_relaxed) != mark)
        return WEFT_STEAL_BUSY;
    /* The back-off check of section III-A: bot must still point at our
     * task; if it has moved (the slot holds a newer task, with unstolen
     * older ones below bot), back off.  One CAS does the check and the
     * paper's "victim->shared.bot = t+1".  Relaxed: bot only picks slots; the
     * task's contents are ordered by the claim, its result by DONE. */
    uint32_t b = a->b;
    if (!atomic_compare_exchange_strong_explicit(&victim->shared.bot, &b, a->b + 1,
                                                 memory_order_relaxed, memory_order_relaxed)) {
        restore(a, mark);
        return WEFT_STEAL_BUSY;
    }
    /* More public tasks above ours?  Relaxed: only a hint for waking
     * another thief (steal.c). */
    return a->b + 1 < pe &&
                   weft_wool_is_task(atomic_load_explicit(&a->t[1].state, memory_order_relaxed))
               ? WEFT_STEAL_OK_MORE
               : WEFT_STEAL_OK;
}

/* ========================================================================
 * Owner side: only the worker that owns the deque calls these.
 * ======================================================================== */

void weft__wool_serve(weft_worker *w, weft_task *give_end)
{
    /* Acquire fence: the request was read with a relaxed load; if a worker
     * going to sleep wrote it (seq_cst), its sleeper-count increment is
     * then visible to weft__wake_for_work below (sleep.c). */
    atomic_thread_fence(memory_order_acquire);
    weft_task *pe = w->own.public_end;
    if (give_end > pe) {
        /* Make the older half (rounded up) of the private tasks public:
         * the oldest are the largest, and joined the least often. */
        weft_task *new_pe = pe + (give_end - pe + 1) / 2;
        w->own.public_end = new_pe;
        w->own.public_inlined = 0;
        WEFT_RACE_POINT(WEFT_RP_OWNER_BEFORE_PUBLISH);
        /* seq_cst: release for settle's acquire (a thief that reads the
         * new boundary sees every private join before it); the total order
         * pairs with sleepers, whose counts weft__wake_for_work reads next. */
        atomic_store_explicit(&w->shared.public_end, weft_wool_index(w, new_pe),
                              memory_order_seq_cst);
        WEFT_RACE_POINT(WEFT_RP_OWNER_PUBLISHED);
        /* Served: clear the request.  seq_cst: a sleeper whose request this
         * overwrites incremented its count before it in the total order,
         * so the wake-up below sees it; a later request stays. */
        atomic_store_explicit(&w->shared.plain_from, (uintptr_t)new_pe, memory_order_seq_cst);
        WEFT_COUNT(w, sched.grows, 1);
        weft__wake_for_work(w);
        return;
    }
    /* Nothing private to give (at a SYNC: the task being joined is the
     * oldest private one).  Relaxed: thieves only move bot up; a stale
     * value costs a wake-up. */
    weft_task *public_top = give_end < pe ? give_end : pe;
    if (w->dq + atomic_load_explicit(&w->shared.bot, memory_order_relaxed) < public_top) {
        /* Public tasks are there for the asking thief.  Clear (seq_cst);
         * they were spawned with release stores only, which a sleeper's
         * last look may have missed: the seq_cst fence orders them before
         * the count reads in weft__wake_for_work (the waker's half of
         * sleep.c's Dekker pairing). */
        atomic_store_explicit(&w->shared.plain_from, (uintptr_t)pe, memory_order_seq_cst);
        atomic_thread_fence(memory_order_seq_cst);
        weft__wake_for_work(w);
    }
    /* Otherwise keep the request: the next SPAWN makes a task the thief (or
     * sleeper) can take and serves it.  Clearing it here would lose it for
     * good when a worker joins its only task each time (a thief asks only
     * once it sees the task, and the SYNC cannot give the task it joins). */
}

void weft__wool_push_slow(weft_worker *w, weft_task *head) { weft__wool_serve(w, head); }

void weft__wool_poll_slow(weft_worker *w, weft_task *head)
{
    /* Relaxed: as in weft_wool_push. */
    if (atomic_load_explicit(&w->shared.plain_from, memory_order_relaxed) == WEFT_WOOL_REQUEST)
        weft__wool_serve(w, head);
}

void weft__wool_privatize(weft_worker *w, weft_task *t)
{
    w->own.public_inlined = 0;
    /* Relaxed: the owner acts on a request in its own time. */
    uintptr_t cur = atomic_load_explicit(&w->shared.plain_from, memory_order_relaxed);
    if (cur == WEFT_WOOL_REQUEST || t >= w->own.public_end)
        return; /* a thief wants tasks: keep them public */
    /* t was just joined: it and every slot above are EMPTY, so no task
     * changes from public to private (section III-B: "requires that the
     * owner first acquires the task").  Relaxed: a thief still holding the
     * old boundary may claim a task spawned here later, but that spawn's
     * release store carries this store to its settle, which backs off. */
    w->own.public_end = t;
    WEFT_RACE_POINT(WEFT_RP_OWNER_BEFORE_RECLAIM);
    atomic_store_explicit(&w->shared.public_end, weft_wool_index(w, t), memory_order_relaxed);
    /* Relaxed CAS: publish to the fast paths unless a request arrived
     * meanwhile, which must stay until it is served. */
    atomic_compare_exchange_strong_explicit(&w->shared.plain_from, &cur, (uintptr_t)t,
                                            memory_order_relaxed, memory_order_relaxed);
    WEFT_COUNT(w, sched.shrinks, 1);
}

static void inlined_public(weft_worker *w, weft_task *t)
{
    if (++w->own.public_inlined >= WEFT_WOOL_PRIVATIZE_AFTER)
        weft__wool_privatize(w, t);
}

/* A private task whose fast path found a thief's mark: the thief claimed
 * it from an old view of the boundary and is bound to back off (settle
 * reads the boundary with our lowering, and no raise came since).  Wait,
 * then take it as the fast path would. */
static void join_private(weft_worker *w, weft_task *t)
{
    unsigned spins = 0;
    for (;;) {
        /* Relaxed: our own private slot, as in weft_wool_pop. */
        uintptr_t s = atomic_load_explicit(&t->state, memory_order_relaxed);
        if (weft_wool_is_task(s)) {
            atomic_store_explicit(&t->state, WEFT_STATE_EMPTY, memory_order_relaxed); /* as above */
            return;
        }
        if (!WEFT_STATE_IS_STOLEN(s))
            weft__fatal("internal error: private task in slot %u of worker %u is in state %#lx",
                        weft_wool_index(w, t), w->id, (unsigned long)s);
        wait_for_thief(&spins);
    }
}

/* Figure 3's RTS_join for a public task that the fast path could not take:
 * a thief has claimed it, and has committed (bot moved past it), or will
 * back off (restoring TASK), or has already finished (DONE).  Returns true
 * if it was stolen (done, result in t), false if the caller runs it. */
static bool join_public(weft_worker *w, weft_task *t)
{
    uint32_t next = weft_wool_index(w, t) + 1;
    unsigned spins = 0;
    for (;;) {
        /* Acquire: pairs with the thief's release of DONE (the result). */
        uintptr_t s = atomic_load_explicit(&t->state, memory_order_acquire);
        if (weft_wool_is_task(s)) {
            /* A thief backed off: take it as the fast path does.  Relaxed:
             * as there. */
            if (atomic_compare_exchange_strong_explicit(
                    &t->state, &s, WEFT_STATE_EMPTY, memory_order_relaxed, memory_order_relaxed)) {
                inlined_public(w, t);
                return false;
            }
            continue;
        }
        if (s == WEFT_STATE_DONE)
            break;
        if (!WEFT_STATE_IS_STOLEN(s))
            weft__fatal("internal error: public task in slot %u of worker %u is in state %#lx",
                        next - 1, w->id, (unsigned long)s);
        /* Only the thief that committed this task moves bot to the slot
         * above it, and nobody moves it again before we do below.
         * Relaxed: the result is ordered by DONE. */
        if (atomic_load_explicit(&w->shared.bot, memory_order_relaxed) == next) {
            weft__join_stolen(w, t); /* leapfrogging until DONE (steal.c) */
            break;
        }
        wait_for_thief(&spins);
    }
    /* Relaxed: the thief is done with the slot (we saw DONE with acquire);
     * EMPTY keeps the head-discovery invariant. */
    atomic_store_explicit(&t->state, WEFT_STATE_EMPTY, memory_order_relaxed);
    WEFT_RACE_POINT(WEFT_RP_OWNER_STOLEN_JOINED);
    /* Figure 3's "bot--": every task above t is joined and t was stolen at
     * bot, so bot is t + 1 and no thief can move it (no TASK above t).
     * Relaxed: the next task spawned here publishes it (release). */
    atomic_store_explicit(&w->shared.bot, next - 1, memory_order_relaxed);
    w->own.public_inlined = 0; /* thieves do take public tasks here */
    WEFT_COUNT(w, sched.transfers, 1);
    return true;
}

/* The SYNC slow path; t is the new head.  Returns true if the task was
 * stolen (it has completed and its result is in t), false if the caller
 * must run it inline. */
bool weft__wool_sync_slow(weft_worker *w, weft_task *t)
{
    weft_sync_slot_check(w, t);
    if (t < w->own.public_end)
        return join_public(w, t);
    /* Private: here because of a thief's mark or a request.  Relaxed: as
     * in weft_wool_push.  Serving gives away only tasks below t (t stays
     * private: the new boundary is at most t). */
    if (atomic_load_explicit(&w->shared.plain_from, memory_order_relaxed) == WEFT_WOOL_REQUEST)
        weft__wool_serve(w, t);
    join_private(w, t);
    return false;
}

/* ========================================================================
 * Interrupts (interrupt.c): a new frame starts at head with an empty
 * deque; the tasks below are hidden from thieves until it ends.
 * ======================================================================== */

/* Saves bot.  The boundary is left as it is: while the frame runs it only
 * rises (requests) or falls to slots in the frame (privatizing), so no
 * older task turns private. */
void weft__sched_freeze(weft_worker *w, weft_task *head, weft_sched_saved *saved)
{
    /* One exchange: thieves now look at head, and one that claimed an
     * older task fails its CAS of bot and backs off.  seq_cst: ordered
     * before our arrival at the interrupt's barrier (acq_rel would do). */
    saved->bot =
        atomic_exchange_explicit(&w->shared.bot, weft_wool_index(w, head), memory_order_seq_cst);
}

void weft__sched_thaw(weft_worker *w, const weft_sched_saved *saved)
{
    uint32_t b = saved->bot;
    /* After the interrupt's second barrier no thief is in a steal attempt
     * on this deque.  seq_cst: old public tasks are stealable again, and a
     * worker may have gone to sleep meanwhile (the waker's half of the
     * Dekker pairing in sleep.c). */
    atomic_store_explicit(&w->shared.bot, b, memory_order_seq_cst);
    /* Relaxed: our own slot; only decides whether to wake someone. */
    if (w->dq + b < w->own.public_end &&
        weft_wool_is_task(atomic_load_explicit(&w->dq[b].state, memory_order_relaxed)))
        weft__wake_for_work(w);
}

/* ========================================================================
 * The rest of the seam (src/runtime/sched.h).
 * ======================================================================== */

void weft__sched_init(weft_worker *w) { weft__wool_init(w); }

void weft__sched_destroy(weft_worker *w) { (void)w; /* nothing allocated */ }

void weft__sched_idle(weft_worker *w) { (void)w; /* thieves never wait for the owner */ }

weft_worker *weft__sched_giver(weft_worker *thief, weft_worker *victim)
{
    (void)thief;
    return victim; /* the victim owns every task in its deque */
}

weft_steal_result weft__sched_steal(weft_worker *thief, weft_worker *victim, bool leap,
                                    weft_task **out, uintptr_t *wrapper)
{
    (void)leap; /* any public task may be taken, leapfrogging or not */
    weft_wool_attempt a;
    weft_steal_result r = weft__wool_peek(thief, victim, &a);
    if (r != WEFT_STEAL_OK)
        return r;
    if (!weft__wool_claim(thief, &a))
        return WEFT_STEAL_BUSY;
    r = weft__wool_settle(thief, victim, &a);
    if (r == WEFT_STEAL_OK || r == WEFT_STEAL_OK_MORE) {
        *out = a.t;
        *wrapper = a.s1;
    }
    return r;
}

/* For a worker about to sleep: is there a public task at bot?  seq_cst:
 * the sleeper's half of the Dekker pairings in sleep.c (with a raise of
 * public_end, a thaw's bot, a SPAWN followed by weft__wool_serve's fence). */
bool weft__sched_has_work_for(weft_worker *sleeper, weft_worker *victim)
{
    (void)sleeper; /* any worker may steal any public task */
    uint32_t b = atomic_load_explicit(&victim->shared.bot, memory_order_seq_cst);
    uint32_t pe = atomic_load_explicit(&victim->shared.public_end, memory_order_seq_cst);
    return b < pe && weft_wool_is_task(
                         atomic_load_explicit(&victim->shared.dq[b].state, memory_order_seq_cst));
}

void weft__sched_ask_for_sleeper(weft_worker *victim, weft_worker *sleeper)
{
    (void)sleeper; /* the request does not say who asked */
    /* seq_cst (load and store): pairs with weft__wool_serve's clear-then-
     * count, so either the owner counts the sleeper or the request lands
     * after its clear and stays. */
    if (atomic_load_explicit(&victim->shared.plain_from, memory_order_seq_cst) != WEFT_WOOL_REQUEST)
        atomic_store_explicit(&victim->shared.plain_from, WEFT_WOOL_REQUEST, memory_order_seq_cst);
}

const weft_sched_counter_name weft__sched_counter_names[] = {
    {"grows", offsetof(weft_sched_counters, grows), offsetof(weft_stats, grows)},
    {"shrinks", offsetof(weft_sched_counters, shrinks), offsetof(weft_stats, shrinks)},
    {"requests", offsetof(weft_sched_counters, requests), offsetof(weft_stats, requests)},
    {"transfers", offsetof(weft_sched_counters, transfers), offsetof(weft_stats, transfers)},
};
const unsigned weft__sched_counter_count = 4;

const bool weft__sched_hands_out_tasks = false;
