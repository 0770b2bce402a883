/* Per-worker state of the private-deque schedulers (Acar, Charguéraud and
 * Rainey, "Scheduling parallel programs by work stealing with private
 * deques", PPoPP 2013): private-ri (receiver-initiated, Figure 2 with the
 * Figure 8 acquire) and private-si (sender-initiated, Figure 3).  The
 * protocols are in src/private_ri.c and src/private_si.c, the design note
 * in docs/sched-private.md.  Included by bits/worker.h.
 *
 * Both keep weft's direct task stack: the descriptors stay in the owner's
 * deque.  `o_top` (the paper's top of q[i]) is the owner's oldest task not
 * yet handed out; [o_top, head) are its private tasks, the slots below
 * o_top were handed out (STOLEN or DONE).  Only the owner reads or writes
 * o_top and the private slots: nothing on the SPAWN/SYNC fast paths is an
 * atomic RMW or a fence.
 */
#ifndef WEFT_BITS_PRIVATE_DEQUE_FIELDS_H
#define WEFT_BITS_PRIVATE_DEQUE_FIELDS_H

#if WEFT_SCHED_PRIVATE_RI

/* The request cell `ri_req` (Figure 2's r[i]).  While nobody asks it holds
 * the owner's o_top (or a slot above it, until the next poll fixes it), a
 * slot address; every other value lies above all slot addresses, so SPAWN
 * and SYNC decide with one comparison `t >= ri_req` (see
 * bits/private_deque.h):
 *   o_top          the owner polls (runs task code), nobody asks
 *   REQ(j)         thief j asks and waits on its transfer cell
 *   SLEEPREQ       sleeping workers ask the owner to wake one of them
 *   BLOCKED        not polling (idle, joining, frozen): Figure 8's
 *                  REQ_BLOCKED; also the status flag a[i] = false
 * Thieves CAS only from o_top or SLEEPREQ; the owner takes a request with a
 * CAS (the thief may retract it). */
#define WEFT_RI_REQ_BASE (UINTPTR_MAX - 8192u)
#define WEFT_RI_REQ(id) (WEFT_RI_REQ_BASE + (uintptr_t)(id))
#define WEFT_RI_SLEEPREQ (UINTPTR_MAX - 1u)
#define WEFT_RI_BLOCKED UINTPTR_MAX

/* The transfer cell `ri_xfer` (Figure 2's t[i]): the answer to this
 * worker's request, written by the one owner that took it.  The thief
 * consumes a task with a CAS: the owner may take it back (turning it into
 * NO) at its SYNC if the thief has not started it. */
#define WEFT_RI_WAITING ((uintptr_t)0) /* NO_RESP: no answer yet */
#define WEFT_RI_NO ((uintptr_t)1)      /* null: the owner had nothing */
/* any other value: the descriptor handed over */

#define WEFT_SCHED_OWNER_FIELDS weft_task *o_top;

#define WEFT_SCHED_SHARED_FIELDS                                                          \
    /* ---- the request cell: thieves CAS it, the owner's fast paths read it ---- */     \
    _Alignas(WEFT_CACHE_LINE) _Atomic uintptr_t ri_req;                                   \
    /* ---- the transfer cell: this worker spins on it while it waits ---- */            \
    _Alignas(WEFT_CACHE_LINE) _Atomic uintptr_t ri_xfer;                                  \
    _Atomic uintptr_t ri_xfer_wrapper; /* the task's wrapper, published with ri_xfer */

#define WEFT_SCHED_COLD_FIELDS                                                           \
    struct weft_worker *ri_asked; /* thief side: victim of our pending request, or NULL */ \
    uintptr_t ri_replaced;        /* what our request replaced there (to retract it) */    \
    struct weft_worker *ri_giver; /* who answered the request we took a task from */      \
    bool ri_hold;                 /* an interrupt froze an answer received before it */

#elif WEFT_SCHED_PRIVATE_SI

/* The communication cell `si_cell` (Figure 3's s[i]), 64 bits:
 *   CLOSED            busy: deals go elsewhere (the paper: a task pointer)
 *   OPEN              idle, any worker may deal a task here (null)
 *   OPEN_FROM(d)      idle leapfrogging joiner: only worker d may deal
 *   DEAL(d, slot, f)  the task at `slot` of worker d's deque, dealt here;
 *                     f remembers OPEN_FROM(d) for a take-back
 * Dealers CAS an open value into a DEAL; the cell's owner takes a DEAL with
 * a CAS (its dealer may be taking it back at its SYNC). */
#define WEFT_SI_TAG(c) ((c) & 3u)
#define WEFT_SI_CLOSED ((uint64_t)0)
#define WEFT_SI_OPEN ((uint64_t)1)
#define WEFT_SI_TAG_OPEN_FROM 2u
#define WEFT_SI_OPEN_FROM(id) (((uint64_t)(id) << 2) | WEFT_SI_TAG_OPEN_FROM)
#define WEFT_SI_TAG_DEAL 3u
#define WEFT_SI_DEAL(id, slot, from)                                          \
    (((uint64_t)(slot) << 16) | ((uint64_t)(id) << 3) | ((uint64_t)!!(from) << 2) | \
     WEFT_SI_TAG_DEAL)
#define WEFT_SI_DEAL_SLOT(c) ((c) >> 16)
#define WEFT_SI_DEAL_DEALER(c) ((unsigned)(((c) >> 3) & 0x1fffu))
#define WEFT_SI_DEAL_FROM(c) (((c) >> 2) & 1u)

#define WEFT_SCHED_OWNER_FIELDS                                                          \
    weft_task *o_top;                                                                    \
    uint32_t si_polls; /* polls (SPAWN, SYNC, YIELD) left until the next clock check */

#define WEFT_SCHED_SHARED_FIELDS                                                          \
    /* ---- the communication cell: dealers CAS it, this worker takes from it ---- */    \
    _Alignas(WEFT_CACHE_LINE) _Atomic uint64_t si_cell;                                   \
    weft_task *si_dq; /* == dq, for receivers of our deals (they never read line 0) */

#define WEFT_SCHED_COLD_FIELDS                                                           \
    uint64_t si_delta_ns;      /* mean interval between deal attempts (delta) */         \
    uint64_t si_next_deal_ns;  /* the paper's d[i]: time of the next deal attempt */     \
    uint64_t si_last_check_ns; /* when the clock was last read at a poll */              \
    uint32_t si_budget;        /* polls between clock reads, adapted to the poll rate */ \
    bool si_hold;              /* an interrupt froze a deal received before it */        \
    struct weft_worker *si_giver; /* dealer of the task last taken from si_cell */

#endif

#endif
