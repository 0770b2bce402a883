// SPDX-License-Identifier: Apache-2.0
/* weft_pool_run end to end, for every queue at 1, 2, 3, 8 and 32 workers.
 *
 *   tree         a random tree; items of 4 to 256 bytes carry a pattern
 *                checked on every delivery; every node processed exactly
 *                once (at least once on the idempotent queues, where the
 *                duplicates the case counts must equal the pool's count).
 *                Some items yield the CPU in the middle (long in-flight
 *                items while the others go idle), and every process call
 *                checks that the run has not been declared over (white-box:
 *                `done`), which is what an early termination would do.
 *   coalescing   one batch item of many units with a split function and
 *                steal-half: every unit processed once, and with >1 worker
 *                the first batch waits until a thief has asked, so a split
 *                must have happened.
 *   overflow     ABP of 1 and 4 slots: spilling keeps the run correct; FAIL makes
 *                push return ENOBUFS (the item is processed in place);
 *                initial items that do not fit make the run fail.
 *   concurrent   two pools at once from two threads.
 * Sleeping and waking have their own test, test_pool_sleep.c.
 *
 * Usage: test_pool_run [scale]
 */
#include "../check.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "workpool/loop.h"
#include "workpool/types.h"
#include "all_kinds.h"

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#else
#define SANITIZED 0
#endif


static inline uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* The pool running on the calling worker (white-box). */
static wp_pool *current_pool(void)
{
    CHECK(weft__wp_tls != NULL, "process function without a worker");
    return weft__wp_tls->pool;
}

static void check_not_done(void)
{
    /* Acquire: pairs with finish's release. */
    CHECK(atomic_load_explicit(&current_pool()->done, memory_order_acquire) == 0,
          "the run was declared over while an item was being processed");
}

/* ======================================================================
 * tree
 * ====================================================================== */

typedef struct tree {
    uint32_t n;
    uint32_t *first, *nchild;
    _Atomic uint32_t *visits;
    size_t item_size;
    _Atomic int64_t in_flight;
    bool fail_policy; /* push may return ENOBUFS: process in place */
    _Atomic uint64_t refused;
} tree;

static void tree_make(tree *t, uint32_t n, uint64_t seed)
{
    t->n = n;
    t->first = malloc(n * sizeof *t->first);
    t->nchild = malloc(n * sizeof *t->nchild);
    t->visits = calloc(n, sizeof *t->visits);
    CHECK(t->first && t->nchild && t->visits, "alloc");
    uint32_t next = 1;
    for (uint32_t v = 0; v < n; v++) {
        uint32_t c = (uint32_t)(mix(seed + v) % 5);
        if (c == 0 && next == v + 1 && next < n)
            c = 1;
        if (c > n - next)
            c = n - next;
        t->first[v] = next;
        t->nchild[v] = c;
        next += c;
    }
    atomic_init(&t->in_flight, 0);
    atomic_init(&t->refused, 0);
}

static void tree_free(tree *t)
{
    free(t->first);
    free(t->nchild);
    free((void *)t->visits);
}

static void item_fill(uint32_t id, unsigned char *it, size_t size)
{
    for (size_t i = 0; i < size; i++)
        it[i] = (unsigned char)(mix(id) >> (8 * (i % 8))) ^ (unsigned char)(i / 8);
    if (size >= 4)
        memcpy(it, &id, 4);
}

static uint32_t item_id(const unsigned char *it, size_t size)
{
    uint32_t id = 0;
    if (size >= 4)
        memcpy(&id, it, 4);
    else
        id = it[0]; /* unused: sizes >= 4 */
    for (size_t i = 4; i < size; i++)
        CHECK(it[i] == ((unsigned char)(mix(id) >> (8 * (i % 8))) ^ (unsigned char)(i / 8)),
              "item %u of %zu bytes is corrupt at byte %zu", id, size, i);
    return id;
}

static void tree_visit(weft_pool_ctx *ctx, void *item, void *arg);

static void tree_expand(weft_pool_ctx *ctx, tree *t, uint32_t v)
{
    unsigned char buf[WEFT_POOL_MAX_ITEM_SIZE];
    for (uint32_t c = t->first[v]; c < t->first[v] + t->nchild[v]; c++) {
        item_fill(c, buf, t->item_size);
        int r = weft_pool_push(ctx, buf);
        if (r == ENOBUFS && t->fail_policy) {
            /* Relaxed: a count, read after the run. */
            atomic_fetch_add_explicit(&t->refused, 1, memory_order_relaxed);
            tree_visit(ctx, buf, t); /* process it in place */
        } else {
            CHECK(r == 0, "weft_pool_push returned %d", r);
        }
    }
}

