/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of the work pool's termination detection
 * (src/workpool/termination.c, docs/pool-design.md "Termination detection"); its
 * sleepers are in pool_sleep.pml.  The idle set as one word (count
 * in the low bits, departures above), join = fetch_add, leave =
 * fetch_add(departure + 1, count - 1) before every steal attempt, and the
 * check: a member that sees count == P scans every queue and confirms with
 * a CAS of the word from the value it read to itself; success sets done
 * (release) and the others exit when they read it (acquire).
 *
 * Queues are abstracted to their item counts: a queue is the pair (bot,
 * top), its owner pushes with a plain store of bot, anyone takes with a CAS
 * of top (what the real queues guarantee for a take: one taker per item).
 * Processing an item may push one child into the worker's own queue; NITEMS
 * items are created in all (the first in worker 0's queue).  An idle worker
 * that found nothing waits until the idle word, a queue or done changes
 * (it would spin and see the same values otherwise), so a hang shows as a
 * deadlock.  P = 3 workers.
 *
 * Properties: done is never set while an item is queued or being processed
 * (early termination); every item is processed; the run always ends (no
 * invalid end state).
 *
 * Mutants:
 *   MUT_TERM_NO_LEAVE   a thief steals without leaving the idle set
 *   MUT_TERM_NO_CHECK   the member that completes the set ends the run
 *                       without scanning and confirming
 *   MUT_TERM_JOIN_BUSY  a worker joins the set right after processing,
 *                       before taking the items it pushed itself
 */
#ifndef NITEMS
#define NITEMS 3
#endif
#define P 3
#define NT P
#define L_IDLE 0
#define L_DONE 1
#define L_BOT(i) (2 + 2 * (i))
#define L_TOP(i) (3 + 2 * (i))
#define NLOC (2 + 2 * P)
#define LEAVE 3                   /* departure (+4) and count - 1 */
#define COUNT(v) ((v) % 4)
#ifndef BUFSZ
#define BUFSZ 2
#endif

#include "mm.pml"

byte created = 1, processed;  /* ghosts */
byte in_hand;                 /* items being processed */
bool gdone;

/* Take one item from queue q; ok = 1 on success. */
inline take(me, q, ok)
{
    ok = 0;
    LD(me, L_TOP(q), tp);
    LD(me, L_BOT(q), bt);
    if
    :: tp < bt ->
        CAS(me, L_TOP(q), tp, tp + 1, ok);
        if
        :: ok -> atomic { in_hand++; assert(!gdone) }
        :: else
        fi
    :: else
    fi;
    tp = 0; bt = 0
}

inline process(me)
{
    atomic { assert(!gdone); processed++ };
    if
    :: created < NITEMS ->                /* push one child (maybe) */
        created++;
        LD(me, L_BOT(me), bt);
        ST(me, L_BOT(me), bt + 1);
        bt = 0
    :: true
    fi;
    atomic { in_hand--; assert(!gdone) }
}

/* check_termination(v): scan, then confirm by CAS; fin = 1 if the run ended. */
inline check(me, v)
{
    fin = 0;
#ifdef MUT_TERM_NO_CHECK
    fin = 1;
#else
    allempty = 1;
    k = 0;
    do
    :: k < P ->
        LD(me, L_TOP(k), tp);
        LD(me, L_BOT(k), bt);
        if
        :: tp != bt -> allempty = 0
        :: else
        fi;
        k++
    :: else -> break
    od;
    k = 0; tp = 0; bt = 0;
    if
    :: allempty ->
        x = v;
        CAS(me, L_IDLE, x, v, fin)        /* acq_rel: nobody left since v */
    :: else
    fi;
    x = 0; allempty = 0;
#endif
    if
    :: fin ->
        atomic {
            /* nothing queued, nothing in hand, everything processed */
            assert(in_hand == 0 && processed == created);
            gdone = 1
        };
        ST_REL(me, L_DONE, 1)
    :: else
    fi
}

proctype worker(byte me)
{
    byte _i, tp, bt, ok, v, x, k, fin, allempty, d, q, lastv;
    bool in_idle;
    do
    :: LD(me, L_DONE, d);                 /* acquire */
        if
        :: d -> break
        :: else
        fi;
        /* own queue first */
        q = me;
        take(me, q, ok);
        q = 0;
        if
        :: ok -> process(me)
        :: else ->
            /* steal round: every other worker */
            q = 0;
            do
            :: q < P && !ok ->
                if
                :: q != me ->
                    LD(me, L_TOP(q), tp);
                    LD(me, L_BOT(q), bt);
                    if
                    :: tp < bt ->
#ifndef MUT_TERM_NO_LEAVE
                        if
                        :: in_idle -> FADD(me, L_IDLE, LEAVE, x); in_idle = 0
                        :: else
                        fi;
#endif
                        tp = 0; bt = 0;
                        take(me, q, ok)
                    :: else
                    fi
                :: else
                fi;
                q++
            :: else -> break
            od;
            q = 0; tp = 0; bt = 0; x = 0;
            if
            :: ok -> process(me)
            :: else ->
                if
                :: !in_idle ->
                    in_idle = 1;
                    FADD(me, L_IDLE, 1, v);      /* join, acq_rel */
                    v = v + 1
                :: else ->
                    LD(me, L_IDLE, v)            /* acquire */
                fi;
                if
                :: COUNT(v) == P -> check(me, v)
                :: else -> fin = 0
                fi;
                if
                :: fin -> break
                :: else ->
                    /* nothing changes: wait (a spinning worker) */
                    lastv = v;
                    atomic {
                        mem[L_DONE] || mem[L_IDLE] != lastv ||
                        mem[L_TOP(0)] != mem[L_BOT(0)] || mem[L_TOP(1)] != mem[L_BOT(1)] ||
                        mem[L_TOP(2)] != mem[L_BOT(2)] || !LOC_DRAINED(me, L_IDLE)
                    };
                    lastv = 0
                fi;
                v = 0
            fi
        fi;
#ifdef MUT_TERM_JOIN_BUSY
        if
        :: ok && !in_idle -> in_idle = 1; FADD(me, L_IDLE, 1, x); x = 0
        :: else
        fi;
#endif
        ok = 0; d = 0
    od
}

init {
    atomic {
        mem[L_BOT(0)] = 1;                /* the first item */
        run worker(0);
        run worker(1);
        run worker(2);
        START_FLUSHER(0);
        START_FLUSHER(1);
        START_FLUSHER(2)
    }
}
