// SPDX-License-Identifier: Apache-2.0
/* private-si: sender-initiated work stealing with private deques (Acar,
 * Charguéraud and Rainey, PPoPP 2013, Figure 3).  The common part is
 * ../private-common/private_deque.c; the design note docs/sched-private.md.
 *
 * Idle workers open their communication cell (acquire: s[i] = null) and
 * wait; busy workers, at their polls (SPAWN, SYNC, WEFT_YIELD), make a
 * deal attempt every delta on average (exponentially distributed: the
 * paper's d[i] = now() - delta * ln(rand)).  A deal attempt (deal_attempt)
 * picks a random start among the other workers and CASes the oldest
 * private task into the first open cell it finds (the paper's steal-one
 * shortcut: peek_top, CAS, pop_top); the receiver takes it from its cell,
 * marks it STOLEN(itself), runs it in place and stores DONE (steal.c).
 *
 * Reading the clock at every poll would cost more than fib's whole task,
 * so a poll only decrements a countdown on the owner's line 0; when it runs
 * out the slow path reads the clock (deciding whether a deal attempt is
 * due) and sets the next countdown from the observed poll rate: grown by
 * an eighth while a countdown lasts less than delta/8, back to 1 when it
 * lasted more than delta/2.  A worker that has just received work starts
 * at 1, so its first poll can deal (the paper: d[i] is not reset in
 * acquire).  While no cell is open, no deal attempt can succeed, so the
 * polls skip even the countdown (weft__si_open_cells_g).
 *
 * Where weft differs from Figure 3:
 * - The owner may take a deal back at its SYNC if the receiver has not
 *   taken it from its cell yet (a CAS on the cell; the receiver takes with
 *   a CAS too).  A worker that received a deal while it was busy or parked
 *   (weft_suspend) would otherwise hold up the dealer's join.
 * - Sleeping workers keep their cell open; the dealer wakes that exact
 *   worker after a successful deal.  Dekker: the sleeper publishes its
 *   sleep word (seq_cst, sleep.c) and re-reads its cell (seq_cst,
 *   weft__sched_has_work_for); the dealer's CAS is seq_cst and is followed by
 *   a seq_cst read of the receiver's sleep word (weft__wake_worker).  One
 *   of the two sees the other.
 * - A busy worker closes its cell at its next clock check, so dealers do
 *   not pick it; a deal that lands before that waits there (or is taken
 *   back by its dealer).
 *
 * Memory orders: the deal CAS is release (seq_cst) and publishes the
 * task's arguments and wrapper (its state word); the receiver's taking
 * CAS is acquire.  The result goes back through DONE (steal.c).
 */
#include "sched/private-si/private_si.h"

#include <errno.h>
#include <stdlib.h>

/* Open cells, for the polls' gate (owner.h).  Every change of
 * a cell between closed (CLOSED, DEAL) and open (OPEN, OPEN_FROM) counts
 * here, by whoever makes it. */
_Alignas(WEFT_CACHE_LINE) _Atomic uint32_t weft__si_open_cells_g;

static inline bool is_open(uint64_t c)
{
    return c == WEFT_SI_OPEN || WEFT_SI_TAG(c) == WEFT_SI_TAG_OPEN_FROM;
}

static inline void count_open_cells(int change)
{
    /* Relaxed: only a hint for polls; an RMW so that no change is lost. */
    atomic_fetch_add_explicit(&weft__si_open_cells_g, (uint32_t)change, memory_order_relaxed);
}

bool weft__si_parse_delta_us(const char *s, uint64_t *us)
{
    if (!s || *s < '0' || *s > '9')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end != '\0' || v > WEFT_SI_MAX_DELTA_US)
        return false;
    *us = v;
    return true;
}