static void tree_visit(weft_pool_ctx *ctx, void *item, void *arg)
{
    tree *t = arg;
    /* Relaxed: a count of calls in progress, read after the run. */
    atomic_fetch_add_explicit(&t->in_flight, 1, memory_order_relaxed);
    uint32_t v = item_id(item, t->item_size);
    CHECK(v < t->n, "id %u out of range", v);
    /* Relaxed: counts visits; the first one expands the node. */
    if (atomic_fetch_add_explicit(&t->visits[v], 1, memory_order_relaxed) == 0) {
        if (mix(v ^ 0xABC) % 64 == 0)
            for (int i = 0; i < 3; i++)
                sched_yield(); /* a long item: the others run dry meanwhile */
        tree_expand(ctx, t, v);
    }
    check_not_done();
    CHECK(weft_pool_worker_id(ctx) < weft_pool_workers(ctx), "worker id out of range");
    /* Relaxed: see above. */
    atomic_fetch_sub_explicit(&t->in_flight, 1, memory_order_relaxed);
}

static void run_tree(weft_queue_kind kind, unsigned workers, uint32_t n, size_t item_size,
                     weft_pool_steal steal)
{
    tree t;
    memset(&t, 0, sizeof t);
    tree_make(&t, n, kind * 1000 + workers);
    t.item_size = item_size;
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, item_size);
    cfg.workers = workers;
    cfg.queue = kind;
    cfg.steal = steal;
    cfg.idempotent = true; /* the visit counter makes it so */
    cfg.idle_spin_us = 50;
    cfg.capacity = kind == WEFT_QUEUE_ABP ? 0 : 8; /* let them grow */
    unsigned char root[WEFT_POOL_MAX_ITEM_SIZE];
    item_fill(0, root, item_size);
    weft_pool_stats st;
    int r = weft_pool_run(&cfg, root, 1, tree_visit, &t, &st);
    CHECK(r == 0, "weft_pool_run: %d", r);
    /* Relaxed: the workers are joined. */
    CHECK(atomic_load_explicit(&t.in_flight, memory_order_relaxed) == 0,
          "weft_pool_run returned with process calls in flight");
    uint64_t extra = 0;
    for (uint32_t v = 0; v < n; v++) {
        /* Relaxed: the workers are joined. */
        uint32_t k = atomic_load_explicit(&t.visits[v], memory_order_relaxed);
        CHECK(k >= 1, "%s, %u workers: node %u never processed", weft_queue_name(kind), workers, v);
        extra += k - 1;
    }
    CHECK_EQ_U64(st.initial, 1);
    CHECK_EQ_U64(st.pushed, n - 1);
    CHECK_EQ_U64(st.processed, n + extra);
    CHECK_EQ_U64(st.duplicates, extra);
    if (!weft_queue_is_idempotent(kind))
        CHECK(extra == 0, "%s, %u workers: %llu items processed twice", weft_queue_name(kind),
              workers, (unsigned long long)extra);
    if (workers == 1)
        CHECK_EQ_U64(st.steals, 0);
    printf("ok: tree %-16s %2u workers, %3zu-byte items, steal %s: %u nodes, %llu duplicates, "
           "%llu steals, %llu sleeps\n",
           weft_queue_name(kind), workers, item_size,
           steal == WEFT_POOL_STEAL_HALF ? "half" : "one", n, (unsigned long long)extra,
           (unsigned long long)st.steals, (unsigned long long)st.sleeps);
    tree_free(&t);
}

/* ======================================================================
 * coalescing: one batch, split for steal-half transfers
 * ====================================================================== */

typedef struct range {
    uint32_t lo, hi;
} range;

typedef struct coal_state {
    uint32_t units;
    _Atomic uint32_t *count;
    bool waited;
} coal_state;

static bool coal_split(void *item, void *out, void *arg)
{
    (void)arg;
    range *r = item;
    if (r->hi - r->lo < 2)
        return false;
    uint32_t mid = r->lo + (r->hi - r->lo) / 2;
    range o = {mid, r->hi};
    memcpy(out, &o, sizeof o);
    r->hi = mid;
    return true;
}

