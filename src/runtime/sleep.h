// SPDX-License-Identifier: Apache-2.0
/* Idle workers (sleep.c; the design note is docs/sleep.md): search a
 * little, then sleep until there is work; waking sleepers; lending an
 * idle worker's identity to a thread that calls RUN.  Not installed. */
#ifndef WEFT_RUNTIME_SLEEP_H
#define WEFT_RUNTIME_SLEEP_H

#include <stdbool.h>
#include <stdint.h>

#include <weft/weft.h>

/* The wakes and the reads schedulers call. */
#include "runtime/sched_services.h"

enum {
    WEFT_AWAKE = 0,
    WEFT_SLEEP_IDLE = 1,      /* idle at top level: any work, external RUNs */
    WEFT_SLEEP_JOIN = 2,      /* blocked at a SYNC, accepts any stolen work */
    WEFT_SLEEP_JOIN_LEAP = 3, /* blocked at a SYNC, leapfrog only */
};
/* A sleep word holds the kind in its low two bits and, for JOIN_LEAP, the
 * thief's id + 1 above them: one CAS then checks both, and the claimer
 * knows whose count the sleeper is in. */
#define WEFT_SLEEP_KIND(word) ((int)((word)&3u))
#define WEFT_SLEEP_WORD(kind, thief) ((uint32_t)(kind) | ((thief) ? ((thief)->id + 1u) << 2 : 0u))
/* More words for lending an idle worker's identity to a thread that
 * calls RUN (docs/sleep.md, "RUN on the calling thread"):
 *   IDLE_LENDABLE  an IDLE sleeper past its last look, in its futex wait:
 *                  a waker claims it like IDLE, a RUN caller may borrow it
 *   LENT           borrowed and awake: no waker claims it (its kind bits
 *                  are AWAKE's, which no claim accepts); the borrower acts
 *                  as the worker until it puts it back to sleep
 *   kind | GUEST   the borrower sleeps as the worker (a JOIN kind): a
 *                  claim makes the word LENT again, not AWAKE, so AWAKE
 *                  only ever ends a sleep of the worker's own */
#define WEFT_SLEEP_IDLE_LENDABLE ((uint32_t)WEFT_SLEEP_IDLE | 4u)
#define WEFT_SLEEP_LENT ((uint32_t)WEFT_AWAKE | 4u)
#define WEFT_SLEEP_GUEST ((uint32_t)1 << 31)
/* The word that ends a sleep: LENT for a borrower's, else AWAKE. */
#define WEFT_SLEEP_WOKEN(word) (((word)&WEFT_SLEEP_GUEST) ? WEFT_SLEEP_LENT : (uint32_t)WEFT_AWAKE)
typedef struct weft_idle {
    unsigned rounds;
    uint64_t since_ns;
} weft_idle;
void weft__idle_reset(weft_idle *idle);
/* One failed search round: backs off; returns true when it is time to sleep. */
bool weft__idle_backoff(weft_idle *idle);
/* Sleeps in `state` until woken.  `joined` (JOIN states) is the stolen task
 * being waited for, `thief` its thief (JOIN_LEAP).  Returns at once if the
 * last check finds something to do. */
void weft__sleep(weft_worker *w, int state, weft_task *joined, weft_worker *thief);
/* weft__wake_for_work (sched_services.h) when self saw shared tasks left
 * on owner's deque. */
void weft__wake_for_work_of(weft_worker *owner, weft_worker *self);
/* After queueing an external RUN: wake one idle sleeper if there is any
 * (one pinned to the caller's CPU first); true if it woke one. */
bool weft__wake_for_external(void);
/* A RUN from outside stayed queued for a while, in a pool with an active
 * limit: asks the surplus workers to take queued RUNs over the limit, and
 * wakes one, since the workers at work may be running tasks that wait for
 * the RUN; until weft__surplus_unask (by its taker or its caller).  The
 * caller incremented the pending count (seq_cst) before. */
void weft__surplus_ask(void);
void weft__surplus_unask(void);
/* Whether an ask stands (a hint: the queue decides whether a RUN is
 * there). */
bool weft__surplus_asked(void);
/* A surplus worker about to take a RUN over the limit: if more are queued,
 * wakes the next surplus worker for them. */
void weft__surplus_pass_on(void);
/* A thread outside the pool borrows the identity of a worker asleep in
 * IDLE_LENDABLE (trying first the worker `hint`): NULL if none.  The
 * borrower then is that worker until weft__sleep_lent_return. */
weft_worker *weft__borrow_idle(unsigned hint);
/* weft__borrow_idle of worker `id` only. */
weft_worker *weft__borrow_idle_worker(unsigned id);
/* The borrower, done: puts the worker back to sleep as the worker would
 * (announce, requests, last look), waking it if the last look finds
 * something to do. */
void weft__sleep_lent_return(weft_worker *w);
/* After completing a stolen task of `victim`: wake it if it sleeps on it. */
void weft__wake_joiner(weft_worker *victim);
void weft__wake_all(void);
/* The active limit: true if w may take work now (then it is counted until
 * weft__active_leave); false after w waited as a surplus worker until an
 * interrupt, suspension, stop, or an ask by a RUN's caller with a RUN
 * queued (the caller then takes a RUN over the limit), and looks again. */
bool weft__active_enter(weft_worker *w);
/* Counted in over the limit, until weft__active_leave: for a RUN from
 * outside, whose caller waits for it (a borrower counts so too). */
void weft__active_enter_over_limit(void);
void weft__active_leave(void);

#endif
