// SPDX-License-Identifier: Apache-2.0
/* Random task trees, checked against a sequential evaluation, at 1, 2, 3,
 * 8 and 32 workers.
 *
 * A tree is a pure function of a seed: fan-out, leaf work and the way each
 * node spawns and joins its children are drawn from the node's hash.  The
 * children's results are combined with weights that depend on the child's
 * position, so a SYNC that joined the wrong task, a result read before the
 * thief wrote it, or a task run twice or never would change the sum.
 *
 * Usage: test_random_trees [scale]   (scale 1 = CI size; larger = longer)
 */
#include "check.h"

#include <stdatomic.h>
#include <stdint.h>
#include <weft/weft.h>

typedef struct shape {
    const char *name;
    unsigned min_fan; /* children of an inner node: min_fan .. max_fan */
    unsigned max_fan;
    unsigned max_depth;
    unsigned max_work; /* mixing rounds per node: 0 .. max_work */
    unsigned leaf_pct; /* chance a node below the root is a leaf */
} shape;

static inline uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static inline unsigned fanout(uint64_t seed, unsigned depth, const shape *s)
{
    if (depth >= s->max_depth)
        return 0;
    uint64_t h = mix(seed ^ 0xF00D);
    if (depth > 0 && h % 100 < s->leaf_pct)
        return 0;
    return s->min_fan + (unsigned)((h >> 8) % (s->max_fan - s->min_fan + 1));
}

static inline uint64_t work(uint64_t seed, const shape *s)
{
    unsigned rounds = (unsigned)(mix(seed ^ 0xBEEF) % (s->max_work + 1));
    uint64_t v = seed;
    for (unsigned i = 0; i < rounds; i++)
        v = mix(v);
    return v;
}

static inline uint64_t child_seed(uint64_t seed, unsigned i) { return mix(seed * 31 + i + 1); }

/* How a node joins its children, from its hash. */
enum { SPAWN_ALL_SYNC_ALL, CALL_LAST, INTERLEAVE, DROP_SOME, N_MODES };

static uint64_t seq_nodes;

static uint64_t tree_seq(uint64_t seed, unsigned depth, const shape *s)
{
    seq_nodes++;
    unsigned n = fanout(seed, depth, s);
    uint64_t sum = work(seed, s);
    int mode = (int)(mix(seed ^ 0xABCD) % N_MODES);
    for (unsigned i = 0; i < n; i++) {
        /* DROP_SOME drops the odd children: their results never count. */
        if (mode == DROP_SOME && (i & 1))
            continue;
        sum += tree_seq(child_seed(seed, i), depth + 1, s) * (2 * i + 1);
    }
    return sum;
}

WEFT_TASK_3(uint64_t, tree, uint64_t, seed, unsigned, depth, const shape *, s)
{
    unsigned n = fanout(seed, depth, s);
    uint64_t sum = work(seed, s);
    int mode = (int)(mix(seed ^ 0xABCD) % N_MODES);
    switch (mode) {
    case SPAWN_ALL_SYNC_ALL:
        for (unsigned i = 0; i < n; i++)
            WEFT_SPAWN(tree, child_seed(seed, i), depth + 1, s);
        for (unsigned i = n; i-- > 0;)
            sum += WEFT_SYNC(tree) * (2 * i + 1);
        break;
    case CALL_LAST:
        if (n == 0)
            break;
        for (unsigned i = 0; i + 1 < n; i++)
            WEFT_SPAWN(tree, child_seed(seed, i), depth + 1, s);
        sum += WEFT_CALL(tree, child_seed(seed, n - 1), depth + 1, s) * (2 * (n - 1) + 1);
        for (unsigned i = n - 1; i-- > 0;)
            sum += WEFT_SYNC(tree) * (2 * i + 1);
        break;
    case INTERLEAVE:
        /* Pairs: spawn two, join the second, spawn nothing, join the first. */
        for (unsigned i = 0; i < n; i += 2) {
            WEFT_SPAWN(tree, child_seed(seed, i), depth + 1, s);
            if (i + 1 < n) {
                WEFT_SPAWN(tree, child_seed(seed, i + 1), depth + 1, s);
                sum += WEFT_SYNC(tree) * (2 * (i + 1) + 1);
            }
            sum += WEFT_SYNC(tree) * (2 * i + 1);
        }
        break;
    case DROP_SOME:
        for (unsigned i = 0; i < n; i++)
            WEFT_SPAWN(tree, child_seed(seed, i), depth + 1, s);
        for (unsigned i = n; i-- > 0;) {
            if (i & 1)
                WEFT_DROP(tree);
            else
                sum += WEFT_SYNC(tree) * (2 * i + 1);
        }
        break;
    }
    return sum;
}

/* Tasks of every arity, void and value, with a struct result. */
typedef struct triple {
    uint64_t a, b, c;
} triple;

