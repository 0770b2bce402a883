// SPDX-License-Identifier: Apache-2.0
/* stealcost: the cost of one steal + join, and of an inlined spawn +
 * sync, measured as Wool's Table III (see stealcost.h).
 *
 *   stealcost-weft [-w workers] <leaf-iterations> <repetitions>
 */
#include "stealcost.h"


#include <weft/weft.h>

/* ---- inlined spawn + sync ---- */

/* The work of the trivial task, kept out of line so that both loops below
 * make exactly one call to it per iteration. */
__attribute__((noinline)) static uint64_t stealcost_increment(uint64_t x)
{
    __asm__ __volatile__("" : "+r"(x));
    return x + 1;
}

WEFT_TASK_1(uint64_t, stealcost_tiny, uint64_t, x) { return stealcost_increment(x); }

typedef struct stealcost_inlined {
    double ns, ticks; /* median cost of a pair over a plain call */
} stealcost_inlined;

WEFT_VOID_TASK_2(stealcost_measure_inlined, long, repetitions, stealcost_inlined *, out)
{
    double *ns = stealcost_samples(repetitions), *ticks = stealcost_samples(repetitions);
    for (long r = 0; r < repetitions; r++) {
        uint64_t n0 = stealcost_now_ns(), c0 = stealcost_ticks();
        uint64_t spawned = 0;
        for (int i = 0; i < STEALCOST_INLINED_PAIRS; i++) {
            WEFT_SPAWN(stealcost_tiny, spawned);
            spawned = WEFT_SYNC(stealcost_tiny);
        }
        uint64_t n1 = stealcost_now_ns(), c1 = stealcost_ticks();
        uint64_t called = 0;
        for (int i = 0; i < STEALCOST_INLINED_PAIRS; i++)
            called = stealcost_increment(called);
        uint64_t n2 = stealcost_now_ns(), c2 = stealcost_ticks();
        BENCH_CHECK(spawned == STEALCOST_INLINED_PAIRS && called == STEALCOST_INLINED_PAIRS,
                    "inlined loops counted %" PRIu64 " and %" PRIu64 ", expected %d", spawned,
                    called, STEALCOST_INLINED_PAIRS);
        ns[r] = ((double)(n1 - n0) - (double)(n2 - n1)) / STEALCOST_INLINED_PAIRS;
        ticks[r] = ((double)(c1 - c0) - (double)(c2 - c1)) / STEALCOST_INLINED_PAIRS;
    }
    out->ns = stealcost_median(ns, repetitions);
    out->ticks = stealcost_median(ticks, repetitions);
    free(ns);
    free(ticks);
}

/* ---- steal + join ---- */

/* A tree of height `height` over leaves first .. first + 2^height - 1;
 * each leaf notes the worker that ran it in ran_on[leaf]. */
WEFT_TASK_4(uint64_t, stealcost_tree, int, height, uint64_t, first, uint64_t, leaf_iterations,
            unsigned *, ran_on)
{
    if (height == 0) {
        ran_on[first] = weft_worker_id(weft_w);
        return stealcost_leaf(leaf_iterations, first);
    }
    uint64_t half = UINT64_C(1) << (height - 1);
    WEFT_SPAWN(stealcost_tree, height - 1, first, leaf_iterations, ran_on);
    uint64_t right = WEFT_CALL(stealcost_tree, height - 1, first + half, leaf_iterations, ran_on);
    uint64_t left = WEFT_SYNC(stealcost_tree);
    return left + right;
}

typedef struct stealcost_steals {
    int height;
    long repetitions;
    uint64_t leaf_iterations;
    /* Per repetition: C alone, the tree, and whether the tree's leaves ran
     * on as many different workers as there are leaves. */
    double *alone_ns, *alone_ticks, *tree_ns, *tree_ticks;
    int *spread;
} stealcost_steals;

static int stealcost_distinct(const unsigned *ids, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            if (ids[i] == ids[j])
                return 0;
    return 1;
}

