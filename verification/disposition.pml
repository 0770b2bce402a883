/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of the SIGSEGV disposition between weft's handler, the last
 * weft_stop and the application (src/runtime/overflow.c: call_previous,
 * restore_previous, disposition_lock).
 *
 * weft's handler is installed (W) in front of a one-shot handler P
 * (SA_RESETHAND).  Thread F's fault has been delivered to W.  Its handler
 * looks at the disposition and, if W or P is in place (the kernel
 * delivered to W), resets it to the default (D) for P's SA_RESETHAND, by
 * an exchange: if what it replaced is the application's handler
 * (installed since the look), it puts that back; then it calls P.  The last stop looks, and if W is in place exchanges
 * it for P; if what it replaced is no longer W (the application changed
 * it since the look), it puts that back.  The handler's look and reset,
 * and the stop's look, exchange and put-back, each hold the disposition
 * lock.  Thread G may fault at any time: the kernel delivers to what is
 * in place (W: G's handler, as F's; P: P runs and the kernel resets to D;
 * D: G dies).  The application may install its handler X once, at any
 * time, without the lock.
 *
 * Each system call is one atomic step (the kernel orders them); the lock
 * is a test-and-set flag whose acquire and release order the steps
 * between threads: SC only.
 *
 * Properties:
 *   reset_kept  P is never installed after a reset (by weft's handler or
 *               by the kernel): the one-shot handler stays spent
 *   app_kept    once the application installed X, X is in place at the end
 *
 * Mutants (-D, one at a time):
 *   MUT_NO_LOCK     the handler's and the stop's steps without the lock
 *                   (reset_kept)
 *   MUT_NO_PUT_BACK the stop's exchange without its put-back (app_kept)
 *   MUT_NO_RESET_PUT_BACK the handler's reset without its put-back
 *                   (app_kept)
 * Cover (must fail, so the checks are not vacuous):
 *   COVER_STOP_FIRST the stop put P back before F's handler looked
 *   COVER_PUT_BACK   the stop put back the application's X
 */

#define W 0
#define P 1
#define D 2
#define X 3

byte disp = W;
bool busy;              /* the disposition lock */
bool reset_done;        /* P's one shot is spent */
bool app_installed;
bool found_p;
bool put_back;

inline lock() {
#ifndef MUT_NO_LOCK
    atomic { !busy -> busy = true }
#else
    skip
#endif
}

inline unlock() {
#ifndef MUT_NO_LOCK
    busy = false
#else
    skip
#endif
}

/* weft's handler, for a fault the kernel delivered to it */
proctype weft_handler()
{
    byte seen, replaced;
    lock();
    atomic { seen = disp; found_p = found_p || seen == P };              /* look */
    if
    :: seen == W || seen == P ->
       atomic { replaced = disp; disp = D; reset_done = true };          /* reset, exchanged */
#ifndef MUT_NO_RESET_PUT_BACK
       if
       :: replaced == X -> disp = replaced                             /* put back */
       :: else -> skip
       fi
#endif
    :: else -> skip                      /* not delivered: P is called as a function */
    fi;
    unlock()
}

proctype stopper()
{
    byte seen, replaced;
    lock();
    seen = disp;                                                         /* look */
    if
    :: seen == W ->
       atomic {                                                          /* exchange */
           replaced = disp;
           assert(!reset_done);                                          /* reset_kept */
           disp = P
       };
#ifndef MUT_NO_PUT_BACK
       if
       :: replaced != W -> atomic { disp = replaced; put_back = true }   /* put back */
       :: else -> skip
       fi;
#endif
    :: else -> skip
    fi;
    unlock()
}

/* thread G's fault: the kernel delivers it to what is in place */
proctype other_fault()
{
    if
    :: atomic { disp == W -> run weft_handler() }
    :: atomic { disp == P -> disp = D; reset_done = true }    /* P runs; the kernel resets */
    :: atomic { disp == D || disp == X -> skip }              /* G dies, or X runs */
    fi
}

proctype application()
{
    atomic { disp = X; app_installed = true }
}

init {
    atomic {
        run weft_handler();
        run stopper();
        run other_fault();
        run application()
    }
    (_nr_pr == 1);
    assert(!app_installed || disp == X);                      /* app_kept */
    assert(!(reset_done && disp == P));                       /* reset_kept, at the end */
#ifdef COVER_STOP_FIRST
    assert(!found_p);
#endif
#ifdef COVER_PUT_BACK
    assert(!put_back);
#endif
}