static void coal_fn(weft_pool_ctx *ctx, void *item, void *arg)
{
    coal_state *cs = arg;
    range r = *(range *)item, mine = {r.lo, r.hi - r.lo > 64 ? r.lo + 64 : r.hi};
    range rest = {mine.hi, r.hi};
    if (rest.lo < rest.hi)
        CHECK(weft_pool_push(ctx, &rest) == 0, "push");
    wp_pool *p = current_pool();
    if (r.lo == 0 && !cs->waited && p->n > 1 && p->half && p->ops->steal_half == NULL) {
        /* The first batch waits until a thief asks worker 0 for work (the
         * rest of the batch is its only item: a split must serve it). */
        cs->waited = true;
        uint64_t t0 = weft_now_ns();
        /* Relaxed: polled. */
        while (atomic_load_explicit(&p->workers[0]->req, memory_order_relaxed) < 0) {
            CHECK(weft_now_ns() - t0 < 20000000000ull, "no thief ever asked for work");
            sched_yield();
        }
    }
    for (uint32_t u = mine.lo; u < mine.hi; u++) {
        /* Relaxed: a count, read after the run. */
        atomic_fetch_add_explicit(&cs->count[u], 1, memory_order_relaxed);
        for (volatile int spin = 0; spin < 50; spin++) {
        }
    }
    check_not_done();
}

static void run_coalescing(weft_queue_kind kind, unsigned workers, uint32_t units)
{
    coal_state cs = {units, calloc(units, sizeof(_Atomic uint32_t)), false};
    CHECK(cs.count != NULL, "alloc");
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(range));
    cfg.workers = workers;
    cfg.queue = kind;
    cfg.steal = WEFT_POOL_STEAL_HALF;
    cfg.split = coal_split;
    cfg.idempotent = true;
    cfg.idle_spin_us = 50;
    range all = {0, units};
    weft_pool_stats st;
    CHECK(weft_pool_run(&cfg, &all, 1, coal_fn, &cs, &st) == 0, "run");
    uint64_t extra = 0;
    for (uint32_t u = 0; u < units; u++) {
        /* Relaxed: the workers are joined. */
        uint32_t k = atomic_load_explicit(&cs.count[u], memory_order_relaxed);
        CHECK(k >= 1, "%s: unit %u never processed", weft_queue_name(kind), u);
        extra += k - 1;
    }
    if (!weft_queue_is_idempotent(kind))
        CHECK(extra == 0, "%s: %llu units processed twice", weft_queue_name(kind),
              (unsigned long long)extra);
    if (workers > 1 && kind != WEFT_QUEUE_CENTRAL && kind != WEFT_QUEUE_DUPLICATING)
        CHECK(st.splits > 0 && st.steals > 0, "%s, %u workers: %llu splits, %llu transfers",
              weft_queue_name(kind), workers, (unsigned long long)st.splits,
              (unsigned long long)st.steals);
    printf("ok: coalescing %-16s %2u workers: %u units, %llu splits, %llu transfers of %llu "
           "items, %llu duplicate units\n",
           weft_queue_name(kind), workers, units, (unsigned long long)st.splits,
           (unsigned long long)st.steals, (unsigned long long)st.stolen_items,
           (unsigned long long)extra);
    free((void *)cs.count);
}

/* ======================================================================
 * overflow of a fixed-size queue
 * ====================================================================== */

static void run_overflow(weft_pool_overflow policy, unsigned workers, uint32_t n, size_t cap)
{
    tree t;
    memset(&t, 0, sizeof t);
    tree_make(&t, n, 42);
    t.item_size = 8;
    t.fail_policy = policy == WEFT_POOL_OVERFLOW_FAIL;
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, 8);
    cfg.workers = workers;
    cfg.queue = WEFT_QUEUE_ABP;
    cfg.capacity = cap;
    cfg.overflow = policy;
    unsigned char root[8];
    item_fill(0, root, 8);
    weft_pool_stats st;
    CHECK(weft_pool_run(&cfg, root, 1, tree_visit, &t, &st) == 0, "run");
    for (uint32_t v = 0; v < n; v++)
        /* Relaxed: the workers are joined. */
        CHECK(atomic_load_explicit(&t.visits[v], memory_order_relaxed) == 1,
              "abp overflow: node %u processed %u times", v,
              atomic_load_explicit(&t.visits[v], memory_order_relaxed));
    CHECK(st.overflows > 0, "abp of %zu slots never overflowed", cap);
    /* Relaxed: the workers are joined. */
    uint64_t refused = atomic_load_explicit(&t.refused, memory_order_relaxed);
    if (policy == WEFT_POOL_OVERFLOW_FAIL)
        CHECK(refused == st.overflows && refused > 0, "refused %llu, overflows %llu",
              (unsigned long long)refused, (unsigned long long)st.overflows);
    printf("ok: abp of %zu slots, %s, %u workers: %llu overflows, %llu pushes refused\n", cap,
           policy == WEFT_POOL_OVERFLOW_FAIL ? "FAIL" : "SPILL", workers,
           (unsigned long long)st.overflows, (unsigned long long)refused);
    tree_free(&t);
}

