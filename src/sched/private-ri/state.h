// SPDX-License-Identifier: Apache-2.0
/* Per-worker state of private-ri: receiver-initiated work stealing with
 * private deques (Acar, Charguéraud and Rainey, "Scheduling parallel
 * programs by work stealing with private deques", PPoPP 2013, Figure 2
 * with the Figure 8 acquire).  The protocol is in private_ri.c, the part
 * shared with private-si in ../private-common/, the design note in
 * docs/sched-private.md.  Included by bits/worker.h.
 *
 * The descriptors stay in the owner's deque (weft's direct task stack).
 * `own.top` (the paper's top of q[i]) is the owner's oldest task not yet
 * handed out; [own.top, head) are its private tasks, the slots below were
 * handed out (STOLEN or DONE).  Only the owner reads or writes own.top and
 * the private slots: nothing on the SPAWN/SYNC fast paths is an atomic
 * RMW or a fence.
 */
#ifndef WEFT_SCHED_PRIVATE_RI_STATE_H
#define WEFT_SCHED_PRIVATE_RI_STATE_H

/* The request cell `req` (Figure 2's r[i]).  While nobody asks it holds
 * the owner's own.top (or a slot above it, until the next poll fixes it),
 * a slot address; every other value lies above all slot addresses, so
 * SPAWN and SYNC decide with one comparison `t >= req` (owner.h):
 *   own.top        the owner polls (runs task code), nobody asks
 *   REQ(j)         thief j asks and waits on its transfer cell
 *   SLEEPREQ       sleeping workers ask the owner to wake one of them
 *   BLOCKED        not polling (idle, joining, frozen): Figure 8's
 *                  REQ_BLOCKED; also the status flag a[i] = false
 * Thieves CAS only from own.top or SLEEPREQ; the owner takes a request
 * with a CAS (the thief may retract it). */
#define WEFT_RI_REQ_BASE (UINTPTR_MAX - 8192u)
#define WEFT_RI_REQ(id) (WEFT_RI_REQ_BASE + (uintptr_t)(id))
#define WEFT_RI_SLEEPREQ (UINTPTR_MAX - 1u)
#define WEFT_RI_BLOCKED UINTPTR_MAX

/* The transfer cell `xfer` (Figure 2's t[i]): the answer to this worker's
 * request, written by the one owner that took it.  The thief consumes a
 * task with a CAS: the owner may take it back (turning it into NO) at its
 * SYNC if the thief has not started it. */
#define WEFT_RI_WAITING ((uintptr_t)0) /* NO_RESP: no answer yet */
#define WEFT_RI_NO ((uintptr_t)1)      /* null: the owner had nothing */
/* any other value: the descriptor handed over */

typedef struct weft_sched_own {
    weft_task *top; /* oldest private task; [top, head) are private */
} weft_sched_own;

typedef struct weft_sched_shared {
    /* ---- the request cell: thieves CAS it, the owner's fast paths read it ---- */
    WEFT_ALIGNAS(WEFT_CACHE_LINE) WEFT_ATOMIC(uintptr_t) req;
    /* ---- the transfer cell: this worker spins on it while it waits ---- */
    WEFT_ALIGNAS(WEFT_CACHE_LINE) WEFT_ATOMIC(uintptr_t) xfer;
    WEFT_ATOMIC(uintptr_t) xfer_wrapper; /* the task's wrapper, published with xfer */
} weft_sched_shared;

typedef struct weft_sched_cold {
    struct weft_worker *asked; /* thief side: victim of our pending request, or NULL */
    uintptr_t replaced;        /* what our request replaced there (to retract it) */
    struct weft_worker *giver; /* who answered the request we took a task from */
    bool hold;                 /* an interrupt froze an answer received before it */
} weft_sched_cold;

/* weft_sched_saved and weft_sched_counters. */
#include "../private-common/state_base.h"

#endif
