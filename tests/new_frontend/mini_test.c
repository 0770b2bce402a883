// SPDX-License-Identifier: Apache-2.0
/* The mini_fj front-end (mini_fj.h) at work, built against an installed
 * weft (tests/new_frontend/check.sh):
 *
 *   mini_test all [scale]      fib and random task trees (spawn, sync, drop,
 *                              call) against their sequential answers, and
 *                              mini_fj nested with weft's C macros in both
 *                              orders (spawns and joins nesting, RUN across),
 *                              at 1, 2, 3 and 8 workers; exit 0 if right
 *   mini_test refuse-join W    a mini SYNC while a weft SPAWN made after it
 *                              is pending: the core must stop the program
 *   mini_test refuse-spawn W   a mini SPAWN from a head a weft SPAWN has
 *                              since used: likewise
 *   mini_test refuse-name W    a mini SYNC of another task than the one
 *                              pending: stopped in a WEFT_CHECKS program
 *
 * The refusal modes print "not refused" and exit 0 if the program goes on:
 * check.sh wants a failure with the core's message. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <weft/weft.h>

#include "mini_fj.h"

/* weft's hidden context (weft_w, weft_head) in a mini body: a copy of the
 * mini context's head, right while nothing is spawned or joined through
 * the mini context (the spawns and joins nest); announced to the core as
 * a copy (weft_fj_copy_head). */
#define WEFT_CONTEXT_FROM_MINI(ctx) \
    weft_worker *weft_w = (ctx)->w; \
    weft_task *weft_head = weft_fj_copy_head((ctx)->w, (ctx)->head)

/* Which workers ran mini tasks: a run at more than one worker that never
 * shared its work would test the joins of tasks nobody stole only. */
static atomic_bool ran_on[64];

static void note_worker(mini_ctx *c)
{
    /* Relaxed: flags only go from false to true, set by whichever thread
     * runs as that worker; the RUNs' ends and weft_stop order the stores
     * before main reads them. */
    atomic_store_explicit(&ran_on[weft_worker_id(c->w) % 64], true, memory_order_relaxed);
}

static long seq_fib(int n) { return n < 2 ? n : seq_fib(n - 1) + seq_fib(n - 2); }

/* ---- fib, in each API ---- */

MINI_TASK(long, mfib, int, n)
{
    if (n < 2)
        return n;
    if (n == 8)
        note_worker(mini);
    MINI_SPAWN(mini, mfib, n - 1);
    long b = MINI_CALL(mini, mfib, n - 2);
    return MINI_SYNC(mini, mfib) + b;
}

WEFT_TASK_1(long, wfib, int, n)
{
    if (n < 2)
        return n;
    WEFT_SPAWN(wfib, n - 1);
    long b = WEFT_CALL(wfib, n - 2);
    return WEFT_SYNC(wfib) + b;
}

/* ---- a random tree: each node spawns 0 to 4 children and joins them
 * newest first, some with SYNC, some with DROP (then a child nobody stole
 * is called instead) ---- */

typedef struct node {
    uint64_t seed;
    int depth;
} node;

/* A 64-bit LCG step (Knuth's MMIX constants), then its bits mixed. */
static uint64_t scramble(uint64_t x)
{
    x = x * 6364136223846793005u + 1442695040888963407u;
    x ^= x >> 31;
    x *= 0xf3007480eaf72435u;
    return x ^ (x >> 32);
}

static unsigned children(node v) { return v.depth > 0 ? (unsigned)(scramble(v.seed) % 5) : 0; }
static node child(node v, unsigned i)
{
    return (node){scramble(v.seed + 977 * (i + 1)), v.depth - 1};
}
static bool dropped(node v, unsigned i)
{
    return ((scramble(v.seed ^ 0x9d414689u) >> (8 + 2 * i)) & 3) == 0;
}

static uint64_t seq_tree(node v)
{
    uint64_t sum = v.seed & 1023;
    for (unsigned i = 0; i < children(v); i++)
        sum += seq_tree(child(v, i));
    return sum;
}

MINI_TASK(uint64_t, mtree, node, v)
{
    unsigned k = children(v);
    for (unsigned i = 0; i < k; i++)
        MINI_SPAWN(mini, mtree, child(v, i));
    uint64_t sum = v.seed & 1023;
    for (unsigned i = k; i-- > 0;) {
        uint64_t r;
        if (!dropped(v, i))
            r = MINI_SYNC(mini, mtree);
        else if (!MINI_DROP(mini, mtree, &r))
            r = MINI_CALL(mini, mtree, child(v, i)); /* it did not run: run it here */
        sum += r;
    }
    return sum;
}

