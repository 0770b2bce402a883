/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of the parking protocol (src/runtime/parking.h), the one
 * sleep protocol of the fork-join runtime (sleep.c) and the work pool
 * (src/workpool/sleep.h); their own models (sleep.pml, sleep_leap.pml,
 * pool_sleep.pml) add what each builds on it.
 *
 * NS sleepers (2) and NW wakers (1 or 2).  A sleeper parks once:
 * weft__park_announce (seq_cst store of its word ASLEEP, seq_cst increment
 * of the count, seq_cst fence), the last look (a relaxed read of the work
 * flag), then weft__park_withdraw (CAS ASLEEP -> AWAKE) if it saw work,
 * else weft__park_wait (futex_wait, futex.pml, until the word is AWAKE).
 * A waker publishes work (release store), weft__park_publish_fence, reads
 * the count (relaxed) and, if it is not 0, peeks at every word (relaxed)
 * and claims each ASLEEP one by CAS (weft__park_claim), then futex_wakes
 * it (weft__park_wake).  The uncount (relaxed decrement) follows one of
 * the two rules of parking.h: by default the sleeper's own, after its
 * sleep (the work pool); with -DCLAIMER_UNCOUNTS the one whose CAS ended
 * the sleep (the fork-join runtime).
 *
 * Properties, when nothing can move (spin's `timeout`): no sleeper is
 * blocked in futex_wait (work was published and every waker woke all it
 * saw), every sleeper returned, and the count is 0 (each sleep was ended,
 * and uncounted, exactly once).
 *
 * Mutants (-D, one at a time):
 *   MUT_PARK_LOOK_FIRST     the last look before the announcement (found
 *                           under SC)
 *   MUT_PARK_NOFENCE        announce without its fence: on x86 the locked
 *                           increment orders the last look anyway; on a
 *                           weak machine the last look may be performed
 *                           before the announcement (MAY_READ_EARLY)
 *   MUT_PARK_WITHDRAW_STORE withdraw by a plain store instead of the CAS:
 *                           a claim and the withdrawal both end one sleep
 *                           (found with CLAIMER_UNCOUNTS: counted out twice)
 *   MUT_PARK_WAKER_NOFENCE  the waker without publish_fence: its count
 *                           read passes its buffered work store (TSO)
 * Coverage (-DCOVER_X=1 makes reaching X an assertion failure):
 *   COVER_SLEEP     a sleeper blocks in futex_wait
 *   COVER_WITHDRAW  a sleeper's last look sees the work and withdraws
 *   COVER_CLAIM     a waker claims a sleeper
 *   COVER_LOST_RACE a withdrawal finds its word claimed already
 */
#ifndef NS
#define NS 2
#endif
#ifndef NW
#define NW 1
#endif
#define NT (NS + NW)
#define L_WORK 0
#define L_COUNT 1
#define L_SWORD(i) (2 + (i))
#define NLOC (2 + NS)
#define AWAKE 0
#define ASLEEP 1
#ifndef BUFSZ
#define BUFSZ 2
#endif

#include "mm.pml"

#define COVER(x) assert(!(x))
#ifndef COVER_SLEEP
#define COVER_SLEEP 0
#endif
#ifndef COVER_WITHDRAW
#define COVER_WITHDRAW 0
#endif
#ifndef COVER_CLAIM
#define COVER_CLAIM 0
#endif
#ifndef COVER_LOST_RACE
#define COVER_LOST_RACE 0
#endif

bool fwait[NT];               /* blocked in futex_wait */
byte returned;                /* sleepers that returned */

#include "futex.pml"

inline uncount(me)
{
    FADD_RLX(me, L_COUNT, -1, x)              /* relaxed */
}

inline last_look(me)
{
    LD(me, L_WORK, seen)                      /* relaxed, after F_S */
}

proctype sleeper(byte me)
{
    byte _i, x, seen, ok;
    bool early;
#ifdef MUT_PARK_LOOK_FIRST
    last_look(me);
#endif
#ifdef MUT_PARK_NOFENCE
    if
    :: MAY_READ_EARLY -> early = 1; last_look(me)
    :: true
    fi;
#endif
    ST_SC(me, L_SWORD(me), ASLEEP);           /* weft__park_announce */
    FADD(me, L_COUNT, 1, x);
#ifndef MUT_PARK_NOFENCE
    FENCE_SC(me);
#endif
#if !defined(MUT_PARK_LOOK_FIRST)
    if
    :: !early -> last_look(me)
    :: else
    fi;
#endif
    if
    :: seen ->                                /* weft__park_withdraw */
        COVER(COVER_WITHDRAW);
#ifdef MUT_PARK_WITHDRAW_STORE
        ST_SC(me, L_SWORD(me), AWAKE);
        ok = 1;
#else
        x = ASLEEP;
        CAS(me, L_SWORD(me), x, AWAKE, ok);
#endif
        if
        :: ok ->
#ifdef CLAIMER_UNCOUNTS
            uncount(me)
#else
            skip
#endif
        :: else -> COVER(COVER_LOST_RACE)
        fi
    :: else ->                                /* weft__park_wait */
        do
        :: LD(me, L_SWORD(me), x);            /* acquire */
            if
            :: x == AWAKE -> break
            :: else -> COVER(COVER_SLEEP); futex_wait(me, x)
            fi
        od
    fi;
#ifndef CLAIMER_UNCOUNTS
    uncount(me);                              /* the sleeper's rule */
#endif
    returned++
}

proctype waker(byte me)
{
    byte _i, x, n, v, ok;
    ST_REL(me, L_WORK, 1);                    /* publish */
#ifndef MUT_PARK_WAKER_NOFENCE
    FENCE_SC(me);                             /* weft__park_publish_fence */
#endif
    LD(me, L_COUNT, n);                       /* relaxed, after F_W */
    if
    :: n != 0 ->
        v = 0;
        do
        :: v < NS ->
            LD(me, L_SWORD(v), x);            /* relaxed peek */
            if
            :: x == ASLEEP ->
                CAS(me, L_SWORD(v), x, AWAKE, ok); /* weft__park_claim */
                if
                :: ok ->
                    COVER(COVER_CLAIM);
#ifdef CLAIMER_UNCOUNTS
                    uncount(me);
#endif
                    fwait[v] = 0              /* weft__park_wake */
                :: else
                fi
            :: else
            fi;
            v++
        :: else -> break
        od
    :: else
    fi
}

/* When nothing can move: nobody blocked, everybody returned, the count
 * back to 0. */
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

init {
    atomic {
        run sleeper(0);
        run sleeper(1);
        run waker(NS);
#if NW > 1
        run waker(NS + 1);
#endif
        run monitor();
        START_FLUSHER(0);
        START_FLUSHER(1);
        START_FLUSHER(NS);
#if NW > 1
        START_FLUSHER(NS + 1)
#endif
    }
}
