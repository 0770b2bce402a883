/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of one start at a time in the Lace layers
 * (src/lace/common/lifecycle.h: weft__lace_begin_start, _end_start;
 * their callers lace_start and lace_startup in src/lace/v1/lace1.c and
 * src/lace/v2/lace2.c).
 *
 * NS threads (2) start Lace at once; the pool may be stopped and started
 * again.  A start takes the library's flag (`starting`, exchange,
 * acquire); if another start holds it, the thread is told "another thread
 * starts Lace".  With the flag, it checks that no pool runs (weft_workers,
 * read under the runtime's lifecycle gate: modelled as one atomic step),
 * else it is told "Lace is running"; then weft_start runs the pool (the
 * runtime refuses a second one with EBUSY and a message in lace_start's
 * words, whatever the call made was: what the flag is there to prevent),
 * and the flag is given back (release).  A thread that started the pool
 * may stop it (lace_stop), and another thread may then start it anew.
 * A thread told it lost ends there (the real message ends the process).
 *
 * Properties, when nothing can move (spin's `timeout`):
 *   refused  no weft_start found a pool running (the runtime's EBUSY);
 *   and every thread ended: started, told "starting", or told "running".
 *
 * Mutants (-D, one at a time):
 *   MUT_NO_FLAG         the checks and weft_start without the flag (as
 *                       before the fix): a start between another's check
 *                       and its weft_start is refused by the runtime
 *   MUT_FLAG_EARLY      the flag given back before weft_start
 * Cover (must fail, so the checks are not vacuous):
 *   COVER_TOLD_STARTING a start found another under way
 *   COVER_RESTARTED     the pool was started, stopped and started again
 */
#ifndef NS
#define NS 2
#endif
#define NT NS
#define L_FLAG 0
#define NLOC 1
#ifndef BUFSZ
#define BUFSZ 2
#endif

#include "mm.pml"

bool running;          /* the runtime's pool (under its gate) */
byte refused;          /* weft_starts that found it running */
byte ended;            /* threads at their end */
byte told_starting, told_running, starts;

proctype starter(byte me)
{
    byte _i, old, stops = 0;
again:
#ifndef MUT_NO_FLAG
    XCHG(me, L_FLAG, 1, old);                 /* begin_start, acquire */
    if
    :: old == 1 -> told_starting++; goto done
    :: else
    fi;
#endif
    if
    :: running -> told_running++;             /* check_start's weft_workers */
#ifndef MUT_NO_FLAG
        ST_REL(me, L_FLAG, 0);                /* (the process ends here) */
#endif
        goto done
    :: else
    fi;
#ifdef MUT_FLAG_EARLY
    ST_REL(me, L_FLAG, 0);
#endif
    atomic {                                  /* weft_start, under its gate */
        if
        :: running -> refused++
        :: else -> running = 1; starts++
        fi
    };
#if !defined(MUT_NO_FLAG) && !defined(MUT_FLAG_EARLY)
    ST_REL(me, L_FLAG, 0);                    /* end_start, release */
#endif
    if
    :: stops == 0 -> stops++; running = 0; goto again  /* lace_stop, then start again */
    :: true
    fi;
done:
    ended++
}

proctype monitor()
{
    atomic {
        timeout ->
        assert(refused == 0);
        assert(ended == NS);
#ifdef COVER_TOLD_STARTING
        assert(told_starting == 0);
#endif
#ifdef COVER_RESTARTED
        assert(starts < 2);
#endif
    }
}

init
{
    atomic {
        run starter(0);
        run starter(1);
#if NS > 2
        run starter(2);
#endif
        run monitor();
        START_FLUSHER(0);
        START_FLUSHER(1);
#if NS > 2
        START_FLUSHER(2)
#endif
    }
}
