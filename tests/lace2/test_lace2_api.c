// SPDX-License-Identifier: Apache-2.0
/* Lace 2's API on weft, written as Lace 2 programs are: every function of
 * the API observed, answers checked against sequential code at 1, 2, 3 and
 * 8 workers.  Built once per header: LACE2_TEST_HEADER is 32, 64 or 128
 * (lace32.h, lace.h, lace128.h). */
#if LACE2_TEST_HEADER == 32
#include <lace32.h>
#elif LACE2_TEST_HEADER == 128
#include <lace128.h>
#else
#include <lace.h>
#endif

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* ---- fib, with its body apart from its declaration, as Lace 2 has it ---- */
TASK(int, fib, int, n)

int fib_CALL(lace_worker *lw, int n)
{
    if (n < 2)
        return n;
    fib_SPAWN(lw, n - 1);
    int b = fib_CALL(lw, n - 2);
    int a = fib_SYNC(lw);
    return a + b;
}

static int fib_seq(int n) { return n < 2 ? n : fib_seq(n - 1) + fib_seq(n - 2); }

/* ---- an irregular tree: each node's children depend on its seed ---- */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    return x ^ (x >> 29);
}

TASK_2(uint64_t, tree, uint64_t, seed, int, depth)

uint64_t tree_CALL(lace_worker *lw, uint64_t seed, int depth)
{
    uint64_t h = mix(seed);
    if (depth == 0)
        return h & 0xffff;
    int kids = (int)(h % 5); /* 0..4 children */
    for (int i = 0; i < kids; i++)
        tree_SPAWN(lw, seed * 31 + (uint64_t)i + 1, depth - 1);
    uint64_t sum = h & 0xff;
    for (int i = 0; i < kids; i++)
        sum += tree_SYNC(lw);
    return sum;
}

static uint64_t tree_seq(uint64_t seed, int depth)
{
    uint64_t h = mix(seed);
    if (depth == 0)
        return h & 0xffff;
    int kids = (int)(h % 5);
    uint64_t sum = h & 0xff;
    for (int i = 0; i < kids; i++)
        sum += tree_seq(seed * 31 + (uint64_t)i + 1, depth - 1);
    return sum;
}

/* ---- a long double result (16-byte aligned, as Lace accepts) ---- */
TASK(long double, ldfib, int, n)

long double ldfib_CALL(lace_worker *lw, int n)
{
    if (n < 2)
        return (long double)n * 0.75L;
    ldfib_SPAWN(lw, n - 1);
    long double b = ldfib_CALL(lw, n - 2);
    return ldfib_SYNC(lw) * 0.5L + b;
}

static long double ldfib_seq(int n)
{
    return n < 2 ? (long double)n * 0.75L : ldfib_seq(n - 1) * 0.5L + ldfib_seq(n - 2);
}

/* ---- NAME_CALL pointers as callbacks ---- */
typedef int (*int_task_cb)(lace_worker *, int);

TASK(int, twice, int, n)

int twice_CALL(lace_worker *lw, int n)
{
    (void)lw;
    return 2 * n;
}

TASK(int, apply_all, int, n)

int apply_all_CALL(lace_worker *lw, int n)
{
    int_task_cb cbs[2] = {fib_CALL, twice_CALL};
    return cbs[0](lw, n) + cbs[1](lw, n);
}

/* ---- worker queries from inside ---- */
static _Atomic int seen_ids[64];

TASK(void, whoami)