WEFT_TASK_0(uint64_t, zero_args) { return 42; }
WEFT_TASK_6(uint64_t, six_args, uint64_t, a, uint32_t, b, uint16_t, c, uint8_t, d, double, e,
            const uint64_t *, f)
{
    return a + b + c + d + (uint64_t)e + *f;
}
WEFT_TASK_2(triple, tri, uint64_t, lo, uint64_t, hi)
{
    if (hi - lo <= 1) {
        triple t = {lo, lo * lo, 1};
        return t;
    }
    uint64_t mid = lo + (hi - lo) / 2;
    WEFT_SPAWN(tri, lo, mid);
    triple r = WEFT_CALL(tri, mid, hi);
    triple l = WEFT_SYNC(tri);
    triple t = {l.a + r.a, l.b + r.b, l.c + r.c};
    return t;
}
WEFT_VOID_TASK_4(fill, uint64_t *, out, size_t, lo, size_t, hi, uint64_t, salt)
{
    if (hi - lo <= 8) {
        for (size_t i = lo; i < hi; i++)
            out[i] = mix(i ^ salt);
        return;
    }
    size_t mid = lo + (hi - lo) / 2;
    WEFT_SPAWN(fill, out, lo, mid, salt);
    WEFT_SPAWN(fill, out, mid, hi, salt);
    WEFT_SPAWN(zero_args);
    uint64_t one = 1;
    WEFT_SPAWN(six_args, 1, 2, 3, 4, 5.0, &one);
    CHECK(WEFT_SYNC(six_args) == 16, "six_args");
    CHECK(WEFT_SYNC(zero_args) == 42, "zero_args");
    WEFT_SYNC(fill);
    WEFT_SYNC(fill);
}

/* DROP: a task that was not stolen is dropped without running. */
static atomic_uint drop_runs;
WEFT_TASK_1(int, counted, int, x)
{
    atomic_fetch_add(&drop_runs, 1);
    return x;
}
WEFT_TASK_1(int, drop_many, int, k)
{
    for (int i = 0; i < k; i++)
        WEFT_SPAWN(counted, i);
    int kept = 0;
    for (int i = k; i-- > 0;) {
        if (i % 3 == 0)
            kept += WEFT_SYNC(counted);
        else
            WEFT_DROP(counted);
    }
    return kept;
}

static const shape shapes[] = {
    {"binary", 2, 2, 18, 20, 5},      {"wide", 1, 40, 3, 50, 10},
    {"deep-chain", 1, 1, 3000, 5, 0}, {"bushy-unbalanced", 0, 6, 14, 200, 35},
    {"tiny-tasks", 2, 3, 12, 0, 15},
};

int main(int argc, char **argv)
{
    unsigned scale = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
    if (scale == 0)
        scale = 1;
    for (size_t wi = 0; wi < N_TEST_WORKER_COUNTS; wi++) {
        unsigned workers = test_worker_counts[wi];
        CHECK(weft_start(workers, 0, 0) == 0, "start %u", workers);
        CHECK(weft_workers() == workers, "workers");
        for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
            const shape *s = &shapes[si];
            for (unsigned rep = 0; rep < 3 * scale; rep++) {
                uint64_t seed = mix(0x5EED + rep * 977 + si * 131);
                seq_nodes = 0;
                uint64_t want = tree_seq(seed, 0, s);
                if (wi == 0 && rep == 0)
                    printf("  shape %-17s %8llu nodes\n", s->name, (unsigned long long)seq_nodes);
                uint64_t got = WEFT_RUN(tree, seed, 0, s);
                CHECK(got == want, "%s, %u workers, rep %u: got %llu want %llu", s->name, workers,
                      rep, (unsigned long long)got, (unsigned long long)want);
            }
        }
        triple t = WEFT_RUN(tri, 0, 10000);
        CHECK(t.a == 10000ULL * 9999 / 2 && t.c == 10000, "tri sums");
        CHECK(t.b == 9999ULL * 10000 * 19999 / 6, "tri squares");
        size_t n = 50000;
        uint64_t *out = calloc(n, sizeof *out);
        WEFT_RUN(fill, out, 0, n, workers);
        for (size_t i = 0; i < n; i++)
            CHECK(out[i] == mix(i ^ workers), "fill[%zu]", i);
        free(out);
        /* DROP: results of kept tasks only; with one worker nothing is
         * stolen, so dropped tasks never run. */
        atomic_store(&drop_runs, 0);
        int want = 0;
        for (int i = 0; i < 3000; i += 3)
            want += i;
        CHECK(WEFT_RUN(drop_many, 3000) == want, "drop_many");
        unsigned runs = atomic_load(&drop_runs);
        CHECK(runs >= 1000 && runs <= 3000, "%u runs", runs);
        if (workers == 1)
            CHECK(runs == 1000, "one worker: %u tasks ran, only the 1000 synced ones should", runs);
        CHECK(weft_stop() == 0, "stop");
        printf("ok: random trees at %u workers\n", workers);
    }
    return 0;
}