/* ---- the two front-ends nested, properly: each body enters the other
 * API's spawns and joins at the top, with a task of its own pending
 * beneath, and joins its own after the other's are joined ---- */

enum { CHAIN_N = 12 };

static long seq_chain(int d)
{
    if (d == 0)
        return seq_fib(CHAIN_N);
    return 2 * seq_chain(d - 1) + 2 * seq_fib(CHAIN_N - 1) + seq_fib(CHAIN_N);
}

WEFT_TASK_DECL_1(long, wchain, int);

MINI_TASK(long, mchain, int, d)
{
    if (d == 0)
        return MINI_CALL(mini, mfib, CHAIN_N);
    MINI_SPAWN(mini, mfib, CHAIN_N);
    long a, b, c;
    {
        WEFT_CONTEXT_FROM_MINI(mini);
        WEFT_SPAWN(wchain, d - 1);
        WEFT_SPAWN(wfib, CHAIN_N - 1);
        WEFT_SPAWN(wchain, d - 1);
        a = WEFT_SYNC(wchain);
        b = WEFT_SYNC(wfib);
        c = WEFT_SYNC(wchain);
    }
    MINI_SPAWN(mini, mfib, CHAIN_N - 1);
    long e = MINI_SYNC(mini, mfib);
    return a + b + c + e + MINI_SYNC(mini, mfib);
}

WEFT_TASK_IMPL_1(long, wchain, int, d)
{
    if (d == 0)
        return WEFT_CALL(wfib, CHAIN_N);
    WEFT_SPAWN(wfib, CHAIN_N);
    long a, b, c;
    {
        mini_ctx m = MINI_CTX(weft_w, weft_head);
        MINI_SPAWN(&m, mchain, d - 1);
        MINI_SPAWN(&m, mfib, CHAIN_N - 1);
        MINI_SPAWN(&m, mchain, d - 1);
        a = MINI_SYNC(&m, mchain);
        b = MINI_SYNC(&m, mfib);
        c = MINI_SYNC(&m, mchain);
    }
    WEFT_SPAWN(wfib, CHAIN_N - 1);
    long e = WEFT_SYNC(wfib);
    return a + b + c + e + WEFT_SYNC(wfib);
}

/* RUN across: a RUN on a worker runs at the deque's true top, above the
 * caller's pending tasks, whichever API spawned them. */
WEFT_TASK_1(long, weft_runs_mini, int, n)
{
    WEFT_SPAWN(wfib, n);
    long a = MINI_RUN(mfib, n);
    WEFT_SPAWN(wfib, n - 1);
    long b = MINI_RUN(mchain, 2);
    long c = WEFT_SYNC(wfib);
    return a + b + c + WEFT_SYNC(wfib);
}

MINI_TASK(long, mini_runs_weft, int, n)
{
    MINI_SPAWN(mini, mfib, n);
    long a = WEFT_RUN(wfib, n);
    MINI_SPAWN(mini, mfib, n - 1);
    long b = WEFT_RUN(wchain, 2);
    long c = MINI_SYNC(mini, mfib);
    return a + b + c + MINI_SYNC(mini, mfib);
}

/* ---- out of order: the core refuses ---- */

/* A mini join while a weft task spawned after it is pending.  The body's
 * first task (a leaf) goes below: the split deque shares a frame's first
 * task at once, and the join of a shared task takes the slow path
 * anyway; the one joined here is private, on the fast path unless the
 * copy was announced (weft_fj_copy_head). */
MINI_TASK(long, bad_join, int, n)
{
    MINI_SPAWN(mini, mfib, 0);
    MINI_SPAWN(mini, mfib, n);
    WEFT_CONTEXT_FROM_MINI(mini);
    WEFT_SPAWN(wfib, n);
    long a = MINI_SYNC(mini, mfib); /* refused: wfib, above it, is pending */
    a += WEFT_SYNC(wfib);
    return a + MINI_SYNC(mini, mfib);
}

/* A mini spawn from a head that a weft spawn has used since. */
MINI_TASK(long, bad_spawn, int, n)
{
    WEFT_CONTEXT_FROM_MINI(mini);
    WEFT_SPAWN(wfib, n);
    MINI_SPAWN(mini, mfib, n); /* refused: its slot holds wfib, pending */
    long a = MINI_SYNC(mini, mfib);
    return a + WEFT_SYNC(wfib);
}

/* A mini join of another task than the newest pending one: a program
 * compiled with WEFT_CHECKS stops. */