void whoami_CALL(lace_worker *lw)
{
    CHECK(lace_is_worker() == 1, "lace_is_worker inside a task");
    CHECK(lace_get_worker() == lw, "lace_get_worker is the task's worker");
    CHECK(lace_worker_id() == (int)lw->worker, "lace_worker_id %d, lw->worker %d", lace_worker_id(),
          (int)lw->worker);
    CHECK(lace_worker_id() >= 0 && lace_worker_id() < (int)lace_worker_count(), "id in range");
    CHECK(lw->dq <= lw->head && lw->head < lw->end, "head within the deque");
    CHECK(lace_get_head() == lw->head, "lace_get_head");
    lace_task *t = twice_SPAWN(lw, 21);
    CHECK(t + 1 == lw->head && lace_get_head() == lw->head, "SPAWN moves the head by one");
    lace_make_all_shared(); /* no effect on weft (docs/lace2.md); callable in a task */
    CHECK(twice_SYNC(lw) == 42 && lw->head == t, "SYNC moves it back");
}

/* ---- TOGETHER and lace_barrier ---- */
static _Atomic int together_arrived;
static _Atomic int together_ok;

TASK(void, meet)

void meet_CALL(lace_worker *lw)
{
    atomic_fetch_add(&together_arrived, 1);
    seen_ids[lw->worker] = 1;
    lace_barrier();
    if (atomic_load(&together_arrived) == (int)lace_worker_count())
        atomic_fetch_add(&together_ok, 1);
    lace_barrier();
}

/* ---- NEWFRAME, lace_check_yield ---- */
static _Atomic int frame_ran;

TASK(int, frame, int, n)

int frame_CALL(lace_worker *lw, int n)
{
    atomic_fetch_add(&frame_ran, 1);
    return fib_CALL(lw, n);
}

static _Atomic int spin_stop;
static _Atomic int spin_started;

TASK(int, spinner)

int spinner_CALL(lace_worker *lw)
{
    int yields = 0;
    atomic_store(&spin_started, 1);
    while (!atomic_load(&spin_stop))
        yields += lace_check_yield(lw);
    return yields;
}

static void *spin_thread(void *arg)
{
    *(int *)arg = spinner();
    return NULL;
}

/* ---- DROP, stolen and completed tasks, lace_task_result ---- */
static _Atomic int drop_runs;

TASK(int, counted, int, n)

int counted_CALL(lace_worker *lw, int n)
{
    (void)lw;
    atomic_fetch_add(&drop_runs, 1);
    return n;
}

TASK(int, drop_some, int, n)

int drop_some_CALL(lace_worker *lw, int n)
{
    for (int i = 0; i < n; i++)
        counted_SPAWN(lw, i);
    for (int i = 0; i < n; i++) {
        if (i % 2)
            counted_DROP(lw);
        else
            lace_drop(lw);
    }
    return 0;
}

TASK(int, slow, int, n)

int slow_CALL(lace_worker *lw, int n)
{
    (void)lw;
    lace_sleep_us(2000);
    return n * 3;
}

/* Spawns slow(n) and watches it: returns 1 if it saw it stolen and then
 * completed, with its result in place before SYNC. */
TASK(int, watch, int, n)

int watch_CALL(lace_worker *lw, int n)
{
    lace_task *t = slow_SPAWN(lw, n);
    lace_task *u = slow_SPAWN(lw, n + 1);
    CHECK(t->f == u->f, "two tasks of one TASK share f");
    lace_task *v = counted_SPAWN(lw, 0);
    CHECK(v->f != t->f, "tasks of different TASKs differ in f");
    counted_DROP(lw);
    int r1 = slow_SYNC(lw);
    CHECK(r1 == 3 * (n + 1), "slow(%d) = %d", n + 1, r1);
    int seen = 0;
    uint64_t t0 = lace_gethrtime();
    /* lace_check_yield: schedulers whose owners hand tasks to thieves
     * (private deques) do so when polled. */
    while (lace_worker_count() > 1 && !lace_is_stolen_task(t) &&
           lace_gethrtime() - t0 < 2000000000ULL)
        lace_check_yield(lw);
    if (lace_is_stolen_task(t)) {
        while (!lace_is_completed_task(t))
            lace_steal_random(lw);
        CHECK(*(int *)lace_task_result(t) == 3 * n, "lace_task_result %d",
              *(int *)lace_task_result(t));
        seen = 1;
    }
    int r = slow_SYNC(lw);
    CHECK(r == 3 * n, "slow(%d) = %d", n, r);
    return seen;
}

