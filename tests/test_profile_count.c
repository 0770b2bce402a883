// SPDX-License-Identifier: Apache-2.0
/* Counting basic blocks (docs/profiling.md, "Counting basic blocks"):
 * this file is compiled with -fsanitize-coverage=trace-pc (the target
 * weft::profile_count), so the profiler measures its strands in basic
 * blocks, automatically.  Quiet and with a busy-looping process per CPU
 * beside it (started here, killed at the end, each bounded by an alarm),
 * at 2 workers:
 *
 *   unit          the profile says it counted basic blocks
 *   long strand   a task that computes for 100 ms of its CPU time before
 *                 it spawns: its strand, converted to time with the run's
 *                 own ratio, is within 25 % of the CPU time it measured
 *   fib(30)       every run's parallelism is at least 1,000, and the
 *                 quiet and loaded runs agree within a factor of 2
 *
 *   RUNs inside   20 RUNs inside a task, each one long strand: the table's
 *   a task        row of them in blocks gives the longest strand (a maximum
 *                 over the calls) at about one call's work, not divided by
 *                 the calls as its sums are
 *
 *   work pool     runs of known structure (a chain of items, each pushed
 *                 at the end of its parent; the same pushed at the start;
 *                 a fan-out; independent initial items; a split range),
 *                 each a region with its items counted exactly, its
 *                 parallelism the structure's, and the JSON well formed
 *
 * Timed strands cannot pass the fib check on the KVM guests weft is tested
 * on: interruptions charged to the thread as CPU time land on strands, and
 * the span becomes one of them (docs/profiling.md). */
#include "check.h"

#include <sched.h>
#include <time.h>
#include <weft/pool.h>
#include <weft/profile.h>
#include <weft/weft.h>

#include "fib_task.h"
#include "hogs.h"
#include "profile_regions.h"
#include "timing.h"

#if !WEFT_PROFILE
#error "test_profile_count is built only with -DWEFT_PROFILE=ON (tests/CMakeLists.txt)"
#endif

#define LONG_NS 100000000L /* the long strand: 100 ms of CPU time */
#define RUNS 3
#define FIB_N 30
#define MIN_PARALLELISM 1000.0

static long sfib(int n) { return n < 2 ? n : sfib(n - 1) + sfib(n - 2); }

/* The long strand's CPU time, measured by the strand itself. */
static uint64_t long_cpu_ns;

/* Computes (counted code: serial fib) for about ns of CPU time. */
static long compute_ns(uint64_t ns)
{
    uint64_t start = thread_cpu_ns(), now = start;
    long sum = 0;
    while (now - start < ns) {
        sum += sfib(16);
        now = thread_cpu_ns();
    }
    long_cpu_ns = now - start;
    return sum;
}

WEFT_TASK_1(long, long_then_spawn, long, ns)
{
    long sum = compute_ns((uint64_t)ns);
    WEFT_SPAWN(pfib, 12);
    long a = WEFT_CALL(pfib, 11);
    return WEFT_SYNC(pfib) + a + (sum & 0);
}

/* RUNs inside a task, each one long strand: the table's row of them
 * gives per call its sums (work) and its longest strand, a maximum over
 * the calls, which is then most of a call's work. */
#define INSIDE_CALLS 20
WEFT_TASK_1(long, inside_long, long, ns) { return compute_ns((uint64_t)ns); }

WEFT_TASK_1(long, runs_inside, int, calls)
{
    long sum = 0;
    for (int i = 0; i < calls; i++)
        sum += WEFT_RUN(inside_long, 2000000);
    return sum;
}

static void check_inside_task_longest_strand(void)
{
    CHECK(weft_start(2, 0, 0) == 0, "start");
    weft_profile_reset();
    (void)WEFT_RUN(runs_inside, INSIDE_CALLS);
    char *text = profile_report(weft_profile_print, "print");
    const char *counts = strstr(text, "(basic blocks)\n");
    const char *heading = counts ? strstr(counts, "RUNs inside tasks, per call:\n") : NULL;
    const char *row = heading ? strstr(heading, "\ninside_long ") : NULL;
    double work = 0, span = 0, bspan = 0, longest = 0;
    CHECK(row && sscanf(row + strlen("\ninside_long "), "%lf %lf %lf %lf", &work, &span, &bspan,
                        &longest) == 4,
          "no row of inside_long's calls in the table of counts:\n%s", text);
    CHECK(longest >= 0.5 * work && longest <= 2.0 * work,
          "inside_long's calls: longest strand %.0f blocks, work %.0f per call: the longest "
          "strand is a maximum over the calls (each of about one call's work)\n%s",
          longest, work, text);
    free(text);
    weft_stop();
    printf("ok: RUNs inside a task in blocks: %.0f per call, the longest strand %.0f\n", work,
           longest);
}

