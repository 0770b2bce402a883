// SPDX-License-Identifier: Apache-2.0
/* Lace 1.4 programs as real clients write them (a decision-diagram package,
 * Lace's own benchmarks): lace14.h, Lace's helper macros and includes, a
 * long double result, the WorkerP fields, TASK(f) callbacks typed with
 * LACE_TYPEDEF_CB, thread-locals a TOGETHER sets up on each worker, and a
 * collector that runs as a NEWFRAME task calling TOGETHER while two threads
 * keep the pool busy. */
#include <lace14.h>

#include "check.h"
#include "lace_yield_wait.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

/* What Lace's header includes: getopt's optarg (unistd.h), assert, printf
 * and pthread_t with no include of their own here. */
static int parse_workers(int argc, char **argv)
{
    int w = 2, c;
    while ((c = getopt(argc, argv, "w:")) != -1)
        if (c == 'w')
            w = atoi(optarg);
    assert(w >= 1);
    return w;
}

/* Lace's macros, with Lace's values. */
WEFT_STATIC_ASSERT(LINE_SIZE == 64 && P_SZ == sizeof(void *), "LINE_SIZE, P_SZ");
WEFT_STATIC_ASSERT(PAD(10, 8) == 6 && ROUND(10, 8) == 16 && PAD(16, 8) == 0, "PAD, ROUND");
WEFT_STATIC_ASSERT(LACE_COMMON_FIELD_SIZE == 2 * sizeof(void *), "LACE_COMMON_FIELD_SIZE");
WEFT_STATIC_ASSERT(LACE_VERSION_MAJOR == 1 && LACE_VERSION_MINOR == 4 && LACE_VERSION_PATCH == 2,
                   "Lace 1.4.2");
WEFT_STATIC_ASSERT(CTR_MAX > CTR_slow_sync && CTR_fast_sync >= 0, "CTR_index");
struct client_line {
    char bytes[LINE_SIZE];
} __attribute__((aligned(LINE_SIZE)));

/* A long double result and argument (16-byte aligned on x86-64). */
TASK_2(long double, ld_sum, int, lo, int, hi)
{
    if (hi - lo == 1)
        return (long double)lo / 3.0L;
    int mid = (lo + hi) / 2;
    SPAWN(ld_sum, lo, mid);
    long double b = CALL(ld_sum, mid, hi);
    return SYNC(ld_sum) + b;
}
TASK_1(long double, ld_twice, long double, x) { return 2.0L * x; }

/* TASK_RESULT on the Task * of a SPAWN, as a collector reads the result of
 * a stolen, completed task: for a long double (16 bytes into the Task) as
 * for a long (8 bytes in). */
TASK_1(long double, ld_slow, int, i)
{
    volatile long spin = 0;
    for (int k = 0; k < 20000; k++)
        spin += k;
    (void)spin;
    return (long double)i / 7.0L;
}
TASK_1(long, long_of, int, i) { return 3L * i; }
static int ld_completed(Task **stack, int n)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += TASK_IS_COMPLETED(stack[i]);
    return c;
}
#define LD_STACKED 128
TASK_0(int, ld_task_result)
{
    Task *lt = SPAWN(long_of, 5);
    CHECK((char *)TASK_RESULT(lt) == (char *)lt + offsetof(long_of_frame, d),
          "TASK_RESULT of a long task is where its result is");
    CHECK(SYNC(long_of) == 15, "long_of");
    Task *stack[LD_STACKED];
    int n = 0;
    /* Spawn until one has been stolen and completed (idle workers ask, the
     * owner shares at its next SPAWN), waiting a little between spawns. */
    while (n < LD_STACKED && (n < 2 || ld_completed(stack, n) == 0)) {
        stack[n] = SPAWN(ld_slow, n);
        CHECK((char *)TASK_RESULT(stack[n]) == (char *)stack[n] + offsetof(ld_slow_frame, d) &&
                  offsetof(ld_slow_frame, d) == 16,
              "TASK_RESULT of a long double task is where its result is (16 bytes in)");
        n++;
        for (int k = 0; k < 200 && ld_completed(stack, n) == 0; k++) {
            YIELD_NEWFRAME();
            sched_yield();
        }
    }
    int seen = 0;
    for (int i = 0; i < n; i++) {
        if (TASK_IS_COMPLETED(stack[i])) {
            long double r = *(long double *)TASK_RESULT(stack[i]);
            CHECK(r == (long double)i / 7.0L, "TASK_RESULT of completed task %d: %Lf", i, r);
            seen++;
        }
    }
    for (int i = n - 1; i >= 0; i--) {
        long double r = SYNC(ld_slow);
        CHECK(r == (long double)i / 7.0L, "SYNC of ld_slow %d", i);
    }
    return seen;
}