/* ---- lace_steal_random: a task that steals and runs another's work ---- */
static __thread int in_steal_random;
static _Atomic int ran_by_steal_random;
static _Atomic int holder_busy;

TASK(int, leaf, int, n)

int leaf_CALL(lace_worker *lw, int n)
{
    (void)lw;
    if (in_steal_random)
        atomic_fetch_add(&ran_by_steal_random, 1);
    lace_sleep_us(500);
    return n;
}

TASK(int, holder, int, n)

int holder_CALL(lace_worker *lw, int n)
{
    atomic_store(&holder_busy, 1);
    for (int i = 0; i < n; i++)
        leaf_SPAWN(lw, i);
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += leaf_SYNC(lw);
    atomic_store(&holder_busy, 0);
    return sum;
}

TASK(int, stealer, int, n)

int stealer_CALL(lace_worker *lw, int n)
{
    holder_SPAWN(lw, n);
    uint64_t t0 = lace_gethrtime();
    while (!atomic_load(&holder_busy) && lace_gethrtime() - t0 < 5000000000ULL)
        lace_check_yield(lw);
    while (atomic_load(&ran_by_steal_random) == 0 && atomic_load(&holder_busy) &&
           lace_gethrtime() - t0 < 5000000000ULL) {
        in_steal_random = 1;
        lace_steal_random(lw);
        in_steal_random = 0;
    }
    return holder_SYNC(lw);
}

#if LACE_TASKSIZE >= 64
/* 48 bytes of arguments: lace.h's limit. */
TASK(uint64_t, six, uint64_t, a, uint64_t, b, uint64_t, c, uint64_t, d, uint64_t, e, uint64_t, f)

uint64_t six_CALL(lace_worker *lw, uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e,
                  uint64_t f)
{
    (void)lw;
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f;
}
#endif
#if LACE_TASKSIZE >= 128
/* 14 parameters, 112 bytes: lace128.h's limit. */
TASK(uint64_t, many, uint64_t, a1, uint64_t, a2, uint64_t, a3, uint64_t, a4, uint64_t, a5, uint64_t,
     a6, uint64_t, a7, uint64_t, a8, uint64_t, a9, uint64_t, a10, uint64_t, a11, uint64_t, a12,
     uint64_t, a13, uint64_t, a14)

uint64_t many_CALL(lace_worker *lw, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
                   uint64_t a6, uint64_t a7, uint64_t a8, uint64_t a9, uint64_t a10, uint64_t a11,
                   uint64_t a12, uint64_t a13, uint64_t a14)
{
    (void)lw;
    return a1 + a2 * 2 + a3 * 3 + a4 * 4 + a5 * 5 + a6 * 6 + a7 * 7 + a8 * 8 + a9 * 9 + a10 * 10 +
           a11 * 11 + a12 * 12 + a13 * 13 + a14 * 14;
}

TASK(uint64_t, many_par, int, k)

uint64_t many_par_CALL(lace_worker *lw, int k)
{
    for (int i = 0; i < k; i++)
        many_SPAWN(lw, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, (uint64_t)i);
    uint64_t s = 0;
    for (int i = 0; i < k; i++)
        s += many_SYNC(lw);
    return s;
}
#endif