void weft__priv_variant_init(weft_worker *w)
{
    /* weft_start checked the variable (src/runtime/config.c). */
    uint64_t us = WEFT_SI_DEFAULT_DELTA_US;
    const char *env = getenv("WEFT_SI_DELTA_US");
    if (env && *env)
        (void)weft__si_parse_delta_us(env, &us);
    w->cold.delta_ns = us * 1000u;
    w->cold.next_deal_ns = 0; /* the first poll with a task may deal */
    w->cold.last_check_ns = 0;
    w->cold.budget = 1;
    w->own.polls = 1;
    w->cold.hold = false;
    w->cold.deal_floor = w->dq;
    w->cold.giver = NULL;
    w->shared.dq = w->dq;
    /* Before any thread can see this worker (published by thread creation). */
    atomic_init(&w->shared.cell, WEFT_SI_CLOSED);
    if (w->id == 0) /* a new pool: every cell starts closed */
        atomic_store_explicit(&weft__si_open_cells_g, 0, memory_order_relaxed); /* as above */
}

/* ========================================================================
 * Owner (dealer) side.
 * ======================================================================== */

/* An exponentially distributed interval with mean delta (Knuth's
 * -delta * ln(u), as the paper).  ln without libm: -ln(u) = ln 2 * -log2(u),
 * u = x / 2^64 = 2^-(z + 1) * (1 + f) with z leading zeros of x, and
 * log2(1 + f) ~ f + 0.3466 f (1 - f) (error below 0.005). */
static uint64_t next_interval_ns(weft_worker *w)
{
    /* The worker's generator (owner-only, like steal.c's). */
    uint64_t x = weft_rng_next(&w->rng) | 1u;
    int z = __builtin_clzll(x);
    double f = (double)((x << z) & ~(UINT64_C(1) << 63)) / 9223372036854775808.0;
    double minus_log2_u = (double)(z + 1) - (f + 0.3466 * f * (1.0 - f));
    return (uint64_t)(minus_log2_u * 0.6931471805599453 * (double)w->cold.delta_ns);
}

/* The busy worker's cell must not attract deals.  Returns true if a deal
 * sits in it (it stays: taken when idle, or taken back by its dealer). */
static bool close_cell(weft_worker *w)
{
    if (w->cold.hold)
        return false;
    /* Relaxed: our own cell; the CAS decides against a dealer. */
    uint64_t c = atomic_load_explicit(&w->shared.cell, memory_order_relaxed);
    while (is_open(c))
        /* Relaxed: withdraws an offer, publishes nothing.  Fails only if a
         * deal landed. */
        if (atomic_compare_exchange_strong_explicit(&w->shared.cell, &c, WEFT_SI_CLOSED,
                                                    memory_order_relaxed, memory_order_relaxed)) {
            count_open_cells(-1);
            return false;
        }
    return WEFT_SI_TAG(c) == WEFT_SI_TAG_DEAL;
}

/* Whether the last deal below own.top, since the running interrupt's
 * frame (deal_floor), still waits in its receiver's cell: its state says
 * stolen only once taken.  (Not since frame_floor, which a RUN inside a
 * task and a stolen task also raise: the deals below those are the
 * worker's all the same, and come before its next ones.) */
static bool last_deal_untaken(const weft_worker *w)
{
    if (w->own.top <= w->cold.deal_floor)
        return false; /* none since the interrupt's frame (an outer frame's wait it out) */
    /* Relaxed: a look at a value the receiver stores after its taking
     * CAS; a stale "untaken" only puts this deal off to a later poll. */
    uintptr_t s = atomic_load_explicit(&w->own.top[-1].state, memory_order_relaxed);
    return !WEFT_STATE_IS_STOLEN(s) && s != WEFT_STATE_DONE;
}

/* Figure 3 deal_attempt, with the steal-one shortcut: the oldest private
 * task goes to the first open cell after a random start.  One deal at a
 * time waits to be taken: a worker's stolen tasks are then always its
 * oldest, as under Lace, whose programs rely on it (Sylvan's collection
 * walks a worker's pending spawns from the oldest, stopping at the first
 * one not stolen, and would miss a younger one taken first). */
