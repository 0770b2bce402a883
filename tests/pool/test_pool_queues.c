// SPDX-License-Identifier: Apache-2.0
/* The queue algorithms of src/workpool on their own (white-box): sequential
 * semantics, growth, shrinking with epoch reclamation, overflow of the
 * fixed-size queues, and a concurrent stress test per queue with 1, 2, 7
 * and 31 thieves (up to 32 threads on CI's 2 cores).
 *
 * Stress: the owner pushes items with unique ids in bursts and takes some
 * back; thieves steal (one at a time, or half for the duplicating queue)
 * until the owner has drained the queue and said stop.  Every id must come
 * out exactly once (exactly-once queues) or at least once (idempotent
 * queues, whose duplicates are counted and printed).  Items are three words
 * derived from the id, checked on every delivery: a torn item (words of two
 * different pushes) fails the test.
 *
 * Usage: test_pool_queues [scale]
 */
#include "../check.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "workpool/ebr.h"
#include "workpool/queues/table.h"
#include "all_kinds.h"

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#else
#define SANITIZED 0
#endif

enum { WORDS = 3, MAX_THREADS = 32 };


/* A fake pool with n workers, enough for the queue operations (counters,
 * epoch announcements). */
typedef struct harness {
    wp_pool p;
    wp_worker *w[MAX_THREADS];
    wp_queue *q;
} harness;

static void harness_init(harness *h, weft_queue_kind kind, unsigned n, size_t cap)
{
    memset(&h->p, 0, sizeof h->p);
    h->p.ops = weft__wp_queue_ops_of(kind);
    h->p.n = n;
    h->p.words = WORDS;
    h->p.item_size = WORDS * 8;
    h->p.workers = h->w;
    atomic_init(&h->p.epoch, 0);
    for (unsigned i = 0; i < n; i++) {
        h->w[i] = aligned_alloc(WEFT_CACHE_LINE, sizeof(wp_worker));
        CHECK(h->w[i] != NULL, "alloc");
        memset(h->w[i], 0, sizeof(wp_worker));
        h->w[i]->id = i;
        h->w[i]->pool = &h->p;
        atomic_init(&h->w[i]->ebr_ann, 0);
    }
    CHECK(h->p.ops->create(&h->p, h->w[0], cap, &h->q) == 0, "create %s", h->p.ops->name);
    h->q->ops = h->p.ops;
    h->q->pool = &h->p;
    h->q->owner = 0;
}

static void harness_free(harness *h)
{
    h->p.ops->destroy(h->q);
    for (unsigned i = 0; i < h->p.n; i++) {
        weft__wp_ebr_drain(h->w[i]);
        free(h->w[i]);
    }
}

static void make_item(uint64_t id, uint64_t *it)
{
    it[0] = id;
    it[1] = id * 0x9E3779B97F4A7C15ull + 1;
    it[2] = ~id;
}

static uint64_t check_item(const uint64_t *it, const char *who, const char *kind)
{
    CHECK(it[1] == it[0] * 0x9E3779B97F4A7C15ull + 1 && it[2] == ~it[0],
          "%s: %s delivered a torn or corrupt item (%llx %llx %llx)", kind, who,
          (unsigned long long)it[0], (unsigned long long)it[1], (unsigned long long)it[2]);
    return it[0];
}

/* ---- sequential semantics ---- */

