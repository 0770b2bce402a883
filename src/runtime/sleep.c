// SPDX-License-Identifier: Apache-2.0
/* Idle workers: search a little, then sleep until there is work.
 *
 * The design note is docs/sleep.md; in short:
 *
 * A worker that found nothing for idle_spin_us announces itself (its
 * sleep_word = the kind of sleep, then a sleeper count + 1), asks the
 * workers it could take work from to let it know when they have some
 * (weft__sched_ask_for_sleeper), looks once more for anything to do
 * (weft__sched_has_work_for among others), and only then waits on its futex
 * word.  Whoever creates something to do -- tasks that became stealable,
 * an external RUN, an interrupt, stop, the completion of a task a joiner
 * waits for -- first publishes it, then looks at the sleepers.  Both sides
 * use seq_cst for "write mine, then read theirs", so at least one sees the
 * other (Dekker): no wake-up is lost.
 *
 * How work appears is the scheduler's business.  Where tasks become
 * stealable only when their owner acts (the split deque's splitreq, Wool's
 * trip wire, private-ri's request cell), the sleeper's ask leaves a
 * request that stays until the owner serves it, and serving it wakes a
 * sleeper: the request is written seq_cst after the sleeper's count, and
 * the owner reads the counts seq_cst after serving or clearing it, so the
 * owner cannot miss the sleeper that asked.  Where tasks are stealable at
 * once but published without a seq_cst write (Chase-Lev's push), the
 * request (wake_req) is read after the owner's next fence, at its next
 * SYNC at the latest.  Where the owner hands work to one worker
 * (private-ri's answer, private-si's deal) it wakes that worker
 * (weft__wake_worker).  A thief that takes a victim's last shared task while
 * others sleep renews the request for them (steal.c).
 *
 * A waker claims a sleeper by CAS of its word from the sleep kind to AWAKE,
 * so each sleeper is claimed once and the counts stay exact.
 *
 * The steps themselves (announce, withdraw, wait, claim, wake, uncount, the
 * backoff) are the parking protocol of runtime/parking.h, which the work
 * pool uses too; this file adds the kinds of sleep, their counts, the
 * requests, the last look and lending.  Lending an IDLE sleeper
 * (IDLE -> IDLE_LENDABLE -> LENT, the seat's loans) is no part of it: a
 * borrower takes the worker's identity, not its sleep, so those CASes and
 * the wait for the last loan stay here.
 */
#include "runtime/sleep.h"

#include "observe/hooks.h"
#include "runtime/diagnostics.h"
#include "runtime/parking.h"
#include "runtime/perturb.h"
#include "runtime/sched.h"
#include "runtime/state.h"
#include "runtime/topology.h"
#include "sys/clock.h"
#include "sys/cpu.h"
#include "sys/futex.h"

#include <limits.h>
#include <sched.h>

void weft__idle_reset(weft_idle *idle)
{
    idle->rounds = 0;
    idle->since_ns = 0;
}

bool weft__idle_backoff(weft_idle *idle)
{
    return weft__park_backoff(&idle->rounds, &idle->since_ns, weft__rt.idle_spin_us,
                              weft__rt.idle_hold_ns);
}

/* The count a sleeper with this sleep word is in: the pool's for IDLE and
 * JOIN, its thief's leap_sleepers for JOIN_LEAP. */
static _Atomic uint32_t *sleep_counter(uint32_t word)
{
    int kind = WEFT_SLEEP_KIND(word);
    if (kind == WEFT_SLEEP_IDLE)
        return &weft__rt.sleeping_idle;
    if (kind == WEFT_SLEEP_JOIN)
        return &weft__rt.sleeping_join;
    return &weft__rt.workers[((word & ~WEFT_SLEEP_GUEST) >> 2) - 1]->leap_sleepers;
}

bool weft__sleepers_want_work_from(weft_worker *owner)
{
    /* seq_cst: the "read theirs" of an owner that made work available or
     * cleared a request; pairs with the sleepers' increments (weft__sleep). */
    return atomic_load_explicit(&weft__rt.sleeping_idle, memory_order_seq_cst) != 0 ||
           atomic_load_explicit(&weft__rt.sleeping_join, memory_order_seq_cst) != 0 ||
           atomic_load_explicit(&owner->leap_sleepers, memory_order_seq_cst) != 0;
}

