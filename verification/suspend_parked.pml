/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of how weft_suspend knows that every worker is parked
 * (src/runtime/interrupt.c: suspend, park; docs/verification.md).
 *
 * A suspension at depth 0 takes a new generation (never 0) and stores it,
 * then the suspended flag, both seq_cst.  A parking worker counts itself
 * in `parked` (for the resume's counted wake), then, in a loop, reads the
 * generation and then the flag (seq_cst); while suspended it marks its
 * seat with the generation it read (seq_cst), reads the generation again
 * and sleeps on the futex word only if it is unchanged.  On leaving it
 * clears its mark and counts itself out.  weft_suspend returns once every
 * seat carries its generation.  A resume clears the flag (seq_cst), bumps
 * the word and wakes the sleepers if any worker is counted in.
 *
 * Every access of the protocol is seq_cst, so the model is interleaving
 * (SC) only: one Promela statement per access.  A worker's first look at
 * the flag (weft__park_if_suspended) is relaxed and may see any earlier
 * value: a worker here enters park at any moment, also long after a
 * resume.  Interrupts served while parked are not modelled (a serving
 * worker clears its mark first, and suspend also waits for them).  Nor
 * are lazy suspensions apart: a lazy one stores the generation and the
 * flag as here and does not wait; a sync one over it keeps its
 * generation and only waits, later, for the marks, which the
 * interleavings of this model's wait already cover.  Clearing the mark on
 * leaving is not needed for these properties (a later suspension has a
 * new generation); it keeps "a mark is a parked worker" true.
 *
 * The controller suspends and resumes NOPS times, then stops the pool.
 * Properties: no worker runs a task between weft_suspend's return and the
 * resume (`returned`); nobody sleeps forever (invalid end state).
 *
 * Mutants:
 *   MUT_COUNT_PARKED  suspend waits until `parked` (the count) is the
 *                     number of workers, after waiting for it to be 0 at
 *                     depth 0: a worker that entered park on a stale look
 *                     is counted while it is on its way out
 *   MUT_SAME_GEN      every suspension uses the same generation: a mark
 *                     left from the last one counts in this one
 *   MUT_FLAG_FIRST    the worker reads the flag before the generation: a
 *                     worker already marked in the last suspension and
 *                     woken for nothing reads its flag, then the new
 *                     generation after the resume, marks it, and leaves on
 *                     reading the flag before the new suspension's store
 *                     (found only with spurious returns of the futex wait)
 *   MUT_NO_RECHECK    the worker sleeps without reading the generation
 *                     again: a suspension that began between its two
 *                     reads waits for a mark it never makes
 * Cover (must fail, so the base check is not vacuous):
 *   COVER_RETURNED    weft_suspend returned
 *   COVER_STALE_PARK  a worker entered park while not suspended
 */
#ifndef NW
#define NW 2
#endif
#ifndef NOPS
#define NOPS 2
#endif
#ifndef SPURIOUS
#define SPURIOUS 1
#endif

byte gen;            /* the suspension's generation (0: none yet) */
bit suspended;
bit quit;
byte word;           /* the futex word a resume bumps */
byte parked;         /* workers counted in (the resume's counted wake) */
byte mine[NW];       /* each seat's mark: the generation it is parked in */
bit asleep[NW];      /* in the futex wait */
bit returned;           /* ghost: weft_suspend returned, no resume yet */

/* futex_wait(&word, expected): returns at once if the word moved, else
 * sleeps until a wake, or returns for nothing (a signal, another reason's
 * wake), at most SPURIOUS times per worker. */
inline futex_wait(me, expected)
{
    atomic { if :: word == expected -> asleep[me] = 1 :: else -> skip fi };
    if
    :: asleep[me] == 0
    :: spurious < SPURIOUS -> atomic { asleep[me] = 0; spurious++ }
    fi
}

/* weft__unpark_all: bump the word, wake only if someone is counted in. */
inline unpark_all()
{
    word++;
    if
    :: parked != 0 ->
        atomic {
            i = 0;
            do :: i < NW -> asleep[i] = 0; i++ :: else -> break od;
            i = 0
        }
    :: else
    fi
}

proctype controller()
{
    byte k, i, g;
    do
    :: k < NOPS ->
        /* suspend, depth 0, the caller waiting */
#ifdef MUT_COUNT_PARKED
        parked == 0;
#else
#ifdef MUT_SAME_GEN
        g = 1;
#else
        g = gen + 1;
#endif
        gen = g;
#endif
        suspended = 1;
#ifdef MUT_COUNT_PARKED
        parked == NW;
#else
        /* a poll that sees every mark: each read true in turn */
        i = 0;
        do :: i < NW -> mine[i] == g; i++ :: else -> break od;
        i = 0;
#endif
        returned = 1;
#ifdef COVER_RETURNED
        assert(0);
#endif
        /* resume */
        returned = 0;
        suspended = 0;
        unpark_all();
        k++
    :: else -> break
    od;
    /* stop */
    quit = 1;
    unpark_all()
}

proctype worker(byte me)
{
    byte w_old, g, spurious;
    bit s, q;
    do
    :: quit -> break
    :: else ->
        if
        :: assert(!returned) /* returned: a task runs */
        :: true ->
            /* park */
#ifdef COVER_STALE_PARK
            assert(suspended);
#endif
            w_old = word;
            parked++;
            do
            :: true ->
#ifdef MUT_FLAG_FIRST
                s = suspended;
                g = gen;
#else
                g = gen;
                s = suspended;
#endif
                q = quit;
                if
                :: !s || q -> break
                :: else
                fi;
#ifdef MUT_COUNT_PARKED
                futex_wait(me, w_old);
#else
                mine[me] = g;
#ifdef MUT_NO_RECHECK
                futex_wait(me, w_old);
#else
                if
                :: gen == g -> futex_wait(me, w_old)
                :: else
                fi;
#endif
#endif
                w_old = word
            od;
            mine[me] = 0;
            parked--
        fi
    od
}

init
{
    byte j;
    atomic {
        do :: j < NW -> run worker(j); j++ :: else -> break od;
        run controller()
    }
}