/* The profile's JSON names the unit it used. */
static void check_unit_is_blocks(void)
{
    char *buf = profile_report(weft_profile_write_json, "write the profile");
    CHECK(strstr(buf, "\"unit\": \"basic blocks\"") &&
              strstr(buf, "\"unit_chosen\": \"automatic\""),
          "the profile's unit is basic blocks, chosen automatically: %.300s", buf);
    CHECK(strstr(buf, "\"work_blocks\": "), "the profile gives the figures in blocks too");
    free(buf);
}

typedef struct figures {
    double long_strand, long_cpu; /* the long task's longest strand, its CPU time */
    double par[RUNS], work[RUNS];
} figures;

static figures measure(const char *when)
{
    CHECK(weft_start(2, 0, 0) == 0, "start");
    figures f;
    weft_profile_reset();
    CHECK(WEFT_RUN(long_then_spawn, LONG_NS) == fib_ref(12) + fib_ref(11), "long_then_spawn");
    f.long_strand = region_named("long_then_spawn").longest_strand_ns;
    f.long_cpu = (double)long_cpu_ns;
    check_unit_is_blocks();
    for (int i = 0; i < RUNS; i++) {
        weft_profile_reset();
        CHECK(WEFT_RUN(pfib, FIB_N) == fib_ref(FIB_N), "pfib");
        weft_profile_region r = region_named("pfib");
        f.par[i] = r.parallelism;
        f.work[i] = r.work_ns;
    }
    CHECK(weft_stop() == 0, "stop");
    printf("%s: long strand %.1f ms (its CPU time %.1f ms); fib(%d) parallelism", when,
           f.long_strand / 1e6, f.long_cpu / 1e6, FIB_N);
    for (int i = 0; i < RUNS; i++)
        printf(" %.0f (work %.1f ms)", f.par[i], f.work[i] / 1e6);
    printf("\n");
    return f;
}

static void check_figures(const char *when, const figures *f)
{
    CHECK(f->long_strand >= 0.75 * f->long_cpu && f->long_strand <= 1.25 * f->long_cpu,
          "%s: the long strand is reported at %.1f ms, its CPU time was %.1f ms", when,
          f->long_strand / 1e6, f->long_cpu / 1e6);
    for (int i = 0; i < RUNS; i++)
        CHECK(f->par[i] >= MIN_PARALLELISM, "%s: fib(%d) parallelism %.0f < %.0f", when, FIB_N,
              f->par[i], MIN_PARALLELISM);
}

/* In a process of its own (the unit is chosen at the first weft_start):
 * WEFT_PROFILE_UNIT=time times the strands of this counted code. */
static void forced_time(void)
{
    fflush(stdout);
    pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        setenv("WEFT_PROFILE_UNIT", "time", 1);
        CHECK(weft_start(2, 0, 0) == 0, "start");
        CHECK(WEFT_RUN(pfib, 20) == fib_ref(20), "pfib");
        char *json = profile_report(weft_profile_write_json, "json");
        CHECK(strstr(json, "\"unit\": \"time\"") &&
                  strstr(json, "\"unit_chosen\": \"WEFT_PROFILE_UNIT\"") &&
                  !strstr(json, "\"work_blocks\""),
              "WEFT_PROFILE_UNIT=time: %.300s", json);
        CHECK(weft_stop() == 0, "stop");
        _exit(0);
    }
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0,
          "the WEFT_PROFILE_UNIT=time child failed (status %d)", st);
    printf("ok: WEFT_PROFILE_UNIT=time times counted code\n");
}

/* ---- work pool runs (docs/profiling.md, "Work pool runs") ---- */

#define POOL_N 48    /* items of a chain, leaves of a fan-out */
#define POOL_LEAF 15 /* each item computes sfib(POOL_LEAF): a few thousand blocks */

enum { CHAIN_PUSH_LAST, CHAIN_PUSH_FIRST, FAN_ROOT, LEAF, RANGE };