static void test_sequential(weft_queue_kind kind)
{
    harness h;
    harness_init(&h, kind, 2, kind == WEFT_QUEUE_ABP ? 1024 : 8);
    const wp_queue_ops *ops = h.p.ops;
    uint64_t it[WORDS];
    const unsigned n = 100;
    for (unsigned i = 0; i < n; i++) {
        make_item(i, it);
        CHECK(ops->push(h.q, it, h.w[0]), "%s: push %u", ops->name, i);
    }
    CHECK_EQ_U64(ops->size(h.q), n);
    if (kind != WEFT_QUEUE_ABP && kind != WEFT_QUEUE_CENTRAL)
        CHECK(h.w[0]->ctr.grows > 0, "%s: 100 items in 8 slots without growing", ops->name);
    /* A thief gets the oldest item (the newest for the one-ended LIFO). */
    wp_steal_result r = ops->steal(h.q, it, h.w[1]);
    CHECK(r == WP_STEAL_OK, "%s: steal from a full queue: %d", ops->name, (int)r);
    uint64_t expect_steal =
        (kind == WEFT_QUEUE_IDEMPOTENT_LIFO || kind == WEFT_QUEUE_CENTRAL) ? n - 1 : 0;
    CHECK_EQ_U64(check_item(it, "steal", ops->name), expect_steal);
    /* The owner takes the newest (the oldest for FIFO). */
    CHECK(ops->take(h.q, it, h.w[0]), "%s: take", ops->name);
    uint64_t first = check_item(it, "take", ops->name);
    if (kind == WEFT_QUEUE_IDEMPOTENT_FIFO)
        CHECK_EQ_U64(first, 1);
    else if (kind == WEFT_QUEUE_IDEMPOTENT_LIFO || kind == WEFT_QUEUE_CENTRAL)
        CHECK_EQ_U64(first, n - 2);
    else
        CHECK_EQ_U64(first, n - 1);
    unsigned got = 2;
    while (ops->take(h.q, it, h.w[0])) {
        check_item(it, "take", ops->name);
        got++;
    }
    CHECK(got == n, "%s: %u of %u items came out", ops->name, got, n);
    CHECK(ops->steal(h.q, it, h.w[1]) == WP_STEAL_EMPTY, "%s: steal from an empty queue",
          ops->name);
    CHECK_EQ_U64(ops->size(h.q), 0);
    /* Reusable after emptying. */
    make_item(7, it);
    CHECK(ops->push(h.q, it, h.w[0]), "%s: push after empty", ops->name);
    CHECK(ops->take(h.q, it, h.w[0]) && check_item(it, "take", ops->name) == 7, "%s: reuse",
          ops->name);
    CHECK(!ops->take(h.q, it, h.w[0]), "%s: take from empty", ops->name);
    /* carve (the victim side of steal-half) gives the oldest items. */
    if (ops->carve != NULL) {
        for (unsigned i = 0; i < 10; i++) {
            make_item(100 + i, it);
            CHECK(ops->push(h.q, it, h.w[0]), "push");
        }
        uint64_t out[5 * WORDS];
        size_t k = ops->carve(h.q, out, 5, h.w[0]);
        CHECK(k == 5, "%s: carve gave %zu of 5", ops->name, k);
        for (size_t i = 0; i < k; i++) {
            uint64_t id = check_item(out + i * WORDS, "carve", ops->name);
            if (kind == WEFT_QUEUE_IDEMPOTENT_LIFO)
                CHECK(id == 109 - i, "%s: carve item %zu is %llu", ops->name, i,
                      (unsigned long long)id);
            else
                CHECK(id == 100 + i, "%s: carve item %zu is %llu", ops->name, i,
                      (unsigned long long)id);
        }
        while (ops->take(h.q, it, h.w[0]))
            check_item(it, "take", ops->name);
    }
    harness_free(&h);
}

/* ---- the fixed-size queues ---- */

static void test_abp_overflow(void)
{
    harness h;
    harness_init(&h, WEFT_QUEUE_ABP, 2, 16);
    const wp_queue_ops *ops = h.p.ops;
    uint64_t it[WORDS];
    for (unsigned i = 0; i < 16; i++) {
        make_item(i, it);
        CHECK(ops->push(h.q, it, h.w[0]), "abp: push %u of 16", i);
    }
    make_item(16, it);
    CHECK(!ops->push(h.q, it, h.w[0]), "abp: a 17th push into 16 slots must report full");
    /* Thieves take 8 from the top: compaction makes room again. */
    for (unsigned i = 0; i < 8; i++) {
        CHECK(ops->steal(h.q, it, h.w[1]) == WP_STEAL_OK, "abp: steal");
        CHECK_EQ_U64(check_item(it, "steal", "abp"), i);
    }
    for (unsigned i = 16; i < 24; i++) {
        make_item(i, it);
        CHECK(ops->push(h.q, it, h.w[0]), "abp: push %u after compaction", i);
    }
    CHECK(!ops->push(h.q, it, h.w[0]), "abp: full again");
    for (unsigned i = 8; i < 24; i++) {
        CHECK(ops->steal(h.q, it, h.w[1]) == WP_STEAL_OK, "abp: steal after compaction");
        CHECK_EQ_U64(check_item(it, "steal", "abp"), i);
    }
    CHECK(!ops->take(h.q, it, h.w[0]), "abp: empty");
    harness_free(&h);
    printf("ok: abp reports full at its capacity and compacts when thieves made room\n");
}