static void run_initial_overflow(void)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, 8);
    cfg.workers = 2;
    cfg.queue = WEFT_QUEUE_ABP;
    cfg.capacity = 4;
    cfg.overflow = WEFT_POOL_OVERFLOW_FAIL;
    uint64_t items[20] = {0};
    tree t;
    memset(&t, 0, sizeof t);
    tree_make(&t, 20, 1);
    t.item_size = 8;
    fflush(stderr);
    int r = weft_pool_run(&cfg, items, 20, tree_visit, &t, NULL);
    CHECK(r == ENOBUFS, "20 initial items in 2 x 4 slots with FAIL: %d, expected ENOBUFS", r);
    for (uint32_t v = 0; v < 20; v++)
        /* Relaxed: nothing ran. */
        CHECK(atomic_load_explicit(&t.visits[v], memory_order_relaxed) == 0,
              "processed after a failed run");
    cfg.overflow = WEFT_POOL_OVERFLOW_SPILL;
    for (uint32_t v = 0; v < 20; v++)
        item_fill(v, (unsigned char *)&items[v], 8);
    for (uint32_t v = 0; v < 20; v++)
        t.nchild[v] = 0;
    CHECK(weft_pool_run(&cfg, items, 20, tree_visit, &t, NULL) == 0, "spill");
    for (uint32_t v = 0; v < 20; v++)
        /* Relaxed: the workers are joined. */
        CHECK(atomic_load_explicit(&t.visits[v], memory_order_relaxed) == 1, "spilled initial");
    tree_free(&t);
    printf("ok: initial items beyond a fixed capacity: ENOBUFS with FAIL, spilled with SPILL\n");
}

/* ======================================================================
 * two pools at once
 * ====================================================================== */

typedef struct concurrent_arg {
    weft_queue_kind kind;
    uint32_t n;
} concurrent_arg;

static void *concurrent_main(void *arg)
{
    concurrent_arg *ca = arg;
    run_tree(ca->kind, 3, ca->n, 8, WEFT_POOL_STEAL_ONE);
    return NULL;
}

int main(int argc, char **argv)
{
    unsigned scale = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
    unsigned repeat = 1 + scale / 15;
    uint32_t n = SANITIZED ? 5000 : 100000;
    static const size_t sizes[] = {4, 8, 24, 256};

    for (unsigned rep = 0; rep < repeat; rep++)
        for (size_t k = 0; k < N_KINDS; k++)
            for (size_t w = 0; w < N_TEST_WORKER_COUNTS; w++) {
                unsigned workers = test_worker_counts[w];
                run_tree(all_kinds[k], workers, workers >= 32 ? n / 4 : n, sizes[(k + w + rep) % 4],
                         WEFT_POOL_STEAL_ONE);
                if (workers > 1 && workers <= 8)
                    run_tree(all_kinds[k], workers, n / 2, 8, WEFT_POOL_STEAL_HALF);
            }

    for (size_t k = 0; k < N_KINDS; k++)
        for (size_t w = 0; w < N_TEST_WORKER_COUNTS; w++)
            run_coalescing(all_kinds[k], test_worker_counts[w], SANITIZED ? 20000 : 200000);

    for (unsigned workers = 1; workers <= 8; workers *= 8)
        for (size_t cap = 1; cap <= 4; cap += 3) {
            run_overflow(WEFT_POOL_OVERFLOW_SPILL, workers, n, cap);
            run_overflow(WEFT_POOL_OVERFLOW_FAIL, workers, n, cap);
        }
    run_initial_overflow();

    pthread_t th[2];
    concurrent_arg ca[2] = {{WEFT_QUEUE_CHASE_LEV, n}, {WEFT_QUEUE_IDEMPOTENT_DEQUE, n}};
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&th[i], NULL, concurrent_main, &ca[i]) == 0, "pthread_create");
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    printf("ok: two pools at once\n");
    printf("all pool run tests passed\n");
    return 0;
}
