// SPDX-License-Identifier: Apache-2.0
/* private-ri: receiver-initiated work stealing with private deques (Acar,
 * Charguéraud and Rainey, PPoPP 2013, Figure 2, with Figure 8's acquire
 * from their appendix C).  The common part is
 * ../private-common/private_deque.c; the design note docs/sched-private.md.
 *
 * Each worker i has
 *   shared.req   the request cell r[i] (state.h): own.top while it polls
 *                and nobody asks, REQ(j), SLEEPREQ, or BLOCKED (not
 *                polling; the status flag a[i] folded in);
 *   shared.xfer  the transfer cell t[i]: WAITING (NO_RESP), NO (null) or
 *                the task handed over, with shared.xfer_wrapper beside it.
 *
 * Owner (communicate, Figure 2).  At every poll (SPAWN, SYNC, WEFT_YIELD)
 * the owner compares its slot with shared.req; a request makes it take the
 * request with a CAS, mark its oldest private task STOLEN(thief) and store
 * it into the thief's transfer cell (pop_top; t[j] = ...).  Then it wakes
 * the thief if that sleeps, and a sleeper if tasks are left.  With nothing
 * private the request waits for the owner's next SPAWN (as the split
 * deque's splitreq does): the paper's update_status after every push and
 * pop would put a store (here a CAS: thieves write the same word) into
 * every SPAWN/SYNC pair at the bottom of a frame.  The cell is BLOCKED
 * while the worker does not poll (idle, joining, frozen: Figure 8's
 * REQ_BLOCKED, also a[i] = false); stopping to poll answers a pending
 * request NO, and the first SPAWN after that unblocks the cell.  So nobody
 * waits for a worker that does not run task code.
 *
 * Thief (acquire, Figure 8).  It first blocks its own cell (reject, lines
 * 1-11; it has nothing to give and answers any request "no"), so two idle
 * workers never wait for each other.  It CASes its id into a victim's cell
 * if that is not BLOCKED (line 18: a[k] and the CAS in one word) and spins
 * on its transfer cell (line 19).  Our owners may go without polling for a
 * long time (a long task), so the spin is bounded; the request then stays
 * pending -- also while the thief sleeps: the owner's answer wakes it.  The
 * thief retracts it (a CAS back to what it replaced) only to ask another
 * victim, at an interrupt or when it gets busy; if that CAS fails the owner
 * has taken the request and the answer is certain to come.  This is why
 * the owner takes a request with a CAS instead of the paper's plain
 * r[i] = NO_REQU.  A thief that got busy without consuming a task handed
 * to it (it took an external RUN) would hold up the owner's join, so the
 * owner takes an unconsumed task back at its SYNC (CAS of the transfer
 * cell to NO; the thief consumes with a CAS).
 *
 * Memory orders, by the races they order:
 * - the task's arguments, STOLEN(thief) and wrapper vs the thief running
 *   it: the owner's store of shared.xfer is release (seq_cst), the thief's
 *   consuming CAS acquire;
 * - the thief's reset of its transfer cell vs the owner's answer: the
 *   request CAS is release, the owner's take acquire;
 * - the result vs the owner's join: steal.c (DONE, release/acquire);
 * - work vs sleepers (docs/sleep.md), each a seq_cst "write mine, then
 *   read theirs" pair: the owner's unblock store or its taking CAS, then
 *   the sleeper counts (weft__wake_for_work); its answer store, then the
 *   thief's sleep word (weft__wake_worker); a retracting thief's CAS, then
 *   the counts.  Sleepers announce themselves, then read the cells and
 *   their own transfer cell (weft__sched_has_work_for), all seq_cst.
 */
#include "sched/private-common/private_deque.h"

#include <sched.h>

/* How long a thief spins for an answer before it lets the request wait
 * on its own: an owner running fine-grained tasks polls within
 * nanoseconds, so a longer wait means it is in a long task. */
#define ANSWER_SPIN_NS 50000u

static inline bool is_thief_request(uintptr_t r)
{
    return r >= WEFT_RI_REQ_BASE && r < WEFT_RI_SLEEPREQ;
}

static inline bool is_task_answer(uintptr_t a) { return a != WEFT_RI_WAITING && a != WEFT_RI_NO; }