static void test_deque_overflow(void)
{
    harness h;
    harness_init(&h, WEFT_QUEUE_IDEMPOTENT_DEQUE, 2, 1024);
    const wp_queue_ops *ops = h.p.ops;
    uint64_t it[WORDS];
    unsigned i = 0;
    for (; i < 70000; i++) {
        make_item(i, it);
        if (!ops->push(h.q, it, h.w[0]))
            break;
    }
    CHECK(i == 65536, "idem-deque: full after %u items, expected 65536", i);
    CHECK_EQ_U64(ops->size(h.q), 65536);
    unsigned got = 0;
    while (ops->take(h.q, it, h.w[0])) {
        CHECK_EQ_U64(check_item(it, "take", "idem-deque"), 65535 - got);
        got++;
    }
    CHECK(got == 65536, "idem-deque: %u items came out", got);
    harness_free(&h);
    printf("ok: idem-deque holds 65536 items, then reports full\n");
}

/* ---- concurrent stress ---- */

typedef struct stress {
    harness h;
    unsigned thieves;
    uint64_t n_items;
    _Atomic uint32_t *count; /* deliveries per id */
    _Atomic uint32_t stop;
    bool half;
} stress;

typedef struct thief_arg {
    stress *s;
    unsigned id;
} thief_arg;

static void deliver(stress *s, const uint64_t *it, const char *who)
{
    uint64_t id = check_item(it, who, s->h.p.ops->name);
    CHECK(id < s->n_items, "%s: id %llu out of range", s->h.p.ops->name, (unsigned long long)id);
    /* Relaxed: a count, read after the threads are joined. */
    atomic_fetch_add_explicit(&s->count[id], 1, memory_order_relaxed);
}

static void *thief_main(void *arg)
{
    thief_arg *ta = arg;
    stress *s = ta->s;
    wp_worker *me = s->h.w[ta->id];
    const wp_queue_ops *ops = s->h.p.ops;
    uint64_t buf[64 * WORDS];
    for (;;) {
        /* Acquire: pairs with the owner's release of stop (after draining). */
        bool last = atomic_load_explicit(&s->stop, memory_order_acquire);
        size_t k = 0;
        if (s->half) {
            k = ops->steal_half(s->h.q, buf, 64, me);
        } else if (ops->steal(s->h.q, buf, me) == WP_STEAL_OK) {
            k = 1;
        }
        for (size_t i = 0; i < k; i++)
            deliver(s, buf + i * WORDS, "steal");
        if (k == 0 && last && ops->size(s->h.q) == 0)
            break;
        if (k == 0)
            sched_yield();
    }
    return NULL;
}