weft_sleep_wants weft__sleep_wants(const weft_worker *self)
{
    /* Relaxed: the caller's own sleep word, which only it stores while it
     * is awake (its wakers store only once it sleeps). */
    switch (WEFT_SLEEP_KIND(atomic_load_explicit(&self->sleep_word, memory_order_relaxed))) {
    case WEFT_AWAKE: return WEFT_WANTS_NOTHING; /* awake, or LENT (AWAKE's kind bits) */
    case WEFT_SLEEP_JOIN_LEAP: return WEFT_WANTS_WORK_FROM_THIEF;
    default: return WEFT_WANTS_ANY_WORK;
    }
}

/* The sleeper's last look, after announcing itself.  Every read is seq_cst:
 * the sleeper's half of each Dekker pair. */
static bool something_to_do(weft_worker *w, int state, weft_task *joined, weft_worker *thief)
{
    weft_runtime *p = &weft__rt;
    /* seq_cst: pairs with stop's seq_cst store of quit before wake_all. */
    if (atomic_load_explicit(&p->quit, memory_order_seq_cst))
        return true;
    if (weft_interrupt_waiting_for(w))
        return true;
    /* seq_cst: pairs with suspend's store before wake_all.  A joiner parks
     * too (join.c), unless it is inside an interrupt, which must end
     * before the pool is suspended, or the suspension is lazy (it parks
     * idle workers only: the joiner sleeps on, or it would spin until
     * resume).  Relaxed (the lazy hint): a suspend stores it before the
     * flag, so a flag read from a weft_suspend's store shows it cleared;
     * one read from before is the Dekker case in which the wake_all after
     * the store finds this sleeper announced. */
    if (w->in_interrupt == 0 && atomic_load_explicit(&p->suspended, memory_order_seq_cst) &&
        (state == WEFT_SLEEP_IDLE || !atomic_load_explicit(&p->suspend_lazy, memory_order_relaxed)))
        return true;
    if (state == WEFT_SLEEP_IDLE) {
        if (weft_external_pending())
            return true;
    } else if (/* seq_cst: pairs with the thief's DONE store (steal.c) */
               atomic_load_explicit(&joined->state, memory_order_seq_cst) == WEFT_STATE_DONE) {
        return true;
    }
    if (state == WEFT_SLEEP_JOIN_LEAP)
        return thief != NULL && weft__sched_has_work_for(w, thief);
    for (unsigned i = 0; i < p->n_workers; i++) {
        weft_worker *v = p->workers[i];
        if (v != w && weft__sched_has_work_for(w, v))
            return true;
    }
    return false;
}

/* Lets the owners it could take work from know that it wants some (the
 * scheduler says how): see the top of this file. */
static void leave_requests(weft_worker *w, int state, weft_worker *thief)
{
    weft_runtime *p = &weft__rt;
    if (state == WEFT_SLEEP_JOIN_LEAP) {
        if (thief)
            weft__sched_ask_for_sleeper(thief, w);
        return;
    }
    for (unsigned i = 0; i < p->n_workers; i++)
        if (p->workers[i] != w)
            weft__sched_ask_for_sleeper(p->workers[i], w);
}

/* Steps 1 and 2 of going to sleep: the sleep word, the count, the
 * requests.  Returns the count the sleeper is in. */
static _Atomic uint32_t *announce(weft_worker *w, uint32_t word, int state, weft_worker *thief)
{
    _Atomic uint32_t *counter = sleep_counter(word);
    /* The sleeper's "write mine" of every Dekker pair (seq_cst word and
     * count, then a seq_cst fence).  A claimer may decrement our count
     * before we increment it (it saw the word first): the count is then
     * briefly one low, which only makes a waker skip a wake-up that our
     * own last look covers. */
    weft__park_announce(&w->sleep_word, word, counter);
    leave_requests(w, state, thief);
    return counter;
}

/* An idle worker woken on the CPU its waker ran on: the waker is
 * runnable beside it (weft__park_probe_core says why its next hold then
 * yields first).  Only idle sleeps: a joiner's next hold may come long
 * after its wake, for another reason. */
