// SPDX-License-Identifier: Apache-2.0
/* Every item of the Lace 1.4 API (include/weft-lace/lace.h) used as a Lace
 * program uses it, each checked against what Lace does. */
#include <lace.h>

#include "check.h"
#include "timing.h"

#include <pthread.h>
#include <sched.h>
#include <time.h>

static int fib_seq(int n) { return n < 2 ? n : fib_seq(n - 1) + fib_seq(n - 2); }

/* ---- the generated functions, split declaration and definition ---- */
TASK_DECL_1(int, fib, int);
TASK_IMPL_1(int, fib, int, n)
{
    if (n < 2)
        return n;
    SPAWN(fib, n - 1);
    int b = CALL(fib, n - 2);
    return SYNC(fib) + b;
}

VOID_TASK_DECL_2(fill, int *, int);
VOID_TASK_IMPL_2(fill, int *, out, int, n) { *out = n; }

/* ---- every arity, value and void ---- */
TASK_0(int, a0) { return 1; }
TASK_1(int, a1, int, x1) { return x1; }
TASK_2(int, a2, int, x1, int, x2) { return x1 + x2; }
TASK_3(int, a3, int, x1, int, x2, int, x3) { return x1 + x2 + x3; }
TASK_4(int, a4, int, x1, int, x2, int, x3, int, x4) { return x1 + x2 + x3 + x4; }
TASK_5(int, a5, int, x1, int, x2, int, x3, int, x4, int, x5) { return x1 + x2 + x3 + x4 + x5; }
TASK_6(int, a6, int, x1, int, x2, int, x3, int, x4, int, x5, int, x6)
{
    return x1 + x2 + x3 + x4 + x5 + x6;
}
TASK_7(int, a7, int, x1, int, x2, int, x3, int, x4, int, x5, int, x6, int, x7)
{
    return x1 + x2 + x3 + x4 + x5 + x6 + x7;
}
TASK_8(int, a8, int, x1, int, x2, int, x3, int, x4, int, x5, int, x6, int, x7, int, x8)
{
    return x1 + x2 + x3 + x4 + x5 + x6 + x7 + x8;
}
TASK_9(int, a9, int, x1, int, x2, int, x3, int, x4, int, x5, int, x6, int, x7, int, x8, int, x9)
{
    return x1 + x2 + x3 + x4 + x5 + x6 + x7 + x8 + x9;
}
static _Atomic int void_sum; /* TOGETHER copies add to it at once */
VOID_TASK_0(v0) { void_sum += 1; }
VOID_TASK_1(v1, int, x1) { void_sum += x1; }
VOID_TASK_3(v3, int, x1, int, x2, int, x3) { void_sum += x1 + x2 + x3; }
VOID_TASK_6(v6, int, x1, int, x2, int, x3, int, x4, int, x5, int, x6)
{
    void_sum += x1 + x2 + x3 + x4 + x5 + x6;
}
VOID_TASK_9(v9, int, x1, int, x2, int, x3, int, x4, int, x5, int, x6, int, x7, int, x8, int, x9)
{
    void_sum += x1 + x2 + x3 + x4 + x5 + x6 + x7 + x8 + x9;
}
VOID_TASK_DECL_9(v9d, char, char, char, char, char, char, char, char, int *);
VOID_TASK_IMPL_9(v9d, char, x1, char, x2, char, x3, char, x4, char, x5, char, x6, char, x7, char,
                 x8, int *, out)
{
    *out = x1 + x2 + x3 + x4 + x5 + x6 + x7 + x8;
}
TASK_DECL_0(int, d0);
TASK_IMPL_0(int, d0) { return 42; }
VOID_TASK_DECL_0(vd0);
VOID_TASK_IMPL_0(vd0) { void_sum += 100; }

