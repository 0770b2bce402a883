/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of Lace's suspension as the Lace layers keep it
 * (src/lace/common/suspend.c, docs/lace.md): Lace's count of resumes less
 * suspends (`awake`, 1 at start), and the pool parked (weft_suspend) while
 * the count is 0 or less and no call from outside is in progress.
 *
 * The program's thread (NC) suspends and resumes, under the lock: it
 * stores the new count with a seq_cst store (modelled as the one thing a
 * reader without the lock uses of it, "count low": 0 or less) and
 * settles: reads the calls in progress (seq_cst) and parks or lets go.  A
 * call from outside (threads 0 .. NC-1) counts itself in with a seq_cst
 * fetch_add, reads "count low" (seq_cst), and if it is set settles under
 * the lock; its task then runs once the pool is not parked; then it counts
 * itself out the same way.  The count, the parking and the lock's data are
 * the lock's: plain variables here, the lock's release draining the
 * holder's stores.
 *
 * Properties: the pool is never parked while a call's task runs; no call
 * waits forever (an invalid end state); when everyone is done the pool is
 * parked exactly if the count is 0 or less.
 *
 * With -DREFUSE, a call's thread may be one of a work pool's inside a
 * task, which may not wait for the control lock: there the park only
 * tries the lock, and may be refused (the lock held).  suspend.c's
 * `parked` (here `believed`) then stays false, and the next settle, by
 * any thread, parks.  At the end the pool is parked exactly if the count
 * is low, unless the last settle was a refused park (the ghost
 * `last_park_refused`: the next Lace call parks).
 *
 * Mutants:
 *   MUT_REFUSED_BELIEVED  (-DREFUSE) a refused park counts as parked:
 *                      no later settle parks, and the pool runs under a
 *                      low count
 *   MUT_READ_FIRST     a call reads "count low" before counting itself in
 *   MUT_LOW_STORE_RLX  "count low" is published with a plain store (the
 *                      store can pass the program's read of the calls)
 *   MUT_SETTLE_NO_CALLS  settling parks on the count alone
 * Cover (must fail, so the base check is not vacuous):
 *   COVER_RUN_AFTER_PARK  a call's task runs after the pool was parked
 *                         (a call let the pool go, or the program did)
 */
#ifndef NC
#define NC 2
#endif
#ifndef NOPS
#define NOPS 3
#endif
#define NT (NC + 1)
#define L_CALLS 0
#define L_LOW 1
#define NLOC 2
#ifndef BUFSZ
#define BUFSZ 2
#endif

#include "mm.pml"

bit lockv;
short awake = 1;
bool parked;
bool was_parked; /* ghost: the pool has been parked */
byte running; /* calls whose task runs */
byte ended;   /* threads done */
bool stuck;   /* no thread can move, and not all are done */

inline lock_(me) { atomic { lockv == 0 -> lockv = 1 } }
inline unlock_(me) { atomic { DRAINED(me) -> lockv = 0 } }

inline park(me) { atomic { assert(running == 0); parked = 1; was_parked = 1 } }

#ifdef REFUSE
bool believed;          /* suspend.c's `parked`: the layer's own view */
bool last_park_refused; /* ghost: the last settle's park was refused */
#define BELIEVED believed
/* A call's thread (a pool's) tries the lock; the program's waits for it. */
inline park_or_refused(me)
{
    if
    :: me < NC ->
        last_park_refused = 1;
#ifdef MUT_REFUSED_BELIEVED
        believed = 1
#else
        skip
#endif
    :: park(me); believed = 1
    fi
}
#define LET_GO parked = 0; believed = 0
#else
#define BELIEVED parked
#define park_or_refused(me) park(me)
#define LET_GO parked = 0
#endif

/* With the lock held. */
inline settle(me)
{
    LD_SC(me, L_CALLS, c);
#ifdef MUT_SETTLE_NO_CALLS
    c = 0;
#endif
#ifdef REFUSE
    last_park_refused = 0;
#endif
    if
    :: awake <= 0 && c == 0 && !BELIEVED -> park_or_refused(me)
    :: !(awake <= 0 && c == 0) && BELIEVED -> LET_GO
    :: else
    fi;
    c = 0
}

inline set_count(me, v)
{
    awake = v;
#ifdef MUT_LOW_STORE_RLX
    ST(me, L_LOW, awake <= 0);
#else
    ST_SC(me, L_LOW, awake <= 0);
#endif
    settle(me)
}

/* A call from outside counts itself in (d = 1) or out (d = 255, -1 in a
 * byte), then settles if the count is low. */
inline outside_count(me, d)
{
#ifdef MUT_READ_FIRST
    LD_SC(me, L_LOW, low);
    FADD(me, L_CALLS, d, old);
#else
    FADD(me, L_CALLS, d, old);
    LD_SC(me, L_LOW, low);
#endif
    if
    :: low -> lock_(me); settle(me); unlock_(me)
    :: else
    fi;
    low = 0; old = 0
}

proctype caller(byte me)
{
    byte _i, c, low, old;
    outside_count(me, 1);
    atomic { !parked -> running++ }; /* its task runs on the workers */
#ifdef COVER_RUN_AFTER_PARK
    assert(!was_parked);
#endif
    atomic { running-- };
    outside_count(me, 255);
    atomic { ended++ }
}

proctype program(byte me)
{
    byte _i, c, k;
    do
    :: k < NOPS ->
        lock_(me);
        if
        :: set_count(me, awake - 1) /* lace_suspend */
        :: set_count(me, awake + 1) /* lace_resume */
        fi;
        unlock_(me);
        k++
    :: else -> break
    od;
    atomic { ended++ }
}

init
{
    byte i;
    atomic {
        for (i : 0 .. NC - 1) { run caller(i); START_FLUSHER(i) };
        run program(NC);
        START_FLUSHER(NC)
    };
    if
    :: ended == NT
    :: timeout -> stuck = 1; assert(!stuck) /* a call waits forever */
    fi;
#ifdef REFUSE
    assert(parked == (awake <= 0) || last_park_refused)
#else
    assert(parked == (awake <= 0))
#endif
}