WEFT_VOID_TASK_1(stealcost_measure_steals, stealcost_steals *, s)
{
    const int leaves = 1 << s->height;
    unsigned ran_on[64];
    uint64_t tree_want = 0;
    for (int j = 0; j < leaves; j++)
        tree_want += stealcost_leaf_expected(s->leaf_iterations, (uint64_t)j);
    const uint64_t alone_want = stealcost_leaf_expected(s->leaf_iterations, 0);
    for (long r = 0; r < s->repetitions; r++) {
        uint64_t n0 = stealcost_now_ns(), c0 = stealcost_ticks();
        uint64_t alone = stealcost_leaf(s->leaf_iterations, 0);
        uint64_t n1 = stealcost_now_ns(), c1 = stealcost_ticks();
        uint64_t tree = WEFT_CALL(stealcost_tree, s->height, 0, s->leaf_iterations, ran_on);
        uint64_t n2 = stealcost_now_ns(), c2 = stealcost_ticks();
        BENCH_CHECK(alone == alone_want, "C returned %" PRIu64 ", expected %" PRIu64, alone,
                    alone_want);
        BENCH_CHECK(tree == tree_want, "the tree returned %" PRIu64 ", expected %" PRIu64, tree,
                    tree_want);
        s->alone_ns[r] = (double)(n1 - n0);
        s->alone_ticks[r] = (double)(c1 - c0);
        s->tree_ns[r] = (double)(n2 - n1);
        s->tree_ticks[r] = (double)(c2 - c1);
        s->spread[r] = stealcost_distinct(ran_on, leaves);
    }
}

/* Median of tree minus alone over the repetitions whose leaves were
 * spread over distinct workers. */
static double stealcost_spread_median(const stealcost_steals *s, const double *tree,
                                      const double *alone, long *count)
{
    double *d = stealcost_samples(s->repetitions);
    long n = 0;
    for (long r = 0; r < s->repetitions; r++)
        if (s->spread[r])
            d[n++] = tree[r] - alone[r];
    double m = n > 0 ? stealcost_median(d, n) : 0.0;
    free(d);
    *count = n;
    return m;
}

/* Starts weft with `workers` workers; returns how many it has. */
static unsigned stealcost_start(unsigned workers)
{
    weft_config cfg;
    if (weft_config_init(&cfg) != 0)
        exit(2);
    cfg.workers = workers;
    /* Thieves must be searching, not asleep, when a tree is spawned (Wool's
     * workers always spin): the measurement is of steal + join, not of a
     * wake-up.  One second covers any C timed alone here. */
    cfg.idle_spin_us = 1000000;
    return bench_weft_start_config(&cfg);
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    stealcost_args a = stealcost_parse(argc, argv, "[-w workers] <leaf-iterations> <repetitions>");

    /* Inlined spawn + sync: on one worker, so nothing is ever stolen. */
    stealcost_start(1);
    stealcost_inlined inlined;
    WEFT_RUN(stealcost_measure_inlined, a.repetitions, &inlined);
    weft_stop();

    unsigned pool = stealcost_start(workers);
    printf("workers: %u\n", pool);
    stealcost_steals s = {0, a.repetitions, a.leaf_iterations, NULL, NULL, NULL, NULL, NULL};
    while (s.height < 6 && (2u << s.height) <= pool)
        s.height++;
    s.alone_ns = stealcost_samples(a.repetitions);
    s.alone_ticks = stealcost_samples(a.repetitions);
    s.tree_ns = stealcost_samples(a.repetitions);
    s.tree_ticks = stealcost_samples(a.repetitions);
    s.spread = calloc((size_t)a.repetitions, sizeof(int));
    BENCH_CHECK(s.spread != NULL, "cannot allocate %ld flags", a.repetitions);

    double t0 = bench_now();
    WEFT_RUN(stealcost_measure_steals, &s);
    double seconds = bench_seconds_since(t0);

    long spread_ns_count, spread_ticks_count;
    double cost_ns = stealcost_spread_median(&s, s.tree_ns, s.alone_ns, &spread_ns_count);
    double cost_ticks =
        stealcost_spread_median(&s, s.tree_ticks, s.alone_ticks, &spread_ticks_count);
    stealcost_print("leaf", stealcost_median(s.alone_ns, a.repetitions),
                    stealcost_median(s.alone_ticks, a.repetitions), 0);
    printf("tree: height %d, %d leaves on %d different workers in %ld of %ld repetitions\n",
           s.height, 1 << s.height, 1 << s.height, spread_ns_count, a.repetitions);
    if (s.height == 0)
        printf("steal+join: n/a (needs at least 2 workers)\n");
    else if (spread_ns_count == 0)
        printf("steal+join: n/a (the leaves never ran on different workers)\n");
    else
        stealcost_print("steal+join", cost_ns, cost_ticks, 0);
    stealcost_print("inlined spawn+sync", inlined.ns, inlined.ticks, 2);
    bench_weft_finish(seconds);
    free(s.alone_ns);
    free(s.alone_ticks);
    free(s.tree_ns);
    free(s.tree_ticks);
    free(s.spread);
    return 0;
}
