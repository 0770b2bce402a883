// SPDX-License-Identifier: Apache-2.0
/* Per-worker state of private-si: sender-initiated work stealing with
 * private deques (Acar, Charguéraud and Rainey, PPoPP 2013, Figure 3).
 * The protocol is in private_si.c, the part shared with private-ri in
 * ../private-common/, the design note in docs/sched-private.md.  Included
 * by bits/worker.h.
 *
 * The descriptors stay in the owner's deque (weft's direct task stack).
 * `own.top` (the paper's top of q[i]) is the owner's oldest task not yet
 * dealt; [own.top, head) are its private tasks, the slots below were dealt
 * (STOLEN or DONE).  Only the owner reads or writes own.top and the
 * private slots.
 */
#ifndef WEFT_SCHED_PRIVATE_SI_STATE_H
#define WEFT_SCHED_PRIVATE_SI_STATE_H

/* The communication cell `cell` (Figure 3's s[i]), 64 bits:
 *   CLOSED            busy: deals go elsewhere (the paper: a task pointer)
 *   OPEN              idle, any worker may deal a task here (null)
 *   OPEN_FROM(d)      idle leapfrogging joiner: only worker d may deal
 *   DEAL(d, slot, f)  the task at `slot` of worker d's deque, dealt here;
 *                     f remembers OPEN_FROM(d) for a take-back
 * Dealers CAS an open value into a DEAL; the cell's owner takes a DEAL with
 * a CAS (its dealer may be taking it back at its SYNC). */
#define WEFT_SI_TAG(c) ((c)&3u)
#define WEFT_SI_CLOSED ((uint64_t)0)
#define WEFT_SI_OPEN ((uint64_t)1)
#define WEFT_SI_TAG_OPEN_FROM 2u
#define WEFT_SI_OPEN_FROM(id) (((uint64_t)(id) << 2) | WEFT_SI_TAG_OPEN_FROM)
#define WEFT_SI_TAG_DEAL 3u
#define WEFT_SI_DEAL(id, slot, from) \
    (((uint64_t)(slot) << 16) | ((uint64_t)(id) << 3) | ((uint64_t) !!(from) << 2) | \
     WEFT_SI_TAG_DEAL)
#define WEFT_SI_DEAL_SLOT(c) ((c) >> 16)
#define WEFT_SI_DEAL_DEALER(c) ((unsigned)(((c) >> 3) & 0x1fffu))
#define WEFT_SI_DEAL_FROM(c) (((c) >> 2) & 1u)

typedef struct weft_sched_own {
    weft_task *top; /* oldest private task; [top, head) are private */
    uint32_t polls; /* polls (SPAWN, SYNC, YIELD) left until the next clock check */
} weft_sched_own;

typedef struct weft_sched_shared {
    /* ---- the communication cell: dealers CAS it, this worker takes from it ---- */
    WEFT_ALIGNAS(WEFT_CACHE_LINE) WEFT_ATOMIC(uint64_t) cell;
    weft_task *dq; /* == weft_worker.dq, for receivers of our deals (they never read line 0) */
} weft_sched_shared;

typedef struct weft_sched_cold {
    uint64_t delta_ns;         /* mean interval between deal attempts (delta) */
    uint64_t next_deal_ns;     /* the paper's d[i]: time of the next deal attempt */
    uint64_t last_check_ns;    /* when the clock was last read at a poll */
    uint32_t budget;           /* polls between clock reads, adapted to the poll rate */
    bool hold;                 /* an interrupt froze a deal received before it */
    weft_task *deal_floor;     /* deals below it (an interrupted frame's) are not looked at */
    struct weft_worker *giver; /* dealer of the task last taken from the cell */
} weft_sched_cold;

/* weft_sched_saved and weft_sched_counters. */
#include "../private-common/state_base.h"

#endif
