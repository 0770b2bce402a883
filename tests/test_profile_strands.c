// SPDX-License-Identifier: Apache-2.0
/* Counting strands (WEFT_PROFILE_UNIT=strands; docs/profiling.md,
 * "Counting strands"): every strand is 1, and the clock is read once a
 * window of strands, to convert them to time.  Graphs of known shape
 * have known figures in strands:
 *
 *   fib(n) ends a strand at its SPAWN, and at its SYNC before and after
 *   the inline child (a leaf ends none), so its work is
 *   W(n) = W(n-1) + W(n-2) + 3 and its span S(n) = S(n-1) + 2 (the path
 *   through the SPAWNed child is the longer), W and S 0 below 2; the
 *   region adds the root's last strand, which ends when it returns.
 *
 *   1 worker      fib(10), fib(16), fib(22): work and span the graph's
 *                 exactly, tasks and SPAWNs too, no longest strand (0)
 *   units         the JSON and the table name the unit and the figures
 *                 in strands
 *   conversion    fib(30)'s strands converted to time come to within
 *                 1/2 and 2x of the CPU time the run took
 *   one name,     a body entered through a second record of its own
 *   two records   type's name (as two translation units that define a
 *                 task of one name have), registered there: the same
 *                 type, so no strand ends (the region is 1 strand, its
 *                 row 2 bodies)
 *   1, 2, 3, 8,   fib(22) and random trees (tree_model follows the same
 *   32 workers    rules): work and span exactly the graph's at every
 *                 worker count: a stolen task counts the strands it has
 *                 inline, and the runtime's waits and wakes none; the
 *                 task type's row holds the same work (each strand in
 *                 one type's row once, a stolen child's in its runner's);
 *                 the windows timed no more strands than fib(27) has
 *   two types     random trees of two task types (mixed_model: a change
 *                 of type ends a strand where a body enters and where it
 *                 returns, so a child of the other type joined inline
 *                 ends two more on its path): work and span the graph's
 *                 at every worker count, a stolen child of the other
 *                 type counting those two as well; the two types' rows
 *                 add up to the region's work and bodies
 *   one rate      reports taken while another thread's RUNs time
 *                 windows (each moves the conversion's rate): each
 *                 report converts its regions and its task types at one
 *                 rate, so a region of one type reads its type's work */
#include "check.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <weft/profile.h>
#include <weft/weft.h>

#include "fib_task.h"
#include "profile_regions.h"

#if !WEFT_PROFILE
#error "test_profile_strands is built only with -DWEFT_PROFILE=ON (tests/CMakeLists.txt)"
#endif

static long work_of(int n) { return n < 2 ? 0 : work_of(n - 1) + work_of(n - 2) + 3; }
static long span_of(int n) { return n < 2 ? 0 : span_of(n - 1) + 2; }

/* A random tree: a node's seed gives its number of children (none at
 * depth 0), which it SPAWNs, and whether it CALLs one more before it
 * SYNCs them, last first.  tree_model follows the profiler's rules for
 * counted strands: a strand ends at each SPAWN (its path length is the
 * child's start), at each SYNC before the join (the continuation's path)
 * and after the inline child (the longer of the two paths, plus that
 * strand).  It returns the path length at the node's end and adds to
 * *work. */
#define TREE_MAX_CHILDREN 4

static uint32_t tree_hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}

static int tree_children(uint32_t seed, int depth)
{
    return depth == 0 ? 0 : (int)(tree_hash(seed) % (TREE_MAX_CHILDREN + 1));
}

static bool tree_calls(uint32_t seed, int depth) { return depth > 0 && (tree_hash(~seed) & 1); }

static uint32_t tree_child(uint32_t seed, int i)
{
    return tree_hash(seed * 31u + (uint32_t)i + 1u);
}