static void probe_if_beside_waker(weft_worker *w)
{
    int cpu = sched_getcpu();
    /* Relaxed: a hint (claim); a racing claimer's CPU only misjudges one
     * hold. */
    if (cpu >= 0 && cpu == atomic_load_explicit(&w->waker_cpu, memory_order_relaxed))
        weft__park_probe_core();
}

/* An IDLE sleeper whose last look found nothing: it becomes lendable (a
 * RUN caller may borrow its identity) and waits.  While it is lent, the
 * word is the borrower's (LENT, or a sleep of the borrower's with the
 * GUEST bit), and wake-ups for the borrower may reach this thread too: it
 * waits on.  AWAKE ends only a sleep of the worker (its own, or the one a
 * borrower announced for it when it gave it back); once the word is
 * AWAKE no borrower can come, but the last one may still be finishing:
 * this thread waits for the seat's loan count to drop to zero. */
static void idle_wait(weft_worker *w)
{
    uint32_t expected = WEFT_SLEEP_IDLE;
    /* acq_rel: release publishes this worker's state (deque, scheduler
     * fields) to a borrower, whose CAS to LENT acquires it.  Fails only if
     * a waker claimed us (AWAKE: acquire, as below); no borrower could,
     * the word was not lendable yet. */
    if (!atomic_compare_exchange_strong_explicit(&w->sleep_word, &expected,
                                                 WEFT_SLEEP_IDLE_LENDABLE, memory_order_acq_rel,
                                                 memory_order_acquire))
        return;
    weft_seat *seat = &weft__rt.seats[w->id];
    /* Until a claim makes the word AWAKE; it stays AWAKE from then on (no
     * borrower comes, and only this thread writes it next). */
    weft__park_wait(&w->sleep_word, WEFT_AWAKE);
    probe_if_beside_waker(w);
    for (;;) {
        /* Acquire: pairs with the last borrower's release decrement; its
         * use of the worker is over. */
        uint32_t loans = atomic_load_explicit(&seat->loans, memory_order_acquire);
        if (loans < WEFT_LOAN)
            return;
        /* Relaxed: the waiter bit only says to wake us; the loop re-checks. */
        if ((loans & WEFT_LOAN_WAITER) ||
            atomic_compare_exchange_strong_explicit(&seat->loans, &loans, loans | WEFT_LOAN_WAITER,
                                                    memory_order_relaxed, memory_order_relaxed))
            weft__futex_wait(&seat->loans, loans | WEFT_LOAN_WAITER);
    }
}

void weft__sleep(weft_worker *w, int state, weft_task *joined, weft_worker *thief)
{
    weft_stop_if_forked();
    /* A leapfrogging joiner needs its thief (the only one it may take work
     * from); its caller never sleeps before the thief is known. */
    if (state == WEFT_SLEEP_JOIN_LEAP && thief == NULL)
        weft__fatal("internal: leapfrog sleep without a thief");
    uint32_t word = WEFT_SLEEP_WORD(state, state == WEFT_SLEEP_JOIN_LEAP ? thief : NULL);
    /* A borrower sleeps as the worker, marked so that its wake-up is not
     * taken for the worker's own (idle_wait). */
    if (weft__tls_guest)
        word |= WEFT_SLEEP_GUEST;
    uint32_t woken = WEFT_SLEEP_WOKEN(word);
    /* Work published from here until the announcement wakes nobody: only
     * the last look below can see it. */
    WEFT_RACE_POINT(WEFT_RP_SLEEP_BEFORE_ANNOUNCE);
    _Atomic uint32_t *counter = announce(w, word, state, thief);

    WEFT_RACE_POINT(WEFT_RP_SLEEP_ANNOUNCED);
    if (something_to_do(w, state, joined, thief)) {
        /* Withdraw, unless a waker claimed us first (then it adjusted the
         * count): the runtime's rule, whoever ends the sleep uncounts. */
        if (weft__park_withdraw(&w->sleep_word, word, woken))
            weft__park_uncount(counter);
        return;
    }

    WEFT_COUNT(w, sleeps, 1);
    WEFT_TRACE_PUSH(w, trace_, WEFT_TRACE_SLEEP);
    WEFT_RACE_POINT(WEFT_RP_SLEEP_WILL_WAIT);
    if (state == WEFT_SLEEP_IDLE) { /* only a worker's own thread, at top level */
        idle_wait(w);
    } else {
        weft__park_wait(&w->sleep_word, woken); /* after it we re-examine everything */
    }
    WEFT_TRACE_POP(w, trace_);
}

