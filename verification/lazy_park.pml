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
 * at DONE).  A parked worker waits for a resume; a task's park also
 * ends when a resume leaves only lazy holds (the hint set again): the
 * task clears its mark, then reads the flag and the hint again, and
 * parks on if a weft_suspend came back meanwhile.
 *
 * Two scenarios:
 *   (default)    the task's caller is the thread that resumes: another
 *                thread suspends lazily at any moment, and the caller
 *                resumes only after the task returned (Lace's programs
 *                whose main thread is worker 0)
 *   -DSYNC_OVER  another thread suspends lazily, then weft_suspend over
 *                it, which must return with both workers parked; then
 *                weft_resume, which leaves the lazy suspension: the
 *                tasks parked at their yield and SYNC go on, and the
 *                caller resumes once the task returned; -DTWICE: a
 *                second weft_suspend and weft_resume over it after the
 *                first
 * Every access is seq_cst but the hint's reads, which are relaxed: in the
 * sleepers' last look and in park each follows a seq_cst read of the
 * flag, every store of the hint precedes a store of the flag, and every
 * store of the flag is seq_cst (the nested ones too: a relaxed one, read
 * there, would not carry the hint), so a flag read from a store shows the
 * hint of that store or a later one; the model's interleavings of the two reads give exactly
 * those (SC only).  task_parks reads both relaxed: a stale pair there only
 * sends a task into park, whose own reads decide, or past one park point
 * to the next (not modelled).
 * Properties: nobody waits forever (invalid end state); no task runs
 * between weft_suspend's return and the resume (`returned`).
 *
 * Mutants:
 *   MUT_TASK_PARKS_LAZY   a task parks under the lazy suspension too, and
 *                         its park waits for a resume (the runtime
 *                         before): in the default scenario the caller
 *                         waits for the task, the task for the caller's
 *                         resume
 *   MUT_PARK_NO_LAZY_EXIT a task's park waits for a resume even when the
 *                         suspension turned lazy (SYNC_OVER)
 *   MUT_WAKE_BEFORE_CLEAR weft_suspend wakes the sleepers before it clears
 *                         the hint: the joiner looks again, still lazy,
 *                         and sleeps through the wait (SYNC_OVER)
 *   MUT_NO_WAKE           weft_suspend over a lazy one wakes nobody, as the
 *                         lazy one does (SYNC_OVER)
 *   MUT_RESUME_STAYS_SYNC the weft_resume that leaves only the lazy hold
 *                         keeps the suspension a sync one: the parked
 *                         tasks wait for the caller's resume (SYNC_OVER)
 *   MUT_EXIT_KEEPS_MARK   a task leaving park for the lazy suspension keeps
 *                         its mark until it is out: a second weft_suspend
 *                         over the lazy one, which keeps the generation,
 *                         counts it as parked (SYNC_OVER, TWICE; found as
 *                         `returned`)
 * Cover (must fail, so the base check is not vacuous):
 *   COVER_SLEPT           the joiner slept under the lazy suspension
 *   COVER_RETURNED        weft_suspend returned (SYNC_OVER)
 *   COVER_RETURNED_TWICE  the second weft_suspend returned (SYNC_OVER, TWICE)
 */

bit lazy;            /* the hint: the suspension in force is lazy */
byte suspended;      /* its depth */
byte gen;            /* the suspension's generation */
byte word;           /* the parked workers' futex word (bumped by resumes) */
byte mine[2];        /* each seat's mark: the generation it is parked in */
bit done;            /* the stolen task is DONE */
bit announced;       /* the joiner's sleep word says asleep */
bit woken;           /* a claim ended its sleep */
bit task_returned;   /* ghost: the joiner's SYNC returned */
bit returned;        /* ghost: weft_suspend returned, no resume yet */
byte nreturned;      /* ghost: how many weft_suspends returned */

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

/* park (suspend_parked.pml's protocol): the word, then in a loop the
 * generation and the flag; a task's park (in_task) also ends on the hint;
 * else the mark, a second look at the generation and the futex wait; the
 * mark cleared on the way out. */
inline park(me, in_task)
{
    w_old = word;
    do
    :: true ->
        g = gen;
        s = suspended;
        if
        :: s == 0 -> break
        :: else
        fi;
        l = lazy;
#if !defined(MUT_TASK_PARKS_LAZY) && !defined(MUT_PARK_NO_LAZY_EXIT)
        if
        :: in_task && l ->
#ifdef MUT_EXIT_KEEPS_MARK
            break
#else
            /* leaving: the mark first, then the flag and the hint again */
            mine[me] = 0;
            s = suspended;
            l = lazy;
            if
            :: s == 0 || l -> break
            :: else
            fi
#endif
        :: else
        fi;
#endif
        mine[me] = g;
        if
        :: gen == g -> word != w_old
        :: else
        fi;
        w_old = word
    od;
    mine[me] = 0
}

/* A worker with nothing to do: it parks for any suspension, lazy or
 * not, and ends when nothing else can move. */
inline idle(me)
{
    do
    :: suspended != 0 -> park(me, 0)
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
    byte s, g, w_old;
    bit l, p;
    /* its task's yield */
    task_parks(p);
    if :: p -> park(1, 1) :: else fi;
    assert(!returned); /* returned: a task runs */
    done = 1;
    /* DONE's wake of a joiner asleep on it */
    wake_all();
    idle(1)
}

proctype joiner()
{
    byte s, g, w_old;
    bit l, p;
    do
    :: done -> break
    :: else ->
        task_parks(p);
        if
        :: p -> park(0, 1);
            assert(!returned) /* returned: a task runs */
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

/* weft_suspend over the lazy suspension: it keeps the generation, clears
 * the hint, stores the flag, wakes the sleepers and waits for every mark
 * (each read in turn); then weft_resume, which leaves the lazy hold: the
 * hint, the flag, the word's bump. */
inline sync_over_lazy()
{
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
    mine[0] == gen;
    mine[1] == gen;
    returned = 1;
    nreturned++;
#ifdef COVER_RETURNED
    assert(0);
#endif
#ifdef COVER_RETURNED_TWICE
    assert(nreturned < 2);
#endif
    returned = 0;
#ifndef MUT_RESUME_STAYS_SYNC
    lazy = 1;
#endif
    suspended = 1;
    word++
}

proctype controller()
{
    /* the lazy suspension (another thread's lace_suspend): a new
     * generation, the hint, the flag */
    gen = 1;
    lazy = 1;
    suspended = 1;
#ifdef SYNC_OVER
    sync_over_lazy();
#ifdef TWICE
    sync_over_lazy();
#endif
#endif
    /* the task's caller (lace_resume) resumes once the task returned */
    task_returned;
    lazy = 0;
    suspended = 0;
    word++
}

init
{
    atomic {
        run thief();
        run joiner();
        run controller()
    }
}