/* 12 bytes: padded to two words, plus the profiler's hidden one. */
typedef struct pool_item {
    uint32_t kind, depth, end;
} pool_item;

static _Atomic long pool_sink;

static void pool_leaf(void) { atomic_fetch_add(&pool_sink, sfib(POOL_LEAF)); }

static void pool_process(weft_pool_ctx *ctx, void *p, void *arg)
{
    (void)arg;
    pool_item it = *(pool_item *)p;
    pool_item next = {it.kind, it.depth + 1, it.end};
    switch (it.kind) {
    case CHAIN_PUSH_LAST: /* the whole parent lies on the child's path */
        pool_leaf();
        if (it.depth + 1 < POOL_N)
            CHECK(weft_pool_push(ctx, &next) == 0, "push");
        break;
    case CHAIN_PUSH_FIRST: /* only the parent's start does */
        if (it.depth + 1 < POOL_N)
            CHECK(weft_pool_push(ctx, &next) == 0, "push");
        pool_leaf();
        break;
    case FAN_ROOT:
        for (uint32_t i = 0; i < POOL_N; i++)
            CHECK(weft_pool_push(ctx, &(pool_item){LEAF, 1, 0}) == 0, "push");
        break;
    case LEAF: pool_leaf(); break;
    case RANGE: /* leaves depth .. end-1: one now, the rest pushed (and split by thieves) */
        pool_leaf();
        if (it.depth + 1 < it.end)
            CHECK(weft_pool_push(ctx, &next) == 0, "push");
        break;
    }
}

static bool pool_split(void *p, void *out, void *arg)
{
    (void)arg;
    pool_item *it = p;
    if (it->end - it->depth < 2)
        return false;
    uint32_t mid = it->depth + (it->end - it->depth) / 2;
    *(pool_item *)out = (pool_item){RANGE, mid, it->end};
    it->end = mid;
    return true;
}

/* One run: its stats (processed items). */
static weft_pool_stats pool_run(weft_queue_kind q, weft_pool_steal steal, bool split,
                                const pool_item *initial, size_t n)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(pool_item));
    cfg.workers = 2;
    cfg.queue = q;
    cfg.steal = steal;
    cfg.idempotent = weft_queue_is_idempotent(q);
    cfg.split = split ? pool_split : NULL;
    weft_pool_stats st;
    CHECK(weft_pool_run(&cfg, initial, n, pool_process, NULL, &st) == 0, "pool run on %s",
          weft_queue_name(q));
    return st;
}

static const weft_profile_region *region_in(const weft_profile_region *r, size_t n,
                                            const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(r[i].name, name) == 0)
            return &r[i];
    CHECK(false, "no region named %s (%zu regions)", name, n);
    return NULL;
}

/* A small JSON checker (RFC 8259's grammar, without number ranges): a
 * pointer past the value at s, or NULL. */
static const char *json_ws(const char *s)
{
    while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r')
        s++;
    return s;
}

static const char *json_value(const char *s, int depth);

static const char *json_string(const char *s)
{
    if (*s++ != '"')
        return NULL;
    for (; *s != '"'; s++) {
        if ((unsigned char)*s < 0x20)
            return NULL;
        if (*s == '\\') {
            s++;
            if (*s == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!strchr("0123456789abcdefABCDEF", s[i]) || !s[i])
                        return NULL;
                s += 4;
            } else if (!*s || !strchr("\"\\/bfnrt", *s)) {
                return NULL;
            }
        }
    }
    return s + 1;
}

static const char *json_number(const char *s)
{
    const char *start = s;
    if (*s == '-')
        s++;
    if (*s < '0' || *s > '9')
        return NULL;
    while ((*s >= '0' && *s <= '9') || *s == '.' || *s == 'e' || *s == 'E' || *s == '+' ||
           (*s == '-' && s > start && (s[-1] == 'e' || s[-1] == 'E')))
        s++;
    return s;
}

static const char *json_items(const char *s, char close, bool members, int depth)
{
    s = json_ws(s + 1);
    if (*s == close)
        return s + 1;
    for (;;) {
        if (members) {
            s = json_string(json_ws(s));
            if (!s || *(s = json_ws(s)) != ':')
                return NULL;
            s++;
        }
        s = json_value(s, depth + 1);
        if (!s)
            return NULL;
        s = json_ws(s);
        if (*s == close)
            return s + 1;
        if (*s != ',')
            return NULL;
        s++;
    }
}