/* Sleep kinds as claim's accept masks. */
#define JOINERS ((1u << WEFT_SLEEP_JOIN) | (1u << WEFT_SLEEP_JOIN_LEAP))
#define ANY_SLEEPER ((1u << WEFT_SLEEP_IDLE) | JOINERS)

/* Not a CPU number, nor sched_getcpu's failure (-1). */
#define WEFT_CPU_UNREAD (-2)

/* Claims v if it sleeps in one of the accepted kinds (a bit mask), or, if
 * owner is given, only as a leapfrogging joiner whose thief is owner. */
static bool claim(weft_worker *v, unsigned accept, weft_worker *owner)
{
    /* Relaxed peek: the CAS decides. */
    uint32_t s = atomic_load_explicit(&v->sleep_word, memory_order_relaxed);
    int here = WEFT_CPU_UNREAD; /* read once, on the first try that may claim */
    for (;;) {
        if (owner ? (s & ~WEFT_SLEEP_GUEST) != WEFT_SLEEP_WORD(WEFT_SLEEP_JOIN_LEAP, owner)
                  : s == WEFT_AWAKE || !(accept & (1u << WEFT_SLEEP_KIND(s))))
            return false;
        WEFT_RACE_POINT(WEFT_RP_WAKE_PEEKED);
        /* Relaxed: a hint for the sleeper's first hold; the claim's
         * release below orders it before the word the sleeper acquires. */
        if (here == WEFT_CPU_UNREAD)
            here = sched_getcpu();
        atomic_store_explicit(&v->waker_cpu, here, memory_order_relaxed);
        /* One claimer per sleep (the word names the kind and the thief, so
         * the count below is the one the sleeper is in).  A borrower's
         * sleep (GUEST) ends in LENT: the worker stays lent. */
        if (weft__park_claim(&v->sleep_word, &s, WEFT_SLEEP_WOKEN(s)))
            break;
        /* Failed: claimed by another, or an IDLE sleeper became lendable
         * meanwhile (IDLE -> IDLE_LENDABLE, still ours to claim): s is the
         * word now; check it again. */
    }
    weft__park_uncount(sleep_counter(s));
    WEFT_RACE_POINT(WEFT_RP_WAKE_CLAIMED);
    /* All waiters: while v is lent, its own thread waits on the word too
     * (idle_wait), and the borrower may be the one to wake.  The system
     * call is kept out of the waker's strand (profiler). */
    WEFT_PROFILE_OUTSIDE_STRAND(profile_);
    weft__park_wake(&v->sleep_word, INT_MAX);
    WEFT_PROFILE_BACK_IN_STRAND(profile_);
    return true;
}

/* True if it woke one. */
static bool wake_one(weft_worker *self, unsigned accept)
{
    weft_runtime *p = &weft__rt;
    unsigned n = p->n_workers;
    unsigned start = self ? self->id + 1 : (unsigned)sched_getcpu();
    for (unsigned i = 0; i < n; i++) {
        weft_worker *v = p->workers[(start + i) % n];
        if (v != self && claim(v, accept, NULL)) {
            if (self)
                WEFT_COUNT(self, wakes, 1);
            WEFT_TRACE_WAKE(self, v);
            return true;
        }
    }
    return false;
}