MINI_TASK(long, bad_name, int, n)
{
    MINI_SPAWN(mini, mfib, n);
    return MINI_SYNC(mini, mchain); /* refused with WEFT_CHECKS: mfib is pending */
}

static int failures;

static void expect(const char *what, unsigned workers, long long got, long long want)
{
    if (got != want) {
        fprintf(stderr, "mini_test: %s at %u workers: %lld, expected %lld\n", what, workers, got,
                want);
        failures++;
    }
}

/* The workers that have run a mini task so far. */
static unsigned workers_used(void)
{
    unsigned used = 0;
    for (unsigned i = 0; i < 64; i++)
        /* Relaxed: a flag each worker sets once; a late one is counted at
         * the next look, or after the stop (whose join orders them all). */
        used += atomic_load_explicit(&ran_on[i], memory_order_relaxed);
    return used;
}

static void start(unsigned workers)
{
    if (weft_start(workers, 0, 0) != 0) {
        fprintf(stderr, "mini_test: weft_start(%u) failed\n", workers);
        exit(2);
    }
}

static int run_all(int scale)
{
    static const unsigned worker_counts[] = {1, 2, 3, 8};
    const int fib_n = 27;
    const long fib_want = seq_fib(fib_n);
    enum { TREES = 6, TREE_DEPTH = 15, CHAIN_DEPTH = 6 };
    uint64_t tree_want[TREES];
    for (int i = 0; i < TREES; i++)
        tree_want[i] = seq_tree((node){scramble((uint64_t)i + 1), TREE_DEPTH});
    const long chain_want = seq_chain(CHAIN_DEPTH);
    const int across_n = 15;
    const long across_want = 2 * seq_fib(across_n) + seq_fib(across_n - 1) + seq_chain(2);

    for (size_t k = 0; k < sizeof worker_counts / sizeof worker_counts[0]; k++) {
        unsigned workers = worker_counts[k];
        for (unsigned i = 0; i < 64; i++)
            atomic_store_explicit(&ran_on[i], false, memory_order_relaxed); /* no pool running */
        start(workers);
        for (int rep = 0; rep < scale; rep++) {
            expect("fib", workers, MINI_RUN(mfib, fib_n), fib_want);
            for (int i = 0; i < TREES; i++)
                expect("tree", workers,
                       (long long)MINI_RUN(mtree, ((node){scramble((uint64_t)i + 1), TREE_DEPTH})),
                       (long long)tree_want[i]);
            expect("mini in weft", workers, WEFT_RUN(wchain, CHAIN_DEPTH), chain_want);
            expect("weft in mini", workers, MINI_RUN(mchain, CHAIN_DEPTH), chain_want);
            expect("RUN mini from weft", workers, WEFT_RUN(weft_runs_mini, across_n), across_want);
            expect("RUN weft from mini", workers, MINI_RUN(mini_runs_weft, across_n), across_want);
        }
        /* On a loaded host the other workers may not have run while the
         * few RUNs above did: more of them, for up to about 10 s, until a
         * second worker has run a mini task. */
        for (int extra = 0; workers > 1 && extra < 2000 && workers_used() < 2; extra++)
            expect("fib", workers, MINI_RUN(mfib, fib_n), fib_want);
        weft_stop();
        unsigned used = workers_used();
        if (workers > 1 && used < 2) {
            fprintf(stderr, "mini_test: at %u workers every mini task ran on one worker\n",
                    workers);
            failures++;
        }
        if (failures == 0)
            printf("ok: %u workers (mini tasks ran on %u): fib(%d), %d random trees, the APIs "
                   "nested both ways\n",
                   workers, used, fib_n, TREES);
    }
    return failures == 0 ? 0 : 1;
}

static int usage(void)
{
    fprintf(stderr,
            "usage: mini_test all [scale] | refuse-join W | refuse-spawn W | refuse-name W\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    int n = argc > 2 ? atoi(argv[2]) : 0;
    if (strcmp(mode, "all") == 0)
        return run_all(n > 0 ? n : 1);
    long (*bad)(int) = NULL;
    int arg = 18;
    if (strcmp(mode, "refuse-join") == 0)
        bad = bad_join_mini_run;
    else if (strcmp(mode, "refuse-spawn") == 0)
        bad = bad_spawn_mini_run;
    else if (strcmp(mode, "refuse-name") == 0) {
        bad = bad_name_mini_run;
        arg = 0; /* mchain(0) is short, in a program that lets it run */
    }
    if (!bad)
        return usage();
    start(n > 0 ? (unsigned)n : 1);
    long r = bad(arg);
    weft_stop();
    printf("not refused: %s returned %ld\n", mode, r);
    return 0;
}
