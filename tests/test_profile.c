/* The work/span profiler (weft/profile.h) on graphs whose figures are
 * known by construction:
 *
 *   fib(n)     counts are exact: 2 fib(n+1) - 1 tasks, fib(n+1) - 1
 *              SPAWNs, tasks + 2 spawns strands, whatever the workers
 *   a chain    every strand on one path: span = work
 *   a tree     2^d equal leaves of L: work ~ 2^d L, span ~ L, burdened
 *              span ~ span + d x burden (the d SPAWN edges down the tree)
 *
 * at 1, 2 and 8 workers (the figures must not depend on it), the regions
 * of the program's own, NEWFRAME and RUN inside a task, the API's errors,
 * the table and the JSON.  Times are wall-clock strand times: a strand
 * that loses its CPU counts the time it waits, so on a busy machine a run
 * can come out with more work and a longer span.  The leaves therefore
 * time themselves, and the profiler's figures are checked against theirs
 * (work: their sum; span: the longest path; burdened: that plus the SPAWN
 * edges' burden), which holds whatever the noise; counts are exact. */
#include "check.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <time.h>
#include <weft/profile.h>
#include <weft/weft.h>

#include "fib_task.h"

#if WEFT_PROFILE
static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Spins for `ns` nanoseconds of wall time; returns how long it took
 * (longer if the thread lost its CPU at the end). */
static uint64_t spin_ns(uint64_t ns)
{
    uint64_t start = now_ns(), end = start + ns, t;
    while ((t = now_ns()) < end) {
    }
    return t - start;
}

WEFT_TASK_2(long, tree, int, depth, long, leaf_ns)
{
    if (depth == 0) {
        spin_ns((uint64_t)leaf_ns);
        return 1;
    }
    WEFT_SPAWN(tree, depth - 1, leaf_ns);
    long right = WEFT_CALL(tree, depth - 1, leaf_ns);
    return WEFT_SYNC(tree) + right;
}

/* ---- the graphs timed below: each leaf notes how long it really took
 * (a leaf that loses its CPU takes longer, and the profiler, timing the
 * wall clock, must see exactly that) and how many SPAWN edges lead to it */

#define MAX_LEAVES 64
static long timed_leaf_ns;
static uint64_t leaf_took[MAX_LEAVES];
static int leaf_edges[MAX_LEAVES];

/* Leaves index .. index + 2^depth - 1; `edges`: SPAWN edges from the root. */
WEFT_TASK_3(long, timed_tree, int, depth, int, index, int, edges)
{
    if (depth == 0) {
        leaf_took[index] = spin_ns((uint64_t)timed_leaf_ns);
        leaf_edges[index] = edges;
        return 1;
    }
    WEFT_SPAWN(timed_tree, depth - 1, index, edges + 1);
    long right = WEFT_CALL(timed_tree, depth - 1, index + (1 << (depth - 1)), edges);
    return WEFT_SYNC(timed_tree) + right;
}

/* Link `index` works, then spawns the next link and joins it at once. */
WEFT_TASK_2(long, timed_chain, int, index, int, links)
{
    leaf_took[index] = spin_ns((uint64_t)timed_leaf_ns);
    leaf_edges[index] = index;
    if (index + 1 == links)
        return 1;
    WEFT_SPAWN(timed_chain, index + 1, links);
    return WEFT_SYNC(timed_chain) + 1;
}

static weft_profile_region region_named(const char *name)
{
    weft_profile_region r[64];
    size_t n = weft_profile_regions(r, 64);
    CHECK(n <= 64, "%zu regions", n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(r[i].name, name) == 0)
            return r[i];
    CHECK(false, "no region named %s (%zu regions)", name, n);
    return r[0];
}

static uint64_t type_count(const char *name)
{
    weft_profile_task_type t[64];
    size_t n = weft_profile_task_types(t, 64);
    for (size_t i = 0; i < n && i < 64; i++)
        if (strcmp(t[i].name, name) == 0)
            return t[i].count;
    return 0;
}

