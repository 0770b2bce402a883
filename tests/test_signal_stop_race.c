// SPDX-License-Identifier: Apache-2.0
/* A fault that the kernel delivered to weft's SIGSEGV handler while a
 * weft_stop on another thread puts back the handler that was there before
 * weft's (docs/configuration.md, "Stacks"):
 *  - the stop in the window between the fault and weft's handler's look
 *    at the disposition: the handler before weft's is still called as the
 *    kernel would have called it, with its sa_mask added and its
 *    SA_RESETHAND reset;
 *  - the handler's look and reset against the stop's look and change: the
 *    handler, having looked, waits up to a second for the stop to look,
 *    and the stop's change waits up to a second for the reset; the two
 *    must not interleave, so that the one-shot handler is never put back
 *    after the reset;
 *  - the same fault without a stop in a window, as the control;
 *  - the application's handler installed on another thread between the
 *    stop's look and its change: it stays, and the next start leaves it
 *    in front of weft's, as if it had been installed before the stop;
 *  - the application's handler installed on another thread between weft's
 *    handler's look and its SA_RESETHAND reset: it stays, as it would
 *    have after the kernel's reset at the delivery.
 * The windows are made certain: this program defines sigaction and
 * pthread_sigmask, so that weft's calls reach them first, and holds a
 * thread's call there until the other thread's has been made.  A hold
 * ends after HOLD_LIMIT_S at the latest, so that a handler that never
 * makes its call fails the test instead of hanging it.  (Not built with the sanitizers: they own
 * sigaction and the fault path.) */
#include "segv_actions.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <time.h>
#include <weft/weft.h>

enum { HOLD_LIMIT_S = 10, INTERLEAVE_WAIT_S = 1 };

typedef int sigaction_fn(int, const struct sigaction *, struct sigaction *);
static sigaction_fn *libc_sigaction;
typedef int sigmask_fn(int, const sigset_t *, sigset_t *);
static sigmask_fn *libc_pthread_sigmask;

enum window { NO_STOP, STOP_BEFORE_LOOK, RESET_BEFORE_CHANGE, APP_BEFORE_CHANGE, APP_BEFORE_RESET };
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
static atomic_bool late_put_back;    /* the previous handler set after the reset */
static atomic_bool app_installed;    /* the application's handler is in place */

/* False if `flag` was not set within `seconds`. */
static bool wait_at_most(atomic_bool *flag, int seconds)
{
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    /* Seq_cst: see the flags' declaration. */
    while (!atomic_load(flag)) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec >= seconds)
            return false;
        sched_yield();
    }
    return true;
}

static bool wait_for(atomic_bool *flag) { return wait_at_most(flag, HOLD_LIMIT_S); }

static void previous_handler(int sig, siginfo_t *info, void *uctx);

/* A change of the disposition, noting one that puts the previous handler
 * back after weft's handler reset it. */
static int change(int sig, const struct sigaction *act, struct sigaction *old)
{
    int r = libc_sigaction(sig, act, old);
    /* Seq_cst (both): see the flags. */
    if ((act->sa_flags & SA_SIGINFO) && act->sa_sigaction == previous_handler &&
        atomic_load(&reset_done))
        atomic_store(&late_put_back, true);
    return r;
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    if (sig != SIGSEGV || role == OTHER_THREAD)
        return libc_sigaction(sig, act, old);
    if (role == FAULTING_THREAD && act == NULL &&
        (window == RESET_BEFORE_CHANGE || window == APP_BEFORE_RESET)) {
        int r = libc_sigaction(sig, act, old);
        atomic_store(&in_handler, true); /* seq_cst: see the flags */
        if (window == RESET_BEFORE_CHANGE)
            (void)wait_at_most(&stop_looked, INTERLEAVE_WAIT_S);
        else
            (void)wait_for(&app_installed);
        return r;
    }
    if (role == FAULTING_THREAD && act != NULL && window == RESET_BEFORE_CHANGE) {
        int r = change(sig, act, old);
        atomic_store(&reset_done, true); /* seq_cst: see the flags */
        return r;
    }
    if (role == STOPPING_THREAD && act == NULL &&
        (window == RESET_BEFORE_CHANGE || window == APP_BEFORE_CHANGE)) {
        int r = libc_sigaction(sig, act, old);
        atomic_store(&stop_looked, true); /* seq_cst: see the flags */
        return r;
    }
    /* Seq_cst: taken once, so that only the first change is held. */
    if (role == STOPPING_THREAD && act != NULL && atomic_exchange(&stop_change_held, false))
        (void)wait_at_most(window == RESET_BEFORE_CHANGE ? &reset_done : &app_installed,
                           window == RESET_BEFORE_CHANGE ? INTERLEAVE_WAIT_S : HOLD_LIMIT_S);
    return act ? change(sig, act, old) : libc_sigaction(sig, act, old);
}

