/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of where a lazy suspension parks (src/runtime/interrupt.c:
 * suspend, task_parks; src/runtime/sleep.c: something_to_do;
 * docs/verification.md).
 *
 * Worker 0 runs a task that waits in a SYNC for a task worker 1 stole;
 * worker 1's task yields once on its way.  A lazy suspension (Lace's
 * lace_suspend, weft__suspend_lazy) stores the lazy hint, then the
 * suspended flag, and neither wakes nor waits.  weft_suspend over it
 * clears the hint, then stores the flag again, wakes every announced
 * sleeper (wake_all) and waits until both workers are parked.  A task
 * parks at its yield or blocked SYNC only when the flag is set and the
 * hint is clear; the joiner's sleep is the runtime's: announce, a last
 * look at its reasons (the stolen task done, or a suspension it parks
 * for), then the futex wait until a claim (wake_all's, or the thief's
 * at DONE).  A parked worker waits for the flag to clear (a resume).
 *
 * Two scenarios:
 *   (default)    the task's caller is the thread that resumes: another
 *                thread suspends lazily at any moment, and the caller
 *                resumes only after the task returned (Lace's programs
 *                whose main thread is worker 0)
 *   -DSYNC_OVER  another thread suspends lazily, then weft_suspend over
 *                it, which must return with both workers parked; then
 *                it resumes twice
 * Every access is seq_cst but the hint's reads, which are relaxed: each
 * follows a seq_cst read of the flag, and the suspension stores the hint
 * before the flag (release), so a flag read from a store shows the hint
 * of that store or a later one; the model's interleavings of the two
 * reads give exactly those (SC only).
 * Properties: nobody waits forever (invalid end state); no task runs
 * between weft_suspend's return and the resume (`returned`).
 *
 * Mutants:
 *   MUT_TASK_PARKS_LAZY   a task parks under the lazy suspension too (the
 *                         runtime before): in the default scenario the
 *                         caller waits for the task, the task for the
 *                         caller's resume
 *   MUT_WAKE_BEFORE_CLEAR weft_suspend wakes the sleepers before it clears
 *                         the hint: the joiner looks again, still lazy,
 *                         and sleeps through the wait (SYNC_OVER)
 *   MUT_NO_WAKE           weft_suspend over a lazy one wakes nobody, as the
 *                         lazy one does (SYNC_OVER)
 * Cover (must fail, so the base check is not vacuous):
 *   COVER_SLEPT           the joiner slept under the lazy suspension
 *   COVER_RETURNED        weft_suspend returned (SYNC_OVER)
 */

bit lazy;            /* the hint: the suspension in force is lazy */
byte suspended;      /* its depth */
bit done;            /* the stolen task is DONE */
bit announced;       /* the joiner's sleep word says asleep */
bit woken;           /* a claim ended its sleep */
bit parked[2];
bit task_returned;   /* ghost: the joiner's SYNC returned */
bit returned;        /* ghost: weft_suspend returned, no resume yet */

/* Does a task park now?  The flag (seq_cst), then the hint (relaxed). */
inline task_parks(res)
{
    s = suspended;
    l = lazy;
#ifdef MUT_TASK_PARKS_LAZY
    l = 0;
#endif
    res = s != 0 && !l
}

/* park: counted in, wait for the resume, out.  (A parked worker's futex
 * protocol is suspend_parked.pml's; here the wait is for the flag.) */
inline park(me)
{
    parked[me] = 1;
    suspended == 0;
    parked[me] = 0
}

/* A worker with nothing to do: it parks for any suspension, lazy or
 * not, and ends when nothing else can move. */
inline idle(me)
{
    do
    :: suspended != 0 -> park(me)
    :: timeout -> break
    od
}

/* wake_all: claims every announced sleeper. */
inline wake_all()
{
    atomic { if :: announced -> announced = 0; woken = 1 :: else fi }
}

proctype thief()
{
    byte s;
    bit l, p;
    /* its task's yield */
    task_parks(p);
    if :: p -> park(1) :: else fi;
    assert(!returned); /* returned: a task runs */
    done = 1;
    /* DONE's wake of a joiner asleep on it */
    wake_all();
    idle(1)
}

proctype joiner()
{
    byte s;
    bit l, p;
    do
    :: done -> break
    :: else ->
        task_parks(p);
        if
        :: p -> park(0)
        :: else ->
            /* weft__sleep: announce, last look, wait */
            announced = 1;
            task_parks(p);
            if
            :: done || p ->
                atomic { if :: announced -> announced = 0 :: else -> woken = 0 fi }
            :: else ->
#ifdef COVER_SLEPT
                assert(!(suspended != 0 && lazy));
#endif
                woken == 1;
                woken = 0
            fi
        fi
    od;
    task_returned = 1;
    idle(0)
}

proctype controller()
{
    /* the lazy suspension (another thread's lace_suspend) */
    lazy = 1;
    suspended = 1;
#ifdef SYNC_OVER
    /* weft_suspend over it */
#ifdef MUT_WAKE_BEFORE_CLEAR
    wake_all();
    lazy = 0;
    suspended = 2;
#else
    lazy = 0;
    suspended = 2;
#ifndef MUT_NO_WAKE
    wake_all();
#endif
#endif
    parked[0] && parked[1];
    returned = 1;
#ifdef COVER_RETURNED
    assert(0);
#endif
    returned = 0;
    suspended = 1; /* weft_resume: the lazy one stays */
    suspended = 0  /* lace_resume */
#else
    /* the task's caller resumes once the task returned */
    task_returned;
    suspended = 0;
    lazy = 0
#endif
}

init
{
    atomic {
        run thief();
        run joiner();
        run controller()
    }
}
