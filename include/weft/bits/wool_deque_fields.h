/* Per-worker state of Wool's direct task stack with private tasks (Faxén,
 * "Efficient work stealing for fine grained parallelism", Figure 3 and
 * section III-B); see src/wool_deque.c and docs/sched-wool.md.  Included by
 * bits/worker.h. */
#ifndef WEFT_BITS_WOOL_DEQUE_FIELDS_H
#define WEFT_BITS_WOOL_DEQUE_FIELDS_H

/* weft_worker.plain_from when a thief has asked for more public tasks:
 * above every slot address, so SYNC's single comparison fails and SPAWN's
 * equality test holds. */
#define WEFT_WOOL_REQUEST UINTPTR_MAX

/* Line 0: the owner's view of the boundary between public and private
 * tasks, and the count that decides when to make tasks private again. */
#define WEFT_SCHED_OWNER_FIELDS                                                               \
    weft_task *o_public_end;   /* slots below it are public (stealable) */                    \
    unsigned o_public_inlined; /* public joins inlined since public tasks were last useful */

#define WEFT_SCHED_SHARED_FIELDS                                                              \
    /* ---- line 1: what thieves read on every attempt ----                                  \
     * bot: the paper's `bot`, the slot thieves try next (a slot index).                     \
     * public_end: slots below it are public; the oldest tasks are public.                   \
     * Thieves move bot up by CAS; the owner moves it down after joining a                   \
     * stolen task and moves public_end both ways. */                                        \
    _Alignas(WEFT_CACHE_LINE) _Atomic uint32_t bot;                                           \
    _Atomic uint32_t public_end;                                                              \
    uint32_t slots_shared; /* == deque_slots, on this line for thieves */                    \
    weft_task *dq_shared;  /* == dq, on this line so thieves never read line 0 */            \
    /* ---- line 2: the trip wire's notification, folded with o_public_end ----              \
     * WEFT_WOOL_REQUEST when a thief asks for more public tasks; otherwise                  \
     * the owner's o_public_end.  SYNC joins slots at or above it with plain                 \
     * loads and stores; SPAWN (and YIELD) look for the request in it. */                    \
    _Alignas(WEFT_CACHE_LINE) _Atomic uintptr_t plain_from;

#define WEFT_SCHED_COLD_FIELDS

#endif
