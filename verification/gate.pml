/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of the gate that TOGETHER and NEWFRAME from threads outside
 * the pool pass (src/runtime/gate.c: weft__lifecycle_enter_interrupt,
 * weft__gate_drain_locked) against a thread that resumes, suspends and
 * resumes again (src/runtime/interrupt.c: suspend, resume,
 * weft__resume_locked, weft__unpark_all).
 *
 * NG outside threads (2) each go in once, without the control lock, in a
 * loop: count itself among the interrupts in progress (seq_cst) and look
 * at `suspended` (seq_cst); if clear, count itself out of the gate's
 * waiters if it counted itself in (release) and go in.  Otherwise take its
 * count back (seq_cst), read the futex word (acquire), count itself in
 * `gate_waiters` the first time (seq_cst), look again (seq_cst) and, still
 * suspended, block in futex_wait (futex.pml) on the word.  In, its
 * interrupt runs and ends: the count drops.
 * The controller, each step under the control lock:
 *   - resume: clear `suspended` (seq_cst), bump the word (seq_cst), read
 *     the parked workers (none: no worker is modelled) and the gate's count
 *     (seq_cst), and wake every thread blocked on the word if either is
 *     not 0;
 *   - suspend (of a running pool): wait until the gate's count is 0
 *     (acquire reads), set `suspended` (seq_cst) and wait until no
 *     interrupt from outside is in progress (seq_cst reads);
 *   - resume again.
 * The pool starts suspended.
 *
 * Properties:
 *   - when the suspend has set the flag, every thread that was counted at
 *     the gate when the first resume read the count has gone in (a thread
 *     that suspends and resumes back to back does not keep the waiting
 *     threads out);
 *   - when nothing can move (spin's `timeout`): the controller finished,
 *     no thread is blocked, every thread went in, and the counts of
 *     waiters and interrupts are back to 0.
 *
 * Mutants (-D, one at a time):
 *   MUT_WAKE_PARKED_ONLY  the resume wakes only when workers are parked,
 *                         as before the gate's count (found under SC: a
 *                         thread asleep at the gate is never woken)
 *   MUT_NO_WORD_BUMP      the resume clears `suspended` and wakes, but
 *                         leaves the word (found under SC: a thread that
 *                         looked before the resume but blocks after its
 *                         wake sleeps on)
 *   MUT_FUTEX_NOCMP       futex_wait blocks without comparing the word
 *                         (futex.pml; found under SC)
 *   MUT_NO_DRAIN          the suspend does not wait for the gate's count,
 *                         as before (found under SC: it shuts a woken
 *                         thread out again before it goes in)
 *   MUT_COUNT_OUT_AT_WAKE a thread counts itself out of the gate's waiters
 *                         as soon as its wait returns, as before (found
 *                         under SC: the same)
 */
#ifndef NG
#define NG 2
#endif
#define NT (NG + 1)
#define CONTROLLER NG
#define L_WORD 0
#define L_WAITERS 1
#define L_INTR 2
#define L_SUSP 3
#define NLOC 4
#define L_SWORD(i) L_WORD /* futex.pml: every thread blocks on the word */
#ifndef BUFSZ
#define BUFSZ 2
#endif

#include "mm.pml"

bool fwait[NT];        /* blocked in futex_wait */
bit lockv;             /* the control lock */
bool counted[NG];      /* ghost: counted in gate_waiters */
bool granted[NG];      /* ghost: counted when the first resume read the count */
bool went_in[NG];
bool controller_done;

#include "futex.pml"

inline lock_(me) { atomic { lockv == 0 -> lockv = 1 } }
inline unlock_(me) { atomic { DRAINED(me) -> lockv = 0 } }

proctype outside(byte me)
{
    byte _i, word, s, x;
    bool counted_in;
    do
    :: FADD(me, L_INTR, 1, x);                 /* seq_cst */
        LD_SC(me, L_SUSP, s);
        if
        :: s == 0 ->
            if
            :: counted_in ->                   /* release */
                atomic { FADD(me, L_WAITERS, -1, x); counted[me] = 0; went_in[me] = 1 }
            :: else -> went_in[me] = 1
            fi;
            break
        :: else
        fi;
        FADD(me, L_INTR, -1, x);               /* seq_cst */
        LD(me, L_WORD, word);                  /* acquire */
        if
        :: !counted_in ->
            atomic { FADD(me, L_WAITERS, 1, x); counted[me] = 1 };  /* seq_cst */
            counted_in = 1
        :: else
        fi;
        LD_SC(me, L_SUSP, s);
        if
        :: s != 0 -> futex_wait(me, word)
        :: else
        fi
#ifdef MUT_COUNT_OUT_AT_WAKE
        ;
        atomic { FADD_RLX(me, L_WAITERS, -1, x); counted[me] = 0 };
        counted_in = 0
#endif
    od;
    FADD(me, L_INTR, -1, x)                    /* its interrupt ends */
}

inline resume(first)
{
    lock_(CONTROLLER);
    ST_SC(CONTROLLER, L_SUSP, 0);
#ifndef MUT_NO_WORD_BUMP
    FADD(CONTROLLER, L_WORD, 1, x);            /* seq_cst */
#endif
    atomic {
        LD_SC(CONTROLLER, L_WAITERS, n);
        if
        :: first ->
            k = 0;
            do
            :: k < NG -> granted[k] = counted[k]; k++
            :: else -> break
            od
        :: else
        fi
    };
#ifdef MUT_WAKE_PARKED_ONLY
    n = 0;                                     /* parked: none */
#endif
    if
    :: n != 0 ->
        atomic {
            DRAINED(CONTROLLER) ->             /* a system call */
            k = 0;
            do
            :: k < NG -> fwait[k] = 0; k++
            :: else -> break
            od
        }
    :: else
    fi;
    unlock_(CONTROLLER)
}

proctype controller()
{
    byte _i, n, k, x;
    resume(1);
    lock_(CONTROLLER);
#ifndef MUT_NO_DRAIN
    atomic { mem[L_WAITERS] == 0 };            /* polls (acquire reads) */
#endif
    ST_SC(CONTROLLER, L_SUSP, 1);
    k = 0;
    do
    :: k < NG -> assert(!granted[k] || went_in[k]); k++
    :: else -> break
    od;
    /* waits (polling, seq_cst reads) for the interrupts in progress */
    atomic { DRAINED(CONTROLLER) && mem[L_INTR] == 0 };
    unlock_(CONTROLLER);
    resume(0);
    controller_done = 1
}

proctype monitor()
{
    byte k;
    atomic {
        timeout ->
        assert(controller_done);
        k = 0;
        do
        :: k < NG -> assert(!fwait[k] && went_in[k]); k++
        :: else -> break
        od;
        assert(mem[L_WAITERS] == 0 && mem[L_INTR] == 0)
    }
}

init
{
    atomic {
        mem[L_SUSP] = 1;
        run outside(0);
        run outside(1);
#if NG > 2
        run outside(2);
#endif
        run controller();
        run monitor();
        START_FLUSHER(0);
        START_FLUSHER(1);
#if NG > 2
        START_FLUSHER(2);
#endif
        START_FLUSHER(CONTROLLER)
    }
}