TASK_0(int, arities)
{
    int s = 0;
    /* spawned, then synced in reverse order: SYNC joins the last SPAWN */
    SPAWN(a0);
    SPAWN(a1, 1);
    SPAWN(a2, 1, 2);
    SPAWN(a3, 1, 2, 3);
    SPAWN(a4, 1, 2, 3, 4);
    SPAWN(a5, 1, 2, 3, 4, 5);
    SPAWN(a6, 1, 2, 3, 4, 5, 6);
    SPAWN(a7, 1, 2, 3, 4, 5, 6, 7);
    SPAWN(a8, 1, 2, 3, 4, 5, 6, 7, 8);
    SPAWN(a9, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    CHECK(SYNC(a9) == 45, "a9");
    CHECK(SYNC(a8) == 36, "a8");
    CHECK(SYNC(a7) == 28, "a7");
    CHECK(SYNC(a6) == 21, "a6");
    CHECK(SYNC(a5) == 15, "a5");
    CHECK(SYNC(a4) == 10, "a4");
    CHECK(SYNC(a3) == 6, "a3");
    CHECK(SYNC(a2) == 3, "a2");
    CHECK(SYNC(a1) == 1, "a1");
    CHECK(SYNC(a0) == 1, "a0");
    s += CALL(a9, 9, 8, 7, 6, 5, 4, 3, 2, 1) + CALL(d0);
    SPAWN(v0);
    SPAWN(v1, 2);
    SPAWN(v3, 1, 1, 1);
    SPAWN(v6, 1, 1, 1, 1, 1, 1);
    SPAWN(v9, 1, 1, 1, 1, 1, 1, 1, 1, 1);
    SYNC(v9);
    SYNC(v6);
    SYNC(v3);
    SYNC(v1);
    SYNC(v0);
    CALL(vd0);
    int out = 0;
    CALL(v9d, 1, 2, 3, 4, 5, 6, 7, 8, &out);
    CHECK(out == 36, "v9d: %d", out);
    return s;
}

/* ---- the generated functions called directly ---- */
TASK_1(int, direct, int, n)
{
    /* NAME_SPAWN returns the new head; the task is at the old one */
    Task *next = fib_SPAWN(__lace_worker, __lace_dq_head, n);
    int b = fib_CALL(__lace_worker, next, n - 1);
    int a = fib_SYNC(__lace_worker, next - 1);
    return a + b;
}

/* ---- a callback table of TASK(f) pointers, called with WRAP ---- */
TASK_2(long, cb_add, long, x, long, y) { return x + y; }
TASK_2(long, cb_mul, long, x, long, y) { return x * y; }
LACE_TYPEDEF_CB(long, binop_cb, long, long)
static binop_cb binops[2] = {TASK(cb_add), TASK(cb_mul)};
TASK_1(long, use_callbacks, int, which)
{
    binop_cb fn = binops[which];
    return WRAP(fn, 6, 7);
}

/* ---- DROP: speculative work that is not needed ---- */
static _Atomic int dropped_ran;
VOID_TASK_1(speculate, int, n)
{
    atomic_fetch_add(&dropped_ran, 1);
    (void)n;
}
TASK_1(int, drop_some, int, n)
{
    for (int i = 0; i < n; i++)
        SPAWN(speculate, i);
    for (int i = 0; i < n; i++)
        DROP();
    return n;
}

/* ---- a stack of Task * from SPAWN, inspected while others steal ---- */
#define STACKED 256
TASK_1(long, slow_square, long, x)
{
    volatile long spin = 0;
    for (int i = 0; i < 20000; i++)
        spin += i;
    (void)spin;
    return x * x;
}
static int count_completed(Task **stack, int n)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += TASK_IS_COMPLETED(stack[i]);
    return c;
}
static int count_stolen(Task **stack, int n)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += TASK_IS_STOLEN(stack[i]) != 0;
    return c;
}
TASK_0(int, inspect_spawned)
{
    Task *stack[STACKED];
    lace_task_fn fs[STACKED];
    int n = 0;
    /* Spawn until some task has been stolen and completed: idle workers
     * ask for work, the owner shares at its next SPAWN (Lace's split deque
     * does so too), so wait a little between spawns. */
    while (n < STACKED && (n < 2 || count_completed(stack, n) == 0)) {
        stack[n] = SPAWN(slow_square, n);
        fs[n] = stack[n]->f; /* as a garbage collector records a spawned task */
        CHECK(stack[n]->f == (lace_task_fn)slow_square_WRAP, "f of a spawned task names its task");
        n++;
        for (int k = 0; k < 200 && count_completed(stack, n) == 0; k++) {
            YIELD_NEWFRAME();
            sched_yield();
        }
    }
    /* A loaded host may give the thieves no CPU in those polls: go on
     * polling (at most 10 s) until one of the tasks is stolen. */
    double give_up = now_s() + 10.0;
    while (lace_workers() >= 2 && count_stolen(stack, n) == 0 && now_s() < give_up) {
        YIELD_NEWFRAME();
        sched_yield();
    }
    CHECK(stack[0]->f == stack[n - 1]->f, "f is the same for tasks of one definition");
    int stolen = 0;
    for (int i = 0; i < n; i++) {
        Task *t = stack[i];
        if (!TASK_IS_STOLEN(t))
            continue;
        stolen++;
        /* the garbage collector's check: the f it recorded, and done */
        CHECK(t->f == fs[i], "f unchanged while stolen");
        if (TASK_IS_COMPLETED(t))
            CHECK(*(long *)TASK_RESULT(t) == (long)i * i, "result of a completed stolen task");
    }
    CHECK(lace_workers() < 2 || stolen > 0, "with %u workers some of %d tasks were stolen",
          lace_workers(), n);
    long sum = 0;
    for (int i = n - 1; i >= 0; i--)
        sum += SYNC(slow_square);
    for (int i = 0; i < n; i++)
        CHECK(!TASK_IS_STOLEN(stack[i]), "after SYNC a slot is no longer stolen");
    CHECK(sum == (long)(n - 1) * n * (2 * n - 1) / 6, "sum %ld", sum);
    return stolen;
}