static void deal_attempt(weft_worker *w, weft_task *head)
{
    if (w->own.top >= head) /* if empty(q[i]) then return */
        return;
    if (last_deal_untaken(w))
        return;
    weft_worker *first = weft__random_victim(w);
    if (!first)
        return;
    WEFT_COUNT(w, sched.requests, 1);
    unsigned n = weft__pool_size();
    uint64_t mine = WEFT_SI_OPEN_FROM(w->id);
    for (unsigned i = 0; i < n; i++) {
        weft_worker *r = weft__pool_worker((first->id + i) % n);
        if (r == w)
            continue;
        /* Relaxed: a look (if s[j] != null then return); the CAS decides. */
        uint64_t c = atomic_load_explicit(&r->shared.cell, memory_order_relaxed);
        if (c != WEFT_SI_OPEN && c != mine)
            continue;
        uint64_t deal = WEFT_SI_DEAL(w->id, w->own.top - w->dq, c == mine);
        WEFT_RACE_POINT(WEFT_RP_OWNER_BEFORE_PUBLISH);
        /* seq_cst: release publishes the task's arguments and wrapper (in
         * its state word) to the receiver's acquire; the total order puts
         * it before our read of r's sleep word (weft__wake_worker). */
        if (atomic_compare_exchange_strong_explicit(&r->shared.cell, &c, deal, memory_order_seq_cst,
                                                    memory_order_relaxed)) {
            WEFT_RACE_POINT(WEFT_RP_OWNER_PUBLISHED); /* before waking the receiver */
            w->own.top++;                             /* pop_top */
            count_open_cells(-1);
            WEFT_COUNT(w, sched.transfers, 1);
            weft__wake_worker(w, r);
            return;
        }
    }
}

/* A poll's countdown ran out (SPAWN: head = the new top; SYNC: head = the
 * task being run, which stays ours; WEFT_YIELD). */
void weft__priv_poll_slow(weft_worker *w, weft_task *head)
{
    weft_stop_if_forked(); /* a forked child has nobody to deal to */
    uint64_t now = weft_now_ns();
    uint64_t took = now - w->cold.last_check_ns;
    w->cold.last_check_ns = now;
    uint64_t quarter = w->cold.delta_ns / 4;
    if (took < quarter / 2) {
        /* Grow by an eighth: after a burst of k quick polls the countdown
         * is about k/8, the most slow polls that can pass unchecked if the
         * tasks turn long (k quick SPAWNs, then SYNCs of long tasks). */
        uint32_t grown = w->cold.budget + 1 + w->cold.budget / 8;
        w->cold.budget = grown < WEFT_SI_MAX_BUDGET ? grown : WEFT_SI_MAX_BUDGET;
    } else if (took > quarter * 2) {
        w->cold.budget = 1;
    }
    w->own.polls = w->cold.budget;
    close_cell(w);
    if (now >= w->cold.next_deal_ns) { /* communicate: if now() > d[i] */
        deal_attempt(w, head);
        w->cold.next_deal_ns = now + next_interval_ns(w);
    }
}

void weft__priv_settle(weft_worker *w, weft_task *head)
{
    (void)w;
    (void)head; /* nothing is announced: the next poll deals */
}

/* t was dealt and we are at its SYNC: if it still sits in the receiver's
 * cell, take it back and run it ourselves.  Rare: receivers take deals
 * within microseconds unless they are busy or parked. */
