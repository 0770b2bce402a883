// SPDX-License-Identifier: Apache-2.0
/* A work pool run inside a fork-join task whose process function RUNs
 * back into the fork-join pool (docs/pool.md, "A pool inside a fork-join
 * task").  The pool's own threads are no fork-join workers: their RUN is a
 * RUN from outside, which the fork-join worker waiting in weft_pool_run
 * serves while every other worker is busy or joined on it.
 *
 * At 1, 2, 3 and 8 fork-join workers, pools of 1 to 3 workers: a task with
 * a sibling pending below it runs a pool whose items RUN pfib (and push
 * children); nested two and three deep (a pool inside a task inside a
 * pool inside a task); and many tasks running pools at once (a
 * parallel loop of tasks, each with a pool of its own).  Every answer is
 * checked against the sequential one.  A watchdog fails a round that does
 * not return within a minute, naming it: the defect this test was written
 * for hung for good at 1 worker, without a message.  And what would wait
 * for the worker running the pool's task from the pool's own threads
 * (weft_stop, weft_suspend, TOGETHER) is refused at once, with a
 * message.  A RUN from a pool's thread while worker 0 sleeps in the
 * pool wakes it.  And tasks with pools RUN from two outside threads in a
 * loop, beside the main thread's, all return their answers, tasks of 16
 * pools each too, whose waits must not take the other threads' RUNs
 * inside one another without end. */
#include "check.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include <weft/pool.h>
#include <weft/weft.h>

#include "fib_task.h"

/* An item: fib's argument, how many more pool levels to nest below it,
 * and how many generations of children it pushes. */
typedef struct item {
    int32_t n;
    int32_t nest;
    int32_t gens;
    int32_t pool_workers;
} item;

typedef struct run_sum {
    _Atomic long sum; /* relaxed adds: read after weft_pool_run returned (its joins order them) */
    /* A bit per worker that began its first item: every worker runs one
     * of its own items before any goes on (for at most 50 ms), so that a
     * worker 0 fast enough to take every item does not leave the pool's
     * threads nothing that RUNs from outside. */
    _Atomic unsigned met;
    unsigned all;
} run_sum;

static void meet(weft_pool_ctx *ctx, run_sum *s)
{
    unsigned me = 1u << weft_pool_worker_id(ctx);
    /* Relaxed (both): a rendezvous that orders no data. */
    if (atomic_fetch_or_explicit(&s->met, me, memory_order_relaxed) & me)
        return;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (atomic_load_explicit(&s->met, memory_order_relaxed) != s->all) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) > 50000000L)
            return;
        sched_yield();
    }
}

WEFT_TASK_DECL_3(long, pool_task, int, int, int)

/* RUNs made by the pools' own threads (RUNs from outside): the test
 * checks that it tested them. */
static _Atomic long outside_runs;

static void process(weft_pool_ctx *ctx, void *p, void *arg)
{
    item it = *(item *)p;
    run_sum *s = arg;
    meet(ctx, s);
    /* From worker 0 (the fork-join worker's thread) a RUN in place; from
     * the pool's other threads a RUN from outside, counted (relaxed: read
     * at the end). */
    if (weft_pool_worker_id(ctx) != 0)
        atomic_fetch_add_explicit(&outside_runs, 1, memory_order_relaxed);
    long v = WEFT_RUN(pfib, it.n);
    if (it.nest > 0)
        v += WEFT_RUN(pool_task, it.n, it.nest - 1, it.pool_workers);
    /* Relaxed: a sum read after the run (weft_pool_run joins the threads). */
    atomic_fetch_add_explicit(&s->sum, v, memory_order_relaxed);
    if (it.gens > 0) {
        item c = {it.n - 1, it.nest, it.gens - 1, it.pool_workers};
        CHECK(weft_pool_push(ctx, &c) == 0, "push");
        CHECK(weft_pool_push(ctx, &c) == 0, "push");
    }
}

/* Items of one pool: two per pool worker (the seeding deals them
 * round-robin, so every worker starts with its own), fib(n) and fib(n + 1),
 * with one generation of children each. */