/* ---- TOGETHER: per-worker state; lace_barrier ---- */
static int per_worker[64];
static _Atomic int together_after_barrier;
VOID_TASK_1(init_worker, int, base)
{
    per_worker[LACE_WORKER_ID] = base + (int)LACE_WORKER_ID;
    lace_barrier();
    /* after the barrier every worker's entry is set */
    int ok = 1;
    for (unsigned i = 0; i < lace_workers(); i++)
        ok &= per_worker[i] == base + (int)i;
    atomic_fetch_add(&together_after_barrier, ok);
}

/* ---- the garbage-collection pattern: NEWFRAME from inside a task while
 * other tasks wait for a lock, polling lace_newframe.t and lace_yield ---- */
static _Atomic int gc_lock; /* held by the collector's task */
static _Atomic int marks;   /* mark tasks run */
static _Atomic int waiters_yielded;
VOID_TASK_1(mark, int, depth)
{
    atomic_fetch_add(&marks, 1);
    if (depth > 0) {
        SPAWN(mark, depth - 1);
        CALL(mark, depth - 1);
        SYNC(mark);
    }
}
VOID_TASK_0(mark_phase)
{
    CHECK(atomic_load_explicit(&lace_newframe.t, memory_order_relaxed) != NULL,
          "lace_newframe.t is set while the NEWFRAME runs");
    CALL(mark, 10);
}
VOID_TASK_0(waiter)
{
    /* Waits for the lock, as a client's operation waits for a table that
     * the collector holds: it must take part in the mark phase. */
    while (atomic_load(&gc_lock)) {
        if (atomic_load_explicit(&lace_newframe.t, memory_order_relaxed) != NULL) {
            lace_yield(__lace_worker, __lace_dq_head);
            atomic_fetch_add(&waiters_yielded, 1);
        }
        sched_yield();
    }
}
VOID_TASK_0(collector)
{
    NEWFRAME(mark_phase);
    atomic_store(&gc_lock, 0);
}
VOID_TASK_1(gc_scenario, int, waiters)
{
    atomic_store(&gc_lock, 1);
    for (int i = 0; i < waiters; i++)
        SPAWN(waiter);
    CALL(collector);
    for (int i = 0; i < waiters; i++)
        SYNC(waiter);
}

/* ---- LACE_TRNG, STEAL_RANDOM, LACE_WORKER_PU ---- */
TASK_0(int, trng_distinct)
{
    uint64_t a = LACE_TRNG, b = LACE_TRNG, c = LACE_TRNG;
    return a != b && b != c && a != c;
}
VOID_TASK_1(busy_leaf, int, n)
{
    volatile int s = 0;
    for (int i = 0; i < n; i++)
        s += i;
    (void)s; /* read once: clang calls a volatile only written unused */
}
TASK_0(int, try_steal)
{
    STEAL_RANDOM();
    lace_steal_random();
    int pu = LACE_WORKER_PU;
    return pu >= -1;
}

/* ---- LACE_VARS / LACE_ME in a helper on a worker ---- */
static int helper_with_context(int n)
{
    LACE_VARS;
    return CALL(fib, n);
}
static int helper_with_me(int n)
{
    LACE_ME;
    SPAWN(fib, n);
    return SYNC(fib);
}
TASK_1(int, via_helpers, int, n)
{
    CHECK(lace_is_worker(), "on a worker");
    CHECK(lace_get_worker() == __lace_worker, "lace_get_worker");
    CHECK(lace_get_head(__lace_worker) == __lace_dq_head, "lace_get_head");
    return helper_with_context(n) + helper_with_me(n);
}

