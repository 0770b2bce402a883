// SPDX-License-Identifier: Apache-2.0
/* A fault that the kernel delivered to weft's SIGSEGV handler while a
 * weft_stop on another thread puts back the handler that was there before
 * weft's (docs/configuration.md, "Stacks"): the handler before weft's is
 * still called as the kernel would have called it, with its sa_mask added
 * and its SA_RESETHAND reset, although weft's is no longer the one in
 * place when weft's handler looks.
 *
 * The window is made certain: this program defines sigaction, so that
 * weft's calls reach it first, and the faulting thread's first query from
 * inside weft's handler waits there until the other thread's weft_stop has
 * returned.  The same fault without a stop in the window is the control.
 * (Not built with the sanitizers: they own sigaction and the fault path.) */
#include "segv_actions.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <weft/weft.h>

typedef int sigaction_fn(int, const struct sigaction *, struct sigaction *);
static sigaction_fn *libc_sigaction;

static __thread bool is_faulting_thread;
static atomic_bool query_held, in_window, window_closed;

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    /* Seq_cst (all three): the faulting thread takes the hold once, tells
     * the main thread it is in the window, and waits for its stop. */
    if (act == NULL && sig == SIGSEGV && is_faulting_thread &&
        atomic_exchange(&query_held, false)) {
        atomic_store(&in_window, true);
        while (!atomic_load(&window_closed))
            sched_yield();
    }
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
    is_faulting_thread = true;
    /* Seq_cst: arms the hold for this thread's next query (in the handler). */
    atomic_store(&query_held, true);
    if (sigsetjmp(back, 1) == 0)
        *(volatile char *)fault_page = 1;
    return NULL;
}

/* 0 if the handler before weft's ran once, as the kernel would have run it. */
static int race_case(bool stop_in_window)
{
    sigset_t usr2;
    sigemptyset(&usr2);
    sigaddset(&usr2, SIGUSR2);
    install_segv_handler(previous_handler, SA_RESETHAND, &usr2, NULL);
    fault_page = no_access_page();
    CHECK(weft_start(2, 0, 0) == 0, "start");
    if (segv_handler_installed(previous_handler))
        return 10; /* weft's handler never in front: nothing would be shown */
    pthread_t faulter;
    CHECK(pthread_create(&faulter, NULL, fault_once, NULL) == 0, "pthread_create");
    /* Seq_cst (both): the faulting thread is held inside weft's handler;
     * the stop runs in the window, then the thread goes on. */
    while (!atomic_load(&in_window))
        sched_yield();
    int stopped = stop_in_window ? weft_stop() : 0;
    atomic_store(&window_closed, true);
    CHECK(pthread_join(faulter, NULL) == 0, "pthread_join");
    if (!stop_in_window)
        stopped = weft_stop();
    if (stopped != 0)
        return 14;
    if (calls != 1)
        return 11;
    if (!usr2_blocked)
        return 12;
    struct sigaction now;
    CHECK(libc_sigaction(SIGSEGV, NULL, &now) == 0, "sigaction");
    return now.sa_handler == SIG_DFL ? 0 : 13;
}

static int stop_in_window_child(void) { return race_case(true); }
static int control_child(void) { return race_case(false); }

static void test_race(bool stop_in_window)
{
    char buf[4096];
    int r =
        run_child(stop_in_window ? stop_in_window_child : control_child, NULL, 0, buf, sizeof buf);
    const char *when = stop_in_window ? "with weft_stop in the window" : "without a stop";
    CHECK(r != 10, "%s: weft's handler was not the one in place after weft_start", when);
    CHECK(r != 11, "%s: the handler before weft's was not called exactly once", when);
    CHECK(r != 12, "%s: the handler before weft's ran without its sa_mask blocked", when);
    CHECK(r != 13, "%s: SA_RESETHAND did not put the default action back", when);
    CHECK(r == 0, "%s: result %d (stderr: %s)", when, r, buf);
    printf("ok: a fault delivered to weft's handler, %s: the handler before it runs once, "
           "with its sa_mask and its reset\n",
           when);
}

int main(void)
{
    libc_sigaction = (sigaction_fn *)dlsym(RTLD_NEXT, "sigaction");
    CHECK(libc_sigaction != NULL, "dlsym(RTLD_NEXT, \"sigaction\"): %s", dlerror());
    /* The handler is on by default; the environment could turn it off. */
    unsetenv("WEFT_STACK_OVERFLOW_HANDLER");
    test_race(false);
    test_race(true);
    return 0;
}
