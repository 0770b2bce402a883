/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of the receiver-initiated private-deque protocol (Acar,
 * Charguéraud and Rainey, PPoPP'13, Figure 2 with Figure 8's blocking
 * acquire), with the one extension weft's src/sched/private-ri/private_ri.c makes to the
 * cells: a waiting thief may retract its request by CAS, so the owner
 * takes a request by CAS too.  Memory orders as in src/sched/private-ri/private_ri.c: the
 * request CAS release, the owner's take acquire (seq_cst), the answer
 * store seq_cst, the thief's read of its transfer cell acquire.
 *
 * Worker 0 (the owner) spawns NTASKS tasks in all, interleaved with its
 * polls: a spawn writes the task's arguments and unblocks the cell; a poll
 * answers a pending request (handing out its oldest private task); between
 * polls it may run its newest task; whenever it has none left it rejects
 * (Figure 8 lines 1-11: block the cell, answering a request found there
 * "no").  Workers 1 and 2 are thieves: reset their
 * transfer cell, CAS their id into the owner's open cell, wait for the
 * answer -- or retract and try again (at most NATT requests each).
 *
 * Properties: every task runs exactly once (checked when nothing can move,
 * so a task handed to nobody counts as lost), with the arguments the owner
 * wrote; no thief waits forever (spin's invalid end states).
 *
 * Mutants:
 *   MUT_RI_NO_REJECT   an owner that runs out of tasks blocks its cell
 *                      with a plain store, without answering (Figure 2
 *                      without Figure 8's reject)
 *   MUT_RI_TAKE_STORE  the owner takes a request with a plain store (the
 *                      paper's r[i] = NO_REQU) although thieves retract
 *   MUT_RI_LATE_RESET  a thief resets its transfer cell after its request
 *   MUT_RI_ANSWER_RLX  the answer store relaxed instead of seq_cst (not
 *                      found: the seq_cst take CAS before it orders the
 *                      arguments on every store-buffer machine; C11 still
 *                      needs the release, docs/verification.md)
 *   MUT_RI_NO_RELEASE  the take CAS and the answer both relaxed
 */
#ifndef NTASKS
#define NTASKS 3
#endif
#ifndef NATT
#define NATT 2
#endif
#define NT 3
#define OWNER 0
/* request cell values */
#define OPEN 0          /* the owner has private tasks, nobody asks */
#define BLOCKED 1
#define REQ(j) (1 + (j))
/* transfer cell values: WAITING, NO, or a task id + 2 */
#define WAITING 0
#define NO 1
#define TASKV(id) ((id) + 2)
#define L_REQ 0
#define L_XFER(j) (0 + (j))     /* j = 1, 2 */
#define L_ARG(id) (2 + (id))    /* id = 1 .. NTASKS */
#define NLOC (3 + NTASKS)
#ifndef BUFSZ
#define BUFSZ 3
#endif

#include "mm.pml"

byte ran[NTASKS + 1];
bool thief_waits[3]; /* ghost: a thief waits for the owner's answer */

inline run_task(id, arg)
{
    atomic { assert(arg == id); assert(ran[id] == 0); ran[id]++ }
}

proctype owner()
{
    byte _i, r, lo, hi, x, ok, nid;
    byte dq[NTASKS + 1];  /* the private deque: ids in dq[lo+1 .. hi], oldest first */
    do
    :: nid < NTASKS || lo < hi ->
        /* SPAWN (maybe): write the arguments, unblock the cell */
        if
        :: nid < NTASKS ->
            nid++;
            hi++;
            dq[hi] = nid;
            ST(OWNER, L_ARG(nid), nid);            /* plain */
            LD(OWNER, L_REQ, r);
            if
            :: r == BLOCKED -> ST_SC(OWNER, L_REQ, OPEN)
            :: else
            fi
        :: true
        fi;
        /* communicate(): answer a request */
        LD(OWNER, L_REQ, r);                       /* acquire */
        if
        :: r >= REQ(1) && lo < hi ->
#if defined(MUT_RI_TAKE_STORE)
            ST(OWNER, L_REQ, (lo + 1 < hi -> OPEN : BLOCKED)); ok = 1;
#elif defined(MUT_RI_NO_RELEASE)
            CAS_RLX(OWNER, L_REQ, r, (lo + 1 < hi -> OPEN : BLOCKED), ok);
#else
            CAS(OWNER, L_REQ, r, (lo + 1 < hi -> OPEN : BLOCKED), ok);   /* seq_cst */
#endif
            if
            :: ok ->
                lo++;                              /* pop_top */
#if defined(MUT_RI_ANSWER_RLX) || defined(MUT_RI_NO_RELEASE)
                ST(OWNER, L_XFER(r - 1), TASKV(dq[lo]))
#else
                ST_SC(OWNER, L_XFER(r - 1), TASKV(dq[lo]))
#endif
            :: else                                /* retracted meanwhile */
            fi
        :: else
        fi;
        /* run the newest task (maybe) */
        if
        :: lo < hi -> LD(OWNER, L_ARG(dq[hi]), x); run_task(dq[hi], x); dq[hi] = 0; hi--
        :: true
        fi;
        if
        :: lo == hi ->                             /* nothing private: reject */
#ifdef MUT_RI_NO_REJECT
            ST(OWNER, L_REQ, BLOCKED)
#else
            XCHG(OWNER, L_REQ, BLOCKED, r);
            if
            :: r >= REQ(1) -> ST_SC(OWNER, L_XFER(r - 1), NO)
            :: else
            fi
#endif
        :: else
        fi;
        r = 0; x = 0; ok = 0
    :: else -> break
    od
}

proctype thief(byte me)
{
    byte _i, asks, r, v, x, ok;
    do
    :: asks < NATT ->
        asks++;
#ifndef MUT_RI_LATE_RESET
        ST(me, L_XFER(me), WAITING);               /* t[i] = NO_RESP */
#endif
        r = OPEN;
        CAS(me, L_REQ, r, REQ(me), ok);            /* release */
#ifdef MUT_RI_LATE_RESET
        if
        :: ok -> ST(me, L_XFER(me), WAITING)
        :: else
        fi;
#endif
        if
        :: ok ->
            if
            :: true ->
                /* wait for the answer */
                thief_waits[me] = 1;
                atomic { LOC_DRAINED(me, L_XFER(me)) && mem[L_XFER(me)] != WAITING -> v = mem[L_XFER(me)]; thief_waits[me] = 0 }
            :: true ->
                /* retract (to ask elsewhere); if the owner took the request
                 * already, its answer is certain: wait for it */
                r = REQ(me);
                CAS_RLX(me, L_REQ, r, OPEN, ok);
                if
                :: ok -> v = NO
                :: else ->
                    thief_waits[me] = 1;
                    atomic { LOC_DRAINED(me, L_XFER(me)) && mem[L_XFER(me)] != WAITING -> v = mem[L_XFER(me)]; thief_waits[me] = 0 }
                fi
            fi;
            if
            :: v >= TASKV(1) -> LD(me, L_ARG(v - 2), x); run_task(v - 2, x)
            :: else
            fi
        :: else
        fi;
        r = 0; v = 0; x = 0; ok = 0
    :: else -> break
    od
}

/* When nothing can move: no thief waits for an answer that cannot come
 * (named: thief_waits), and every task ran once (none lost). */
proctype monitor()
{
    byte k = 1;
    atomic {
        timeout ->
        assert(!thief_waits[1] && !thief_waits[2]);
        do
        :: k <= NTASKS -> assert(ran[k] == 1); k++
        :: else -> break
        od
    }
}

init {
    atomic {
        mem[L_REQ] = BLOCKED;
        mem[L_XFER(1)] = WAITING;
        mem[L_XFER(2)] = WAITING;
        run owner();
        run thief(1);
        run thief(2);
        run monitor();
        START_FLUSHER(0);
        START_FLUSHER(1);
        START_FLUSHER(2)
    }
}
