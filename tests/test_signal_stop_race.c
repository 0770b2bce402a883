// SPDX-License-Identifier: Apache-2.0
/* A fault that the kernel delivered to weft's SIGSEGV handler while a
 * weft_stop on another thread puts back the handler that was there before
 * weft's (docs/configuration.md, "Stacks"):
 *  - the stop in the window between the fault and weft's handler's look
 *    at the disposition: the handler before weft's is still called as the
 *    kernel would have called it, with its sa_mask added and its
 *    SA_RESETHAND reset;
 *  - the handler's reset in the window between the stop's look and its
 *    change: the stop keeps the reset, as the kernel left it, and does not
 *    put the one-shot handler back;
 *  - the same fault without a stop in a window, as the control.
 * The windows are made certain: this program defines sigaction, so that
 * weft's calls reach it first, and holds a thread's call there until the
 * other thread's has been made.  A hold ends after HOLD_LIMIT_S at the
 * latest, so that a handler that never makes its call fails the test
 * instead of hanging it.  (Not built with the sanitizers: they own
 * sigaction and the fault path.) */
#include "segv_actions.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <time.h>
#include <weft/weft.h>

enum { HOLD_LIMIT_S = 10 };

typedef int sigaction_fn(int, const struct sigaction *, struct sigaction *);
static sigaction_fn *libc_sigaction;

enum window { NO_STOP, STOP_BEFORE_LOOK, RESET_BEFORE_CHANGE };
static enum window window;

enum role { OTHER_THREAD, FAULTING_THREAD, STOPPING_THREAD };
static __thread enum role role;

/* Seq_cst, every load and store of these: each is a step of one thread
 * that the other thread waits for. */
static atomic_bool fault_look_held;  /* the faulting thread's next look waits */
static atomic_bool in_handler;       /* it is in weft's handler, waiting */
static atomic_bool stopped;          /* the stop has returned */
static atomic_bool stop_change_held; /* the stop's first change waits */
static atomic_bool stop_looked;      /* the stop has looked */
static atomic_bool reset_done;       /* weft's handler has put the default back */

/* False if `flag` was not set within HOLD_LIMIT_S. */
static bool wait_for(atomic_bool *flag)
{
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    /* Seq_cst: see the flags' declaration. */
    while (!atomic_load(flag)) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec > HOLD_LIMIT_S)
            return false;
        sched_yield();
    }
    return true;
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    if (sig != SIGSEGV || role == OTHER_THREAD)
        return libc_sigaction(sig, act, old);
    /* Seq_cst: taken once, so that only the first look is held. */
    if (role == FAULTING_THREAD && act == NULL && atomic_exchange(&fault_look_held, false)) {
        atomic_store(&in_handler, true); /* seq_cst: see the flags */
        (void)wait_for(&stopped);
    }
    if (role == FAULTING_THREAD && act != NULL && window == RESET_BEFORE_CHANGE) {
        (void)wait_for(&stop_looked);
        int r = libc_sigaction(sig, act, old);
        atomic_store(&reset_done, true); /* seq_cst: see the flags */
        return r;
    }
    if (role == STOPPING_THREAD && act == NULL && window == RESET_BEFORE_CHANGE) {
        int r = libc_sigaction(sig, act, old);
        atomic_store(&stop_looked, true); /* seq_cst: see the flags */
        return r;
    }
    /* Seq_cst: taken once, so that only the first change is held. */
    if (role == STOPPING_THREAD && act != NULL && atomic_exchange(&stop_change_held, false))
        (void)wait_for(&reset_done);
    return libc_sigaction(sig, act, old);
}

static sigjmp_buf back;
static volatile sig_atomic_t calls, usr2_blocked;
static char *volatile fault_page;

static void previous_handler(int sig, siginfo_t *info, void *uctx)
{
    (void)sig, (void)info, (void)uctx;
    calls++;
    sigset_t now;
    pthread_sigmask(SIG_BLOCK, NULL, &now);
    usr2_blocked = sigismember(&now, SIGUSR2) == 1;
    siglongjmp(back, 1);
}

static void *fault_once(void *arg)
{
    (void)arg;
    role = FAULTING_THREAD;
    if (window != RESET_BEFORE_CHANGE)
        atomic_store(&fault_look_held, true); /* seq_cst: see the flags */
    if (sigsetjmp(back, 1) == 0)
        *(volatile char *)fault_page = 1;
    return NULL;
}