void weft__priv_variant_init(weft_worker *w)
{
    if ((uintptr_t)w->end >= WEFT_RI_REQ_BASE)
        weft__fatal("private-ri: deque of worker %u is mapped too high for the request cell "
                    "encoding",
                    w->id);
    w->cold.asked = NULL;
    w->cold.replaced = 0;
    w->cold.giver = NULL;
    w->cold.hold = false;
    /* Before any thread can see this worker (published by thread creation). */
    atomic_init(&w->shared.req, WEFT_RI_BLOCKED); /* not polling yet */
    atomic_init(&w->shared.xfer, WEFT_RI_WAITING);
    atomic_init(&w->shared.xfer_wrapper, 0);
}

static void withdraw_request(weft_worker *w);
static uintptr_t wait_for_answer(weft_worker *thief, bool certain);

/* ========================================================================
 * Owner side: only the worker that owns the deque calls these.
 * ======================================================================== */

/* Figure 2 communicate, "t[j] = pop_top(q[i])": hands the task at t (the
 * old own.top; the request is already taken) to thief j. */
static void hand_out(weft_worker *w, weft_worker *j, weft_task *t)
{
    (void)w; /* counters only */
    /* Relaxed (load and store): our private slot; the release store of
     * shared.xfer below publishes STOLEN(j) and the arguments. */
    uintptr_t wrapper = atomic_load_explicit(&t->state, memory_order_relaxed);
    atomic_store_explicit(&t->state, WEFT_STATE_STOLEN(j), memory_order_relaxed);
    /* Relaxed: published by the release store below. */
    atomic_store_explicit(&j->shared.xfer_wrapper, wrapper, memory_order_relaxed);
    WEFT_RACE_POINT(WEFT_RP_OWNER_BEFORE_PUBLISH);
    /* seq_cst: release for the thief's acquire (the task's arguments, its
     * wrapper, STOLEN(j)); the total order puts it before our read of j's
     * sleep word (weft__wake_worker), Dekker with j going to sleep. */
    atomic_store_explicit(&j->shared.xfer, (uintptr_t)t, memory_order_seq_cst);
    WEFT_RACE_POINT(WEFT_RP_OWNER_PUBLISHED); /* before waking j and maybe a sleeper */
    WEFT_COUNT(w, sched.transfers, 1);
}

/* What serve_requests does after a step: read the cell again, or stop. */
typedef enum { SERVE_AGAIN, SERVE_DONE } serve_step;

/* A thief's request r: hand it our oldest private task, or answer "no". */
static serve_step serve_thief(weft_worker *w, weft_task *head, uintptr_t r, bool has,
                              bool stop_polling)
{
    if (!has && !stop_polling)
        return SERVE_DONE; /* answered at our next SPAWN */
    weft_worker *thief = weft__pool_worker((unsigned)(r - WEFT_RI_REQ_BASE));
    weft_task *t = w->own.top;
    uintptr_t next = stop_polling ? WEFT_RI_BLOCKED : (uintptr_t)(has ? t + 1 : t);
    /* Take the request (the paper's r[i] = NO_REQU) together with
     * the new status; fails if the thief retracted it.  seq_cst:
     * acquire as serve_requests' load; the sleeper counts are read after it. */
    if (!atomic_compare_exchange_strong_explicit(&w->shared.req, &r, next, memory_order_seq_cst,
                                                 memory_order_relaxed))
        return SERVE_AGAIN;
    if (has) {
        w->own.top = t + 1;
        hand_out(w, thief, t);
    } else {
        /* seq_cst: as hand_out's store (NO carries no data). */
        atomic_store_explicit(&thief->shared.xfer, WEFT_RI_NO, memory_order_seq_cst);
    }
    weft__wake_worker(w, thief); /* it may sleep with its request here */
    if (has && t + 1 < head)
        weft__wake_for_work(w); /* tasks are left: someone may want one */
    /* Stopping: blocked now; nothing else can arrive, the next read shows it. */
    return stop_polling ? SERVE_AGAIN : SERVE_DONE;
}

