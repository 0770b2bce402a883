/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of a TOGETHER or NEWFRAME from outside the pool against a
 * weft_stop, while the pool may be suspended (src/runtime/gate.c:
 * weft__lifecycle_enter_interrupt; src/runtime/lifecycle.c: stop_locked;
 * the lock is gate.c's control lock).
 *
 * Three threads:
 *   caller   an interrupt from outside: counts itself in as a user of the
 *            pool while it runs (the lifecycle word: refused if the pool
 *            is no longer RUNNING), then loops, without the control lock:
 *            count itself among the interrupts from outside, and go if the
 *            pool is not suspended; if it is, take the count back and wait
 *            for a resume (the futex wait on the suspend word returns once
 *            the pool is resumed, or at once after a resume in between).
 *            Then the interrupt runs on the workers and the caller counts
 *            itself out.
 *   stopper  weft_stop: the control lock; RUNNING -> STOPPING (no user
 *            enters); resume if suspended; wait until no user is inside;
 *            the workers stop (STOPPED); unlock.
 *   resumer  the program's weft_resume, which may come or not: the lock,
 *            resume if suspended and running, unlock.
 * The pool starts suspended (SUSPENDED=1) or not.  The caller's counts and
 * looks are seq_cst and the lifecycle word's updates read-modify-writes
 * (acq_rel); the stop's and resume's writes are made under the lock: the
 * model is checked under SC (the gate's own orders: gate.pml).
 *
 * Properties:
 *   ran_stopped     the interrupt never runs after the workers stopped
 *   lost_waiter     a caller whose first look found the pool RUNNING
 *                   (it began, and perhaps waited, before the stop) runs
 *                   its interrupt: the stop lets it, instead of stopping
 *                   under it
 *   and no invalid end state: nobody waits for ever (the caller waiting
 *   for a resume that never comes is an end state only while no stop
 *   runs: end_wait).
 *
 * Mutants (-D, one at a time):
 *   MUT_COUNT_AFTER_WAIT  an older version: the caller waits for the
 *                         resume first and counts itself in after it
 *                         (under the lock), so the stop does not wait
 *                         for it (lost_waiter)
 *   MUT_STOP_KEEPS_SUSPENDED  the stop does not resume a suspended pool:
 *                         it waits for the caller, which waits for a
 *                         resume (an invalid end state)
 * Cover (must fail, so the checks are not vacuous):
 *   COVER_PASSED_STOP     the caller went on while a stop was in progress
 */
#ifndef SUSPENDED
#define SUSPENDED 1
#endif
#define STOPPED 0
#define RUNNING 1
#define STOPPING 2

byte state = RUNNING;
byte users;             /* the lifecycle word's count */
bit lockv;              /* the control lock */
bool suspended = SUSPENDED;
byte interrupts_out;    /* interrupts from outside in progress */
bool began;             /* ghost: the caller's first look found the pool RUNNING */
bool ran;               /* ghost: the interrupt ran */
bool refused;           /* the caller was refused (the pool not running) */

inline lock() { atomic { lockv == 0 -> lockv = 1 } }
inline unlock() { lockv = 0 }

proctype caller()
{
#ifndef MUT_COUNT_AFTER_WAIT
    atomic {
        if
        :: state == RUNNING -> users++; began = 1
        :: else -> refused = 1
        fi
    }
    if
    :: refused -> goto done
    :: else
    fi;
again:
    interrupts_out++;
    if
    :: !suspended -> goto go
    :: else -> interrupts_out--;
end_wait: !suspended; /* the futex wait on the suspend word */
        goto again
    fi;
#else
    /* before: wait for the resume holding nothing, then count in under
     * the lock */
again:
    lock();
    if
    :: state != RUNNING -> unlock(); refused = 1; goto done
    :: state == RUNNING && suspended -> began = 1; unlock();
end_wait: (!suspended || state != RUNNING); goto again
    :: state == RUNNING && !suspended ->
        began = 1; interrupts_out++; users++; unlock(); goto go
    fi;
#endif
go:
#ifdef COVER_PASSED_STOP
    assert(state != STOPPING);
#endif
    assert(state != STOPPED); /* ran_stopped: the workers run it */
    ran = 1;
    interrupts_out--;
    users--;
done:
    skip
}

proctype stopper()
{
    lock();
    if
    :: state == RUNNING ->
        state = STOPPING; /* the CAS: no user enters */
#ifndef MUT_STOP_KEEPS_SUSPENDED
        suspended = 0;    /* resume for the users inside */
#endif
        users == 0;
        state = STOPPED
    :: else
    fi;
    unlock()
}

proctype resumer()
{
    lock();
    if
    :: state == RUNNING && suspended -> suspended = 0
    :: else
    fi;
    unlock()
}

init
{
    atomic {
        run caller();
        run stopper();
        if
        :: run resumer()
        :: skip /* the program never resumes */
        fi
    }
    /* every thread done: the properties */
    (_nr_pr == 1);
    assert(!began || ran); /* lost_waiter */
}