void weft__wake_for_work_of(weft_worker *owner, weft_worker *self)
{
    weft_runtime *p = &weft__rt;
    /* Joiners asleep waiting for work from the owner come first: nobody
     * else can give them any.  seq_cst: the waker's "read theirs" after the
     * work was published (the sleeper incremented this count, then looked
     * at the owner's deque). */
    if (atomic_load_explicit(&owner->leap_sleepers, memory_order_seq_cst) != 0) {
        for (unsigned i = 0; i < p->n_workers; i++)
            if (p->workers[i] != self && claim(p->workers[i], 0, owner)) {
                WEFT_COUNT(self, wakes, 1);
                WEFT_TRACE_WAKE(self, p->workers[i]);
                return;
            }
    }
    /* seq_cst: as above, for the pool-wide counts. */
    if (atomic_load_explicit(&p->sleeping_idle, memory_order_seq_cst) == 0 &&
        atomic_load_explicit(&p->sleeping_join, memory_order_seq_cst) == 0)
        return;
    wake_one(self, (1u << WEFT_SLEEP_IDLE) | (1u << WEFT_SLEEP_JOIN));
}

void weft__wake_for_work(weft_worker *self) { weft__wake_for_work_of(self, self); }

/* Wakes one surplus worker, if one waits: after a reason to end the wait
 * (an ask with a RUN queued) was published seq_cst, or, from a pass-on,
 * while a standing ask is that reason. */
static void wake_one_surplus(weft_runtime *p)
{
    /* seq_cst: after the reason; pairs with the waiter's increment of this
     * count before its reads of the word and the reasons (surplus_wait):
     * one of the two sees the other. */
    if (atomic_load_explicit(&p->surplus, memory_order_seq_cst) == 0)
        return;
    /* seq_cst: after the reason, as wake_all's bump after its reason. */
    atomic_fetch_add_explicit(&p->surplus_word, 1, memory_order_seq_cst);
    weft__futex_wake(&p->surplus_word, 1);
}

void weft__surplus_ask(void)
{
    /* seq_cst: after the caller's seq_cst increment of the pending count,
     * before wake_one_surplus's read. */
    atomic_fetch_add_explicit(&weft__rt.surplus_asks, 1, memory_order_seq_cst);
    wake_one_surplus(&weft__rt);
}

void weft__surplus_unask(void)
{
    /* Relaxed: a late withdrawal only lets a surplus worker take a queued
     * RUN over the limit meanwhile. */
    atomic_fetch_sub_explicit(&weft__rt.surplus_asks, 1, memory_order_relaxed);
}

bool weft__surplus_asked(void)
{
    /* Relaxed: a hint (after an ask ended surplus_wait, it follows that
     * wait's seq_cst read of the same count, so it sees no older value);
     * whether a RUN is there, the queue's lock decides. */
    return atomic_load_explicit(&weft__rt.surplus_asks, memory_order_relaxed) != 0;
}

void weft__surplus_pass_on(void)
{
    /* seq_cst: more than the one RUN this worker takes is queued (each
     * counted seq_cst before its caller's ask): the next surplus worker
     * takes the next, which may be the one asked for. */
    if (atomic_load_explicit(&weft__external_queued, memory_order_seq_cst) > 1)
        wake_one_surplus(&weft__rt);
}

bool weft__wake_for_external(void)
{
    weft_runtime *p = &weft__rt;
    /* seq_cst: after the seq_cst increment of the pending count. */
    if (atomic_load_explicit(&p->sleeping_idle, memory_order_seq_cst) == 0)
        return false;
    /* A worker pinned to the caller's CPU starts with a plain context
     * switch once the caller sleeps, while waking an idle CPU costs far
     * more (measured: ~35 vs ~75 us median on a 2-vCPU VM, bench/micro). */
    int cpu = sched_getcpu();
    for (unsigned i = 0; cpu >= 0 && i < p->n_workers; i++)
        if (weft__topology_worker_cpu(i) == cpu &&
            claim(p->workers[i], 1u << WEFT_SLEEP_IDLE, NULL))
            return true;
    return wake_one(NULL, 1u << WEFT_SLEEP_IDLE);
}

/* Wakes v if it sleeps in one of the accepted kinds.  seq_cst peek: the
 * waker's "read theirs" after the caller published v's reason to wake with
 * a seq_cst write (v announces its sleep, then looks for that reason). */
static bool wake_if_sleeping(weft_worker *v, unsigned accept)
{
    uint32_t s = atomic_load_explicit(&v->sleep_word, memory_order_seq_cst);
    return s != WEFT_AWAKE && (accept & (1u << WEFT_SLEEP_KIND(s))) && claim(v, accept, NULL);
}