/* weft's handler blocks signals before it looks at the disposition: the
 * faulting thread's first such call after its fault waits there. */
int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
    /* Seq_cst: taken once, so that only the first call is held. */
    if (role == FAULTING_THREAD && set != NULL && atomic_exchange(&fault_look_held, false)) {
        atomic_store(&in_handler, true); /* seq_cst: see the flags */
        (void)wait_for(&stopped);
    }
    return libc_pthread_sigmask(how, set, old);
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
    if (sigsetjmp(back, 1) == 0) {
        if (window == NO_STOP || window == STOP_BEFORE_LOOK)
            atomic_store(&fault_look_held, true); /* seq_cst: see the flags */
        *(volatile char *)fault_page = 1;
    }
    return NULL;
}

static int stop_as_stopping_thread(void)
{
    role = STOPPING_THREAD;
    int r = weft_stop();
    role = OTHER_THREAD;
    return r;
}

/* The one-shot handler (SIGUSR2 in its mask) installed, then weft_start;
 * false if weft's handler is not in front of it (nothing would be shown). */
static bool set_up(enum window w)
{
    window = w;
    sigset_t usr2;
    sigemptyset(&usr2);
    sigaddset(&usr2, SIGUSR2);
    install_segv_handler(previous_handler, SA_RESETHAND, &usr2, NULL);
    fault_page = no_access_page();
    CHECK(weft_start(2, 0, 0) == 0, "start");
    return !segv_handler_installed(previous_handler);
}

/* 0 if the handler before weft's ran once, as the kernel would have run
 * it, and the default action is in place after. */