bool weft__priv_take_back(weft_worker *w, weft_task *t)
{
    /* Relaxed: a receiver writes STOLEN only after its taking CAS, which
     * makes ours below fail; a stale TASK value only costs the search. */
    uintptr_t s = atomic_load_explicit(&t->state, memory_order_relaxed);
    if (WEFT_STATE_IS_STOLEN(s) || s == WEFT_STATE_DONE)
        return false;
    uint64_t slot = (uint64_t)(t - w->dq);
    for (unsigned i = 0, n = weft__pool_size(); i < n; i++) {
        weft_worker *r = weft__pool_worker(i);
        if (r == w)
            continue;
        /* Relaxed: a look; the CAS decides. */
        uint64_t c = atomic_load_explicit(&r->shared.cell, memory_order_relaxed);
        if (WEFT_SI_TAG(c) != WEFT_SI_TAG_DEAL || WEFT_SI_DEAL_DEALER(c) != w->id ||
            WEFT_SI_DEAL_SLOT(c) != slot)
            continue;
        uint64_t reopened = WEFT_SI_DEAL_FROM(c) ? WEFT_SI_OPEN_FROM(w->id) : WEFT_SI_OPEN;
        WEFT_RACE_POINT(WEFT_RP_OWNER_BEFORE_RECLAIM);
        /* Relaxed: the task is ours again, nothing crosses; fails if the
         * receiver took it meanwhile. */
        if (!atomic_compare_exchange_strong_explicit(&r->shared.cell, &c, reopened,
                                                     memory_order_relaxed, memory_order_relaxed))
            return false;
        WEFT_RACE_POINT(WEFT_RP_OWNER_RECLAIMED);
        count_open_cells(+1);
        WEFT_COUNT(w, sched.transfers, (uint64_t)-1); /* the deal did not happen after all */
        return true;
    }
    return false; /* taken (and perhaps not yet marked): join it */
}

void weft__priv_after_join(weft_worker *w, weft_task *t)
{
    /* The joiner opened its cell while it waited.  A deal that came too
     * late for the join runs now, on top of t (weft__sched_steal takes it;
     * a NULL victim accepts any deal), rather than wait for a take-back. */
    while (close_cell(w))
        weft__steal_and_run(w, t + 1, NULL, false);
}

void weft__priv_freeze_cells(weft_worker *w, weft_task *frame, weft_sched_saved *saved)
{
    /* own.top == frame: deal attempts find nothing old.  The deals below
     * the frame wait out the interrupt: the order of deals starts again at
     * the frame. */
    saved->deal_floor = (uint32_t)(w->cold.deal_floor - w->dq);
    w->cold.deal_floor = frame;
    /* A task dealt before the interrupt must not run inside it: it stays
     * in the (thus closed) cell until thaw. */
    if (close_cell(w))
        w->cold.hold = true;
}

void weft__priv_thaw_cells(weft_worker *w, weft_task *head, const weft_sched_saved *saved)
{
    (void)head; /* deal attempts resume at the next poll */
    w->cold.deal_floor = w->dq + saved->deal_floor;
}

/* ========================================================================
 * Receiver side.
 * ======================================================================== */

/* Figure 3 acquire, one round: take a deal from our own cell, or (re)open
 * it.  `victim` is only used by pure leapfrogging (leap under
 * WEFT_STEAL=leapfrog/transitive), which accepts deals from it alone. */
weft_steal_result weft__sched_steal(weft_worker *thief, weft_worker *victim, bool leap,
                                    weft_task **out, uintptr_t *wrapper)
{
    if (thief->cold.hold)
        return WEFT_STEAL_NONE; /* inside an interrupt with an old deal */
    thief->own.polls = 1;       /* once busy again, the first poll reads the clock */
    uint64_t want = leap && victim && weft__pool_steal_policy() != WEFT_STEAL_LEAPFROG_RANDOM
                        ? WEFT_SI_OPEN_FROM(victim->id)
                        : WEFT_SI_OPEN;
    /* Relaxed: our own cell; a deal is taken by the acquire CAS below. */
    uint64_t c = atomic_load_explicit(&thief->shared.cell, memory_order_relaxed);
    for (;;) {
        if (WEFT_SI_TAG(c) == WEFT_SI_TAG_DEAL) {
            WEFT_RACE_POINT(WEFT_RP_THIEF_BEFORE_CLAIM);
            /* Acquire: pairs with the dealer's CAS; the arguments and the
             * wrapper are visible.  A CAS: the dealer may take it back. */
            if (atomic_compare_exchange_strong_explicit(&thief->shared.cell, &c, WEFT_SI_CLOSED,
                                                        memory_order_acquire,
                                                        memory_order_relaxed)) {
                WEFT_RACE_POINT(WEFT_RP_THIEF_CLAIMED);
                break;
            }
            WEFT_RACE_POINT(WEFT_RP_THIEF_LOST); /* the dealer took it back */
            continue;
        }
        if (c == want)
            return WEFT_STEAL_NONE;
        WEFT_RACE_POINT(WEFT_RP_THIEF_BEFORE_ASK); /* opening the cell is the receiver's ask */
        /* s[i] = null.  Relaxed: publishes nothing; fails if a deal landed. */
        if (atomic_compare_exchange_strong_explicit(&thief->shared.cell, &c, want,
                                                    memory_order_relaxed, memory_order_relaxed)) {
            if (c == WEFT_SI_CLOSED)
                count_open_cells(+1);
            return WEFT_STEAL_NONE;
        }
    }
    weft_worker *dealer = weft__pool_worker((unsigned)WEFT_SI_DEAL_DEALER(c));
    weft_task *t = dealer->shared.dq + WEFT_SI_DEAL_SLOT(c);
    /* Relaxed: made visible by the acquire CAS. */
    *wrapper = atomic_load_explicit(&t->state, memory_order_relaxed);
    /* STOLEN(thief): tells the joiner whom to leapfrog.  Relaxed: the
     * joiner needs only the value; our worker was published at start. */
    atomic_store_explicit(&t->state, WEFT_STATE_STOLEN(thief), memory_order_relaxed);
    thief->cold.giver = dealer;
    *out = t;
    /* Sleepers are woken by dealers, not by receivers: no cascade. */
    return WEFT_STEAL_OK;
}