static long pool_of(int n, int nest, int pool_workers)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(item));
    cfg.workers = (unsigned)pool_workers;
    cfg.idle_spin_us = 20;
    item initial[6];
    for (int i = 0; i < 2 * pool_workers; i++)
        initial[i] = (item){n + i % 2, nest, 1, pool_workers};
    run_sum s = {.all = (1u << pool_workers) - 1};
    atomic_init(&s.sum, 0);
    atomic_init(&s.met, 0);
    int err = weft_pool_run(&cfg, initial, 2 * (size_t)pool_workers, process, &s, NULL);
    CHECK(err == 0, "weft_pool_run inside a task: %d", err);
    /* Relaxed: after the run. */
    return atomic_load_explicit(&s.sum, memory_order_relaxed);
}

/* A fork-join task with a sibling pending below it (stolen or not) while
 * its pool runs. */
WEFT_TASK_IMPL_3(long, pool_task, int, n, int, nest, int, pool_workers)
{
    WEFT_SPAWN(pfib, n + 2);
    long a = pool_of(n, nest, pool_workers);
    return WEFT_SYNC(pfib) + a;
}

/* Many tasks, each with a pool of its own, at once. */
WEFT_TASK_3(long, many_pools, int, k, int, n, int, pool_workers)
{
    if (k == 1)
        return WEFT_CALL(pool_task, n, 0, pool_workers);
    WEFT_SPAWN(many_pools, k / 2, n, pool_workers);
    long b = WEFT_CALL(many_pools, k - k / 2, n, pool_workers);
    return WEFT_SYNC(many_pools) + b;
}

/* The sequential answers. */
static long pool_ref(int n, int nest);
static long item_ref(int n, int nest, int gens)
{
    long v = fib_ref(n) + (nest > 0 ? fib_ref(n + 2) + pool_ref(n, nest - 1) : 0);
    if (gens > 0)
        v += 2 * item_ref(n - 1, nest, gens - 1);
    return v;
}
static int ref_pool_workers;
static long pool_ref(int n, int nest)
{
    return ref_pool_workers * (item_ref(n, nest, 1) + item_ref(n + 1, nest, 1));
}
static long task_ref(int n, int nest) { return fib_ref(n + 2) + pool_ref(n, nest); }

/* ---- what waits for every worker: refused on the pool's threads ----
 *
 * weft_stop, weft_suspend, TOGETHER and NEWFRAME wait for every worker,
 * the one running the pool's task too, which waits for the pool's
 * threads: from those threads they are refused at once, with a message
 * (stop and suspend return EDEADLK, TOGETHER stops the program). */

enum { REFUSE_STOP, REFUSE_SUSPEND, REFUSE_TOGETHER };
static int refusal;
static _Atomic int refusal_result = -1;
static _Atomic int refusal_done;

WEFT_VOID_TASK_0(together_copy) {}

static void refusal_process(weft_pool_ctx *ctx, void *p, void *arg)
{
    (void)p;
    (void)arg;
    if (weft_pool_worker_id(ctx) == 0) {
        /* Worker 0 (the fork-join worker) holds its own item until the
         * pool's thread has run its own (for at most 10 s): it cannot
         * take that one first.  Acquire: the thread's result. */
        for (int i = 0; i < 10000 && !atomic_load_explicit(&refusal_done, memory_order_acquire);
             i++)
            usleep(1000);
        return;
    }
    int r = 0;
    if (refusal == REFUSE_STOP)
        r = weft_stop();
    else if (refusal == REFUSE_SUSPEND)
        r = weft_suspend();
    else
        WEFT_TOGETHER(together_copy);
    /* Relaxed: read after the run (its joins order it). */
    atomic_store_explicit(&refusal_result, r, memory_order_relaxed);
    /* Release: the result, for worker 0's acquire. */
    atomic_store_explicit(&refusal_done, 1, memory_order_release);
}

WEFT_TASK_0(int, refusal_task)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(int));
    cfg.workers = 2;
    int initial[2] = {0, 1};
    CHECK(weft_pool_run(&cfg, initial, 2, refusal_process, NULL, NULL) == 0, "weft_pool_run");
    /* Relaxed: after the run. */
    return atomic_load_explicit(&refusal_result, memory_order_relaxed);
}