/* Each worker's _public and pu, from a TOGETHER copy. */
#define MAX_W 64
static Worker *publics[MAX_W];
static int pus[MAX_W];
VOID_TASK_0(record_public)
{
    WorkerP *w = lace_get_worker();
    if (w->worker < MAX_W) {
        publics[w->worker] = w->_public;
        pus[w->worker] = w->pu;
    }
}

/* The WorkerP fields a client reads. */
TASK_0(int, fields)
{
    WorkerP *w = lace_get_worker();
    CHECK(w == __lace_worker, "lace_get_worker");
    CHECK((int)w->worker == LACE_WORKER_ID && w->worker < lace_workers(), "worker %u",
          (unsigned)w->worker);
    CHECK(w->dq <= __lace_dq_head && __lace_dq_head < w->end, "dq <= head < end");
#if defined(WEFT_SCHED_SPLIT_POINT_OFFSET)
    CHECK(w->dq <= w->split && w->split <= w->end, "split in the deque");
    CHECK(w->allstolen <= 1, "allstolen");
#endif
    uint64_t before = w->rng;
    uint64_t r = LACE_TRNG;
    CHECK(w->rng == r && r != before, "LACE_TRNG advances rng");
    (void)w->seed;
    CHECK(w->_public != NULL && (void *)w->_public != (void *)w, "_public: the thief-visible part");
    CHECK(w->pu == LACE_WORKER_PU && w->pu >= -1, "pu %d, LACE_WORKER_PU %d", w->pu,
          LACE_WORKER_PU);
    LACE_MAKE_ALL_SHARED();
    PR_COUNTTASK(w);
    CHECK(LACE_STOLEN == (Worker *)0 && LACE_BUSY == (Worker *)1 && LACE_NOWORK == (Worker *)2 &&
              THIEF_COMPLETED == (struct _Worker *)2,
          "LACE_STOLEN...");
    CHECK(likely(1) && !unlikely(0), "likely");
    return 1;
}

/* Per-worker state in thread-locals, set up on each worker's thread by a
 * TOGETHER and read by every task, as a client's reference stacks are: a
 * RUN from outside must run its task on a worker's thread, even when the
 * workers sleep idle, never on the calling thread. */
static _Thread_local long *tls_refs;
static long refs_of[MAX_W];
static pthread_t main_thread;
VOID_TASK_0(tls_init) { tls_refs = &refs_of[LACE_WORKER_ID % MAX_W]; }
TASK_1(long, tls_use, int, depth)
{
    CHECK(!pthread_equal(pthread_self(), main_thread),
          "a Lace task ran on the RUN caller's thread");
    CHECK(tls_refs != NULL, "a Lace task ran on a thread the TOGETHER did not set up");
    (*tls_refs)++;
    if (depth == 0)
        return 1;
    SPAWN(tls_use, depth - 1);
    long a = CALL(tls_use, depth - 1);
    return a + SYNC(tls_use);
}

/* Callbacks: TASK(f) pointers called with WRAP, as a client's apply does. */
LACE_TYPEDEF_CB(long, binop_cb, long, long)
TASK_2(long, op_plus, long, a, long, b) { return a + b; }
TASK_2(long, op_times, long, a, long, b) { return a * b; }
TASK_3(long, fold, binop_cb, op, int, lo, int, hi)
{
    if (hi - lo == 1)
        return lo;
    int mid = (lo + hi) / 2;
    SPAWN(fold, op, lo, mid);
    long b = CALL(fold, op, mid, hi);
    long a = SYNC(fold);
    return WRAP(op, a, b);
}

