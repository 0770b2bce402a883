// SPDX-License-Identifier: Apache-2.0
/* Schedule perturbation: race points at the racy steps of the schedulers,
 * the stealing loop, the sleep protocol and interrupts (build option WEFT_PERTURB;
 * perturb.c).
 *
 * In a perturb build every WEFT_RACE_POINT(id) calls weft__race_point(id),
 * which by default delays the calling thread at random (environment
 * WEFT_PERTURB=<probability>[,<seed>]) so that the ordinary concurrency
 * tests explore many more interleavings.  A test may instead install a
 * hook that sees every point and can stall a thread there until another
 * thread has reached some other point (tests/test_races.c and src/sched/split/test_split_races.c).  In a normal
 * build the macro expands to nothing and this file only names the points.
 *
 * Points are named by role, not by any one scheduler's steps: each
 * scheduler marks its own step for each role (its README lists which), so
 * the same forced interleavings run against every scheduler.
 *
 * Not part of the API: tests include it (runtime/perturb.h).
 */
#ifndef WEFT_RUNTIME_PERTURB_H
#define WEFT_RUNTIME_PERTURB_H

#include <weft/config.h>

typedef enum weft_race_point_id {
    /* ---- a scheduler's thief side (weft__sched_steal) ---- */
    WEFT_RP_THIEF_BEFORE_CLAIM, /* saw a task to take, before the step that claims it */
    WEFT_RP_THIEF_CLAIMED,      /* the claim succeeded, before the task is taken over */
    WEFT_RP_THIEF_LOST,         /* the claim failed (another thief or the owner won) */
    WEFT_RP_THIEF_BEFORE_ASK,   /* nothing to take, before asking the owner to share */
    /* ---- a scheduler's owner side ---- */
    WEFT_RP_OWNER_BEFORE_PUBLISH, /* about to make private tasks stealable */
    WEFT_RP_OWNER_PUBLISHED,      /* made them stealable, before the request/hints are updated */
    WEFT_RP_OWNER_BEFORE_RECLAIM, /* about to take shared tasks back (or make them private) */
    WEFT_RP_OWNER_RECLAIMED,      /* took them back, before checking what thieves took meanwhile */
    WEFT_RP_OWNER_STOLEN_JOINED,  /* joined a stolen task, before resetting the deque's state */
    /* ---- steal.c: running a stolen task and joining one ---- */
    WEFT_RP_STEAL_TAKEN, /* thief holds a task (state STOLEN), before running it */
    WEFT_RP_BEFORE_DONE, /* thief ran it and wrote the result, before storing DONE */
    WEFT_RP_AFTER_DONE,  /* DONE stored, before waking a sleeping joiner */
    WEFT_RP_JOIN_POLL,   /* joiner of a stolen task, before reading its state */
    /* ---- sleep.c ---- */
    WEFT_RP_SLEEP_BEFORE_ANNOUNCE, /* sleeper: found nothing to do, before announcing itself */
    WEFT_RP_SLEEP_ANNOUNCED, /* sleeper: word, count and requests published, before the last look */
    WEFT_RP_SLEEP_WILL_WAIT, /* sleeper: the last look found nothing, before futex_wait */
    WEFT_RP_WAKE_PEEKED,     /* waker: saw a sleeper, before the claiming CAS */
    WEFT_RP_WAKE_CLAIMED,    /* waker: claimed it, before futex_wake */
    /* ---- interrupt.c ---- */
    WEFT_RP_INTERRUPT_LEAVE, /* passed barrier 2 and restored the deque, before leaving */
    WEFT_RP_COUNT
} weft_race_point_id;

#if WEFT_PERTURB
#define WEFT_RACE_POINT(id) weft__race_point(id)
#else
#define WEFT_RACE_POINT(id) ((void)0)
#endif

/* A test's hook: called at every race point instead of the random delay.
 * It may block the calling thread (e.g. until another thread's hook saw
 * some point); it runs inside the runtime, so it must not spawn, sync or
 * call back into weft. */
typedef void (*weft_race_hook_fn)(weft_race_point_id id);

/* Installs (or, with NULL, removes) the hook.  Call it while no worker
 * runs (before weft_start, after weft_stop): thread creation publishes it. */
void weft__race_set_hook(weft_race_hook_fn hook);

/* "THIEF_CLAIMED" etc., for messages. */
const char *weft__race_point_name(weft_race_point_id id);

/* The call behind WEFT_RACE_POINT in a perturb build. */
void weft__race_point(weft_race_point_id id);

#endif
