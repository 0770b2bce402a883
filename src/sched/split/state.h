// SPDX-License-Identifier: Apache-2.0
/* Per-worker state of the split deque (Lace, Figure 4); the protocol is in
 * split_deque.c.  Installed as <weft/sched/split/state.h> and included by
 * bits/worker.h, which places each struct on its cache lines. */
#ifndef WEFT_SCHED_SPLIT_STATE_H
#define WEFT_SCHED_SPLIT_STATE_H

/* weft_sched_shared.limit when a thief has asked the owner to share: above
 * every slot address, so SPAWN's and SYNC's single comparison fails. */
#define WEFT_SPLITREQ UINTPTR_MAX

/* Owner-private, on the worker's hot line 0. */
typedef struct weft_sched_own {
    /* The owner's copy of split (paper: o_split).  While all tasks are
     * stolen (paper: o_allstolen) it is parked at `end`. */
    weft_task *split;
} weft_sched_own;

/* What thieves read and write, each group on its own cache line. */
typedef struct weft_sched_shared {
    /* ---- line 1: the thieves' line ----
     * tail in the low 32 bits, split in the high 32 bits: one CAS moves
     * tail while checking split, one RMW moves split without losing a tail. */
    WEFT_ALIGNAS(WEFT_CACHE_LINE) WEFT_ATOMIC(uint64_t) ts;
    WEFT_ATOMIC(uint8_t) allstolen; /* hint for thieves: nothing to steal */
    weft_task *dq;                  /* == weft_worker.dq, here so thieves never read line 0 */
    /* ---- line 2: the paper's splitreq, folded with the owner's split ----
     * WEFT_SPLITREQ when a thief asks for more shared tasks; otherwise the
     * owner's split (== end while all are stolen).  SPAWN and SYNC compare
     * their slot with this one word; see split_deque.c. */
    WEFT_ALIGNAS(WEFT_CACHE_LINE) WEFT_ATOMIC(uintptr_t) limit;
} weft_sched_shared;

/* Owner-private state off the fast paths: none. */
typedef struct weft_sched_cold {
    char unused_;
} weft_sched_cold;

/* What an interrupt's freeze keeps until its thaw (interrupt.c). */
typedef struct weft_sched_saved {
    uint64_t ts;       /* (tail, split) before the freeze */
    uint32_t split;    /* the owner's split, as a slot index */
    uint8_t allstolen; /* the thieves' hint */
} weft_sched_saved;

/* The scheduler's own event counters (-DWEFT_STATS=ON); named for
 * reports in split_deque.c. */
typedef struct weft_sched_counters {
    WEFT_ATOMIC(uint64_t) grows;   /* grow_shared: split moved up (thieves asked) */
    WEFT_ATOMIC(uint64_t) shrinks; /* shrink_shared: split moved down */
} weft_sched_counters;

#endif