/* The sleepers' request: turn it into a wake-up once we have a task. */
static serve_step serve_sleepers(weft_worker *w, uintptr_t r, bool has, bool stop_polling)
{
    if (!has && !stop_polling)
        return SERVE_DONE; /* served at our next SPAWN */
    uintptr_t next = stop_polling ? WEFT_RI_BLOCKED : (uintptr_t)w->own.top;
    /* seq_cst: acquire reads the sleeper's increment (it CASed
     * SLEEPREQ after it, seq_cst); weft__wake_for_work reads the
     * counts next.  Fails if a thief made it its own request. */
    if (!atomic_compare_exchange_strong_explicit(&w->shared.req, &r, next, memory_order_seq_cst,
                                                 memory_order_relaxed))
        return SERVE_AGAIN;
    if (has)
        weft__wake_for_work(w);
    /* else: we stop polling with nothing; unblocking wakes one. */
    return SERVE_DONE;
}

/* The owner's side of the request cell, at a poll (polling: it keeps
 * running task code) or when it stops polling (idle, joining, frozen):
 * hands its oldest private task to a thief that asks, turns the sleepers'
 * request into a wake-up, unblocks the cell once it has a task to offer.
 * A request it cannot serve yet (nothing private) stays until its next
 * SPAWN, like the split deque's splitreq; one that stops polling answers
 * it "no" and blocks the cell (Figure 8's reject). */
static void serve_requests(weft_worker *w, weft_task *head, bool stop_polling)
{
    weft_stop_if_forked(); /* a forked child has no thieves to answer */
    bool has = w->own.top < head;
    for (;;) {
        /* Acquire: a request (a thief's or a sleeper's release CAS) carries
         * what was written before it: the thief's reset transfer cell, the
         * sleeper's count increment. */
        uintptr_t r = atomic_load_explicit(&w->shared.req, memory_order_acquire);
        if (is_thief_request(r)) {
            if (serve_thief(w, head, r, has, stop_polling) == SERVE_DONE)
                return;
            continue;
        }
        if (r == WEFT_RI_SLEEPREQ) {
            if (serve_sleepers(w, r, has, stop_polling) == SERVE_DONE)
                return;
            continue;
        }
        if (r == WEFT_RI_BLOCKED) {
            if (has && !stop_polling) {
                /* We are busy: a request of ours still pending elsewhere
                 * (we took an external RUN) would only hold its answer. */
                if (w->cold.asked)
                    withdraw_request(w);
                /* Unblock.  A store: thieves never CAS a BLOCKED cell.
                 * seq_cst: the waker's "write mine" (docs/sleep.md); the
                 * sleeper counts are read next. */
                atomic_store_explicit(&w->shared.req, (uintptr_t)w->own.top, memory_order_seq_cst);
                weft__wake_for_work(w);
            }
            return;
        }
        /* Nobody asks; r is own.top, or above it after a join popped below. */
        uintptr_t next = stop_polling ? WEFT_RI_BLOCKED : (uintptr_t)w->own.top;
        /* Relaxed: only the value matters (it withdraws or moves an offer);
         * fails if a thief or a sleeper asked meanwhile (next round). */
        if (r == next || atomic_compare_exchange_strong_explicit(
                             &w->shared.req, &r, next, memory_order_relaxed, memory_order_relaxed))
            return;
    }
}

/* The common part's hook: a polling owner whose private tasks are
 * [own.top, head). */
void weft__priv_settle(weft_worker *w, weft_task *head) { serve_requests(w, head, false); }

/* A poll found a request in the cell: SPAWN (head = the new top), SYNC of
 * a private task (head = that task), WEFT_YIELD. */
void weft__priv_poll_slow(weft_worker *w, weft_task *head) { weft__priv_settle(w, head); }

/* t (handed to thief j, STOLEN(j)) is being synced: if j has not consumed
 * it from its transfer cell, turn the answer into NO and run t ourselves. */
bool weft__priv_take_back(weft_worker *w, weft_task *t)
{
    (void)w; /* counters only */
    /* Relaxed: our own mark; j writes DONE only after consuming t. */
    uintptr_t s = atomic_load_explicit(&t->state, memory_order_relaxed);
    if (!WEFT_STATE_IS_STOLEN(s))
        return false;
    weft_worker *j = WEFT_STATE_THIEF(s);
    uintptr_t mine = (uintptr_t)t;
    WEFT_RACE_POINT(WEFT_RP_OWNER_BEFORE_RECLAIM);
    /* Relaxed: the task is ours again, nothing crosses; fails if j
     * consumed it (then it runs or has run it).  Only we can have put t's
     * address into a transfer cell, and only once before this SYNC. */
    if (!atomic_compare_exchange_strong_explicit(&j->shared.xfer, &mine, WEFT_RI_NO,
                                                 memory_order_relaxed, memory_order_relaxed))
        return false;
    WEFT_RACE_POINT(WEFT_RP_OWNER_RECLAIMED);
    WEFT_COUNT(w, sched.transfers, (uint64_t)-1); /* it did not move after all */
    return true;
}