static int race_case(enum window w)
{
    if (!set_up(w))
        return 10;
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
        if (!wait_for(&in_handler))
            return 16;
        stop_result = stop_as_stopping_thread();
        if (!atomic_load(&reset_done)) /* seq_cst: see the flags */
            return 17;
        if (atomic_load(&late_put_back)) /* seq_cst: see the flags */
            return 18;
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

static void app_handler(int sig, siginfo_t *info, void *uctx) { (void)sig, (void)info, (void)uctx; }

static void *install_app_handler(void *arg)
{
    (void)arg;
    if (wait_for(window == APP_BEFORE_RESET ? &in_handler : &stop_looked)) {
        install_segv_handler(app_handler, 0, NULL, NULL);
        atomic_store(&app_installed, true); /* seq_cst: see the flags */
    }
    return NULL;
}

/* 0 if the application's handler, installed between the stop's look and
 * its change, is in place after the stop and stays in front after the
 * next start. */
static int app_case(void)
{
    if (!set_up(APP_BEFORE_CHANGE))
        return 10;
    atomic_store(&stop_change_held, true); /* seq_cst: see the flags */
    pthread_t app;
    CHECK(pthread_create(&app, NULL, install_app_handler, NULL) == 0, "pthread_create");
    int stop_result = stop_as_stopping_thread();
    CHECK(pthread_join(app, NULL) == 0, "pthread_join");
    if (stop_result != 0)
        return 14;
    if (!atomic_load(&app_installed)) /* seq_cst: see the flags */
        return 16;
    if (!segv_handler_installed(app_handler))
        return 19;
    CHECK(weft_start(2, 0, 0) == 0, "second start");
    bool in_front = segv_handler_installed(app_handler);
    CHECK(weft_stop() == 0, "second stop");
    return in_front ? 0 : 20;
}

/* 0 if the application's handler, installed between weft's handler's look
 * and its reset, is in place after, and the handler before weft's ran
 * once as delivered. */
static int app_before_reset_case(void)
{
    if (!set_up(APP_BEFORE_RESET))
        return 10;
    pthread_t app, faulter;
    CHECK(pthread_create(&app, NULL, install_app_handler, NULL) == 0, "pthread_create");
    CHECK(pthread_create(&faulter, NULL, fault_once, NULL) == 0, "pthread_create");
    CHECK(pthread_join(faulter, NULL) == 0, "pthread_join");
    CHECK(pthread_join(app, NULL) == 0, "pthread_join");
    if (!atomic_load(&app_installed)) /* seq_cst: see the flags */
        return 16;
    if (calls != 1)
        return 11;
    if (!usr2_blocked)
        return 12;
    if (!segv_handler_installed(app_handler))
        return 19;
    return weft_stop() == 0 ? 0 : 14;
}

static int no_stop_child(void) { return race_case(NO_STOP); }
static int stop_before_look_child(void) { return race_case(STOP_BEFORE_LOOK); }
static int reset_before_change_child(void) { return race_case(RESET_BEFORE_CHANGE); }

static void test_race(int (*child)(void), const char *when, const char *what)
{
    char buf[4096];
    int r = run_child(child, NULL, 0, buf, sizeof buf);
    CHECK(r != 10, "%s: weft's handler was not the one in place after weft_start", when);
    CHECK(r != 11, "%s: the handler before weft's was not called exactly once", when);
    CHECK(r != 12, "%s: the handler before weft's ran without its sa_mask blocked", when);
    CHECK(r != 13, "%s: the default action is not in place after (SA_RESETHAND's reset lost)",
          when);
    CHECK(r != 15, "%s: the stop did not put the handler before weft's back", when);
    CHECK(r != 16, "%s: a thread did not take its step within %d s", when, HOLD_LIMIT_S);
    CHECK(r != 17, "%s: weft's handler did not reset for SA_RESETHAND", when);
    CHECK(r != 18, "%s: the stop put the one-shot handler back after weft's handler reset it",
          when);
    CHECK(r != 19, "%s: the application's handler was replaced", when);
    CHECK(r != 20, "%s: the next start put weft's handler in front of the application's", when);
    CHECK(r == 0, "%s: result %d (stderr: %s)", when, r, buf);
    printf("ok: %s: %s\n", when, what);
}

#define ONE_SHOT_OK \
    "the handler before weft's runs once, with its sa_mask, and the default action is in " \
    "place after"

int main(void)
{
    libc_sigaction = (sigaction_fn *)dlsym(RTLD_NEXT, "sigaction");
    CHECK(libc_sigaction != NULL, "dlsym(RTLD_NEXT, \"sigaction\"): %s", dlerror());
    libc_pthread_sigmask = (sigmask_fn *)dlsym(RTLD_NEXT, "pthread_sigmask");
    CHECK(libc_pthread_sigmask != NULL, "dlsym(RTLD_NEXT, \"pthread_sigmask\"): %s", dlerror());
    /* The handler is on by default; the environment could turn it off. */
    unsetenv("WEFT_STACK_OVERFLOW_HANDLER");
    test_race(no_stop_child, "a fault delivered to weft's handler, no stop", ONE_SHOT_OK);
    test_race(stop_before_look_child,
              "weft_stop on another thread before weft's handler looks at the disposition",
              ONE_SHOT_OK);
    test_race(reset_before_change_child,
              "weft's handler's look and reset against weft_stop's look and change", ONE_SHOT_OK);
    test_race(app_case,
              "the application's handler installed between weft_stop's look and its change",
              "it stays, and in front of weft's after the next start");
    test_race(app_before_reset_case,
              "the application's handler installed between weft's handler's look and its "
              "SA_RESETHAND reset",
              "it stays, and the handler before weft's runs once, with its sa_mask");
    return 0;
}