/* A collector: the table is a set of per-worker slots.  The load writes
 * "live" entries; the collector (a NEWFRAME task) clears all marks with a
 * TOGETHER, marks with a parallel walk, then counts with a second TOGETHER,
 * and nothing of the load runs meanwhile. */
#define TABLE 4096
static _Atomic int table[TABLE];
static _Atomic int collecting;      /* > 0 while the collector runs */
static _Atomic long old_code_seen;  /* load leaves that ran during a collection */
static _Atomic int together_copies; /* TOGETHER copies seen by the collector */
static _Atomic int stop_load;
static _Atomic int gc_requested;
static _Atomic long collections_requested, collections_done;

VOID_TASK_0(gc_clear)
{
    atomic_fetch_add(&together_copies, 1);
    unsigned n = lace_workers(), id = (unsigned)LACE_WORKER_ID;
    for (unsigned i = id; i < TABLE; i += n)
        atomic_store(&table[i], 0);
    lace_barrier();
}
VOID_TASK_2(gc_mark, int, lo, int, hi)
{
    if (hi - lo <= 64) {
        for (int i = lo; i < hi; i++)
            atomic_store(&table[i], 1);
        return;
    }
    int mid = (lo + hi) / 2;
    SPAWN(gc_mark, lo, mid);
    CALL(gc_mark, mid, hi);
    SYNC(gc_mark);
}
static _Atomic int marked;
VOID_TASK_0(gc_count)
{
    atomic_fetch_add(&together_copies, 1);
    unsigned n = lace_workers(), id = (unsigned)LACE_WORKER_ID;
    int here = 0;
    for (unsigned i = id; i < TABLE; i += n)
        here += atomic_load(&table[i]);
    atomic_fetch_add(&marked, here);
}
TASK_0(int, gc_go)
{
    atomic_fetch_add(&collecting, 1);
    TOGETHER(gc_clear);
    CALL(gc_mark, 0, TABLE);
    atomic_store(&marked, 0);
    TOGETHER(gc_count);
    int m = atomic_load(&marked);
    atomic_fetch_sub(&collecting, 1);
    atomic_fetch_add(&collections_done, 1);
    return m;
}
/* A client's "table full" path: one task starts the collection; the others
 * wait until lace_newframe shows it and call lace_yield, which must return
 * only once the collection has run (the client then retries the table and
 * gives up if it is still full).  One collection at a time (gc_requested),
 * numbered when requested, before its NEWFRAME. */
static _Atomic int gc_results_bad;
static _Atomic long yields_before_collection; /* lace_yield returned too early */
static _Atomic long yields_waited;
VOID_TASK_0(gc_maybe)
{
    int zero = 0;
    if (atomic_compare_exchange_strong(&gc_requested, &zero, 1)) {
        atomic_fetch_add(&collections_requested, 1);
        if (NEWFRAME(gc_go) != TABLE)
            atomic_fetch_add(&gc_results_bad, 1);
        atomic_store(&gc_requested, 0);
        return;
    }
    long requested = atomic_load(&collections_requested); /* the one we wait for, or the last */
    while (atomic_load_explicit(&lace_newframe.t, memory_order_relaxed) == NULL)
        if (atomic_load(&gc_requested) == 0)
            return; /* the collection is over already */
    lace_yield(__lace_worker, __lace_dq_head);
    atomic_fetch_add(&yields_waited, 1);
    if (atomic_load(&collections_done) < requested)
        atomic_fetch_add(&yields_before_collection, 1);
}
/* The same wait where the collection is surely not published yet when the
 * waiter sees lace_newframe.t (lace_yield_wait.h). */
TASK_0(int, hold)
{
    yw_hold();
    return 1;
}
TASK_0(long, wait_for_collection)
{
    yw_wait_until_shown();
    lace_yield(__lace_worker, __lace_dq_head);
    return atomic_load(&collections_done);
}
static int run_hold(void) { return RUN(hold); }
static long run_wait(void) { return RUN(wait_for_collection); }
static int run_collection(void)
{
    atomic_store(&gc_requested, 1);
    atomic_fetch_add(&collections_requested, 1);
    int ok = NEWFRAME(gc_go) == TABLE;
    atomic_store(&gc_requested, 0);
    return ok;
}
static void test_yield_waits_for_unpublished(void)
{
    static const yw_tasks tasks = {run_hold, run_wait, run_collection};
    yw_check_yield_waits(&tasks, atomic_load(&collections_done), "lace_yield");
}