static const unsigned workers_checked[] = {1, 2, 8};
#define N_WORKERS_CHECKED (sizeof workers_checked / sizeof workers_checked[0])

/* ---- counts: exact ---- */

static void check_counts(void)
{
    const int n = 18;
    const uint64_t f = (uint64_t)fib_ref(n + 1);
    for (size_t i = 0; i < N_WORKERS_CHECKED; i++) {
        CHECK(weft_start(workers_checked[i], 0, 0) == 0, "start");
        weft_profile_reset();
        for (int rep = 0; rep < 3; rep++)
            CHECK(WEFT_RUN(pfib, n) == fib_ref(n), "pfib");
        weft_profile_region r = region_named("pfib");
        CHECK_EQ_U64(r.runs, 3);
        CHECK_EQ_U64(r.tasks, 3 * (2 * f - 1));
        CHECK_EQ_U64(r.spawns, 3 * (f - 1));
        CHECK_EQ_U64(r.strands, r.tasks + 2 * r.spawns);
        CHECK_EQ_U64(type_count("pfib"), 3 * (2 * f - 1));
        CHECK(r.work_ns > 0 && r.span_ns > 0 && r.span_ns <= r.work_ns * 1.0000001,
              "work %.0f span %.0f", r.work_ns, r.span_ns);
        CHECK(r.burdened_span_ns >= r.span_ns, "burdened span %.0f < span %.0f",
              r.burdened_span_ns, r.span_ns);
        CHECK(weft_stop() == 0, "stop");
    }
    printf("ok: pfib(%d) counts exact at 1, 2 and 8 workers: %llu tasks, %llu spawns per run\n", n,
           (unsigned long long)(2 * f - 1), (unsigned long long)(f - 1));
}

/* ---- timing: best of several runs ---- */

/* Idle workers sleep at once: spinning ones would take the CPUs from the
 * leaves on a machine with fewer cores than workers. */
static void start_quiet(unsigned workers)
{
    weft_config cfg;
    CHECK(weft_config_init(&cfg) == 0, "config");
    cfg.workers = workers;
    cfg.idle_spin_us = 0;
    CHECK(weft_start_config(&cfg) == 0, "start");
}

#define ATTEMPTS 200

/* What a task's own strands (SPAWN, SYNC, the profiler) may add per task
 * on a path or to the work: far more in sanitized or unoptimised builds. */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__) || !defined(__OPTIMIZE__)
#define NODE_SLACK_NS 4000.0
#else
#define NODE_SLACK_NS 500.0
#endif

typedef struct measured {
    double work, span, bspan, longest; /* the profiler's */
    double leaves, path, burdened;    /* the leaves' own: their sum, the longest path */
    double leaf;                      /* the longest leaf */
    double lost;                      /* time the leaves took beyond timed_leaf_ns */
    int attempts;
} measured;

/* Runs the tree (or chain) until the profiler's figures match what its
 * leaves measured themselves: the work is the leaves' time and a little
 * more (the strands between them), the span the longest leaf's path, the
 * burdened span the longest leaf's path plus its SPAWN edges' burden.
 * Noise between leaves (a preemption in a strand of a few instructions)
 * would add to the profiler's figures only: a few runs are allowed; a
 * profiler that gets them wrong fails every time. */