static long tree_model(uint32_t seed, int depth, long path, long *work)
{
    int k = tree_children(seed, depth);
    long at_spawn[TREE_MAX_CHILDREN];
    for (int i = 0; i < k; i++) {
        path++, (*work)++;
        at_spawn[i] = path;
    }
    if (tree_calls(seed, depth))
        path = tree_model(tree_child(seed, k), depth - 1, path, work);
    for (int i = k - 1; i >= 0; i--) {
        path++, (*work)++;
        long through_child = tree_model(tree_child(seed, i), depth - 1, at_spawn[i], work) + 1;
        (*work)++;
        path = through_child > path ? through_child : path;
    }
    return path;
}

WEFT_TASK_2(long, tree, uint32_t, seed, int, depth)
{
    int k = tree_children(seed, depth);
    for (int i = 0; i < k; i++)
        WEFT_SPAWN(tree, tree_child(seed, i), depth - 1);
    long nodes = 1;
    if (tree_calls(seed, depth))
        nodes += WEFT_CALL(tree, tree_child(seed, k), depth - 1);
    for (int i = 0; i < k; i++)
        nodes += WEFT_SYNC(tree);
    return nodes;
}

/* Random trees of two task types, mtree_a and mtree_b (a node's type
 * from its seed), shaped as the trees above: mixed_model follows the same
 * rules, and a change of type ends a strand where the body of the other
 * type enters (its caller's) and where it returns (its own last). */
static bool mixed_is_b(uint32_t seed) { return (tree_hash(seed ^ 0x5bd1e995u) & 3) == 0; }

static long mixed_model(uint32_t seed, int depth, long path, long *work)
{
    bool b = mixed_is_b(seed);
    int k = tree_children(seed, depth);
    long at_spawn[TREE_MAX_CHILDREN];
    for (int i = 0; i < k; i++) {
        path++, (*work)++;
        at_spawn[i] = path;
    }
    if (tree_calls(seed, depth)) {
        uint32_t c = tree_child(seed, k);
        long other = mixed_is_b(c) != b; /* a strand ends as it enters, one as it returns */
        path += other, *work += other;
        path = mixed_model(c, depth - 1, path, work) + other;
        *work += other;
    }
    for (int i = k - 1; i >= 0; i--) {
        path++, (*work)++;
        uint32_t c = tree_child(seed, i);
        long other = mixed_is_b(c) != b;
        long through_child = mixed_model(c, depth - 1, at_spawn[i] + other, work) + other + 1;
        *work += 2 * other + 1;
        path = through_child > path ? through_child : path;
    }
    return path;
}

WEFT_TASK_DECL_2(long, mtree_a, uint32_t, int);
WEFT_TASK_DECL_2(long, mtree_b, uint32_t, int);

#define MIXED_TREE_BODY(seed, depth) \
    int k = tree_children(seed, depth); \
    for (int i = 0; i < k; i++) { \
        uint32_t c = tree_child(seed, i); \
        if (mixed_is_b(c)) \
            WEFT_SPAWN(mtree_b, c, depth - 1); \
        else \
            WEFT_SPAWN(mtree_a, c, depth - 1); \
    } \
    long nodes = 1; \
    if (tree_calls(seed, depth)) { \
        uint32_t c = tree_child(seed, k); \
        nodes += \
            mixed_is_b(c) ? WEFT_CALL(mtree_b, c, depth - 1) : WEFT_CALL(mtree_a, c, depth - 1); \
    } \
    for (int i = k - 1; i >= 0; i--) \
        nodes += mixed_is_b(tree_child(seed, i)) ? WEFT_SYNC(mtree_b) : WEFT_SYNC(mtree_a); \
    return nodes

WEFT_TASK_IMPL_2(long, mtree_a, uint32_t, seed, int, depth) { MIXED_TREE_BODY(seed, depth); }
WEFT_TASK_IMPL_2(long, mtree_b, uint32_t, seed, int, depth) { MIXED_TREE_BODY(seed, depth); }