TASK_2(long, load, int, depth, int, salt)
{
    if (depth == 0) {
        if (atomic_load(&collecting) > 0)
            atomic_fetch_add(&old_code_seen, 1);
        if (salt % 97 == 0)
            CALL(gc_maybe);
        return 1;
    }
    SPAWN(load, depth - 1, salt * 3 + 1);
    long a = CALL(load, depth - 1, salt * 3 + 2);
    return a + SYNC(load);
}
static void *load_thread(void *arg)
{
    int salt = (int)(intptr_t)arg;
    do {
        long r = RUN(load, 9, salt++);
        CHECK(r == 512, "load: %ld", r);
    } while (!atomic_load(&stop_load));
    return NULL;
}

int main(int argc, char **argv)
{
    int workers = parse_workers(argc, argv);
    lace_start((unsigned)workers, 0);

    long double ld = RUN(ld_sum, 0, 1000);
    long double want = 0;
    for (int i = 0; i < 1000; i++)
        want += (long double)i / 3.0L;
    CHECK(ld > want - 1e-12L && ld < want + 1e-12L, "long double result: %Lf vs %Lf", ld, want);
    CHECK(RUN(ld_twice, 1.25L) == 2.5L, "long double argument");

    CHECK(RUN(fields) == 1, "fields");
    TOGETHER(record_public);
    for (int i = 0; i < workers && i < MAX_W; i++) {
        CHECK(publics[i] != NULL && pus[i] >= -1, "worker %d's _public and pu", i);
        for (int j = 0; j < i; j++)
            CHECK(publics[i] != publics[j], "workers %d and %d share a _public", i, j);
    }
    main_thread = pthread_self();
    TOGETHER(tls_init);
    for (int r = 0; r < 40; r++) {
        usleep(5000); /* long enough for the workers to sleep idle */
        CHECK(RUN(tls_use, 6) == 64, "tls_use");
    }
    int ld_seen = RUN(ld_task_result);
    printf("TASK_RESULT: %d completed long double tasks read\n", ld_seen);
    CHECK(RUN(fold, TASK(op_plus), 0, 100) == 4950, "TASK(op_plus) as a callback");
    CHECK(RUN(fold, TASK(op_times), 1, 11) == 3628800L, "TASK(op_times) as a callback");

    if (workers == 2)
        test_yield_waits_for_unpublished();

    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&th[i], NULL, load_thread, (void *)(intptr_t)(i * 100000)) == 0,
              "thread");
    int collections = 0;
    for (int r = 0; r < 20; r++) {
        int zero = 0;
        while (!atomic_compare_exchange_strong(&gc_requested, &zero, 1)) {
            zero = 0;
            sched_yield(); /* a task's collection is in progress */
        }
        atomic_store(&together_copies, 0);
        atomic_fetch_add(&collections_requested, 1);
        CHECK(NEWFRAME(gc_go) == TABLE, "collection from outside");
        atomic_store(&gc_requested, 0);
        CHECK(atomic_load(&together_copies) >= 2 * workers, "TOGETHER copies: %d",
              atomic_load(&together_copies));
        collections++;
    }
    atomic_store(&stop_load, 1);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    CHECK(collections > 0, "no collection from outside ran");
    CHECK(atomic_load(&gc_results_bad) == 0, "collections from tasks marked wrong");
    CHECK(atomic_load(&yields_before_collection) == 0,
          "%ld of %ld lace_yields after lace_newframe showed a collection returned before it",
          atomic_load(&yields_before_collection), atomic_load(&yields_waited));
    CHECK(atomic_load(&old_code_seen) == 0, "%ld load leaves ran during a collection",
          atomic_load(&old_code_seen));
    lace_stop();
    printf("lace 1.4 clients: all checks passed (%d workers, %d collections from outside, "
           "%ld in all, %ld waited for through lace_newframe)\n",
           workers, collections, atomic_load(&collections_done), atomic_load(&yields_waited));
    return 0;
}
