// SPDX-License-Identifier: Apache-2.0
/* Sleeping workers of the work pool are woken (src/workpool/sleep.h):
 * every queue, 1, 2, 3, 8 and 32 workers on CI's 2 cores, steal one and
 * steal half.  Sleeps have no timeout, so a lost wake-up shows as work
 * that nobody helps with, or as a run that never returns; a watchdog turns
 * the latter into a failure with a message instead of a CTest timeout.
 *
 *   bursts       rounds of: a sequential chain, run until every other
 *                worker has been counted asleep for 5 ms (white-box:
 *                n_sleeping), then a burst of 500 items pushed by the
 *                worker that ran the chain (the conductor).  The conductor
 *                runs its first 40 burst items at full speed, so that it
 *                passes at least one of its wake points (every take on ABP
 *                and Chase-Lev, every 32 items on the others) with work
 *                left in its queue; after that each of its items waits up
 *                to 5 ms until some other worker has run a burst item.  If
 *                nobody ever does, the conductor finishes the burst alone
 *                (in 2.3 s) and the round fails: no sleeper was woken.
 *   endgame      many tiny runs whose workers go to sleep at once
 *                (idle_spin_us 0), so the end of the run races with
 *                workers announcing their sleep: every run must return
 *                (the watchdog) with every item processed.
 *
 * Usage: test_pool_sleep [scale]
 */
#include "../check.h"

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

/* ======================================================================
 * watchdog: a run that does not return in time fails the test
 * ====================================================================== */

static pthread_mutex_t wd_mu = PTHREAD_MUTEX_INITIALIZER;
static uint64_t wd_deadline; /* ns; 0: disarmed (under wd_mu) */
static char wd_what[160];    /* under wd_mu */

static void *watchdog_main(void *arg)
{
    (void)arg;
    for (;;) {
        weft_sleep_ns(50000000);
        pthread_mutex_lock(&wd_mu);
        if (wd_deadline != 0 && weft_now_ns() > wd_deadline) {
            fprintf(stderr,
                    "test_pool_sleep: %s did not return in time: a sleeping worker was "
                    "never woken (a lost wake-up)\n",
                    wd_what);
            fflush(stderr);
            _exit(1);
        }
        pthread_mutex_unlock(&wd_mu);
    }
    return NULL;
}

static void watchdog_arm(unsigned seconds, const char *what)
{
    pthread_mutex_lock(&wd_mu);
    snprintf(wd_what, sizeof wd_what, "%s", what);
    wd_deadline = weft_now_ns() + (uint64_t)seconds * 1000000000u;
    pthread_mutex_unlock(&wd_mu);
}

static void watchdog_disarm(void)
{
    pthread_mutex_lock(&wd_mu);
    wd_deadline = 0;
    pthread_mutex_unlock(&wd_mu);
}

/* Runs a pool under the watchdog. */
static void run_guarded(const weft_pool_config *cfg, const void *initial, size_t n, weft_pool_fn fn,
                        void *arg, weft_pool_stats *st, const char *what)
{
    watchdog_arm(SANITIZED ? 120 : 60, what);
    int r = weft_pool_run(cfg, initial, n, fn, arg, st);
    watchdog_disarm();
    CHECK(r == 0, "%s: weft_pool_run returned %d", what, r);
}

/* ======================================================================
 * bursts after long idle periods
 * ====================================================================== */

enum { CHAIN = 20, BURST = 500, FULL_SPEED = 40, MAX_ROUNDS = 4 };
#define ITEMS_PER_ROUND (CHAIN + BURST)
/* An item: round * ITEMS_PER_ROUND + k; k < CHAIN: a chain item, else a
 * burst item. */

typedef struct bursts {
    const char *what;
    unsigned workers, rounds;
    _Atomic uint8_t claimed[MAX_ROUNDS * ITEMS_PER_ROUND]; /* first delivery */
    _Atomic uint32_t conductor[MAX_ROUNDS];                /* worker that pushed the burst */
    _Atomic uint32_t conductor_items[MAX_ROUNDS];
    _Atomic uint32_t helped[MAX_ROUNDS]; /* burst items run by the others */
    _Atomic uint32_t burst_done[MAX_ROUNDS];
} bursts;

/* The conductor, at the end of a chain: waits until every other worker
 * has been counted asleep for 5 ms. */