static const char *json_value(const char *s, int depth)
{
    s = json_ws(s);
    if (depth > 32)
        return NULL;
    if (*s == '{')
        return json_items(s, '}', true, depth);
    if (*s == '[')
        return json_items(s, ']', false, depth);
    if (*s == '"')
        return json_string(s);
    if (!strncmp(s, "true", 4) || !strncmp(s, "null", 4))
        return s + 4;
    if (!strncmp(s, "false", 5))
        return s + 5;
    return json_number(s);
}

static bool json_valid(const char *s)
{
    s = json_value(s, 0);
    return s && *json_ws(s) == '\0';
}

static void check_pool(void)
{
    CHECK(json_valid("{\"a\": [1, -2.5e3, \"x\\u00e9\", true, null, {}]}") &&
              !json_valid("{\"a\": [1,]}") && !json_valid("{\"a\" 1}") && !json_valid("[1] 2"),
          "the JSON checker");
    weft_profile_reset();
    pool_item chain_last = {CHAIN_PUSH_LAST, 0, 0}, chain_first = {CHAIN_PUSH_FIRST, 0, 0},
              fan = {FAN_ROOT, 0, 0}, range = {RANGE, 0, POOL_N}, leaves[POOL_N];
    for (int i = 0; i < POOL_N; i++)
        leaves[i] = (pool_item){LEAF, 0, 0};
    /* One kind of structure per queue kind: one region each. */
    weft_pool_stats s_last =
        pool_run(WEFT_QUEUE_CHASE_LEV, WEFT_POOL_STEAL_ONE, false, &chain_last, 1);
    weft_pool_stats s_first =
        pool_run(WEFT_QUEUE_IDEMPOTENT_DEQUE, WEFT_POOL_STEAL_ONE, false, &chain_first, 1);
    weft_pool_stats s_fan = pool_run(WEFT_QUEUE_ABP, WEFT_POOL_STEAL_HALF, false, &fan, 1);
    weft_pool_stats s_init =
        pool_run(WEFT_QUEUE_CENTRAL, WEFT_POOL_STEAL_ONE, false, leaves, POOL_N);
    weft_pool_stats s_range = pool_run(WEFT_QUEUE_CHASE_LEV, WEFT_POOL_STEAL_HALF, true, &range, 1);

    weft_profile_region r[16];
    size_t n = weft_profile_regions(r, 16);
    CHECK(n == 5, "%zu regions, not 5", n);
    const weft_profile_region *last = region_in(r, n, "work pool (chase-lev)"),
                              *first = region_in(r, n, "work pool (idem-deque)"),
                              *fr = region_in(r, n, "work pool (abp, steal-half)"),
                              *init = region_in(r, n, "work pool (central)"),
                              *rr = region_in(r, n, "work pool (chase-lev, steal-half)");
    const double N = POOL_N;
    printf("work pool (%d items of sfib(%d)): parallelism chain %.3f, push-first chain %.1f, "
           "fan-out %.1f, initial items %.1f, split range %.1f (%llu splits)\n",
           POOL_N, POOL_LEAF, last->parallelism, first->parallelism, fr->parallelism,
           init->parallelism, rr->parallelism, (unsigned long long)s_range.splits);
    /* Items: every call of the process function, exactly (an idempotent
     * queue's second deliveries and a split's parts included). */
    CHECK_EQ_U64(last->tasks, POOL_N);
    CHECK_EQ_U64(s_last.processed, POOL_N);
    CHECK_EQ_U64(first->tasks, s_first.processed);
    CHECK(first->tasks >= POOL_N, "push-first chain: %llu items", (unsigned long long)first->tasks);
    CHECK_EQ_U64(fr->tasks, POOL_N + 1);
    CHECK_EQ_U64(s_fan.processed, POOL_N + 1);
    CHECK_EQ_U64(init->tasks, POOL_N);
    CHECK_EQ_U64(s_init.processed, POOL_N);
    CHECK_EQ_U64(rr->tasks, s_range.processed);
    CHECK_EQ_U64(rr->tasks, POOL_N); /* one leaf per item, split or not */
    for (size_t i = 0; i < n; i++)
        CHECK(r[i].runs == 1 && r[i].spawns == 0 && r[i].work_ns > 0 &&
                  r[i].span_ns <= r[i].work_ns && r[i].burdened_span_ns == r[i].span_ns,
              "%s: runs %llu, work %.0f, span %.0f, burdened span %.0f", r[i].name,
              (unsigned long long)r[i].runs, r[i].work_ns, r[i].span_ns, r[i].burdened_span_ns);
    /* Every item on one path: the span is the work. */
    CHECK(last->parallelism >= 1.0 && last->parallelism <= 1.02,
          "chain pushed at the end: parallelism %.3f, not 1", last->parallelism);
    /* A child's path holds its parent only up to the push. */
    CHECK(first->parallelism >= 0.75 * N, "chain pushed first: parallelism %.1f < %.0f",
          first->parallelism, 0.75 * N);
    /* One leaf (after the root's pushes) is the span. */
    CHECK(fr->parallelism >= 0.75 * N && fr->parallelism <= N + 1,
          "fan-out: parallelism %.1f, not about %d", fr->parallelism, POOL_N);
    /* Initial items start at 0. */
    CHECK(init->parallelism >= 0.95 * N && init->parallelism <= 1.01 * N,
          "initial items: parallelism %.1f, not %d", init->parallelism, POOL_N);
    /* k splits make at most k + 1 chains of the range's leaves. */
    CHECK(rr->parallelism >= 1.0 && rr->parallelism <= (double)s_range.splits + 1.02,
          "split range: parallelism %.2f with %llu splits", rr->parallelism,
          (unsigned long long)s_range.splits);
    /* The same leaves (in the same unit): the same work, within what the
     * items do besides their leaves; the longest item of a chain is a leaf. */
    CHECK(last->work_ns >= 0.98 * init->work_ns && last->work_ns <= 1.02 * init->work_ns &&
              rr->work_ns >= 0.98 * init->work_ns && rr->work_ns <= 1.02 * init->work_ns,
          "work of %d leaves: chain %.0f, initial items %.0f, split range %.0f", POOL_N,
          last->work_ns, init->work_ns, rr->work_ns);
    CHECK(last->longest_strand_ns >= 0.98 * init->work_ns / N &&
              last->longest_strand_ns <= 1.02 * init->work_ns / N,
          "the chain's longest item %.0f, one leaf %.0f", last->longest_strand_ns,
          init->work_ns / N);

    char *json = profile_report(weft_profile_write_json, "json");
    CHECK(json_valid(json), "the profile's JSON is not well formed:\n%s", json);
    CHECK(strstr(json, "\"name\": \"work pool (chase-lev, steal-half)\""), "json:\n%.400s", json);
    /* The table names its unit's error on memory-bound code, for the unit
     * the JSON says it used. */
    bool blocks = strstr(json, "\"unit\": \"basic blocks\"") != NULL;
    free(json);
    char *text = profile_report(weft_profile_print, "print");
    CHECK(strstr(text, blocks ? "unit's error: a block counts alike whether it computes or waits "
                                "for memory"
                              : "unit's error: on-CPU time includes memory stalls"),
          "no line of the unit's error for %s:\n%s", blocks ? "blocks" : "time", text);
    fputs(text, stdout);
    free(text);
    printf("ok: work pool runs: items exact, chain / push-first / fan-out / initial / split "
           "figures as their structure, JSON well formed\n");
}

int main(void)
{
    alarm(60);
    forced_time();
    check_pool();
    check_inside_task_longest_strand();
    figures quiet = measure("quiet");
    pid_t hogs[MAX_HOGS];
    int n = start_hogs(hogs, 30);
    figures loaded = measure("loaded");
    stop_hogs(hogs, n);
    printf("(%d busy-looping processes beside the loaded run)\n", n);
    check_figures("quiet", &quiet);
    check_figures("loaded", &loaded);
    for (int i = 0; i < RUNS; i++)
        for (int j = 0; j < RUNS; j++)
            CHECK(loaded.par[j] >= quiet.par[i] / 2 && loaded.par[j] <= quiet.par[i] * 2,
                  "fib(%d) parallelism: quiet %.0f, loaded %.0f: not within 2x", FIB_N,
                  quiet.par[i], loaded.par[j]);
    printf("ok: basic blocks; fib(%d) parallelism >= %.0f and within 2x quiet and loaded; the "
           "100 ms strand within 25 %% of its CPU time\n",
           FIB_N, MIN_PARALLELISM);
    return 0;
}