static void run_stress(weft_queue_kind kind, unsigned thieves, uint64_t n_items, bool half,
                       unsigned seed)
{
    stress s;
    memset(&s, 0, sizeof s);
    /* Small initial capacity: growth (and shrinking) happen under fire. */
    size_t cap = kind == WEFT_QUEUE_ABP ? (size_t)1 << 20 : 16;
    harness_init(&s.h, kind, thieves + 1, cap);
    s.thieves = thieves;
    s.n_items = n_items;
    s.half = half;
    s.count = calloc(n_items, sizeof *s.count);
    CHECK(s.count != NULL, "alloc");
    atomic_init(&s.stop, 0);
    const wp_queue_ops *ops = s.h.p.ops;

    /* First, alone: a burst that makes a growing queue grow, and emptying
     * it, which makes a shrinking one shrink, whatever the thieves do
     * later (they may keep the queue too short to resize). */
    uint64_t next = 0, it[WORDS];
    while (next < n_items && next < 1000) {
        make_item(next++, it);
        if (!ops->push(s.h.q, it, s.h.w[0]))
            deliver(&s, it, "full");
    }
    while (ops->take(s.h.q, it, s.h.w[0]))
        deliver(&s, it, "take");

    pthread_t th[MAX_THREADS];
    thief_arg ta[MAX_THREADS];
    for (unsigned t = 0; t < thieves; t++) {
        ta[t] = (thief_arg){&s, t + 1};
        CHECK(pthread_create(&th[t], NULL, thief_main, &ta[t]) == 0, "pthread_create");
    }
    /* The owner: bursts of pushes (up to 300, so the arrays grow and then
     * shrink) and takes, down to empty now and then (last-item races). */
    uint64_t rng = seed * 0x9E3779B97F4A7C15ull + 1;
    while (next < n_items) {
        rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
        unsigned burst = 1 + (unsigned)(rng % ((rng >> 20) % 4 == 0 ? 300 : 8));
        for (unsigned i = 0; i < burst && next < n_items; i++) {
            make_item(next++, it);
            if (!ops->push(s.h.q, it, s.h.w[0])) {
                /* Only the fixed-size idempotent deque may fill up (65536
                 * items); the pool would spill, we deliver in place. */
                CHECK(kind == WEFT_QUEUE_IDEMPOTENT_DEQUE, "%s: push refused at size %zu",
                      ops->name, ops->size(s.h.q));
                deliver(&s, it, "full");
            }
        }
        unsigned takes = (unsigned)((rng >> 32) % (burst + 2));
        for (unsigned i = 0; i < takes; i++) {
            if (!ops->take(s.h.q, it, s.h.w[0]))
                break;
            deliver(&s, it, "take");
        }
    }
    while (ops->take(s.h.q, it, s.h.w[0]))
        deliver(&s, it, "take");
    /* Release: our last operations before the thieves' final look. */
    atomic_store_explicit(&s.stop, 1, memory_order_release);
    for (unsigned t = 0; t < thieves; t++)
        pthread_join(th[t], NULL);

    uint64_t dups = 0;
    for (uint64_t id = 0; id < n_items; id++) {
        /* Relaxed: the threads are joined. */
        uint32_t c = atomic_load_explicit(&s.count[id], memory_order_relaxed);
        CHECK(c >= 1, "%s, %u thieves: item %llu was lost", ops->name, thieves,
              (unsigned long long)id);
        if (!ops->idempotent)
            CHECK(c == 1, "%s, %u thieves: item %llu delivered %u times", ops->name, thieves,
                  (unsigned long long)id, c);
        dups += c - 1;
    }
    wp_counters sum = {0};
    for (unsigned i = 0; i <= thieves; i++) {
        sum.grows += s.h.w[i]->ctr.grows;
        sum.shrinks += s.h.w[i]->ctr.shrinks;
        sum.reclaimed += s.h.w[i]->ctr.reclaimed;
    }
    if (kind == WEFT_QUEUE_CHASE_LEV_SHRINK)
        CHECK(sum.shrinks > 0 && sum.grows > 0,
              "chase-lev-shrink: %llu grows, %llu shrinks: the test did not resize",
              (unsigned long long)sum.grows, (unsigned long long)sum.shrinks);
    printf("ok: %-16s %2u thieves%s: %llu items, %llu duplicates, %llu grows, %llu shrinks, "
           "%llu arrays reclaimed during the run\n",
           ops->name, thieves, half ? " (half)" : "", (unsigned long long)n_items,
           (unsigned long long)dups, (unsigned long long)sum.grows, (unsigned long long)sum.shrinks,
           (unsigned long long)sum.reclaimed);
    harness_free(&s.h);
    free((void *)s.count);
}

/* The last-item race, forced often: the owner pushes one item and takes
 * it back at once while a thief steals without pause, so that owner and
 * thief contend for a lone item again and again.  Each item is delivered
 * exactly once (a take that lost the race must say so); the thief's wins
 * are counted to show the race was run. */
typedef struct last_item {
    harness h;
    _Atomic uint32_t *count;
    _Atomic uint32_t stop;
    _Atomic uint64_t thief_won;
    _Atomic uint64_t attempts; /* the thief's steal attempts so far */
    bool one_cpu;              /* the process may use one CPU only */
} last_item;

static void *last_item_thief(void *arg)
{
    last_item *li = arg;
    const wp_queue_ops *ops = li->h.p.ops;
    uint64_t it[WORDS];
    /* Acquire: pairs with the owner's release of stop (after draining). */
    while (!atomic_load_explicit(&li->stop, memory_order_acquire)) {
        /* Relaxed: the owner only paces itself by it. */
        atomic_fetch_add_explicit(&li->attempts, 1, memory_order_relaxed);
        if (ops->steal(li->h.q, it, li->h.w[1]) == WP_STEAL_OK) {
            /* Relaxed: counts, read after the join. */
            atomic_fetch_add_explicit(&li->count[it[0]], 1, memory_order_relaxed);
            atomic_fetch_add_explicit(&li->thief_won, 1, memory_order_relaxed);
        }
        /* On one CPU the owner runs only when we stop: one attempt per
         * turn, or every round waits for our whole time slice. */
        if (li->one_cpu)
            sched_yield();
    }
    return NULL;
}

