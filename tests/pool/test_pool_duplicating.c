// SPDX-License-Identifier: Apache-2.0
/* The duplicating queue's repair after a duplication (white-box, one
 * thread): the queue's own source is compiled in here, so the test can
 * give a thief the stale view of the owner's tail that the race needs.
 *
 * A thief that has not yet seen the owner's takes (their tail stores are
 * relaxed, with no fence) may take items the owner has taken too, and push
 * head above the owner's index.  The owner's next pushes then land below
 * head, where no thief looks.  What must hold:
 *   - no item is lost: every pushed item comes out at least once;
 *   - nothing stays hidden: once the owner has taken an item after the
 *     race, everything it still holds is above head, so thieves alone can
 *     drain the queue (a queue whose work only its owner can see leaves
 *     the other workers asleep beside it).
 * `repair` builds the smallest such history by hand; `random_histories`
 * runs many random ones over a small array (growth, wrap-around).
 *
 * Usage: test_pool_duplicating [scale]
 */
#include "../check.h"

#include <stdlib.h>

/* The queue under test, under a name of its own beside the library's. */
#define weft__wp_duplicating_ops wp_duplicating_ops_under_test
#include "workpool/queues/duplicating.c"
#undef weft__wp_duplicating_ops

typedef struct rig {
    wp_pool pool;
    wp_worker *owner, *thief;
    dup_queue *q;
} rig;

static wp_worker *new_worker(wp_pool *p, unsigned id)
{
    wp_worker *w = aligned_alloc(WEFT_CACHE_LINE, sizeof *w);
    CHECK(w != NULL, "alloc");
    memset(w, 0, sizeof *w);
    w->id = id;
    w->pool = p;
    return w;
}

static void rig_init(rig *r, size_t cap)
{
    memset(&r->pool, 0, sizeof r->pool);
    r->pool.words = 1;
    r->pool.item_size = 8;
    r->owner = new_worker(&r->pool, 0);
    r->thief = new_worker(&r->pool, 1);
    wp_queue *q;
    CHECK(dup_create(&r->pool, r->owner, cap, &q) == 0, "create");
    r->q = (dup_queue *)q;
}

static void rig_free(rig *r)
{
    dup_destroy(&r->q->base);
    free(r->owner);
    free(r->thief);
}

static void push(rig *r, uint64_t id)
{
    CHECK(dup_push(&r->q->base, &id, r->owner), "push %llu", (unsigned long long)id);
}

/* A steal by a thief that sees `tail` (a value the owner published
 * earlier) instead of the owner's latest: the owner's take stores still in
 * flight.  Steal-one, or with `half` the native steal-half; the items go to
 * out; returns how many. */
static size_t steal_seeing(rig *r, uint64_t tail, bool half, uint64_t *out)
{
    uint64_t latest = atomic_load(&r->q->tail);
    atomic_store(&r->q->tail, tail);
    size_t k;
    if (half) {
        uint64_t aborts = r->thief->ctr.steal_aborts;
        k = dup_steal_half(&r->q->base, out, DUP_HALF_MAX, r->thief);
        CHECK(r->thief->ctr.steal_aborts == aborts, "a steal on one thread aborted");
    } else {
        wp_steal_result res = dup_steal(&r->q->base, out, r->thief);
        CHECK(res != WP_STEAL_ABORT, "a steal on one thread aborted");
        k = res == WP_STEAL_OK;
    }
    atomic_store(&r->q->tail, latest);
    return k;
}

/* One item stolen with the view `tail`, or UINT64_MAX if none. */
static uint64_t steal_one_seeing(rig *r, uint64_t tail)
{
    uint64_t item;
    return steal_seeing(r, tail, false, &item) ? item : UINT64_MAX;
}

static uint64_t steal(rig *r) { return steal_one_seeing(r, atomic_load(&r->q->tail)); }

static uint64_t take(rig *r)
{
    uint64_t item;
    return dup_take(&r->q->base, &item, r->owner) ? item : UINT64_MAX;
}