void weft__priv_freeze_cells(weft_worker *w, weft_task *frame, weft_sched_saved *saved)
{
    (void)saved;
    /* own.top == frame: nothing to hand out; answers a pending request "no"
     * and blocks the cell until thaw. */
    serve_requests(w, frame, true);
    /* Our own pending request: retract it, or keep a task that is already
     * ours out of the interrupt until thaw. */
    if (w->cold.asked) {
        withdraw_request(w);
        if (w->cold.asked) {
            /* Taken: the answer is on its way.  A task stays in the cell
             * until thaw; "no" ends the request. */
            if (is_task_answer(wait_for_answer(w, true)))
                w->cold.hold = true;
            else
                w->cold.asked = NULL;
        }
    }
}

void weft__priv_thaw_cells(weft_worker *w, weft_task *head, const weft_sched_saved *saved)
{
    (void)saved;
    /* Unblocks (seq_cst) and wakes a sleeper if tasks below the frame are
     * private: a worker may have gone to sleep while they were frozen. */
    weft__priv_settle(w, head);
}

/* ========================================================================
 * Thief side.
 * ======================================================================== */

/* Figure 8, reject (lines 1-11): a worker looking for work has nothing
 * private (idle, joining a handed-out task, or helping in an interrupt
 * frame), so its cell must be BLOCKED; any request that arrived before is
 * answered "no". */
static void reject(weft_worker *w)
{
    /* Relaxed: our own cell; serve_requests re-reads it with acquire. */
    if (atomic_load_explicit(&w->shared.req, memory_order_relaxed) != WEFT_RI_BLOCKED)
        serve_requests(w, w->own.top, true);
}

/* The owner stops running task code (a borrowed identity is given back):
 * as a worker looking for work does, it answers "no" and blocks its cell,
 * so that nobody waits for an answer it would give only when it polls. */
void weft__sched_idle(weft_worker *w) { reject(w); }

/* Retracts our pending request if its owner has not taken it: CAS back to
 * the value it replaced.  If that value offered tasks and workers sleep,
 * leave the sleepers' request instead (they saw ours and slept). */
static void withdraw_request(weft_worker *w)
{
    weft_worker *v = w->cold.asked;
    uintptr_t mine = WEFT_RI_REQ(w->id);
    /* seq_cst: a sleeper may have seen our request and slept; our read of
     * the sleeper counts below must see it (Dekker).  RMWs keep a restored
     * SLEEPREQ in its sleeper's release sequence. */
    if (!atomic_compare_exchange_strong_explicit(&v->shared.req, &mine, w->cold.replaced,
                                                 memory_order_seq_cst, memory_order_relaxed))
        return; /* taken: the answer is on its way */
    w->cold.asked = NULL;
    if (w->cold.replaced < WEFT_RI_REQ_BASE && weft__sleepers_want_work_from(v))
        weft__sched_ask_for_sleeper(v, NULL);
}

/* Spins for the answer to our pending request, at most ANSWER_SPIN_NS
 * (forever if `certain`: the owner took the request). */
static uintptr_t wait_for_answer(weft_worker *thief, bool certain)
{
    uint64_t deadline = 0;
    for (unsigned i = 0;; i++) {
        /* Acquire: pairs with the answer's release (see hand_out). */
        uintptr_t a = atomic_load_explicit(&thief->shared.xfer, memory_order_acquire);
        if (a != WEFT_RI_WAITING)
            return a;
        if (i < 256) {
            weft_cpu_relax();
            continue;
        }
        if (!certain) {
            uint64_t now = weft_now_ns();
            if (deadline == 0)
                deadline = now + ANSWER_SPIN_NS;
            else if (now >= deadline)
                return WEFT_RI_WAITING;
        }
        sched_yield(); /* the owner may share our CPU (more workers than cores) */
    }
}