/* In a child: the call's result on the pool's thread (0 if it never ran,
 * which the message check then catches). */
static int refused_call(void)
{
    alarm(60);
    CHECK(weft_start(1, 0, 0) == 0, "weft_start");
    int r = WEFT_RUN(refusal_task);
    weft_stop();
    return r;
}

static void refused_together(void)
{
    refusal = REFUSE_TOGETHER;
    (void)refused_call();
}

static void check_refusals(void)
{
    static const char *const names[] = {"weft_stop", "weft_suspend"};
    for (int k = REFUSE_STOP; k <= REFUSE_SUSPEND; k++) {
        char buf[4096];
        refusal = k;
        int status = run_capturing_stderr(refused_call, buf, sizeof buf);
        CHECK(status == EDEADLK &&
                  strstr(buf, "on a thread of a work pool that runs inside a task"),
              "%s on a pool's thread inside a task: exit %d (want EDEADLK = %d), stderr:\n%s",
              names[k], status, EDEADLK, buf);
        printf("ok: %s refused -> %s", names[k], buf);
    }
    expect_death(refused_together,
                 "TOGETHER called on a thread of a work pool that runs inside a task",
                 "TOGETHER on a pool's thread inside a task");
}

/* ---- the watchdog ---- */

/* ---- a cancelled run while another thread's item is inside a RUN ----
 *
 * Item 1 (worker 1's first) RUNs pfib again and again; the canceller
 * (worker 0, or worker 2 of three) waits until item 1 began, then cancels.
 * The run ends while item 1 is inside a RUN that only the fork-join worker
 * running the pool can take (at 1 fork-join worker): that worker serves
 * RUNs while it joins the pool's threads, so the run returns ECANCELED. */
static _Atomic int cancel_item_began;
static _Atomic long cancel_bad_runs;
static int cancel_by;

static void cancel_process(weft_pool_ctx *ctx, void *p, void *arg)
{
    (void)arg;
    int id = *(int *)p;
    if (id == 1) {
        atomic_store(&cancel_item_began, 1);
        for (int i = 0; i < 20; i++)
            if (WEFT_RUN(pfib, 18) != fib_ref(18))
                atomic_fetch_add(&cancel_bad_runs, 1);
    } else if (id == cancel_by) {
        for (int i = 0; i < 5000 && !atomic_load(&cancel_item_began); i++)
            usleep(1000);
        usleep(2000);
        weft_pool_cancel(ctx);
    }
}

WEFT_TASK_1(int, cancelled_pool_task, int, pool_workers)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(int));
    cfg.workers = (unsigned)pool_workers;
    int initial[3] = {0, 1, 2};
    return weft_pool_run(&cfg, initial, (size_t)pool_workers, cancel_process, NULL, NULL);
}

/* ---- a RUN from a pool's thread while worker 0 sleeps in the pool ----
 *
 * Worker 0 (the fork-join worker) finishes its item at once, finds the
 * pool empty and sleeps in it, waiting for worker 1; worker 1 RUNs only
 * 50 ms later (2500 idle spins of 20 us).  At 1 fork-join worker no other
 * worker can take that RUN: it must wake worker 0 out of the pool's sleep,
 * or the round hangs.  Worker 0 waits for worker 1 to begin first, so that
 * it cannot take item 1 itself. */
static _Atomic int sleeper_item_began;
static _Atomic long sleeper_outside_runs;

static void sleeper_process(weft_pool_ctx *ctx, void *p, void *arg)
{
    (void)arg;
    if (*(int *)p == 0) {
        /* Relaxed: a rendezvous that orders no data (at most 10 s). */
        for (int i = 0;
             i < 10000 && !atomic_load_explicit(&sleeper_item_began, memory_order_relaxed); i++)
            usleep(1000);
        return;
    }
    /* Relaxed: as above. */
    atomic_store_explicit(&sleeper_item_began, 1, memory_order_relaxed);
    usleep(50000);
    long v = WEFT_RUN(pfib, 12);
    CHECK(v == fib_ref(12), "a RUN while worker 0 sleeps in the pool: %ld, not %ld", v,
          fib_ref(12));
    /* Relaxed: counted, read at the end. */
    if (weft_pool_worker_id(ctx) != 0)
        atomic_fetch_add_explicit(&sleeper_outside_runs, 1, memory_order_relaxed);
}