static void run_with(unsigned workers)
{
    CHECK(!lace_is_running(), "not running before lace_start");
    lace_start(workers, 0, 0);
    CHECK(lace_is_running(), "running after lace_start");
    CHECK(lace_worker_count() == workers, "lace_worker_count %u", lace_worker_count());
    CHECK(lace_is_worker() == 0 && lace_get_worker() == NULL && lace_worker_id() == -1,
          "outside the pool");

    CHECK(fib(25) == fib_seq(25), "fib(25) at %u workers", workers);
    for (int d = 3; d <= 9; d += 3)
        CHECK_EQ_U64(tree(7, d), tree_seq(7, d));
    CHECK(ldfib(20) == ldfib_seq(20), "ldfib(20) at %u workers", workers);
    CHECK(apply_all(15) == fib_seq(15) + 30, "callbacks");
    whoami();

    memset((void *)seen_ids, 0, sizeof seen_ids);
    together_arrived = 0;
    together_ok = 0;
    meet_TOGETHER();
    CHECK(together_ok == (int)workers, "TOGETHER: %d of %u copies saw everyone", together_ok,
          workers);
    for (unsigned i = 0; i < workers; i++)
        CHECK(seen_ids[i], "worker %u ran a TOGETHER copy", i);

    frame_ran = 0;
    CHECK(frame_NEWFRAME(18) == fib_seq(18) && frame_ran == 1, "NEWFRAME");

    /* A NEWFRAME while a long task polls lace_check_yield. */
    spin_stop = 0;
    spin_started = 0;
    int yields = -1;
    pthread_t th;
    CHECK(pthread_create(&th, NULL, spin_thread, &yields) == 0, "pthread_create");
    while (!atomic_load(&spin_started))
        lace_sleep_us(100);
    frame_ran = 0;
    CHECK(frame_NEWFRAME(15) == fib_seq(15) && frame_ran == 1, "NEWFRAME beside a spinner");
    atomic_store(&spin_stop, 1);
    pthread_join(th, NULL);
    CHECK(yields >= 1, "lace_check_yield reported the NEWFRAME (%d)", yields);

    drop_runs = 0;
    drop_some(50);
    if (workers == 1)
        CHECK(drop_runs == 0, "DROP at 1 worker ran %d dropped tasks", drop_runs);
    else
        CHECK(drop_runs <= 50, "DROP ran %d of 50", drop_runs);

    int seen = 0;
    for (int i = 0; i < 5 && !seen; i++)
        seen = watch(i);
    if (workers > 1)
        CHECK(seen, "no stolen-and-completed task observed at %u workers", workers);
    else
        CHECK(!seen, "a task stolen at 1 worker");

    if (workers > 1) {
        ran_by_steal_random = 0;
        CHECK(stealer(200) == 199 * 100, "stealer");
        CHECK(ran_by_steal_random > 0, "lace_steal_random ran nothing at %u workers", workers);
    }

#if LACE_TASKSIZE >= 64
    CHECK_EQ_U64(six(1, 2, 3, 4, 5, 6), 91);
#endif
#if LACE_TASKSIZE >= 128
    CHECK_EQ_U64(many_par(100),
                 100 * (1 + 4 + 9 + 16 + 25 + 36 + 49 + 64 + 81 + 100 + 121 + 144 + 169) +
                     14 * 99 * 50);
#endif

    lace_count_reset();
    FILE *f = tmpfile();
    CHECK(f != NULL, "tmpfile");
    lace_count_report_file(f);
    CHECK(ftell(f) > 0, "lace_count_report_file wrote nothing");
    fclose(f);

    lace_stop();
    CHECK(!lace_is_running() && lace_worker_count() == 0, "stopped");
}

/* Arguments: the worker counts to run with (default 1 2 3 8). */
int main(int argc, char **argv)
{
    CHECK(sizeof(lace_task) >= LACE_TASKSIZE, "lace_task holds LACE_TASKSIZE bytes");
    lace_set_verbosity(0);
    if (argc < 2) {
        unsigned counts[] = {1, 2, 3, 8};
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
            run_with(counts[i]);
    }
    for (int i = 1; i < argc; i++) {
        int w = atoi(argv[i]);
        CHECK(w >= 1 && w <= 64, "worker count %s: 1 to 64", argv[i]);
        run_with((unsigned)w);
    }
    printf("lace2 (LACE_TASKSIZE %d): all checks passed\n", (int)LACE_TASKSIZE);
    return 0;
}