/* Consumes the answer a to our pending request. */
static weft_steal_result take_answer(weft_worker *thief, uintptr_t a, weft_task **out,
                                     uintptr_t *wrapper)
{
    weft_worker *giver = thief->cold.asked;
    thief->cold.asked = NULL;
    if (!is_task_answer(a))
        return WEFT_STEAL_NONE; /* "no" */
    WEFT_RACE_POINT(WEFT_RP_THIEF_BEFORE_CLAIM);
    /* Acquire: pairs with the owner's release store of the task.  A CAS:
     * the owner may be taking the task back at its SYNC. */
    if (!atomic_compare_exchange_strong_explicit(&thief->shared.xfer, &a, WEFT_RI_WAITING,
                                                 memory_order_acquire, memory_order_relaxed)) {
        WEFT_RACE_POINT(WEFT_RP_THIEF_LOST);
        return WEFT_STEAL_NONE; /* taken back */
    }
    WEFT_RACE_POINT(WEFT_RP_THIEF_CLAIMED);
    *out = (weft_task *)a;
    /* Relaxed: published with the task (the CAS above read it, acquire). */
    *wrapper = atomic_load_explicit(&thief->shared.xfer_wrapper, memory_order_relaxed);
    thief->cold.giver = giver;
    /* The owner wakes sleepers itself when tasks are left. */
    return WEFT_STEAL_OK;
}

weft_steal_result weft__sched_steal(weft_worker *thief, weft_worker *victim, bool leap,
                                    weft_task **out, uintptr_t *wrapper)
{
    (void)leap; /* a leapfrogging joiner simply asks its thief */
    reject(thief);
    if (thief->cold.hold)
        return WEFT_STEAL_NONE; /* inside an interrupt with an old task */
    if (thief->cold.asked) {
        /* A request of ours is pending (made earlier, perhaps before we
         * slept).  Keep waiting if it is to this victim; otherwise retract
         * it, unless it was taken. */
        uintptr_t a;
        if (thief->cold.asked == victim) {
            a = wait_for_answer(thief, false);
            if (a == WEFT_RI_WAITING)
                return WEFT_STEAL_NONE;
        } else {
            /* Acquire: as in wait_for_answer. */
            a = atomic_load_explicit(&thief->shared.xfer, memory_order_acquire);
            if (a == WEFT_RI_WAITING) {
                withdraw_request(thief);
                if (thief->cold.asked)
                    a = wait_for_answer(thief, true);
            }
        }
        if (a != WEFT_RI_WAITING)
            return take_answer(thief, a, out, wrapper);
    }
    if (victim == thief)
        return WEFT_STEAL_NONE;
    /* Line 18's a[k]: relaxed, only a hint; the CAS decides. */
    uintptr_t r = atomic_load_explicit(&victim->shared.req, memory_order_relaxed);
    if (r == WEFT_RI_BLOCKED)
        return WEFT_STEAL_NONE;
    if (is_thief_request(r))
        return WEFT_STEAL_BUSY;
    WEFT_RACE_POINT(WEFT_RP_THIEF_BEFORE_ASK);
    /* Line 16: t[i] = NO_RESP.  Relaxed: our request CAS below (release)
     * orders it before the owner's answer. */
    atomic_store_explicit(&thief->shared.xfer, WEFT_RI_WAITING, memory_order_relaxed);
    /* Line 18: CAS our id over own.top, or over the sleepers' request (their
     * wake-up then waits for our answer; the owner wakes one if tasks are
     * left).  Release: see above. */
    if (!atomic_compare_exchange_strong_explicit(&victim->shared.req, &r, WEFT_RI_REQ(thief->id),
                                                 memory_order_release, memory_order_relaxed)) {
        /* Thieves race for the victim here, not for a task. */
        WEFT_RACE_POINT(WEFT_RP_THIEF_LOST);
        return WEFT_STEAL_BUSY;
    }
    WEFT_COUNT(thief, sched.requests, 1);
    thief->cold.asked = victim;
    thief->cold.replaced = r;
    uintptr_t a = wait_for_answer(thief, false);
    if (a == WEFT_RI_WAITING)
        return WEFT_STEAL_NONE; /* the request stays pending */
    return take_answer(thief, a, out, wrapper);
}

/* steal.c: whose task the last successful steal took (its joiner is the
 * one to wake): the worker that answered our request. */
