/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of the active limit (src/runtime/sleep.c, weft__active_enter,
 * surplus_wait, weft__wake_all; docs/sleep.md, "More workers than CPUs").
 *
 * NW workers (3) and a stopper.  A worker at the top level, ROUNDS times:
 * reads the active count (relaxed); if it is LIMIT or more, it becomes a
 * surplus worker and waits (surplus_wait: a seq_cst read of the surplus
 * word, then of the reason (quit), then futex_wait on the word) until the
 * reason is there; otherwise it counts itself in (relaxed fetch_add),
 * looks for work and runs it, and counts itself out.  The stopper is
 * weft__wake_all after stop's seq_cst store of quit: a seq_cst bump of the
 * surplus word, then a futex_wake of every waiter.  The count is one
 * location, whose coherence every memory model keeps: relaxed is enough
 * for the limit.
 *
 * Properties:
 *   - at every surplus wait, at most NW - LIMIT workers wait (so at least
 *     LIMIT workers are left to take the work: a surplus worker is woken
 *     for no work);
 *   - when nothing can move (spin's `timeout`): nobody is blocked in
 *     futex_wait (no lost wake-up), every worker returned, the count is 0.
 *
 * Mutants (-D, one at a time):
 *   MUT_SURPLUS_STAYS_COUNTED  a worker counts itself in first and checks
 *                              the old value after, and a surplus worker
 *                              stays counted until it is woken: the count
 *                              then includes waiting workers, and every
 *                              worker may end up waiting (found under SC)
 *   MUT_SURPLUS_REASON_FIRST   surplus_wait reads the reason before the
 *                              word: a stop between the two is missed and
 *                              the worker sleeps on (found under SC)
 */
#ifndef NW
#define NW 3
#endif
#ifndef LIMIT
#define LIMIT 1
#endif
#ifndef ROUNDS
#define ROUNDS 2
#endif
#define NT (NW + 1)
#define L_ACTIVE 0
#define L_WORD 1
#define L_QUIT 2
#define L_SWORD(i) L_WORD /* futex.pml: every surplus worker waits on one word */
#define NLOC 3
#ifndef BUFSZ
#define BUFSZ 2
#endif

#include "mm.pml"

bool fwait[NT];  /* blocked in futex_wait */
byte returned;   /* workers that returned */
byte surplus;    /* ghost: workers in surplus_wait */

#include "futex.pml"

inline surplus_wait(me)
{
    surplus++;
    assert(surplus <= NW - LIMIT);
    do
    ::
#ifdef MUT_SURPLUS_REASON_FIRST
        LD_SC(me, L_QUIT, q);
        LD_SC(me, L_WORD, seen);
#else
        LD_SC(me, L_WORD, seen);   /* the word first, */
        LD_SC(me, L_QUIT, q);      /* then the reason */
#endif
        if
        :: q -> break
        :: else -> futex_wait(me, seen)
        fi
    od;
    surplus--
}

proctype worker(byte me)
{
    byte _i, x, a, seen, q, r;
    do
    :: r < ROUNDS ->
        r++;
#ifdef MUT_SURPLUS_STAYS_COUNTED
        FADD_RLX(me, L_ACTIVE, 1, a);
        if
        :: a >= LIMIT -> surplus_wait(me); FADD_RLX(me, L_ACTIVE, -1, x); break
        :: else -> FADD_RLX(me, L_ACTIVE, -1, x)
        fi
#else
        LD(me, L_ACTIVE, a);                 /* relaxed */
        if
        :: a >= LIMIT -> surplus_wait(me); break
        :: else ->
            FADD_RLX(me, L_ACTIVE, 1, x);    /* weft__active_enter */
            /* looks for work and runs it */
            FADD_RLX(me, L_ACTIVE, -1, x)    /* weft__active_leave */
        fi
#endif
    :: else -> break
    od;
    returned++
}

proctype stopper(byte me)
{
    byte _i, x, k;
    ST_SC(me, L_QUIT, 1);                    /* stop: quit (seq_cst) */
    FADD(me, L_WORD, 1, x);                  /* wake_all: the bump (seq_cst) */
    k = 0;
    do                                       /* futex_wake(INT_MAX) */
    :: k < NW -> fwait[k] = 0; k++
    :: else -> break
    od
}

proctype monitor()
{
    byte k;
    atomic {
        timeout ->
        k = 0;
        do
        :: k < NW -> assert(!fwait[k]); k++
        :: else -> break
        od;
        assert(returned == NW);
        assert(mem[L_ACTIVE] == 0)
    }
}

init {
    byte k;
    atomic {
        k = 0;
        do
        :: k < NW -> run worker(k); START_FLUSHER(k); k++
        :: else -> break
        od;
        run stopper(NW);
        START_FLUSHER(NW);
        run monitor()
    }
}