/* ---- RUNEX from several threads against RUN ---- */
static _Atomic int exclusive_inside, shared_inside, overlap;
VOID_TASK_0(exclusive_section)
{
    atomic_fetch_add(&exclusive_inside, 1);
    if (atomic_load(&shared_inside) != 0 || atomic_load(&exclusive_inside) != 1)
        atomic_store(&overlap, 1);
    for (volatile int i = 0; i < 100000; i++)
        ;
    atomic_fetch_sub(&exclusive_inside, 1);
}
VOID_TASK_0(shared_section)
{
    atomic_fetch_add(&shared_inside, 1);
    if (atomic_load(&exclusive_inside) != 0)
        atomic_store(&overlap, 1);
    for (volatile int i = 0; i < 100000; i++)
        ;
    atomic_fetch_sub(&shared_inside, 1);
}
static void *run_thread(void *arg)
{
    for (int i = 0; i < 20; i++) {
        if ((i + (int)(intptr_t)arg) % 3 == 0)
            RUNEX(exclusive_section);
        else
            RUN(shared_section);
    }
    return NULL;
}

int main(void)
{
    lace_set_verbosity(1);
    lace_set_stacksize(8u << 20);
    CHECK(lace_get_stacksize() == 8u << 20, "lace_get_stacksize");
    CHECK(lace_get_pu_count() >= 1, "lace_get_pu_count");
    CHECK(!lace_is_worker() && lace_get_worker() == NULL, "main is not a worker");
    lace_start(3, 0);
    CHECK(lace_workers() == 3, "3 workers");

    CHECK(RUN(fib, 20) == fib_seq(20), "RUN fib");
    CHECK(RUN(arities) == 45 + 42, "arities");
    CHECK(void_sum == 1 + 2 + 3 + 6 + 9 + 100, "void tasks: %d", void_sum);
    int filled = 0;
    RUN(fill, &filled, 7);
    CHECK(filled == 7, "void RUN");
    CHECK(RUN(direct, 15) == fib_seq(14) + fib_seq(15), "NAME_SPAWN/CALL/SYNC directly");
    CHECK(fib_RUN(10) == 55 && fib_NEWFRAME(10) == 55, "NAME_RUN, NAME_NEWFRAME");
    CHECK(RUN(use_callbacks, 0) == 13 && RUN(use_callbacks, 1) == 42, "callbacks");
    CHECK(RUN(drop_some, 100) == 100 && atomic_load(&dropped_ran) <= 100, "DROP");
    int stolen = RUN(inspect_spawned);
    printf("inspect_spawned: %d stolen\n", stolen);

    TOGETHER(init_worker, 1000);
    CHECK(atomic_load(&together_after_barrier) == 3, "TOGETHER: every copy saw all workers");
    init_worker_TOGETHER(2000);
    CHECK(per_worker[2] == 2002, "NAME_TOGETHER");

    RUN(gc_scenario, 4);
    CHECK(atomic_load(&marks) == (1 << 11) - 1, "mark phase ran: %d", atomic_load(&marks));
    CHECK(atomic_load(&lace_newframe.t) == NULL, "lace_newframe.t cleared");
    printf("gc: %d waiters took part through lace_yield\n", atomic_load(&waiters_yielded));
    atomic_store(&marks, 0);
    NEWFRAME(mark, 4);
    CHECK(atomic_load(&marks) == 31, "NEWFRAME from outside");

    CHECK(RUN(trng_distinct), "LACE_TRNG");
    CHECK(RUN(try_steal), "STEAL_RANDOM");
    CHECK(RUN(via_helpers, 12) == 2 * fib_seq(12), "LACE_VARS, LACE_ME");

    /* the entry points with a descriptor made by hand */
    Task t;
    memset(&t, 0, sizeof t);
    t.f = &d0_WRAP;
    lace_run_task(&t);
    CHECK(*(int *)TASK_RESULT(&t) == 42, "lace_run_task");
    *(int *)TASK_RESULT(&t) = 0; /* each call must write the result anew */
    lace_run_task_exclusive(&t);
    CHECK(*(int *)TASK_RESULT(&t) == 42, "lace_run_task_exclusive");
    *(int *)TASK_RESULT(&t) = 0;
    lace_run_newframe(&t);
    CHECK(*(int *)TASK_RESULT(&t) == 42, "lace_run_newframe");
    t.f = &vd0_WRAP;
    void_sum = 0;
    lace_run_together(&t);
    CHECK(void_sum == 100 * (int)lace_workers(), "lace_run_together: %d with %u workers", void_sum,
          lace_workers());

    pthread_t th[3];
    for (intptr_t i = 0; i < 3; i++)
        CHECK(pthread_create(&th[i], NULL, run_thread, (void *)i) == 0, "thread");
    for (int i = 0; i < 3; i++)
        pthread_join(th[i], NULL);
    CHECK(atomic_load(&overlap) == 0, "RUNEX ran alone");

    lace_suspend();
    lace_resume();
    lace_count_reset();
    RUN(fib, 15);
    lace_count_report_file(stdout);
    lace_stop();
    CHECK(lace_workers() == 0, "stopped");
    printf("lace API: all checks passed\n");
    return 0;
}