/* A seed whose root is of type mtree_a (the RUN's). */
static uint32_t mixed_root(uint32_t n)
{
    uint32_t seed = n;
    while (mixed_is_b(seed))
        seed += 1000u;
    return seed;
}

/* A body of type `twin` that enters a second record of the name `twin`,
 * unregistered until then, as a nested body of the same type would. */
static weft_profile_type twin_again = {"twin", WEFT__PROFILE_UNREGISTERED};
WEFT_TASK_0(int, twin)
{
    uint32_t outer = weft_profile_enter(weft_w, &twin_again);
    weft_profile_leave(weft_w, outer);
    return 1;
}

/* RUNs inside a task: a fib of its own, RUN ten times from one task. */
WEFT_TASK_1(long, run_inside, int, n)
{
    if (n < 2)
        return n;
    WEFT_SPAWN(run_inside, n - 1);
    long b = WEFT_CALL(run_inside, n - 2);
    return WEFT_SYNC(run_inside) + b;
}
WEFT_TASK_0(long, runs_ten)
{
    long sum = 0;
    for (int i = 0; i < 10; i++)
        sum += WEFT_RUN(run_inside, 12);
    return sum;
}

/* 600 task types, 300 pairs t_N (spawned) and u_N (called by t_N), and
 * `many`, which spawns the 300: each type a row of its own, so that the
 * strands where the type changes are the graph's at any worker count (a
 * type past the table shared its row, and its id, with every other). */