static int stop_as_stopping_thread(void)
{
    role = STOPPING_THREAD;
    int r = weft_stop();
    role = OTHER_THREAD;
    return r;
}

/* 0 if the handler before weft's ran once, as the kernel would have run
 * it, and the default action is in place after. */
static int race_case(enum window w)
{
    window = w;
    sigset_t usr2;
    sigemptyset(&usr2);
    sigaddset(&usr2, SIGUSR2);
    install_segv_handler(previous_handler, SA_RESETHAND, &usr2, NULL);
    fault_page = no_access_page();
    CHECK(weft_start(2, 0, 0) == 0, "start");
    if (segv_handler_installed(previous_handler))
        return 10; /* weft's handler never in front: nothing would be shown */
    if (w == RESET_BEFORE_CHANGE)
        atomic_store(&stop_change_held, true); /* seq_cst: see the flags */
    pthread_t faulter;
    CHECK(pthread_create(&faulter, NULL, fault_once, NULL) == 0, "pthread_create");
    int stop_result = 0;
    if (w == STOP_BEFORE_LOOK) {
        if (!wait_for(&in_handler))
            return 16; /* weft's handler did not look at the disposition */
        stop_result = stop_as_stopping_thread();
        if (!segv_handler_installed(previous_handler))
            return 15; /* the stop did not put it back: no window */
    } else if (w == RESET_BEFORE_CHANGE) {
        stop_result = stop_as_stopping_thread();
        if (!atomic_load(&reset_done)) /* seq_cst: see the flags */
            return 17;                 /* no reset in the stop's window */
    } else if (!wait_for(&in_handler)) {
        return 16;
    }
    atomic_store(&stopped, true); /* seq_cst: see the flags */
    CHECK(pthread_join(faulter, NULL) == 0, "pthread_join");
    if (w == NO_STOP)
        stop_result = weft_stop();
    if (stop_result != 0)
        return 14;
    if (calls != 1)
        return 11;
    if (!usr2_blocked)
        return 12;
    struct sigaction now;
    CHECK(libc_sigaction(SIGSEGV, NULL, &now) == 0, "sigaction");
    return now.sa_handler == SIG_DFL ? 0 : 13;
}

static int no_stop_child(void) { return race_case(NO_STOP); }
static int stop_before_look_child(void) { return race_case(STOP_BEFORE_LOOK); }
static int reset_before_change_child(void) { return race_case(RESET_BEFORE_CHANGE); }

static void test_race(int (*child)(void), const char *when)
{
    char buf[4096];
    int r = run_child(child, NULL, 0, buf, sizeof buf);
    CHECK(r != 10, "%s: weft's handler was not the one in place after weft_start", when);
    CHECK(r != 11, "%s: the handler before weft's was not called exactly once", when);
    CHECK(r != 12, "%s: the handler before weft's ran without its sa_mask blocked", when);
    CHECK(r != 13, "%s: the default action is not in place after (SA_RESETHAND's reset lost)",
          when);
    CHECK(r != 15, "%s: the stop did not put the handler before weft's back", when);
    CHECK(r != 16, "%s: weft's handler did not look at the disposition within %d s", when,
          HOLD_LIMIT_S);
    CHECK(r != 17, "%s: weft's handler did not reset within the stop's window", when);
    CHECK(r == 0, "%s: result %d (stderr: %s)", when, r, buf);
    printf("ok: %s: the handler before weft's runs once, with its sa_mask, and the default "
           "action is in place after\n",
           when);
}

int main(void)
{
    libc_sigaction = (sigaction_fn *)dlsym(RTLD_NEXT, "sigaction");
    CHECK(libc_sigaction != NULL, "dlsym(RTLD_NEXT, \"sigaction\"): %s", dlerror());
    /* The handler is on by default; the environment could turn it off. */
    unsetenv("WEFT_STACK_OVERFLOW_HANDLER");
    test_race(no_stop_child, "a fault delivered to weft's handler, no stop");
    test_race(stop_before_look_child,
              "weft_stop on another thread before weft's handler looks at the disposition");
    test_race(reset_before_change_child,
              "weft's handler's SA_RESETHAND reset between weft_stop's look and its change");
    return 0;
}