/* After the thief's seq_cst DONE store (steal.c). */
void weft__wake_joiner(weft_worker *victim) { (void)wake_if_sleeping(victim, JOINERS); }

/* After the caller gave v work directly (a seq_cst write). */
void weft__wake_worker(weft_worker *self, weft_worker *v)
{
    if (wake_if_sleeping(v, ANY_SLEEPER) && self) {
        WEFT_COUNT(self, wakes, 1);
        WEFT_TRACE_WAKE(self, v);
    }
}

void weft__wake_all(void)
{
    weft_runtime *p = &weft__rt;
    /* The caller stored its reason (quit, interrupt, suspend) seq_cst; this
     * fence orders that store before our reads of the sleep words (claim's
     * peek is relaxed). */
    weft__park_publish_fence();
    for (unsigned i = 0; i < p->n_workers; i++)
        claim(p->workers[i], ANY_SLEEPER, NULL);
    if (p->active_limit) {
        /* seq_cst: after the reason's store; a surplus worker reads this
         * word, then the reasons (surplus_wait). */
        atomic_fetch_add_explicit(&p->surplus_word, 1, memory_order_seq_cst);
        weft__futex_wake(&p->surplus_word, INT_MAX);
    }
}

/* ------------------------------------------------------------------------
 * The active limit
 * ------------------------------------------------------------------------ */

/* A surplus worker waits for what wake_all announces, or for an ask by
 * a RUN's caller while a RUN is queued (weft__surplus_ask).  Other work
 * does not end the wait: at least active_limit other workers are outside
 * it (it began only when that many were active, and none of those can
 * begin it before as many others are active), and they take the work.
 * An asked-for RUN does: those workers may all be running tasks that
 * wait for it. */
static void surplus_wait(weft_worker *w)
{
    weft_runtime *p = &weft__rt;
    /* seq_cst: before the reads below; pairs with wake_one_surplus's read
     * of this count after the reason. */
    atomic_fetch_add_explicit(&p->surplus, 1, memory_order_seq_cst);
    for (;;) {
        /* seq_cst: read before the reasons; pairs with the bump after the
         * reason's store (a bump in between fails the wait). */
        uint32_t seen = atomic_load_explicit(&p->surplus_word, memory_order_seq_cst);
        /* seq_cst (all): the reasons, stored seq_cst before the bump; a
         * RUN asked for was queued before the ask. */
        if (atomic_load_explicit(&p->quit, memory_order_seq_cst) || weft_interrupt_waiting_for(w) ||
            atomic_load_explicit(&p->suspended, memory_order_seq_cst) ||
            (atomic_load_explicit(&p->surplus_asks, memory_order_seq_cst) != 0 &&
             weft_external_pending()))
            break;
        weft__futex_wait(&p->surplus_word, seen);
    }
    /* Relaxed: only wake_one_surplus's skip reads it, and a stale nonzero
     * costs one spare bump. */
    atomic_fetch_sub_explicit(&p->surplus, 1, memory_order_relaxed);
}

/* Counts a worker (or a borrower) in.  Relaxed: the count only decides
 * who waits; it orders no data, and an overshoot by racing workers is
 * harmless. */
static void count_in(weft_runtime *p)
{
    atomic_fetch_add_explicit(&p->active, 1, memory_order_relaxed);
}

bool weft__active_enter(weft_worker *w)
{
    weft_runtime *p = &weft__rt;
    /* Relaxed: as in count_in. */
    if (atomic_load_explicit(&p->active, memory_order_relaxed) >= p->active_limit) {
        WEFT_COUNT(w, sleeps, 1);
        surplus_wait(w);
        return false;
    }
    count_in(p);
    return true;
}

void weft__active_enter_over_limit(void) { count_in(&weft__rt); }
void weft__active_leave(void)
{
    /* Relaxed: as in count_in. */
    atomic_fetch_sub_explicit(&weft__rt.active, 1, memory_order_relaxed);
}