static void repair(void)
{
    rig r;
    rig_init(&r, 8);
    for (uint64_t i = 0; i < 5; i++)
        push(&r, i); /* A0..A4 at indices 0..4 */
    CHECK_EQ_U64(steal(&r), 0);
    uint64_t before = atomic_load(&r.q->tail);
    /* The owner takes A4, A3, A2; a thief that still sees tail 5 takes A1,
     * A2, A3: head 4, above the owner's index 2. */
    CHECK_EQ_U64(take(&r), 4);
    CHECK_EQ_U64(take(&r), 3);
    CHECK_EQ_U64(take(&r), 2);
    for (uint64_t i = 1; i <= 3; i++)
        CHECK_EQ_U64(steal_one_seeing(&r, before), i);
    /* B0..B3 land at 2..5: B0 and B1 below head, hidden. */
    for (uint64_t i = 10; i < 14; i++)
        push(&r, i);
    CHECK_EQ_U64(dup_size(&r.q->base), 2);
    CHECK_EQ_U64(steal(&r), 12);
    CHECK_EQ_U64(steal(&r), 13);
    /* The owner's take finds head above its index and takes B1, its newest
     * item; B0 must come back into thieves' sight. */
    CHECK_EQ_U64(take(&r), 11);
    CHECK(dup_size(&r.q->base) == 1,
          "after the repair the queue shows %zu items to thieves; the owner holds one (B0)",
          dup_size(&r.q->base));
    CHECK_EQ_U64(steal(&r), 10);
    CHECK_EQ_U64(take(&r), UINT64_MAX);
    /* New pushes are all visible. */
    for (uint64_t i = 20; i < 30; i++)
        push(&r, i);
    CHECK_EQ_U64(dup_size(&r.q->base), 10);
    for (uint64_t i = 20; i < 30; i++)
        CHECK_EQ_U64(steal(&r), i);
    CHECK_EQ_U64(steal(&r), UINT64_MAX);
    rig_free(&r);
    printf("ok: after a duplication the owner's items below head come back into thieves' sight\n");
}

/* Counts a delivery of item id; returns 1 if it was a duplicate. */
static uint64_t delivered(uint8_t *seen, uint64_t id) { return seen[id]++ != 0; }

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Random histories of pushes, takes and steals (one or half), some
 * steals with a stale view of the tail.  A view is the tail a thief last
 * read: the latest value at a push or at a steal that saw the latest (a
 * thief after it takes the lock after it, so it reads that value or a
 * newer one).  It stays possible only while the owner has only taken
 * since: a push's release fence and the thief's acquire fence make a steal
 * that reads a rewritten slot see the newer tail, and a repair happens
 * under the lock, which no thief holds a view across. */
static void random_histories(unsigned histories)
{
    enum { MAX_ITEMS = 4000 };
    static uint8_t seen[MAX_ITEMS];
    uint64_t dups = 0, hidden_runs = 0, stale_halves = 0;
    for (unsigned h = 0; h < histories; h++) {
        uint64_t s = 0x9E3779B97F4A7C15ull * (h + 1);
        rig r;
        rig_init(&r, 8);
        memset(seen, 0, sizeof seen);
        uint64_t next = 0, view = atomic_load(&r.q->tail);
        bool view_valid = true;
        unsigned steps = 200 + (unsigned)(rng_next(&s) % 800);
        for (unsigned k = 0; k < steps && next < MAX_ITEMS; k++) {
            uint64_t got[DUP_HALF_MAX];
            size_t n_got = 0;
            switch (rng_next(&s) % 8) {
            case 0:
            case 1:
            case 2:
                push(&r, next++);
                view = atomic_load(&r.q->tail);
                view_valid = true;
                break;
            case 3:
            case 4: {
                uint32_t lo = r.q->lo;
                if ((got[0] = take(&r)) != UINT64_MAX)
                    n_got = 1;
                /* A repair moves items under the lock: no thief can hold a
                 * view from before it. */
                if (r.q->lo != lo)
                    view_valid = false;
                break;
            }
            case 5:
                view = atomic_load(&r.q->tail);
                view_valid = true;
                n_got = steal_seeing(&r, view, false, got);
                break;
            default:
                if (view_valid) {
                    bool half = rng_next(&s) % 2;
                    n_got = steal_seeing(&r, view, half, got);
                    stale_halves += half && n_got > 1;
                }
                break;
            }
            for (size_t j = 0; j < n_got; j++) {
                CHECK(got[j] < next, "history %u: item %llu was never pushed", h,
                      (unsigned long long)got[j]);
                dups += delivered(seen, got[j]);
            }
        }
        /* Thieves take what they see; the owner's next take may find an
         * item a stale steal left below head, and must then bring the rest
         * back into sight, so that thieves alone drain the queue. */
        uint64_t got;
        while ((got = steal(&r)) != UINT64_MAX)
            dups += delivered(seen, got);
        if ((got = take(&r)) != UINT64_MAX) {
            dups += delivered(seen, got);
            hidden_runs++;
        }
        while ((got = steal(&r)) != UINT64_MAX)
            dups += delivered(seen, got);
        got = take(&r);
        CHECK(got == UINT64_MAX,
              "history %u: item %llu stayed hidden from thieves below head; only its owner "
              "could take it",
              h, (unsigned long long)got);
        for (uint64_t i = 0; i < next; i++)
            CHECK(seen[i] != 0, "history %u: item %llu lost", h, (unsigned long long)i);
        rig_free(&r);
    }
    printf("ok: %u random histories with stale thieves: nothing lost, nothing left hidden "
           "(%llu duplicates, %llu stale steal-halves of several items; in %llu the owner "
           "found one below head after the thieves)\n",
           histories, (unsigned long long)dups, (unsigned long long)stale_halves,
           (unsigned long long)hidden_runs);
}

int main(int argc, char **argv)
{
    unsigned scale = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
    repair();
    random_histories(2000 * (scale ? scale : 1));
    printf("all duplicating queue tests passed\n");
    return 0;
}
