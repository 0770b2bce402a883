// SPDX-License-Identifier: Apache-2.0
/* Per-worker state of Wool's direct task stack with private tasks (Faxén,
 * "Efficient work stealing for fine grained parallelism", Figure 3 and
 * section III-B); the protocol is in wool_deque.c and docs/sched-wool.md.
 * Included by bits/worker.h, which places each struct on its lines. */
#ifndef WEFT_SCHED_WOOL_STATE_H
#define WEFT_SCHED_WOOL_STATE_H

/* weft_sched_shared.plain_from when a thief has asked for more public
 * tasks: above every slot address, so SYNC's single comparison fails and
 * SPAWN's equality test holds. */
#define WEFT_WOOL_REQUEST UINTPTR_MAX

/* Owner-private, on line 0: its view of the boundary between public and
 * private tasks, and the count that decides when to make tasks private
 * again. */
typedef struct weft_sched_own {
    weft_task *public_end;   /* slots below it are public (stealable) */
    unsigned public_inlined; /* public joins inlined since public tasks were last useful */
} weft_sched_own;

typedef struct weft_sched_shared {
    /* ---- line 1: what thieves read on every attempt ----
     * bot: the paper's `bot`, the slot thieves try next (a slot index).
     * public_end: slots below it are public; the oldest tasks are public.
     * Thieves move bot up by CAS; the owner moves it down after joining a
     * stolen task and moves public_end both ways. */
    WEFT_ALIGNAS(WEFT_CACHE_LINE) WEFT_ATOMIC(uint32_t) bot;
    WEFT_ATOMIC(uint32_t) public_end;
    uint32_t slots; /* == weft_worker.deque_slots, on this line for thieves */
    weft_task *dq;  /* == weft_worker.dq, on this line so thieves never read line 0 */
    /* ---- line 2: the trip wire's notification, folded with the owner's
     * public_end ----
     * WEFT_WOOL_REQUEST when a thief asks for more public tasks; otherwise
     * the owner's public_end.  SYNC joins slots at or above it with plain
     * loads and stores; SPAWN (and YIELD) look for the request in it. */
    WEFT_ALIGNAS(WEFT_CACHE_LINE) WEFT_ATOMIC(uintptr_t) plain_from;
} weft_sched_shared;

/* Owner-private state off the fast paths: none. */
typedef struct weft_sched_cold {
    char unused_;
} weft_sched_cold;

/* What an interrupt's freeze keeps until its thaw: bot.  The boundary is
 * left as it is (wool_deque.c explains why). */
typedef struct weft_sched_saved {
    uint32_t bot;
} weft_sched_saved;

typedef struct weft_sched_counters {
    WEFT_ATOMIC(uint64_t) grows;     /* public_end raised for a thief's request */
    WEFT_ATOMIC(uint64_t) shrinks;   /* tasks made private again */
    WEFT_ATOMIC(uint64_t) requests;  /* requests this worker sent as a thief */
    WEFT_ATOMIC(uint64_t) transfers; /* this worker's tasks joined after a thief ran them */
} weft_sched_counters;

/* Shared by the owner's fast paths (owner.h) and the slow paths
 * (wool_deque.c). */

/* After this many public tasks joined inline (nobody stole them) since
 * public tasks were last useful (a thief asked for more, or one was stolen
 * from this worker), the owner makes the slots from the current one up
 * private again (section III-B; docs/sched-wool.md explains the value). */
#define WEFT_WOOL_PRIVATIZE_AFTER 64u

/* TASK(wrapper): not EMPTY (0), not DONE (3), not STOLEN (low bits 10). */
static inline bool weft_wool_is_task(uintptr_t s) { return s != WEFT_STATE_EMPTY && (s & 2u) == 0; }

#endif