/* ------------------------------------------------------------------------
 * Lending an idle worker to a RUN caller (external.c; docs/sleep.md)
 * ------------------------------------------------------------------------ */

/* Borrows v if it sleeps lendable: true if this thread now is v. */
static bool try_borrow(weft_runtime *p, weft_worker *v)
{
    /* Relaxed peek: the CAS decides. */
    uint32_t s = atomic_load_explicit(&v->sleep_word, memory_order_relaxed);
    if (s != WEFT_SLEEP_IDLE_LENDABLE)
        return false;
    /* acq_rel: one borrower per sleep, no waker after it (LENT is no
     * sleep kind); acquire: v's state as its thread, or the borrower
     * before us, left it (their release CAS to lendable). */
    if (!atomic_compare_exchange_strong_explicit(&v->sleep_word, &s, WEFT_SLEEP_LENT,
                                                 memory_order_acq_rel, memory_order_relaxed))
        return false;
    /* Out of the idle count, as a waker's claim takes it out. */
    weft__park_uncount(&p->sleeping_idle);
    /* The borrower takes work as the worker would: it counts against
     * the active limit (it never waits: its RUN is its own). */
    if (p->active_limit)
        count_in(p);
    /* Relaxed: v's thread reads the count only after it read one of our
     * later stores to v's word (seq_cst, so release) with acquire. */
    atomic_fetch_add_explicit(&p->seats[v->id].loans, WEFT_LOAN, memory_order_relaxed);
    return true;
}

weft_worker *weft__borrow_idle(unsigned hint)
{
    weft_runtime *p = &weft__rt;
    unsigned n = p->n_workers;
    for (unsigned i = 0; i < n; i++) {
        weft_worker *v = p->workers[(hint + i) % n];
        if (try_borrow(p, v))
            return v;
    }
    return NULL;
}

weft_worker *weft__borrow_idle_worker(unsigned id)
{
    weft_runtime *p = &weft__rt;
    if (id >= p->n_workers)
        return NULL;
    weft_worker *v = p->workers[id];
    return try_borrow(p, v) ? v : NULL;
}

void weft__sleep_lent_return(weft_worker *w)
{
    /* Exactly the IDLE sleeper's steps 1-3, taken for it: whoever
     * published work, a RUN, an interrupt, suspension or stop while w was
     * lent either sees the IDLE word and count, or is seen by the last
     * look.  w's thread stays asleep: if a waker claims w meanwhile, its
     * thread waits for our loan to end (idle_wait), so w's state is still
     * ours to read and write here.  First w stops running task code, as
     * its thread would on its way to this sleep. */
    weft__sched_idle(w);
    if (weft__rt.active_limit)
        weft__active_leave();
    (void)announce(w, WEFT_SLEEP_IDLE, WEFT_SLEEP_IDLE, NULL);
    WEFT_RACE_POINT(WEFT_RP_SLEEP_ANNOUNCED);
    if (something_to_do(w, WEFT_SLEEP_IDLE, NULL, NULL)) {
        /* Something is there: w's thread gets up for it (unless a waker
         * claimed w already). */
        claim(w, 1u << WEFT_SLEEP_IDLE, NULL);
    } else {
        uint32_t expected = WEFT_SLEEP_IDLE;
        /* acq_rel: release publishes our use of w to the next borrower (it
         * acquires with its CAS to LENT); fails if a waker claimed w. */
        atomic_compare_exchange_strong_explicit(&w->sleep_word, &expected, WEFT_SLEEP_IDLE_LENDABLE,
                                                memory_order_acq_rel, memory_order_relaxed);
    }
    weft_seat *seat = &weft__rt.seats[w->id];
    /* Release: w's thread, woken, reads the count with acquire and only
     * then uses w. */
    uint32_t old = atomic_fetch_sub_explicit(&seat->loans, WEFT_LOAN, memory_order_release);
    if ((old & WEFT_LOAN_WAITER) && old / WEFT_LOAN == 1) {
        /* Relaxed: the wake-up below makes the thread look again. */
        atomic_fetch_and_explicit(&seat->loans, ~WEFT_LOAN_WAITER, memory_order_relaxed);
        weft__futex_wake(&seat->loans, INT_MAX);
    }
}