static void wait_all_asleep(bursts *b, wp_pool *p)
{
    uint64_t t0 = weft_now_ns(), since = 0;
    for (;;) {
        /* Relaxed: polled; a stale value only waits longer. */
        bool all = atomic_load_explicit(&p->n_sleeping, memory_order_relaxed) == b->workers - 1;
        uint64_t now = weft_now_ns();
        if (!all)
            since = 0;
        else if (since == 0)
            since = now;
        else if (now - since > 5000000)
            return;
        CHECK(now - t0 < 30000000000ull, "%s: the idle workers never fell asleep", b->what);
        weft_sleep_ns(200000);
    }
}

static void bursts_fn(weft_pool_ctx *ctx, void *item, void *arg)
{
    bursts *b = arg;
    uint32_t id = *(uint32_t *)item, round = id / ITEMS_PER_ROUND, k = id % ITEMS_PER_ROUND;
    CHECK(round < b->rounds, "%s: item %u out of range", b->what, id);
    /* Relaxed: idempotence (a queue may deliver an item twice); only the
     * first delivery counts. */
    if (atomic_exchange_explicit(&b->claimed[id], 1, memory_order_relaxed))
        return;
    unsigned me = weft_pool_worker_id(ctx);
    if (k + 1 < CHAIN) {
        uint32_t next = id + 1;
        CHECK(weft_pool_push(ctx, &next) == 0, "push");
        return;
    }
    if (k + 1 == CHAIN) {
        wait_all_asleep(b, weft__wp_tls->pool);
        /* Relaxed: read by this round's burst items, which this worker
         * pushes below (the queue's release publishes it). */
        atomic_store_explicit(&b->conductor[round], me, memory_order_relaxed);
        for (uint32_t i = 0; i < BURST; i++) {
            uint32_t it = round * ITEMS_PER_ROUND + CHAIN + i;
            CHECK(weft_pool_push(ctx, &it) == 0, "push");
        }
        return;
    }
    /* A burst item.  Relaxed: counts and flags of this round, read by the
     * conductor's polls and after the run. */
    if (me == atomic_load_explicit(&b->conductor[round], memory_order_relaxed)) {
        uint32_t mine =
            atomic_fetch_add_explicit(&b->conductor_items[round], 1, memory_order_relaxed) + 1;
        /* Give a woken worker the time to steal: up to 20 ms per item
         * (9 s over the burst, for a loaded host) until it has.  Relaxed:
         * see above. */
        for (int wait = 0; mine > FULL_SPEED && b->workers > 1 && wait < 40 &&
                           atomic_load_explicit(&b->helped[round], memory_order_relaxed) == 0;
             wait++)
            weft_sleep_ns(500000);
    } else {
        /* Relaxed: see above. */
        atomic_fetch_add_explicit(&b->helped[round], 1, memory_order_relaxed);
    }
    /* Acq_rel: the count of this round's items; the last one acquires
     * every other item's `helped` increment (released with its count). */
    if (atomic_fetch_add_explicit(&b->burst_done[round], 1, memory_order_acq_rel) + 1 != BURST)
        return;
    /* The last burst item of the round.  Relaxed: ordered by the acq_rel
     * count above. */
    CHECK(b->workers == 1 || atomic_load_explicit(&b->helped[round], memory_order_relaxed) > 0,
          "%s, round %u: no sleeping worker woke up for a burst of %u items: the conductor "
          "ran them all (a lost wake-up)",
          b->what, round, BURST);
    if (round + 1 < b->rounds) {
        uint32_t next = (round + 1) * ITEMS_PER_ROUND;
        CHECK(weft_pool_push(ctx, &next) == 0, "push");
    }
}