weft_worker *weft__sched_giver(weft_worker *thief, weft_worker *victim)
{
    (void)victim; /* the answer may come from an earlier request */
    return thief->cold.giver;
}

/* After joining t, which was handed out: our own pending request (made
 * while we waited) is retracted, or its answer run now on top of t. */
void weft__priv_after_join(weft_worker *w, weft_task *t)
{
    if (!w->cold.asked)
        return;
    withdraw_request(w);
    if (!w->cold.asked)
        return;
    if (!is_task_answer(wait_for_answer(w, true))) {
        w->cold.asked = NULL; /* "no" */
        return;
    }
    /* Consumes the answer (weft__sched_steal with the request's victim). */
    weft__steal_and_run(w, t + 1, w->cold.asked, false);
}

/* sleep.c's last look for a worker going to sleep: could it get a task
 * now?  seq_cst (all loads): the sleeper's half of the Dekker pairs in
 * the header comment. */
bool weft__sched_has_work_for(weft_worker *sleeper, weft_worker *victim)
{
    weft_worker *self = sleeper;
    if (self && self->cold.asked && !self->cold.hold &&
        atomic_load_explicit(&self->shared.xfer, memory_order_seq_cst) != WEFT_RI_WAITING)
        return true; /* our request was answered */
    /* A polling owner nobody has asked (our request could not be placed).
     * A pending request is answered at the owner's next poll with a task
     * (a sleeping thief is woken by the answer, and the owner wakes another
     * if tasks are left); a retracted one is renewed for the sleepers by
     * its thief; SLEEPREQ wakes one at that poll; BLOCKED wakes one when
     * it unblocks with a task. */
    return atomic_load_explicit(&victim->shared.req, memory_order_seq_cst) < WEFT_RI_REQ_BASE;
}

/* sleeper (on its own thread) is going to sleep and may want work from
 * victim: if it has no request pending, its request goes there, to be
 * answered (and it woken) at the victim's next poll; otherwise SLEEPREQ
 * makes the victim wake some sleeper then.  With sleeper == NULL (a thief
 * renewing for sleepers) only SLEEPREQ. */
void weft__sched_ask_for_sleeper(weft_worker *victim, weft_worker *sleeper)
{
    /* An awake caller (steal.c renewing for sleepers) has nothing to
     * renew: owners wake sleepers themselves when tasks are left. */
    if (sleeper && weft__sleep_wants(sleeper) == WEFT_WANTS_NOTHING)
        return;
    bool ask = sleeper && !sleeper->cold.asked && !sleeper->cold.hold && sleeper != victim;
    for (int tries = 0; tries < 8; tries++) {
        /* seq_cst (load and CAS): the sleeper's "write mine" after its count
         * increment; the owner takes either request with acquire. */
        uintptr_t r = atomic_load_explicit(&victim->shared.req, memory_order_seq_cst);
        if (r == WEFT_RI_BLOCKED || is_thief_request(r) || (r == WEFT_RI_SLEEPREQ && !ask))
            return;
        if (ask) {
            /* As in weft__sched_steal (relaxed reset, published by the CAS). */
            atomic_store_explicit(&sleeper->shared.xfer, WEFT_RI_WAITING, memory_order_relaxed);
            if (atomic_compare_exchange_strong_explicit(
                    &victim->shared.req, &r, WEFT_RI_REQ(sleeper->id), memory_order_seq_cst,
                    memory_order_seq_cst)) {
                WEFT_COUNT(sleeper, sched.requests, 1);
                sleeper->cold.asked = victim;
                sleeper->cold.replaced = r;
                return;
            }
        } else if (atomic_compare_exchange_strong_explicit(&victim->shared.req, &r,
                                                           WEFT_RI_SLEEPREQ, memory_order_seq_cst,
                                                           memory_order_seq_cst)) {
            return;
        }
    }
    /* Still changing: the sleeper's last look sees an offer and stays up. */
}

void weft__sched_destroy(weft_worker *w) { (void)w; /* nothing allocated */ }

const weft_sched_counter_name weft__sched_counter_names[] = {
    {"requests", offsetof(weft_sched_counters, requests), offsetof(weft_stats, requests)},
    {"transfers", offsetof(weft_sched_counters, transfers), offsetof(weft_stats, transfers)},
};
const unsigned weft__sched_counter_count = 2;

const bool weft__sched_hands_out_tasks = true;