static measured matching_run(bool is_tree, int size, unsigned workers, double burden)
{
    int leaves = is_tree ? 1 << size : size;
    int tasks = is_tree ? 2 * leaves - 1 : size, depth = is_tree ? size : size;
    double slack_work = 0.02 * leaves * timed_leaf_ns + tasks * NODE_SLACK_NS + 20000;
    double slack_path = 0.1 * timed_leaf_ns + depth * NODE_SLACK_NS + 20000;
    measured m = {0};
    for (int a = -1; a <= ATTEMPTS; a++) { /* two runs to warm the caches and pages */
        weft_profile_reset();
        if (is_tree)
            CHECK(WEFT_RUN(timed_tree, size, 0, 0) == leaves, "tree");
        else
            CHECK(WEFT_RUN(timed_chain, 0, size) == size, "chain");
        weft_profile_region r = region_named(is_tree ? "timed_tree" : "timed_chain");
        m = (measured){r.work_ns, r.span_ns, r.burdened_span_ns, r.longest_strand_ns, 0, 0, 0,
                       0, 0, a};
        for (int i = 0; i < leaves; i++) {
            double took = (double)leaf_took[i];
            m.leaves += took;
            m.lost += took - (double)timed_leaf_ns;
            /* Tree: one leaf per path; chain: every link on the path. */
            double path = is_tree ? took : m.leaves;
            m.path = fmax(m.path, path);
            m.leaf = fmax(m.leaf, took);
            m.burdened = fmax(m.burdened, path + burden * leaf_edges[i]);
        }
        CHECK(m.span <= m.work * 1.0000001 && m.bspan >= m.span, "work %.0f span %.0f "
              "burdened %.0f", m.work, m.span, m.bspan);
        /* The longest strand is the longest leaf's (a leaf is one strand
         * from the SPAWN, SYNC or call before it to the one after).  A
         * chain is one path: all its work but the moments between a SPAWN
         * and its SYNC is on it. */
        bool on_path = is_tree || m.span >= m.work - size * NODE_SLACK_NS;
        if (a > 0 && on_path && m.work >= m.leaves && m.work <= m.leaves + slack_work &&
            m.span >= m.path && m.span <= m.path + slack_path &&
            m.bspan >= m.burdened && m.bspan <= m.burdened + slack_path &&
            m.longest >= m.leaf && m.longest <= m.leaf + slack_path)
            return m;
    }
    CHECK(false, "%s at %u workers: in %d runs the profile never matched the leaves' own "
          "times; last: work %.0f (leaves %.0f), span %.0f (longest path %.0f), burdened span "
          "%.0f (%.0f), longest strand %.0f (leaf %.0f)", is_tree ? "tree" : "chain", workers,
          ATTEMPTS, m.work, m.leaves, m.span, m.path, m.bspan, m.burdened, m.longest, m.leaf);
    return m;
}

static void check_chain(void)
{
    const int links = 40;
    const double burden = 5000; /* 5 us per SPAWN edge */
    timed_leaf_ns = 50000; /* 50 us */
    double was = weft_profile_burden_ns();
    CHECK(weft_profile_set_burden_ns(burden) == 0, "burden");
    for (size_t i = 0; i < N_WORKERS_CHECKED; i++) {
        unsigned p = workers_checked[i];
        start_quiet(p);
        measured m = matching_run(false, links, p, burden);
        printf("ok: chain of %d x 50 us at %u workers: work %.3f ms, span %.3f ms (span/work "
               "%.4f; leaves lost %.0f us to noise; run %d)\n", links, p, m.work / 1e6,
               m.span / 1e6, m.span / m.work, m.lost / 1e3, m.attempts);
        CHECK(weft_stop() == 0, "stop");
    }
    CHECK(weft_profile_set_burden_ns(was) == 0, "burden back");
}