WEFT_TASK_0(int, sleeper_pool_task)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(int));
    cfg.workers = 2;
    cfg.idle_spin_us = 20;
    int initial[2] = {0, 1};
    /* Relaxed: the pool's threads start after this (thread creation orders it). */
    atomic_store_explicit(&sleeper_item_began, 0, memory_order_relaxed);
    return weft_pool_run(&cfg, initial, 2, sleeper_process, NULL, NULL);
}

static char what[160];
static size_t what_len;

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "test_pool_in_task: no answer within 60 s (a hang) in ";
    (void)!write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)!write(STDERR_FILENO, what, what_len);
    (void)!write(STDERR_FILENO, "\n", 1);
    _exit(1);
}

/* Names the round the watchdog would report, and gives it a minute. */
static void round_begins(const char *kind, unsigned workers, int pool_workers, int round)
{
    int len = snprintf(what, sizeof what, "%s, %u fork-join workers, pools of %d, round %d", kind,
                       workers, pool_workers, round);
    what_len = len < 0 ? 0 : (size_t)len < sizeof what ? (size_t)len : sizeof what - 1;
    alarm(60);
}

/* ---- outside threads that RUN in a loop ----
 *
 * Two threads RUN tasks that run pools, over and over, while the main
 * thread RUNs the same: the worker that waits in one task's pool serves
 * the others' RUNs, whose tasks wait in pools of their own and serve the
 * third's.  Every answer is checked, and the main thread's RUN returns
 * (docs/pool.md, "The waiting worker": each of these tasks waits in one
 * pool, so a wait serves a bounded number of RUNs). */
static _Atomic int loopers_stop;
static _Atomic long looper_runs, looper_bad_runs;

static void *looper(void *arg)
{
    (void)arg;
    /* Relaxed (all): a stop flag and counters read after the join. */
    while (!atomic_load_explicit(&loopers_stop, memory_order_relaxed)) {
        if (WEFT_RUN(pool_task, 6, 0, 2) != task_ref(6, 0))
            atomic_fetch_add_explicit(&looper_bad_runs, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&looper_runs, 1, memory_order_relaxed);
    }
    return NULL;
}

static void outside_runs_in_a_loop(unsigned workers, int rounds)
{
    pthread_t loopers[2];
    ref_pool_workers = 2;
    atomic_store(&loopers_stop, 0);
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&loopers[i], NULL, looper, NULL) == 0, "pthread_create");
    for (int r = 0; r < rounds; r++) {
        round_begins("a pool in a task beside two threads that RUN in a loop", workers, 2, r);
        long got = WEFT_RUN(pool_task, 8, 0, 2);
        CHECK(got == task_ref(8, 0),
              "a pool in a task beside RUNs in a loop, %u workers: %ld, not %ld", workers, got,
              task_ref(8, 0));
    }
    atomic_store(&loopers_stop, 1);
    for (int i = 0; i < 2; i++)
        CHECK(pthread_join(loopers[i], NULL) == 0, "pthread_join");
}

/* ---- outside threads that RUN tasks of many pools in a loop ----
 *
 * Each task here is a tree of 16 leaves, each leaf a pool whose two items
 * RUN pfib from the pool's threads.  A worker waiting in one of those
 * pools serves the RUNs of the pool's threads; were it to serve the
 * looping threads' RUNs as well, each would run whole inside the wait,
 * its 16 pools serving the other looper's, and the main thread's RUN
 * would wait on a nesting that multiplies with every level (at 1 worker
 * no round ended within a minute). */
static void tree_item(weft_pool_ctx *ctx, void *p, void *arg)
{
    (void)ctx;
    /* Relaxed: a sum read after the run (weft_pool_run joins the threads). */
    atomic_fetch_add_explicit((_Atomic long *)arg, WEFT_RUN(pfib, *(int *)p), memory_order_relaxed);
}

static long pool_leaf(int n)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(int));
    cfg.workers = 2;
    int initial[2] = {n, n + 1};
    _Atomic long sum = 0;
    CHECK(weft_pool_run(&cfg, initial, 2, tree_item, &sum, NULL) == 0, "weft_pool_run");
    /* Relaxed: after the run. */
    return atomic_load_explicit(&sum, memory_order_relaxed);
}