static void test_last_item(weft_queue_kind kind, uint64_t rounds)
{
    last_item li;
    memset(&li, 0, sizeof li);
    harness_init(&li.h, kind, 2, 16);
    const wp_queue_ops *ops = li.h.p.ops;
    li.count = calloc(rounds, sizeof *li.count);
    CHECK(li.count != NULL, "alloc");
    atomic_init(&li.stop, 0);
    atomic_init(&li.thief_won, 0);
    atomic_init(&li.attempts, 0);
    cpu_set_t cpus;
    li.one_cpu = sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) == 1;
    pthread_t th;
    CHECK(pthread_create(&th, NULL, last_item_thief, &li) == 0, "pthread_create");
    uint64_t it[WORDS];
    for (uint64_t i = 0; i < rounds; i++) {
        make_item(i, it);
        CHECK(ops->push(li.h.q, it, li.h.w[0]), "%s: push refused", ops->name);
        /* Take when the thief has begun an attempt since the push (or
         * after a bounded wait, yielding so that a thief without a core
         * gets one): the two meet on the lone item. */
        uint64_t a = atomic_load_explicit(&li.attempts, memory_order_relaxed);
        for (int spin = 0;
             spin < 2200 && atomic_load_explicit(&li.attempts, memory_order_relaxed) == a; spin++)
            if (spin >= 2000)
                sched_yield();
        if (ops->take(li.h.q, it, li.h.w[0]))
            /* Relaxed: as the thief's. */
            atomic_fetch_add_explicit(&li.count[it[0]], 1, memory_order_relaxed);
    }
    /* Release: our last operations before the thief's final look. */
    atomic_store_explicit(&li.stop, 1, memory_order_release);
    pthread_join(th, NULL);
    while (ops->take(li.h.q, it, li.h.w[0]))
        atomic_fetch_add_explicit(&li.count[it[0]], 1, memory_order_relaxed);
    for (uint64_t id = 0; id < rounds; id++) {
        uint32_t c = atomic_load_explicit(&li.count[id], memory_order_relaxed);
        CHECK(c >= 1, "%s, last-item race: item %llu lost", ops->name, (unsigned long long)id);
        CHECK(ops->idempotent || c == 1, "%s, last-item race: item %llu delivered %u times",
              ops->name, (unsigned long long)id, c);
    }
    printf("ok: %-16s last-item race: %llu rounds, the thief won %llu\n", ops->name,
           (unsigned long long)rounds, (unsigned long long)atomic_load(&li.thief_won));
    harness_free(&li.h);
    free((void *)li.count);
}

/* Epochs: an array retired while a thief announces an old epoch is kept;
 * once the thief withdraws, two advances free it. */
static void test_ebr(void)
{
    harness h;
    harness_init(&h, WEFT_QUEUE_CHASE_LEV_SHRINK, 2, 16);
    wp_worker *owner = h.w[0], *thief = h.w[1];
    weft__wp_ebr_enter(thief);
    void *a = malloc(64);
    weft__wp_ebr_retire(owner, a);
    for (int i = 0; i < 5; i++)
        weft__wp_ebr_collect(owner);
    CHECK(owner->n_retired == 1, "ebr: freed an array while a thief was inside");
    weft__wp_ebr_exit(thief);
    for (int i = 0; i < 3; i++)
        weft__wp_ebr_collect(owner);
    CHECK(owner->n_retired == 0, "ebr: %zu arrays still retired after the thief left",
          owner->n_retired);
    CHECK_EQ_U64(owner->ctr.reclaimed, 1);
    harness_free(&h);
    printf("ok: epochs keep an array while a thief is inside, free it after\n");
}

int main(int argc, char **argv)
{
    unsigned scale = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
    if (scale == 0)
        scale = 1;
    for (size_t k = 0; k < N_KINDS; k++)
        test_sequential(all_kinds[k]);
    printf("ok: sequential semantics of every queue\n");
    test_abp_overflow();
    test_deque_overflow();
    test_ebr();

    /* The queues that promise exactly once (an idempotent one may deliver
     * the contended item twice). */
    for (size_t k = 0; k < N_KINDS; k++)
        if (!weft_queue_is_idempotent(all_kinds[k]))
            test_last_item(all_kinds[k], SANITIZED ? 5000 : 20000);
    uint64_t items = SANITIZED ? 20000 : 200000;
    items *= scale > 10 ? 3 : 1;
    static const unsigned thieves[] = {1, 2, 7, 31};
    for (size_t k = 0; k < N_KINDS; k++)
        for (size_t t = 0; t < sizeof thieves / sizeof thieves[0]; t++)
            run_stress(all_kinds[k], thieves[t], thieves[t] > 7 ? items / 4 : items, false,
                       (unsigned)(k * 10 + t + 1));
    for (size_t t = 0; t < sizeof thieves / sizeof thieves[0]; t++)
        run_stress(WEFT_QUEUE_DUPLICATING, thieves[t], items, true, (unsigned)(100 + t));
    printf("all queue tests passed\n");
    return 0;
}