/* clang-format off */
#define MANY_PAIR(n) \
    WEFT_TASK_1(long, u_##n, int, k) { return k + 1; } \
    WEFT_TASK_1(long, t_##n, int, k) { return WEFT_CALL(u_##n, k); }
#define MANY_10(p) \
    MANY_PAIR(p##0) MANY_PAIR(p##1) MANY_PAIR(p##2) MANY_PAIR(p##3) MANY_PAIR(p##4) \
    MANY_PAIR(p##5) MANY_PAIR(p##6) MANY_PAIR(p##7) MANY_PAIR(p##8) MANY_PAIR(p##9)
#define MANY_100(p) \
    MANY_10(p##0) MANY_10(p##1) MANY_10(p##2) MANY_10(p##3) MANY_10(p##4) \
    MANY_10(p##5) MANY_10(p##6) MANY_10(p##7) MANY_10(p##8) MANY_10(p##9)
MANY_100(1)
MANY_100(2)
MANY_100(3)
#define MANY_SPAWN(n) WEFT_SPAWN(t_##n, 1);
#define MANY_SYNC(n) sum += WEFT_SYNC(t_##n);
#define MANY_EACH_10(F, p) \
    F(p##0) F(p##1) F(p##2) F(p##3) F(p##4) F(p##5) F(p##6) F(p##7) F(p##8) F(p##9)
#define MANY_EACH_100(F, p) \
    MANY_EACH_10(F, p##0) MANY_EACH_10(F, p##1) MANY_EACH_10(F, p##2) MANY_EACH_10(F, p##3) \
    MANY_EACH_10(F, p##4) MANY_EACH_10(F, p##5) MANY_EACH_10(F, p##6) MANY_EACH_10(F, p##7) \
    MANY_EACH_10(F, p##8) MANY_EACH_10(F, p##9)
/* The same backwards: the SYNCs join the newest SPAWN first. */
#define MANY_BACK_10(F, p) \
    F(p##9) F(p##8) F(p##7) F(p##6) F(p##5) F(p##4) F(p##3) F(p##2) F(p##1) F(p##0)
#define MANY_BACK_100(F, p) \
    MANY_BACK_10(F, p##9) MANY_BACK_10(F, p##8) MANY_BACK_10(F, p##7) MANY_BACK_10(F, p##6) \
    MANY_BACK_10(F, p##5) MANY_BACK_10(F, p##4) MANY_BACK_10(F, p##3) MANY_BACK_10(F, p##2) \
    MANY_BACK_10(F, p##1) MANY_BACK_10(F, p##0)
/* clang-format on */
WEFT_TASK_0(long, many)
{
    long sum = 0;
    MANY_EACH_100(MANY_SPAWN, 1)
    MANY_EACH_100(MANY_SPAWN, 2)
    MANY_EACH_100(MANY_SPAWN, 3)
    MANY_BACK_100(MANY_SYNC, 3)
    MANY_BACK_100(MANY_SYNC, 2)
    MANY_BACK_100(MANY_SYNC, 1)
    return sum;
}

static long tree_nodes(uint32_t seed, int depth)
{
    int k = tree_children(seed, depth);
    long nodes = 1;
    for (int i = 0; i < k + (tree_calls(seed, depth) ? 1 : 0); i++)
        nodes += tree_nodes(tree_child(seed, i), depth - 1);
    return nodes;
}

/* A figure of the region named `region` in the profile's JSON, or with
 * `section` ("task_types") of the task type so named. */
static double json_figure_in(const char *json, const char *section, const char *region,
                             const char *key)
{
    char name[80];
    snprintf(name, sizeof name, "\"%s\": [", section);
    const char *from = strstr(json, name);
    CHECK(from != NULL, "the profile has %s: %.300s", section, json);
    snprintf(name, sizeof name, "{\"name\": \"%s\"", region);
    const char *r = strstr(from, name);
    CHECK(r != NULL, "the profile has a %s in %s: %.300s", region, section, json);
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\": ", key);
    const char *at = strstr(r, pattern);
    CHECK(at != NULL, "the %s region has %s: %.400s", region, key, r);
    return strtod(at + strlen(pattern), NULL);
}

static double json_figure_of(const char *json, const char *region, const char *key)
{
    return json_figure_in(json, "regions", region, key);
}

static double process_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

typedef struct counted {
    double work, span; /* in strands */
    weft_profile_region r;
    double work_ns, type_work_ns; /* the region's and its task type's, in one report */
    unsigned long long timed;     /* the strands the report's conversion timed */
} counted;

/* The strands the conversion timed, from the JSON's clock ("... over N
 * timed"); 0 when none was. */
static unsigned long long timed_strands(const char *json)
{
    const char *over = strstr(json, " each, over ");
    unsigned long long n = 0;
    if (over)
        CHECK(sscanf(over, " each, over %llu timed", &n) == 1, "the clock's timed strands: %.80s",
              over);
    return n;
}

/* The work of task type `name` in the JSON's table of task types,
 * converted to time as the same report's regions are. */
static double json_type_work_ns(const char *json, const char *name)
{
    return json_figure_in(json, "task_types", name, "work_ns");
}

/* Two works in ns that the JSON gives to 0.1 ns, converted from the same
 * number of strands (their conversions may round apart; a strand is
 * nanoseconds, far more). */
static bool same_strands(double a_ns, double b_ns)
{
    return a_ns - b_ns <= 0.25 && b_ns - a_ns <= 0.25;
}

static counted run_fib(int n)
{
    weft_profile_reset();
    CHECK(WEFT_RUN(pfib, n) == fib_ref(n), "pfib(%d)", n);
    char *json = profile_report(weft_profile_write_json, "the profile's JSON");
    counted c = {.work = json_figure_of(json, "pfib", "work_strands"),
                 .span = json_figure_of(json, "pfib", "span_strands"),
                 .r = region_named("pfib"),
                 .work_ns = json_figure_of(json, "pfib", "work_ns"),
                 .type_work_ns = json_type_work_ns(json, "pfib"),
                 .timed = timed_strands(json)};
    free(json);
    return c;
}

/* A task that makes NEWFRAMEs from inside itself: each worker's strand
 * goes on across the interrupt task it runs (saved, and back after). */
WEFT_TASK_2(long, framer, int, n, int, rounds)
{
    long sum = 0;
    for (int r = 0; r < rounds; r++) {
        sum += WEFT_CALL(pfib, n);
        sum += WEFT_NEWFRAME(pfib, n);
    }
    return sum;
}

/* NEWFRAMEs inside a task: the windows time no more strands than the
 * regions have. */
static void check_framed(unsigned workers)
{
    weft_profile_reset();
    CHECK(WEFT_RUN(framer, 16, 40) == 80 * fib_ref(16), "framer");
    char *json = profile_report(weft_profile_write_json, "the profile's JSON");
    double framer_work = json_figure_of(json, "framer", "work_strands"),
           framed_work = json_figure_of(json, "pfib", "work_strands");
    unsigned long long timed = timed_strands(json);
    free(json);
    CHECK(timed > 0 && (double)timed <= framer_work + framed_work,
          "%u workers: NEWFRAMEs inside a task: %llu strands timed, the regions have %.0f and "
          "%.0f",
          workers, timed, framer_work, framed_work);
    printf("ok: %u workers: NEWFRAMEs inside a task: %llu strands timed, the regions have %.0f "
           "and %.0f\n",
           workers, timed, framer_work, framed_work);
}

static void check_one_worker(void)
{
    static const int ns[] = {10, 16, 22};
    CHECK(weft_start(1, 0, 0) == 0, "start 1 worker");
    for (int i = 0; i < 3; i++) {
        counted c = run_fib(ns[i]);
        CHECK(c.r.tasks == (uint64_t)(2 * fib_ref(ns[i] + 1) - 1), "fib(%d): %llu tasks", ns[i],
              (unsigned long long)c.r.tasks);
        CHECK(c.r.spawns == (uint64_t)(fib_ref(ns[i] + 1) - 1), "fib(%d): %llu SPAWNs", ns[i],
              (unsigned long long)c.r.spawns);
        CHECK(c.work == (double)(work_of(ns[i]) + 1) && c.span == (double)(span_of(ns[i]) + 1),
              "fib(%d): work %.0f and span %.0f strands, the graph's %ld and %ld", ns[i], c.work,
              c.span, work_of(ns[i]) + 1, span_of(ns[i]) + 1);
        CHECK(c.r.longest_strand_ns == 0.0, "fib(%d): a longest strand is given (%.1f ns)", ns[i],
              c.r.longest_strand_ns);
        printf("ok: 1 worker: fib(%d): work %.0f, span %.0f strands, the graph's\n", ns[i], c.work,
               c.span);
    }

    char *json = profile_report(weft_profile_write_json, "the profile's JSON");
    CHECK(strstr(json, "\"unit\": \"strands\"") &&
              strstr(json, "\"unit_chosen\": \"WEFT_PROFILE_UNIT\""),
          "the JSON names the unit: %.300s", json);
    free(json);
    char *table = profile_report(weft_profile_print, "the profile's table");
    CHECK(strstr(table, "unit: strands (WEFT_PROFILE_UNIT), each counted as 1") &&
              strstr(table, "read once in") && strstr(table, "(strands)"),
          "the table names the unit and gives the figures in strands:\n%s", table);
    free(table);
    printf("ok: the JSON and the table name the unit and the samples\n");

    weft_profile_reset();
    CHECK(WEFT_RUN(twin) == 1, "twin");
    json = profile_report(weft_profile_write_json, "the profile's JSON");
    double twin_work = json_figure_of(json, "twin", "work_strands"),
           twin_bodies = json_figure_in(json, "task_types", "twin", "count");
    free(json);
    CHECK(twin_work == 1.0 && twin_bodies == 2.0,
          "a body entered through a second record of its type's name: %.0f strands (1) and %.0f "
          "bodies (2)",
          twin_work, twin_bodies);
    printf("ok: two records of one name are one type: no strand ends between them\n");

    /* The table's figures in strands give the RUNs inside tasks per call,
     * under the main table's heading, as the main table does. */
    weft_profile_reset();
    CHECK(WEFT_RUN(runs_ten) == 10 * fib_ref(12), "runs_ten");
    json = profile_report(weft_profile_write_json, "the profile's JSON");
    double calls = json_figure_of(json, "run_inside", "runs"),
           all_calls = json_figure_of(json, "run_inside", "work_strands");
    free(json);
    table = profile_report(weft_profile_print, "the profile's table");
    const char *counts = strstr(table, "(strands)\n");
    const char *heading = counts ? strstr(counts, "RUNs inside tasks, per call:\n") : NULL;
    const char *row = heading ? strstr(heading, "\nrun_inside ") : NULL;
    double per_call = 0;
    CHECK(calls == 10 && row && sscanf(row + strlen("\nrun_inside "), "%lf", &per_call) == 1 &&
              per_call == all_calls / calls,
          "the table's RUNs inside tasks in strands: %.0f calls, %.0f strands per call, the "
          "JSON's %.0f over the calls:\n%s",
          calls, per_call, all_calls, table);
    free(table);
    printf("ok: the RUNs inside a task in strands, per call: %.0f\n", per_call);

    /* The conversion: long enough a run that its time is mostly fib's. */
    double cpu0 = process_cpu_ns();
    weft_profile_reset();
    CHECK(WEFT_RUN(pfib, 30) == fib_ref(30), "pfib(30)");
    double cpu = process_cpu_ns() - cpu0;
    double work_ns = region_named("pfib").work_ns;
    CHECK(work_ns >= cpu / 2 && work_ns <= cpu * 2,
          "fib(30): the work converted from strands is %.1f ms, the run took %.1f ms of CPU",
          work_ns / 1e6, cpu / 1e6);
    printf("ok: fib(30): work %.1f ms converted from strands, %.1f ms of CPU\n", work_ns / 1e6,
           cpu / 1e6);
    CHECK(weft_stop() == 0, "stop");
}

#define TREES 12
#define TREE_DEPTH 9

/* `many` at this worker count: its work and span in strands; every one
 * of its 601 types has a row of its own. */
static void run_many(unsigned workers, double *work, double *span)
{
    weft_profile_reset();
    CHECK(WEFT_RUN(many) == 600, "many");
    char *json = profile_report(weft_profile_write_json, "the profile's JSON");
    *work = json_figure_of(json, "many", "work_strands");
    *span = json_figure_of(json, "many", "span_strands");
    bool grouped = strstr(json, "(other task types)") != NULL;
    free(json);
    weft_profile_task_type types[800];
    size_t n = weft_profile_task_types(types, 800), mine = 0;
    for (size_t i = 0; i < n && i < 800; i++)
        mine += types[i].count > 0 &&
                (strncmp(types[i].name, "t_", 2) == 0 || strncmp(types[i].name, "u_", 2) == 0 ||
                 strcmp(types[i].name, "many") == 0);
    CHECK(!grouped && mine == 601, "%u workers: 601 task types ran: %zu rows of theirs%s", workers,
          mine, grouped ? ", some grouped as (other task types)" : "");
}

static void check_workers(unsigned workers)
{
    CHECK(weft_start(workers, 0, 0) == 0, "start %u workers", workers);
    counted c = run_fib(22);
    CHECK(c.work == (double)(work_of(22) + 1) && c.span == (double)(span_of(22) + 1),
          "%u workers: fib(22) is %.0f strands of work and %.0f of span, the graph's %ld and %ld",
          workers, c.work, c.span, work_of(22) + 1, span_of(22) + 1);
    CHECK(same_strands(c.type_work_ns, c.work_ns),
          "%u workers: fib(22): the task type's work %.1f ns, the region's %.1f ns", workers,
          c.type_work_ns, c.work_ns);
    /* Each strand a worker ends is timed in at most one window, and a
     * stolen child's strands by its runner only: a window that counted
     * the work its owner joins, or a thief's saved work, would time more
     * strands than the graph has.  fib(27): long enough that the other
     * workers wake and steal. */
    counted big = run_fib(27);
    CHECK(big.work == (double)(work_of(27) + 1), "%u workers: fib(27): work %.0f strands", workers,
          big.work);
    CHECK(big.timed > 0 && (double)big.timed <= big.work,
          "%u workers: fib(27): %llu strands timed, the graph has %.0f", workers, big.timed,
          big.work);
    printf("ok: %u workers: fib(27): %llu of its %.0f strands timed\n", workers, big.timed,
           big.work);
    check_framed(workers);
    static double many_work, many_span; /* at the first worker count */
    double mw, ms;
    run_many(workers, &mw, &ms);
    if (many_work == 0) {
        many_work = mw;
        many_span = ms;
    }
    CHECK(mw == many_work && ms == many_span,
          "%u workers: 600 task types: work %.0f and span %.0f strands, at the first worker "
          "count %.0f and %.0f",
          workers, mw, ms, many_work, many_span);
    printf("ok: %u workers: 601 task types, each its own row: work %.0f, span %.0f strands\n",
           workers, mw, ms);
    for (uint32_t seed = 1; seed <= TREES; seed++) {
        long work = 0, span = tree_model(seed, TREE_DEPTH, 0, &work) + 1;
        work++;
        weft_profile_reset();
        CHECK(WEFT_RUN(tree, seed, TREE_DEPTH) == tree_nodes(seed, TREE_DEPTH), "tree %u", seed);
        char *json = profile_report(weft_profile_write_json, "the profile's JSON");
        double w = json_figure_of(json, "tree", "work_strands"),
               sp = json_figure_of(json, "tree", "span_strands"),
               region_ns = json_figure_of(json, "tree", "work_ns"),
               type_ns = json_type_work_ns(json, "tree"),
               region_tasks = json_figure_of(json, "tree", "tasks"),
               type_tasks = json_figure_in(json, "task_types", "tree", "count");
        free(json);
        CHECK(w == (double)work && sp == (double)span,
              "%u workers: random tree %u (%ld nodes): work %.0f and span %.0f strands, the "
              "graph's %ld and %ld",
              workers, seed, tree_nodes(seed, TREE_DEPTH), w, sp, work, span);
        CHECK(same_strands(type_ns, region_ns) && type_tasks == region_tasks &&
                  region_tasks == (double)tree_nodes(seed, TREE_DEPTH),
              "%u workers: random tree %u: the task type's work %.1f ns and %.0f bodies, the "
              "region's %.1f ns and %.0f tasks, the tree's %ld nodes",
              workers, seed, type_ns, type_tasks, region_ns, region_tasks,
              tree_nodes(seed, TREE_DEPTH));
    }
    printf("ok: %u workers: fib(22) and %d random trees: work and span in strands the graph's, "
           "the task type's work and bodies the region's\n",
           workers, TREES);
    for (uint32_t n = 1; n <= TREES; n++) {
        uint32_t seed = mixed_root(n);
        long work = 0, span = mixed_model(seed, TREE_DEPTH, 0, &work) + 1;
        work++;
        weft_profile_reset();
        CHECK(WEFT_RUN(mtree_a, seed, TREE_DEPTH) == tree_nodes(seed, TREE_DEPTH),
              "two-type tree %u", seed);
        char *json = profile_report(weft_profile_write_json, "the profile's JSON");
        double w = json_figure_of(json, "mtree_a", "work_strands"),
               sp = json_figure_of(json, "mtree_a", "span_strands"),
               region_ns = json_figure_of(json, "mtree_a", "work_ns"),
               types_ns = json_type_work_ns(json, "mtree_a") + json_type_work_ns(json, "mtree_b"),
               region_tasks = json_figure_of(json, "mtree_a", "tasks"),
               types_tasks = json_figure_in(json, "task_types", "mtree_a", "count") +
                             json_figure_in(json, "task_types", "mtree_b", "count");
        free(json);
        CHECK(w == (double)work && sp == (double)span,
              "%u workers: two-type tree %u (%ld nodes): work %.0f and span %.0f strands, the "
              "graph's %ld and %ld",
              workers, seed, tree_nodes(seed, TREE_DEPTH), w, sp, work, span);
        CHECK(types_ns - region_ns <= 0.5 && region_ns - types_ns <= 0.5 &&
                  types_tasks == region_tasks &&
                  region_tasks == (double)tree_nodes(seed, TREE_DEPTH),
              "%u workers: two-type tree %u: the two types' work %.1f ns and %.0f bodies, the "
              "region's %.1f ns and %.0f tasks, the tree's %ld nodes",
              workers, seed, types_ns, types_tasks, region_ns, region_tasks,
              tree_nodes(seed, TREE_DEPTH));
    }
    printf("ok: %u workers: %d random trees of two task types: work and span in strands the "
           "graph's, the two types' work and bodies the region's\n",
           workers, TREES);
    CHECK(weft_stop() == 0, "stop");
}

static atomic_bool racing_done;

/* RUNs of run_inside, a fib of a type other than pfib's, so that pfib's
 * row and region do not move while the reports are taken. */
static void *run_racers(void *arg)
{
    (void)arg;
    /* Relaxed: a flag to stop; it orders nothing else. */
    while (!atomic_load_explicit(&racing_done, memory_order_relaxed))
        CHECK(WEFT_RUN(run_inside, 12) == fib_ref(12), "run_inside(12)");
    return NULL;
}

/* A report converts its regions' strands and its task types' at one rate:
 * with the rate read once for each (the timed windows of another thread's
 * RUNs move it in between), fib(22)'s region and its one type read
 * different times in some of the reports (from 1 in 200 to 1 in 10 on
 * two CPUs). */
static void check_one_rate_per_report(void)
{
    CHECK(weft_start(2, 0, 0) == 0, "start 2 workers");
    weft_profile_reset();
    CHECK(WEFT_RUN(pfib, 22) == fib_ref(22), "pfib(22)");
    atomic_store_explicit(&racing_done, false, memory_order_relaxed); /* (no thread yet) */
    pthread_t racer_thread;
    CHECK(pthread_create(&racer_thread, NULL, run_racers, NULL) == 0, "the racing thread");
    int differed = 0, reports = 2000;
    double type_ns = 0, region_ns = 0;
    for (int i = 0; i < reports; i++) {
        char *json = profile_report(weft_profile_write_json, "the profile's JSON");
        double t = json_type_work_ns(json, "pfib"), r = json_figure_of(json, "pfib", "work_ns");
        free(json);
        if (!same_strands(t, r)) {
            differed++;
            type_ns = t;
            region_ns = r;
        }
    }
    /* Relaxed: as run_racers reads it. */
    atomic_store_explicit(&racing_done, true, memory_order_relaxed);
    CHECK(pthread_join(racer_thread, NULL) == 0, "join the racing thread");
    CHECK(differed == 0,
          "%d of %d reports taken during other RUNs converted pfib's region and its task type at "
          "different rates (last: type %.1f ns, region %.1f ns)",
          differed, reports, type_ns, region_ns);
    CHECK(weft_stop() == 0, "stop");
    printf("ok: %d reports during other RUNs: each converts its regions and task types at one "
           "rate\n",
           reports);
}

int main(void)
{
    /* The unit is chosen at the first weft_start of the process. */
    setenv("WEFT_PROFILE_UNIT", "strands", 1);
    check_one_worker();
    static const unsigned workers[] = {1, 2, 3, 8, 32};
    for (size_t i = 0; i < sizeof workers / sizeof *workers; i++)
        check_workers(workers[i]);
    check_one_rate_per_report();
    return 0;
}