/* The RUNs of such tasks (from the main thread or a looper: threads
 * that work for no task) under way on this thread, and the most seen on
 * any: a wait takes another thread's RUN only where its thread is inside
 * no such RUN taken by a wait, so at most two are on one thread (one its
 * worker took, and one a wait inside it took). */
static __thread int tree_runs_here;
static _Atomic int tree_runs_nested_most;

WEFT_TASK_1(long, pools_in_tree, int, depth)
{
    if (depth == 4) { /* a RUN's root */
        int here = ++tree_runs_here;
        /* Relaxed: a maximum read after the loopers are joined. */
        int most = atomic_load_explicit(&tree_runs_nested_most, memory_order_relaxed);
        while (here > most &&
               !atomic_compare_exchange_weak_explicit(&tree_runs_nested_most, &most, here,
                                                      memory_order_relaxed, memory_order_relaxed)) {
        }
    }
    long r;
    if (depth == 0) {
        r = pool_leaf(8);
    } else {
        WEFT_SPAWN(pools_in_tree, depth - 1);
        long b = WEFT_CALL(pools_in_tree, depth - 1);
        r = WEFT_SYNC(pools_in_tree) + b;
    }
    if (depth == 4)
        tree_runs_here--;
    return r;
}

static long pools_in_tree_ref(int depth) { return (1L << depth) * (fib_ref(8) + fib_ref(9)); }

static void *tree_looper(void *arg)
{
    (void)arg;
    /* Relaxed (all): a stop flag and counters read after the join. */
    while (!atomic_load_explicit(&loopers_stop, memory_order_relaxed)) {
        if (WEFT_RUN(pools_in_tree, 4) != pools_in_tree_ref(4))
            atomic_fetch_add_explicit(&looper_bad_runs, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&looper_runs, 1, memory_order_relaxed);
    }
    return NULL;
}

static void outside_runs_of_many_pools(unsigned workers, int rounds)
{
    pthread_t loopers[2];
    atomic_store(&loopers_stop, 0);
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&loopers[i], NULL, tree_looper, NULL) == 0, "pthread_create");
    for (int r = 0; r < rounds; r++) {
        round_begins("a task of 16 pools beside two threads that RUN such tasks in a loop", workers,
                     2, r);
        long got = WEFT_RUN(pools_in_tree, 4);
        CHECK(got == pools_in_tree_ref(4),
              "a task of 16 pools beside RUNs in a loop, %u workers: %ld, not %ld", workers, got,
              pools_in_tree_ref(4));
    }
    atomic_store(&loopers_stop, 1);
    for (int i = 0; i < 2; i++)
        CHECK(pthread_join(loopers[i], NULL) == 0, "pthread_join");
}

/* test_pool_in_task [scale [workers]]: the rounds times scale (at most
 * 3), at the given fork-join worker count only (default 1, 2, 3 and 8). */
