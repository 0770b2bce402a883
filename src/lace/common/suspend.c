// SPDX-License-Identifier: Apache-2.0
/* lace_suspend and lace_resume as Lace has them (suspend.h).  Built into
 * each Lace library; a program links one. */
#include "lace/common/suspend.h"

#include "lace/common/interrupts.h"

#include "runtime/frontend.h"

#include <weft/weft.h>

#include <pthread.h>
#include <stdbool.h>

static pthread_mutex_t suspend_lock = PTHREAD_MUTEX_INITIALIZER;
/* Lace's count: resumes less suspends, 1 at start.  Written under
 * suspend_lock; read without it by the calls from outside, which settle
 * the parking when it is 0 or less. */
static WEFT_ATOMIC(int) awake = 1;
static bool parked; /* our weft_suspend is in force */
/* Calls from outside in progress. */
static WEFT_ATOMIC(int) outside_calls;

/* Parks or lets go so that the pool is parked exactly while the count is
 * low and no call from outside is in progress.  With suspend_lock held. */
static void settle(void)
{
    /* Relaxed: the count's writers hold suspend_lock, as we do.  seq_cst:
     * with outside_count's increment and load of the count, one of the two
     * sees the other (a call from outside is never left parked). */
    bool want = atomic_load_explicit(&awake, memory_order_relaxed) <= 0 &&
                atomic_load_explicit(&outside_calls, memory_order_seq_cst) == 0;
    if (want && !parked) /* refused on a pool's thread (EBUSY): the next settle parks */
        parked = weft__suspend_lazy() == 0;
    else if (!want && parked) {
        (void)weft__resume_quiet(); /* (a stop or another API may have undone it first) */
        parked = false;
    }
}

/* With suspend_lock held: the count moves by delta. */
static void add_to_count(int delta)
{
    /* Relaxed: the count's writers hold suspend_lock.  seq_cst: pairs with
     * outside_count's load (stored before settle reads the calls). */
    int count = atomic_load_explicit(&awake, memory_order_relaxed) + delta;
    atomic_store_explicit(&awake, count, memory_order_seq_cst);
    settle();
}

/* Lace's rules for every RUN from outside, whichever API makes it: on a
 * worker's thread, and running even while suspended. */
static const weft__outside_rules lace_outside_rules = {
    .begin = weft__lace_outside_begin,
    .end = weft__lace_outside_end,
};

/* fork() copies only the calling thread: in the child, a lock another
 * thread held stays held by nobody, and that thread's calls in progress
 * never end.  The child starts with these as at load, as the runtime's
 * own state does (docs/design.md, "fork"). */
static void forget_in_child(void)
{
    pthread_mutex_init(&suspend_lock, NULL);
    parked = false;
    /* Relaxed (both): the child has one thread. */
    atomic_store_explicit(&awake, 1, memory_order_relaxed);
    atomic_store_explicit(&outside_calls, 0, memory_order_relaxed);
    weft__lace_interrupts_forget_in_child();
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static void register_atfork(void)
{
    if (pthread_atfork(NULL, NULL, forget_in_child) != 0)
        weft__warn("lace_start: cannot register the fork handler: a child process may not "
                   "start Lace again");
}

void weft__lace_suspend_reset(void)
{
    pthread_once(&atfork_once, register_atfork);
    weft__set_outside_rules(&lace_outside_rules);
    pthread_mutex_lock(&suspend_lock);
    parked = false;
    /* Relaxed: no call from outside runs across lace_start or lace_stop. */
    atomic_store_explicit(&awake, 1, memory_order_relaxed);
    pthread_mutex_unlock(&suspend_lock);
}

/* From a task: the suspension would wait for that task (Lace says not to
 * call these there). */
static bool from_task(const char *what)
{
    if (weft_self() == NULL)
        return false;
    weft__warn("%s called from inside a task: it is for threads outside Lace's tasks; ignored",
               what);
    return true;
}

/* Adds delta to the count, speaking as `lace` (also weft_suspend's and
 * weft_resume's messages); `what` is the call. */
static void count(const weft__api_words *lace, const char *what, int delta)
{
    const weft__api_words *was = weft__speak_as(lace);
    if (!from_task(what)) {
        weft__set_outside_rules(&lace_outside_rules);
        pthread_mutex_lock(&suspend_lock);
        add_to_count(delta);
        pthread_mutex_unlock(&suspend_lock);
    }
    (void)weft__speak_as(was);
}

void weft__lace_suspend(const weft__api_words *lace) { count(lace, "lace_suspend", -1); }

void weft__lace_resume(const weft__api_words *lace) { count(lace, "lace_resume", 1); }

/* A call from outside counts itself in (+1) or out (-1), then settles the
 * parking if the count is low. */
static void outside_count(int delta)
{
    /* seq_cst, both: the call counts itself before it reads the count
     * (settle reads them the other way round). */
    atomic_fetch_add_explicit(&outside_calls, delta, memory_order_seq_cst);
    if (atomic_load_explicit(&awake, memory_order_seq_cst) <= 0) {
        pthread_mutex_lock(&suspend_lock);
        settle();
        pthread_mutex_unlock(&suspend_lock);
    }
}

bool weft__lace_outside_begin(void)
{
    if (weft_self() != NULL)
        return false;
    outside_count(1);
    return true;
}

void weft__lace_outside_end(bool counted)
{
    if (counted)
        outside_count(-1);
}