/* steal.c: whose task was taken (to wake its joiner when it is done). */
weft_worker *weft__sched_giver(weft_worker *thief, weft_worker *victim)
{
    (void)victim; /* deals come from any worker */
    return thief->cold.giver;
}

/* sleep.c's last look: could the sleeper take work now?  Its work comes
 * to its own cell, not to victim's.  seq_cst: the sleeper's half of the
 * Dekker pair with the dealer (top of file). */
bool weft__sched_has_work_for(weft_worker *sleeper, weft_worker *victim)
{
    (void)victim;
    if (!sleeper || sleeper->cold.hold)
        return false;
    return WEFT_SI_TAG(atomic_load_explicit(&sleeper->shared.cell, memory_order_seq_cst)) ==
           WEFT_SI_TAG_DEAL;
}

/* A worker going to sleep keeps its cell open: open it for deals from
 * anyone, or (a leapfrogging joiner) from its thief.  Called by the
 * sleeper itself; steal.c also calls it for an awake thief renewing
 * requests, for which there is nothing to do here. */
void weft__sched_ask_for_sleeper(weft_worker *victim, weft_worker *sleeper)
{
    weft_sleep_wants wants = weft__sleep_wants(sleeper);
    if (wants == WEFT_WANTS_NOTHING || sleeper->cold.hold)
        return;
    uint64_t want =
        wants == WEFT_WANTS_WORK_FROM_THIEF ? WEFT_SI_OPEN_FROM(victim->id) : WEFT_SI_OPEN;
    /* Relaxed: our own cell; see weft__sched_steal. */
    uint64_t c = atomic_load_explicit(&sleeper->shared.cell, memory_order_relaxed);
    while (c != want && WEFT_SI_TAG(c) != WEFT_SI_TAG_DEAL)
        /* Relaxed: as in weft__sched_steal; fails if a deal landed. */
        if (atomic_compare_exchange_strong_explicit(&sleeper->shared.cell, &c, want,
                                                    memory_order_relaxed, memory_order_relaxed)) {
            if (c == WEFT_SI_CLOSED)
                count_open_cells(+1);
            break;
        }
}

void weft__sched_destroy(weft_worker *w) { (void)w; /* nothing allocated */ }

void weft__sched_idle(weft_worker *w) { (void)w; /* dealers never wait for a receiver */ }

const weft_sched_counter_name weft__sched_counter_names[] = {
    {"requests", offsetof(weft_sched_counters, requests), offsetof(weft_stats, requests)},
    {"transfers", offsetof(weft_sched_counters, transfers), offsetof(weft_stats, transfers)},
};
const unsigned weft__sched_counter_count = 2;

const bool weft__sched_hands_out_tasks = true;