int main(int argc, char **argv)
{
    int scale = argc > 1 ? atoi(argv[1]) : 1;
    if (scale < 1)
        scale = 1;
    /* At most 3: release's 30 would take minutes, and 60 rounds of each
     * case are plenty (before the fix every round hung at 1 and 2
     * workers). */
    if (scale > 3)
        scale = 3;
#if WEFT_TEST_SANITIZED
    /* Under a sanitizer, scale 1: 20 rounds of each case, still every
     * worker count and pool size (at scale 2 it took 35-42 s a run under
     * ThreadSanitizer on 2 CPUs, the longest of the suite there). */
    scale = 1;
#endif
    unsigned only = argc > 2 ? (unsigned)atoi(argv[2]) : 0;
    check_refusals();
    signal(SIGALRM, on_alarm);
    static const unsigned workers[] = {1, 2, 3, 8};
    for (size_t wi = 0; wi < sizeof workers / sizeof workers[0]; wi++) {
        unsigned p = only ? only : workers[wi];
        CHECK(weft_start(p, 0, 0) == 0, "weft_start(%u)", p);
        for (int pw = 1; pw <= 3; pw++) {
            ref_pool_workers = pw;
            /* One level, many rounds: whether a RUN from outside finds
             * an idle worker, a busy one or none depends on the round. */
            for (int r = 0; r < 20 * scale; r++) {
                round_begins("a pool in a task", p, pw, r);
                int n = 10 + r % 5;
                long got = WEFT_RUN(pool_task, n, 0, pw);
                CHECK(got == task_ref(n, 0),
                      "a pool in a task, %u workers, pools of %d: %ld, not %ld", p, pw, got,
                      task_ref(n, 0));
            }
            /* Nested: a pool inside a task inside a pool inside a task. */
            for (int nest = 1; nest <= 2; nest++) {
                for (int r = 0; r < 2 * scale; r++) {
                    round_begins(nest == 1 ? "pools nested 2 deep" : "pools nested 3 deep", p, pw,
                                 r);
                    long got = WEFT_RUN(pool_task, 6, nest, pw);
                    CHECK(got == task_ref(6, nest),
                          "pools nested %d deep, %u workers, pools of %d: %ld, not %ld", nest + 1,
                          p, pw, got, task_ref(6, nest));
                }
            }
            /* Several tasks with a pool each, at once. */
            for (int r = 0; r < 3 * scale; r++) {
                round_begins("a pool in each of 6 tasks", p, pw, r);
                long got = WEFT_RUN(many_pools, 6, 10, pw);
                CHECK(got == 6 * task_ref(10, 0),
                      "a pool in each of 6 tasks, %u workers, pools of %d: %ld, not %ld", p, pw,
                      got, 6 * task_ref(10, 0));
            }
        }
        /* A RUN from a pool's thread while worker 0 sleeps in the pool. */
        for (int r = 0; r < 3; r++) {
            round_begins("a RUN while worker 0 sleeps in the pool", p, 2, r);
            int got = WEFT_RUN(sleeper_pool_task);
            CHECK(got == 0, "a pool whose worker 0 sleeps, %u workers: %d", p, got);
        }
        /* Beside outside threads that RUN tasks with pools in a loop. */
        outside_runs_in_a_loop(p, 5 * scale);
        outside_runs_of_many_pools(p, 3 * scale);
        /* A run cancelled while another thread's item is inside a RUN. */
        for (int pw = 2; pw <= 3; pw++) {
            round_begins("a pool cancelled while an item is inside a RUN", p, pw, 0);
            atomic_store(&cancel_item_began, 0);
            cancel_by = pw == 2 ? 0 : 2;
            int got = WEFT_RUN(cancelled_pool_task, pw);
            CHECK(got == ECANCELED,
                  "a cancelled pool of %d in a task, %u workers: %d, not ECANCELED", pw, p, got);
        }
        alarm(0);
        weft_stop();
        if (only)
            break;
    }
    /* Relaxed: the pools' threads are joined. */
    long outside = atomic_load_explicit(&outside_runs, memory_order_relaxed);
    CHECK(outside > 0, "no pool thread other than worker 0 ever ran an item: nothing was tested");
    /* Relaxed: as above. */
    CHECK(atomic_load_explicit(&sleeper_outside_runs, memory_order_relaxed) > 0,
          "worker 1 never RUN while worker 0 slept in the pool: nothing was tested");
    CHECK(atomic_load(&cancel_bad_runs) == 0, "%ld wrong RUNs in cancelled pools",
          atomic_load(&cancel_bad_runs));
    CHECK(atomic_load(&looper_runs) > 0, "the looping threads never RUN: nothing was tested");
    CHECK(atomic_load(&tree_runs_nested_most) <= 2,
          "%d RUNs of threads that work for no task nested on one thread: waits inside such a "
          "RUN that a wait took took more",
          atomic_load(&tree_runs_nested_most));
    CHECK(atomic_load(&looper_bad_runs) == 0, "%ld wrong RUNs from the looping threads",
          atomic_load(&looper_bad_runs));
    printf("test_pool_in_task: passed (%ld RUNs from the pools' own threads; at most %d RUNs "
           "of the loopers' kind on one thread)\n",
           outside, atomic_load(&tree_runs_nested_most));
    return 0;
}