static void check_tree(void)
{
    const int depth = 6;
    const double burden = 50000; /* 50 us per SPAWN edge */
    const double leaves = (double)(1 << depth);
    timed_leaf_ns = 100000; /* 100 us */
    measured at[N_WORKERS_CHECKED];
    double was = weft_profile_burden_ns();
    CHECK(weft_profile_set_burden_ns(burden) == 0, "burden");
    for (size_t i = 0; i < N_WORKERS_CHECKED; i++) {
        unsigned p = workers_checked[i];
        start_quiet(p);
        measured m = at[i] = matching_run(true, depth, p, burden);
        printf("ok: tree of %d x 100 us at %u workers: work %.3f ms, span %.1f us, parallelism "
               "%.1f, burdened span %.1f us (leaves lost %.0f us to noise; run %d)\n",
               1 << depth, p, m.work / 1e6, m.span / 1e3, m.work / m.span, m.bspan / 1e3,
               m.lost / 1e3, m.attempts);
        CHECK(weft_stop() == 0, "stop");
    }
    /* Without the time noise added to the leaves, the same figures at
     * every worker count: the graph's (64 x 100 us, one leaf, six edges). */
    for (size_t i = 0; i < N_WORKERS_CHECKED; i++) {
        double work = at[i].work - at[i].lost;
        double slack = 0.02 * leaves * timed_leaf_ns + (2 * leaves - 1) * NODE_SLACK_NS + 20000;
        CHECK(work >= leaves * timed_leaf_ns && work <= leaves * timed_leaf_ns + slack,
              "tree at %u workers: work without noise %.0f, expected %.0f", workers_checked[i],
              work, leaves * timed_leaf_ns);
        CHECK(at[i].burdened - at[i].path <= depth * burden + 1 &&
                  at[i].burdened - at[i].path >= depth * burden - (at[i].path - 1e5),
              "tree at %u workers: the burden adds %.0f, expected %d x %.0f", workers_checked[i],
              at[i].burdened - at[i].path, depth, burden);
    }
    printf("ok: tree figures are the graph's at every worker count\n");
    CHECK(weft_profile_set_burden_ns(was) == 0, "burden back");
}

/* ---- regions of the program's own; NEWFRAME; RUN inside a task ---- */

WEFT_TASK_2(long, bracketed, int, depth, long, leaf_ns)
{
    spin_ns((uint64_t)leaf_ns); /* outside the region */
    WEFT_PROFILE_BEGIN(mark);
    WEFT_SPAWN(tree, depth, leaf_ns);
    long a = WEFT_CALL(tree, depth, leaf_ns);
    long b = WEFT_SYNC(tree);
    CHECK(WEFT_PROFILE_END(mark, "two trees") == 0, "end");
    return a + b;
}

WEFT_TASK_1(long, runs_inside, long, leaf_ns)
{
    spin_ns((uint64_t)leaf_ns);
    return WEFT_RUN(tree, 2, leaf_ns) + 1; /* in place: a call */
}

static void *end_elsewhere(void *mark)
{
    return (void *)(intptr_t)weft_profile_end(mark, "elsewhere");
}

static void check_regions(void)
{
    const long leaf = 100000;
    CHECK(weft_start(2, 0, 0) == 0, "start");
    weft_profile_reset();
    /* Inside a task: what ran between begin and end. */
    CHECK(WEFT_RUN(bracketed, 2, leaf) == 8, "bracketed");
    weft_profile_region in = region_named("two trees"), outer = region_named("bracketed");
    CHECK_EQ_U64(in.runs, 1);
    CHECK_EQ_U64(in.tasks, 2 * 7);
    CHECK_EQ_U64(in.spawns, 1 + 2 * 3);
    CHECK(in.work_ns >= 0.9 * 8 * leaf && in.work_ns < outer.work_ns,
          "region work %.0f, task's %.0f", in.work_ns, outer.work_ns);
    CHECK(outer.work_ns - in.work_ns >= 0.9 * leaf, "the leaf before the region is outside it");

    /* Outside the pool: the RUNs in between, one after the other. */
    WEFT_PROFILE_BEGIN(m);
    CHECK(WEFT_RUN(tree, 1, leaf) == 2 && WEFT_RUN(tree, 1, leaf) == 2, "trees");
    CHECK(WEFT_PROFILE_END(m, "two runs") == 0, "end");
    weft_profile_region two = region_named("two runs"), t = region_named("tree");
    CHECK_EQ_U64(two.tasks, 2 * 3);
    CHECK(fabs(two.work_ns - t.work_ns) <= 1.0 && fabs(two.span_ns - t.span_ns) <= 1.0,
          "two runs: work %.0f span %.0f; their region: %.0f %.0f", two.work_ns, two.span_ns,
          t.work_ns, t.span_ns);

    /* RUN inside a task: a region of its own, and part of its caller. */
    CHECK(WEFT_RUN(runs_inside, leaf) == 5, "runs_inside");
    weft_profile_region caller = region_named("runs_inside");
    CHECK_EQ_U64(caller.tasks, 1 + 7);
    CHECK(caller.work_ns >= 0.9 * 5 * leaf, "caller's work %.0f includes the RUN's",
          caller.work_ns);

    /* NEWFRAME: a region named by its task. */
    CHECK(WEFT_NEWFRAME(tree, 3, 1000) == 8, "newframe");
    CHECK_EQ_U64(region_named("tree").tasks, 2 * 3 + 7 + 15);

    /* Misuse. */
    weft_profile_mark here = weft_profile_begin();
    CHECK(weft_profile_end(NULL, "x") == EINVAL, "NULL mark");
    CHECK(weft_profile_end(&here, NULL) == EINVAL, "NULL name");
    pthread_t th;
    CHECK(pthread_create(&th, NULL, end_elsewhere, &here) == 0, "thread");
    void *res;
    pthread_join(th, &res);
    CHECK((intptr_t)res == EINVAL, "a mark from another thread: %ld", (long)(intptr_t)res);
    CHECK(weft_profile_regions(NULL, 3) == 0, "NULL out");
    CHECK(weft_profile_set_burden_ns(-1) == EINVAL && weft_profile_set_burden_ns(2e9) == EINVAL,
          "bad burdens");
    CHECK(weft_profile_print(NULL) == EINVAL && weft_profile_write_json(NULL) == EINVAL, "NULL");
    CHECK(weft_stop() == 0, "stop");
    printf("ok: regions inside a task and outside the pool, RUN inside a task, NEWFRAME, misuse\n");
}