static void run_bursts(weft_queue_kind kind, unsigned workers, weft_pool_steal steal,
                       unsigned rounds)
{
    char what[128];
    snprintf(what, sizeof what, "bursts on %s, %u workers, steal %s", weft_queue_name(kind),
             workers, steal == WEFT_POOL_STEAL_HALF ? "half" : "one");
    bursts *b = calloc(1, sizeof *b);
    CHECK(b != NULL, "alloc");
    b->what = what;
    b->workers = workers;
    b->rounds = rounds;
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(uint32_t));
    cfg.workers = workers;
    cfg.queue = kind;
    cfg.steal = steal;
    cfg.idempotent = true; /* first deliveries only (claimed) */
    cfg.idle_spin_us = 20;
    uint32_t first = 0;
    weft_pool_stats st;
    run_guarded(&cfg, &first, 1, bursts_fn, b, &st, what);
    uint32_t helped = 0;
    for (unsigned r = 0; r < rounds; r++) {
        /* Relaxed: the workers are joined. */
        CHECK(atomic_load_explicit(&b->burst_done[r], memory_order_relaxed) == BURST,
              "%s: round %u incomplete", what, r);
        helped += atomic_load_explicit(&b->helped[r], memory_order_relaxed);
    }
    for (unsigned i = 0; i < rounds * ITEMS_PER_ROUND; i++)
        /* Relaxed: the workers are joined. */
        CHECK(atomic_load_explicit(&b->claimed[i], memory_order_relaxed) == 1,
              "%s: item %u never processed", what, i);
    /* Every other worker slept before the first burst; each burst woke
     * someone (a sleeper not needed may sleep on into the next round). */
    if (workers > 1)
        CHECK(st.sleeps >= workers - 1 && st.wakes >= rounds, "%s: %llu sleeps, %llu wakes", what,
              (unsigned long long)st.sleeps, (unsigned long long)st.wakes);
    printf("ok: %-50s %u rounds: %4u of %u burst items helped, %llu sleeps, %llu wakes\n", what,
           rounds, helped, rounds * BURST, (unsigned long long)st.sleeps,
           (unsigned long long)st.wakes);
    free(b);
}

/* ======================================================================
 * endgame: the end of the run races with workers falling asleep
 * ====================================================================== */

typedef struct endgame {
    _Atomic uint32_t processed;
    uint32_t fanout; /* children of an initial item */
} endgame;

static void endgame_fn(weft_pool_ctx *ctx, void *item, void *arg)
{
    endgame *e = arg;
    uint32_t depth = *(uint32_t *)item;
    /* Relaxed: a count, read after the run. */
    atomic_fetch_add_explicit(&e->processed, 1, memory_order_relaxed);
    if (depth == 0)
        for (uint32_t i = 0; i < e->fanout; i++) {
            uint32_t child = 1;
            CHECK(weft_pool_push(ctx, &child) == 0, "push");
        }
}

static void run_endgame(weft_queue_kind kind, unsigned workers, unsigned runs)
{
    char what[128];
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(uint32_t));
    cfg.workers = workers;
    cfg.queue = kind;
    cfg.idempotent = true; /* counted: at least once */
    cfg.idle_spin_us = 0;
    uint64_t sleeps = 0;
    for (unsigned r = 0; r < runs; r++) {
        endgame e = {.fanout = r % 4};
        atomic_init(&e.processed, 0);
        uint32_t initial[4] = {0, 0, 0, 0};
        size_t n = 1 + r % 3;
        cfg.steal = r % 2 ? WEFT_POOL_STEAL_HALF : WEFT_POOL_STEAL_ONE;
        snprintf(what, sizeof what, "endgame run %u on %s, %u workers", r, weft_queue_name(kind),
                 workers);
        weft_pool_stats st;
        run_guarded(&cfg, initial, n, endgame_fn, &e, &st, what);
        /* Relaxed: the workers are joined. */
        CHECK(atomic_load_explicit(&e.processed, memory_order_relaxed) >= n * (1 + e.fanout),
              "%s: items missing", what);
        sleeps += st.sleeps;
    }
    printf("ok: endgame %-16s %2u workers: %u runs returned, %llu sleeps\n", weft_queue_name(kind),
           workers, runs, (unsigned long long)sleeps);
}

int main(int argc, char **argv)
{
    unsigned scale = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
    unsigned rounds = scale > 10 ? MAX_ROUNDS : 2;
    pthread_t wd;
    CHECK(pthread_create(&wd, NULL, watchdog_main, NULL) == 0, "pthread_create");
    pthread_detach(wd);

    for (size_t k = 0; k < N_KINDS; k++)
        for (size_t w = 0; w < N_TEST_WORKER_COUNTS; w++) {
            unsigned workers = test_worker_counts[w];
            run_bursts(all_kinds[k], workers, WEFT_POOL_STEAL_ONE, rounds);
            if (workers > 1 && all_kinds[k] != WEFT_QUEUE_CENTRAL)
                run_bursts(all_kinds[k], workers, WEFT_POOL_STEAL_HALF, rounds);
        }

    unsigned runs = SANITIZED ? 20 : 100;
    for (size_t k = 0; k < N_KINDS; k++)
        for (size_t w = 1; w < N_TEST_WORKER_COUNTS; w++)
            run_endgame(all_kinds[k], test_worker_counts[w], runs);
    printf("all pool sleep tests passed\n");
    return 0;
}
