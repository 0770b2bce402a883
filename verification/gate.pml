/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of the gate that TOGETHER and NEWFRAME from threads outside
 * the pool pass while the pool is suspended (src/runtime/gate.c,
 * weft__lifecycle_enter_interrupt) and of the resume that opens it
 * (src/runtime/interrupt.c: weft__resume_locked, weft__unpark_all).
 *
 * NG outside threads (2) each try to go in.  Under the control lock a
 * thread reads `suspended`; if clear it goes in.  Otherwise it reads the
 * futex word (acquire), counts itself in `gate_waiters` (relaxed), unlocks
 * and blocks in futex_wait (futex.pml) on the value it read; after it, it
 * counts itself out (relaxed) and tries again.  The resumer, under the
 * control lock, clears `suspended` (seq_cst), bumps the word (seq_cst),
 * reads the parked workers (none: a front-end's lazy suspension parks no
 * one before it spins, and here no worker looks) and the gate's count
 * (relaxed), and if either is not 0 wakes every thread blocked on the
 * word.  The lock's data are plain variables; its release drains the
 * holder's stores.
 *
 * Properties, when nothing can move (spin's `timeout`): no thread is
 * blocked, every thread went in, and the count is back to 0.
 *
 * Mutants (-D, one at a time):
 *   MUT_WAKE_PARKED_ONLY  the resume wakes only when workers are parked,
 *                         as before the gate's count (found under SC: a
 *                         thread asleep at the gate of a lazy suspension
 *                         is never woken)
 *   MUT_NO_WORD_BUMP      the resume clears `suspended` and wakes, but
 *                         leaves the word (found under SC: a thread that
 *                         unlocked before the resume but blocks after its
 *                         wake sleeps on; the kernel's compare of the word
 *                         is what covers that window)
 *   MUT_FUTEX_NOCMP       futex_wait blocks without comparing the word
 *                         (futex.pml; found under SC)
 */
#ifndef NG
#define NG 2
#endif
#define NT (NG + 1)
#define RESUMER NG
#define L_WORD 0
#define L_WAITERS 1
#define NLOC 2
#define L_SWORD(i) L_WORD /* futex.pml: every thread blocks on the word */
#ifndef BUFSZ
#define BUFSZ 2
#endif

#include "mm.pml"

bool fwait[NT];        /* blocked in futex_wait */
bit lockv;             /* the control lock */
bool suspended = 1;    /* the lock's data */
byte went_in;          /* threads that passed the gate */

#include "futex.pml"

inline lock_(me) { atomic { lockv == 0 -> lockv = 1 } }
inline unlock_(me) { atomic { DRAINED(me) -> lockv = 0 } }

proctype outside(byte me)
{
    byte _i, word, x;
    do
    :: lock_(me);
        if
        :: !suspended -> unlock_(me); break
        :: else
        fi;
        LD(me, L_WORD, word);                  /* acquire */
        FADD_RLX(me, L_WAITERS, 1, x);         /* count in, under the lock */
        unlock_(me);
        futex_wait(me, word);
        FADD_RLX(me, L_WAITERS, -1, x)         /* count out */
    od;
    went_in++
}

proctype resumer()
{
    byte _i, n, k, x;
    lock_(RESUMER);
    suspended = 0;                             /* seq_cst: drained below */
#ifndef MUT_NO_WORD_BUMP
    FADD(RESUMER, L_WORD, 1, x);               /* seq_cst */
#endif
#ifdef MUT_WAKE_PARKED_ONLY
    n = 0;                                     /* parked: none */
#else
    LD(RESUMER, L_WAITERS, n);                 /* relaxed, under the lock */
#endif
    if
    :: n != 0 ->
        atomic {
            DRAINED(RESUMER) ->                /* a system call */
            k = 0;
            do
            :: k < NG -> fwait[k] = 0; k++
            :: else -> break
            od
        }
    :: else
    fi;
    unlock_(RESUMER)
}

proctype monitor()
{
    byte k;
    atomic {
        timeout ->
        k = 0;
        do
        :: k < NG -> assert(!fwait[k]); k++
        :: else -> break
        od;
        assert(went_in == NG);
        assert(mem[L_WAITERS] == 0)
    }
}

init
{
    atomic {
        run outside(0);
        run outside(1);
#if NG > 2
        run outside(2);
#endif
        run resumer();
        run monitor();
        START_FLUSHER(0);
        START_FLUSHER(1);
#if NG > 2
        START_FLUSHER(2);
#endif
        START_FLUSHER(RESUMER)
    }
}
