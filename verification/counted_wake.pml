/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of the counted wake of the interrupt barriers
 * (src/runtime/interrupt.c: wait_on and wake_sleepers) and of parked
 * workers (weft__unpark_all and park): a waker makes the futex_wake system
 * call only when its count of sleepers is not 0.
 *
 * NS waiters (2) wait on one word for its change from 0 to 1; one waker
 * makes it.  A waiter looks at the word (acquire); if unchanged, it counts
 * itself in (seq_cst increment), looks again (seq_cst load) and, if still
 * unchanged, blocks in futex_wait (futex.pml) on the value it saw; after
 * it, it counts itself out (relaxed decrement) and looks again.  The
 * spinning before the count-in only adds iterations and is left out.  The
 * waker changes the word (seq_cst store), reads the count (seq_cst load)
 * and, if it is not 0, wakes every thread blocked on the word.
 *
 * Properties, when nothing can move (spin's `timeout`): no waiter is
 * blocked, every waiter returned, and the count is back to 0.
 *
 * Mutants (-D, one at a time):
 *   MUT_WAKER_COUNT_FIRST  the waker reads the count before it changes
 *                          the word (found under SC)
 *   MUT_WAITER_UNCOUNTED   the waiter sleeps without counting itself in
 *                          (found under SC)
 *   MUT_FUTEX_NOCMP        futex_wait blocks without comparing the word
 *                          (futex.pml; found under SC): the kernel's
 *                          compare, not the last look, is what makes a
 *                          change between count-in and sleep safe
 *   MUT_WAKER_RELEASE      the waker's change a release store and its read
 *                          of the count relaxed: on x86 the read passes
 *                          the buffered store (found under TSO)
 */
#ifndef NS
#define NS 2
#endif
#define NT (NS + 1)
#define WAKER NS
#define L_WORD 0
#define L_COUNT 1
#define NLOC 2
#define L_SWORD(i) L_WORD /* futex.pml: every waiter blocks on the word */
#ifndef BUFSZ
#define BUFSZ 2
#endif

#include "mm.pml"

bool fwait[NT]; /* blocked in futex_wait */
byte returned;  /* waiters that returned */

#include "futex.pml"

proctype waiter(byte me)
{
    byte _i, v, x;
    do
    :: LD(me, L_WORD, v);                     /* acquire */
        if
        :: v == 1 -> break
        :: else
        fi;
#ifndef MUT_WAITER_UNCOUNTED
        FADD(me, L_COUNT, 1, x);              /* count in, seq_cst */
#endif
        LD_SC(me, L_WORD, v);                 /* the last look, seq_cst */
        if
        :: v == 0 -> futex_wait(me, v)
        :: else
        fi;
#ifndef MUT_WAITER_UNCOUNTED
        FADD_RLX(me, L_COUNT, -1, x)          /* count out, relaxed */
#else
        skip
#endif
    od;
    returned++
}

proctype waker()
{
    byte _i, n, k;
#if defined(MUT_WAKER_COUNT_FIRST)
    LD_SC(WAKER, L_COUNT, n);
    ST_SC(WAKER, L_WORD, 1);
#elif defined(MUT_WAKER_RELEASE)
    ST_REL(WAKER, L_WORD, 1);
    LD(WAKER, L_COUNT, n);
#else
    ST_SC(WAKER, L_WORD, 1);                  /* the change, seq_cst */
    LD_SC(WAKER, L_COUNT, n);                 /* wake_sleepers, seq_cst */
#endif
    if
    :: n != 0 ->
        atomic {
            DRAINED(WAKER) ->                 /* a system call */
            k = 0;
            do
            :: k < NS -> fwait[k] = 0; k++
            :: else -> break
            od
        }
    :: else
    fi
}

proctype monitor()
{
    byte k;
    atomic {
        timeout ->
        k = 0;
        do
        :: k < NS -> assert(!fwait[k]); k++
        :: else -> break
        od;
        assert(returned == NS);
        assert(mem[L_COUNT] == 0)
    }
}

init
{
    atomic {
        run waiter(0);
        run waiter(1);
#if NS > 2
        run waiter(2);
#endif
        run waker();
        run monitor();
        START_FLUSHER(0);
        START_FLUSHER(1);
#if NS > 2
        START_FLUSHER(2);
#endif
        START_FLUSHER(WAKER)
    }
}