/* ---- the reports ---- */

static void check_reports(void)
{
    CHECK(weft_start(2, 0, 0) == 0, "start");
    weft_profile_reset();
    CHECK(WEFT_RUN(pfib, 15) == fib_ref(15), "pfib");
    char *text = NULL, *json = NULL;
    size_t text_len = 0, json_len = 0;
    FILE *f = open_memstream(&text, &text_len);
    CHECK(weft_profile_print(f) == 0, "print");
    fclose(f);
    f = open_memstream(&json, &json_len);
    CHECK(weft_profile_write_json(f) == 0, "json");
    fclose(f);
    CHECK(strstr(text, "parallelism") && strstr(text, "pfib") && strstr(text, "P=64"),
          "table:\n%s", text);
    CHECK(json[0] == '{' && strstr(json, "\"regions\": [") && strstr(json, "\"name\": \"pfib\"") &&
              strstr(json, "\"workers\": 64") && strstr(json, "\"task_types\": [") &&
              strstr(json, "\"longest_strand_ns\": "),
          "json:\n%s", json);
    weft_profile_region r = region_named("pfib");
    CHECK(weft_profile_speedup_bound(&r, 1) == 1.0 && weft_profile_speedup_bound(&r, 0) == 0.0,
          "bound at 1 and 0 workers");
    CHECK(weft_profile_burdened_speedup(&r, 4) <= weft_profile_speedup_bound(&r, 4) + 1e-9,
          "burdened estimate above the bound");
    free(text);
    free(json);
    CHECK(weft_stop() == 0, "stop");
    printf("ok: the table and the JSON\n");
}

#endif

int main(void)
{
#if WEFT_PROFILE
    check_counts();
    check_chain();
    check_tree();
    check_regions();
    check_reports();
#else
    weft_profile_region r;
    CHECK(weft_profile_regions(&r, 1) == 0, "no regions");
    weft_profile_mark m = weft_profile_begin();
    CHECK(weft_profile_end(&m, "x") == ENOTSUP, "compiled out: ENOTSUP");
    CHECK(weft_profile_set_burden_ns(1000) == ENOTSUP, "compiled out: ENOTSUP");
    printf("ok: the profiler compiled out reports ENOTSUP\n");
#endif
    return 0;
}
