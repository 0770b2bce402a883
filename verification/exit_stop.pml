/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of the exit handler against a weft_stop in progress on
 * another thread (src/runtime/lifecycle.c: stop_at_exit, exit_lock,
 * stop_locked, weft_stop; the lock is gate.c's control lock).
 *
 * The pool runs and a report is due (WEFT_PROFILE, WEFT_PROFILE_JSON or
 * WEFT_TRACE).  Three threads:
 *   stopper  weft_stop: takes the control lock; if the pool runs, turns it
 *            STOPPING (no RUN enters), waits for the RUNs inside, writes
 *            the report (begun, then whole), ends the trace session,
 *            publishes STOPPED and unlocks; if the pool does not run, says
 *            "not running", unless the exit handler stopped it
 *   user     NU RUNs from other threads (1): each enters while the pool
 *            runs, and leaves (with -DSTUCK it may stay for ever)
 *   exiter   the main thread's exit handler: returns at once if its first
 *            look sees STOPPED or no session recording (nothing due);
 *            else tries the lock, and while another thread holds it,
 *            waits, giving up (with a line saying the report is lost)
 *            only while a stop waits for RUNs inside (EXIT_WAIT_RUNS_NS
 *            elapsing is a choice the model may make then); with the
 *            lock, returns if the pool is no longer RUNNING (that stop
 *            wrote it), says the report is lost if RUNs are inside, else
 *            stops the pool itself (its own wait for RUNs bounded the same
 *            way).  When it returns the process ends: its last step checks
 *            the properties.
 * The 30 s bound on the whole wait (a stop whose file write blocks) is
 * not modelled: the stop's own work always ends here.
 *
 * Every decision is taken under the control lock, whose lock and unlock
 * order everything else; the looks without it (the first look at the
 * state, acquire, pairing with the release of STOPPED after the reports;
 * the session flag, acquire, pairing with the release that ends it after
 * the file is written; the state while waiting, relaxed, which only
 * chooses the bound) read values published after the report was written.
 * The report is a file (system calls), not memory: the model is checked
 * under SC only.
 *
 * Properties, when the exit handler returns (the process ends there):
 *   lost_silently  the report is whole, or a line said it is not written
 *   stray_message  no "not running" from a weft_stop that lost to exit
 *   and always: the report is begun at most once (`writes`); the exit
 *   handler never waits for ever (`hung`: everything blocked before it
 *   returned).
 *
 * Mutants (-D, one at a time):
 *   MUT_EXIT_NO_WAIT     the handler before the fix: its first look
 *                        returns on STOPPING too (lost_silently)
 *   MUT_STOPPED_EARLY    the stop publishes STOPPED before it writes the
 *                        report (lost_silently)
 *   MUT_NO_EXIT_FLAG     weft_stop does not know the pool was stopped at
 *                        exit (stray_message)
 *   MUT_EXIT_NO_BOUND    the handler waits for the lock without a bound
 *                        (hung, with -DSTUCK)
 *   MUT_EXIT_STALE_LOOK  with the lock, the handler decides on its first
 *                        look instead of reading the state again: a pool
 *                        another stop stopped meanwhile is stopped again,
 *                        its report written twice (writes)
 * Cover (must fail, so the checks are not vacuous):
 *   COVER_WAITED         the handler found the lock held, waited, and
 *                        found the report written by the other stop
 *   COVER_EXIT_STOPS     the handler stopped the pool itself
 *   COVER_GAVE_UP        the handler gave up while RUNs were inside
 */
#ifndef NU
#define NU 1 /* users */
#endif
#define STOPPED 0
#define RUNNING 1
#define STOPPING 2

byte state = RUNNING;
byte users;           /* RUNs inside the pool */
bit lockv;            /* the control lock */
bool recording = 1;   /* the trace session (a report is due) */
byte writes;          /* reports begun */
bool whole;           /* the report is written whole */
bool said_lost;       /* a line said the report is not written */
bool said_running;    /* weft_stop said "the pool is not running" */
bool stopped_at_exit; /* under the lock */
bool exited;          /* the exit handler returned: the process ends */
bool lost_silently, stray_message, hung; /* ghosts: the properties */

inline lock() { atomic { lockv == 0 -> lockv = 1 } }
inline unlock() { lockv = 0 }

/* Under the lock, the pool RUNNING: stop it.  bounded: the exit handler's
 * wait for RUNs inside may end (ok = 0: the pool stays STOPPING). */
inline stop_locked(bounded, ok)
{
    state = STOPPING; /* the CAS: no RUN enters */
    if
    :: bounded ->
        if
        :: users == 0 -> ok = 1
        :: users > 0 -> ok = 0 /* EXIT_WAIT_RUNS_NS elapsed */
        fi
    :: else ->
end_drain: users == 0; ok = 1 /* a stuck RUN keeps it here: the process ends */
    fi;
    if
    :: ok ->
#ifdef MUT_STOPPED_EARLY
        state = STOPPED;
#endif
        atomic { assert(writes == 0); writes++ }; /* the report begins */
        whole = 1;
        recording = 0; /* release: the session ends after its file */
        state = STOPPED /* release: after the reports */
    :: else
    fi
}

proctype stopper()
{
    bool ok;
end_lock:
    lock();
    if
    :: state == RUNNING -> stop_locked(0, ok)
#ifndef MUT_NO_EXIT_FLAG
    :: state != RUNNING && stopped_at_exit -> skip /* quiet */
    :: state != RUNNING && !stopped_at_exit -> said_running = 1
#else
    :: state != RUNNING -> said_running = 1
#endif
    fi;
    unlock()
}

proctype user()
{
    if
    :: atomic { state == RUNNING -> users++ };
#ifdef STUCK
        if
        :: users--
        :: true ->
end_stuck:  false /* stays inside until the process ends */
        fi
#else
        users--
#endif
    :: atomic { state != RUNNING -> skip } /* RUN refused */
    fi
}

proctype exiter()
{
    bool ok, busy;
    byte seen;
    seen = state; /* the first look (acquire) */
#ifdef MUT_EXIT_NO_WAIT
    if
    :: seen != RUNNING -> goto done
    :: else
    fi;
#else
    if
    :: seen == STOPPED -> goto done
    :: else
    fi;
#endif
    if
    :: !recording -> goto done /* nothing due (acquire) */
    :: else
    fi;
    /* exit_lock: the lock, waited for while another thread holds it; the
     * wait ends without it only while a stop waits for RUNs inside */
    if
    :: lockv == 1 -> busy = 1
    :: else
    fi;
    if
    :: atomic { lockv == 0 -> lockv = 1 }
#ifndef MUT_EXIT_NO_BOUND
    :: atomic { lockv == 1 && state == STOPPING && users > 0 -> said_lost = 1 };
#ifdef COVER_GAVE_UP
        assert(false);
#endif
        goto done
#endif
    fi;
#ifndef MUT_EXIT_STALE_LOOK
    seen = state; /* read again under the lock */
#endif
    if
    :: seen != RUNNING ->
#ifdef COVER_WAITED
        assert(!(busy && whole));
#endif
        unlock()
    :: seen == RUNNING && users > 0 -> unlock(); said_lost = 1
    :: seen == RUNNING && users == 0 ->
        stopped_at_exit = 1;
        stop_locked(1, ok);
        unlock();
        if
        :: !ok -> said_lost = 1
        :: else
#ifdef COVER_EXIT_STOPS
            assert(false)
#endif
        fi
    fi;
done:
    atomic {
        lost_silently = !(whole || said_lost);
        stray_message = said_running;
        assert(!lost_silently);
        assert(!stray_message);
        exited = 1
    }
}

init
{
    byte i;
    atomic {
        run stopper();
        for (i : 1 .. NU) { run user() };
        run exiter()
    };
    if
    :: exited
    :: timeout -> hung = !exited; assert(!hung) /* the exit handler waits for ever */
    fi
}
