// SPDX-License-Identifier: Apache-2.0
/* White-box tests of the private-deque schedulers (private-ri, private-si;
 * docs/sched-private.md): the owner hands out work only when it polls, a
 * thief waiting on an owner that does not poll sleeps instead of spinning
 * and is woken by the owner's next poll, a task that reached a busy worker
 * is taken back by its owner at its SYNC, a nested interrupt keeps what
 * the outer one holds, the idle pool's cells, and the counters'
 * bookkeeping.  Every wait is bounded: a lost hand-over or
 * wake-up shows as a failed check, never as a hang. */
#include "check.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>
#include <weft/weft.h>

#include "fib_task.h"
#include "runtime/sleep.h"
#include "runtime/state.h"
#include "sched/private-common/private_deque.h"

/* This test runs against both private-deque schedulers. */
#if WEFT_SCHED_PRIVATE_RI
#define WEFT_SCHED_IS_RI 1
#else
#define WEFT_SCHED_IS_RI 0
#endif
#if WEFT_SCHED_PRIVATE_SI
#include "sched/private-si/private_si.h"
#endif

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void nap_us(unsigned us)
{
    struct timespec ts = {0, (long)us * 1000L};
    nanosleep(&ts, NULL);
}

/* Waits up to `seconds` for cond(); false if it never held. */
static bool eventually(bool (*cond)(void), double seconds)
{
    double end = now_s() + seconds;
    while (now_s() < end) {
        if (cond())
            return true;
        nap_us(200);
    }
    return cond();
}

static bool all_idle_asleep(void)
{
    return atomic_load(&weft__rt.sleeping_idle) == weft__rt.n_workers;
}

static bool is_asleep(unsigned id)
{
    return atomic_load(&weft__rt.workers[id]->sleep_word) != WEFT_AWAKE;
}

/* ------------------------------------------------------------------------
 * WEFT_YIELD polls: a task waiting for its own child to run elsewhere.
 * ------------------------------------------------------------------------ */

static atomic_int marked;
static atomic_uint marked_on;
WEFT_TASK_0(int, mark)
{
    atomic_store(&marked_on, weft_worker_id(weft_w));
    atomic_store(&marked, 1);
    return 1;
}

/* Spins (YIELD only) until `mark` ran on another worker, at most 10 s. */
WEFT_TASK_0(int, wait_for_mark)
{
    atomic_store(&marked, 0);
    WEFT_SPAWN(mark);
    double end = now_s() + 10.0;
    while (!atomic_load(&marked) && now_s() < end) {
        WEFT_YIELD();
        sched_yield();
    }
    int seen = atomic_load(&marked);
    WEFT_SYNC(mark); /* joins it, or runs it if nobody took it */
    return seen && atomic_load(&marked_on) != weft_worker_id(weft_w);
}

static void test_yield_hands_out(void)
{
    static const unsigned counts[] = {2, 3, 8};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        CHECK(weft_start(counts[i], 0, 0) == 0, "start");
        for (int round = 0; round < 5; round++)
            CHECK(WEFT_RUN(wait_for_mark) == 1,
                  "a task that only YIELDs never had its child taken (%u workers)", counts[i]);
        CHECK(weft_stop() == 0, "stop");
    }
    printf("ok: WEFT_YIELD hands out the owner's tasks\n");
}

/* ------------------------------------------------------------------------
 * An owner that stops polling with a task to give: the idle worker sleeps
 * (no spinning) with its offer or request in place, and the owner's next
 * poll gets the task to it and wakes it.
 * ------------------------------------------------------------------------ */

static atomic_uint root_on;
static bool other_asleep(void) { return is_asleep(1 - atomic_load(&root_on)); }

static atomic_int other_slept;
static atomic_int state_seen; /* the cell showed the sleeper's standing offer/request */
WEFT_TASK_0(int, long_task_then_poll)
{
    unsigned me = weft_worker_id(weft_w), other = 1 - me;
    atomic_store(&root_on, me);
    atomic_store(&marked, 0);
    WEFT_SPAWN(mark);
    /* A long stretch without a single poll. */
    double end = now_s() + 10.0;
    while (!other_asleep() && now_s() < end)
        nap_us(100);
    atomic_store(&other_slept, other_asleep());
#if WEFT_SCHED_PRIVATE_RI
    /* It sleeps with its request pending in our cell. */
    atomic_store(&state_seen, atomic_load(&weft__rt.workers[me]->shared.req) == WEFT_RI_REQ(other));
#else
    /* It sleeps with its cell open. */
    atomic_store(&state_seen, atomic_load(&weft__rt.workers[other]->shared.cell) == WEFT_SI_OPEN);
#endif
    /* Now poll: the task must go to the sleeper, which must wake. */
    end = now_s() + 10.0;
    while (!atomic_load(&marked) && now_s() < end) {
        WEFT_YIELD();
        nap_us(50);
    }
    int ok = atomic_load(&marked);
    WEFT_SYNC(mark);
    return ok && atomic_load(&marked_on) == other;
}

static void test_sleep_while_owner_does_not_poll(void)
{
    CHECK(weft_start(2, 0, 0) == 0, "start");
    for (int round = 0; round < 3; round++) {
        CHECK(eventually(all_idle_asleep, 10.0), "pool asleep");
        atomic_store(&other_slept, 0);
        atomic_store(&state_seen, 0);
        int r = WEFT_RUN(long_task_then_poll);
        CHECK(atomic_load(&other_slept),
              "the idle worker never slept while the owner kept a task without polling");
        CHECK(atomic_load(&state_seen), "the sleeper's %s was not in place",
              WEFT_SCHED_IS_RI ? "request" : "open cell");
        CHECK(r == 1, "the sleeping worker did not get the task at the owner's next poll");
    }
    CHECK(weft_stop() == 0, "stop");
    printf("ok: idle workers sleep while the owner does not poll, and wake at its poll\n");
}

/* ------------------------------------------------------------------------
 * Take-back: a task that reached a worker that is busy (it took an
 * external RUN) is run by its owner at its SYNC instead of waiting.
 * ------------------------------------------------------------------------ */

static atomic_int hog_started, hog_release;
static atomic_uint hog_on;
WEFT_TASK_0(int, hog)
{
    atomic_store(&hog_on, weft_worker_id(weft_w));
    atomic_store(&hog_started, 1);
    double end = now_s() + 20.0;
    while (!atomic_load(&hog_release) && now_s() < end) /* no poll */
        nap_us(100);
    return 1;
}
static void *hog_thread(void *arg)
{
    (void)arg;
    CHECK(WEFT_RUN(hog) == 1, "hog");
    return NULL;
}

static atomic_int want_hog, reached_busy;
WEFT_TASK_0(int, hand_to_busy_worker)
{
    unsigned me = weft_worker_id(weft_w), other = 1 - me;
    atomic_store(&root_on, me);
    atomic_store(&marked, 0);
    double end = now_s() + 10.0;
#if WEFT_SCHED_PRIVATE_RI
    /* The other worker asks for the task and falls asleep with its
     * request pending; then it wakes for the hog and runs that instead. */
    WEFT_SPAWN(mark);
    while (now_s() < end && !(other_asleep() &&
                              atomic_load(&weft__rt.workers[me]->shared.req) == WEFT_RI_REQ(other)))
        nap_us(100);
    atomic_store(&want_hog, 1);
    while (!atomic_load(&hog_started) && now_s() < end)
        nap_us(100);
#else
    /* The other worker sleeps with its cell open and wakes for the hog,
     * leaving it open (the hog never polls); then we spawn and deal. */
    while (now_s() < end && !other_asleep())
        nap_us(100);
    atomic_store(&want_hog, 1);
    while (!atomic_load(&hog_started) && now_s() < end)
        nap_us(100);
    WEFT_SPAWN(mark);
#endif
    /* Poll until the task reached the busy worker. */
    weft_worker *o = weft__rt.workers[other];
    while (now_s() < end) {
        WEFT_YIELD();
#if WEFT_SCHED_PRIVATE_RI
        bool there = atomic_load(&o->shared.xfer) == (uintptr_t)(weft_head - 1);
#else
        uint64_t c = atomic_load(&o->shared.cell);
        bool there = WEFT_SI_TAG(c) == WEFT_SI_TAG_DEAL && WEFT_SI_DEAL_DEALER(c) == me;
#endif
        if (there) {
            atomic_store(&reached_busy, 1);
            break;
        }
        nap_us(50);
    }
    WEFT_SYNC(mark); /* must not wait for the hog: takes it back */
    int ok = atomic_load(&marked) && atomic_load(&marked_on) == me;
    atomic_store(&hog_release, 1);
    return ok;
}

/* The root runs on a thread of its own, so that the main thread can start
 * the hog's RUN when the root asks for it. */
static atomic_int root_done;
static int root_result;
static void *take_back_root_thread(void *arg)
{
    (void)arg;
    root_result = WEFT_RUN(hand_to_busy_worker);
    atomic_store(&root_done, 1);
    return NULL;
}

static void test_take_back(void)
{
    CHECK(weft_start(2, 0, 0) == 0, "start");
    CHECK(eventually(all_idle_asleep, 10.0), "pool asleep");
    atomic_store(&want_hog, 0);
    atomic_store(&hog_started, 0);
    atomic_store(&hog_release, 0);
    atomic_store(&reached_busy, 0);
    atomic_store(&root_done, 0);
    weft_stats_reset();
    pthread_t root, h;
    bool hog_made = false;
    CHECK(pthread_create(&root, NULL, take_back_root_thread, NULL) == 0, "thread");
    /* Once the other worker sleeps waiting for the root's task, the hog's
     * RUN wakes it (the only sleeper). */
    double end = now_s() + 20.0;
    while (!atomic_load(&root_done) && now_s() < end) {
        if (!hog_made && atomic_load(&want_hog)) {
            CHECK(pthread_create(&h, NULL, hog_thread, NULL) == 0, "thread");
            hog_made = true;
        }
        nap_us(100);
    }
    CHECK(atomic_load(&root_done), "the root never finished (its SYNC waited for the hog?)");
    pthread_join(root, NULL);
    CHECK(hog_made, "the root never asked for the hog");
    pthread_join(h, NULL);
    CHECK(atomic_load(&hog_on) != atomic_load(&root_on), "the hog ran on the root's worker");
    CHECK(atomic_load(&reached_busy), "the task never reached the busy worker");
    CHECK(root_result == 1, "the owner did not run the task it took back");
#if WEFT_STATS
    weft_stats s;
    CHECK(weft_stats_get(&s) == 0, "stats");
    CHECK(s.transfers == s.steals + s.leaps,
          "a task taken back still counts as transferred (%llu transfers, %llu received)",
          (unsigned long long)s.transfers, (unsigned long long)(s.steals + s.leaps));
#endif
    CHECK(weft_stop() == 0, "stop");
    printf("ok: a task handed to a busy worker is taken back at its owner's SYNC\n");
}

/* ------------------------------------------------------------------------
 * Interrupts nest: a task held out of an outer interrupt (an answer or a
 * deal received before it) stays held when a nested interrupt ends.
 * ------------------------------------------------------------------------ */

WEFT_TASK_1(int, nested_freeze, bool, outer_hold)
{
    weft_worker *w = weft_w;
    weft_task *head = weft_current_head(w);
    w->cold.hold = outer_hold; /* as the outer interrupt's freeze left it */
    weft_sched_saved saved;
    weft__sched_freeze(w, head, &saved);
    bool during = w->cold.hold;
    weft__sched_thaw(w, &saved);
    bool after = w->cold.hold;
    w->cold.hold = false;
    return (during == outer_hold) + 2 * (after == outer_hold);
}

static void test_nested_freeze_keeps_hold(void)
{
    CHECK(weft_start(1, 0, 0) == 0, "start");
    int held = WEFT_RUN(nested_freeze, true);
    CHECK(held & 1, "a nested freeze dropped the outer interrupt's hold");
    CHECK(held & 2, "a nested thaw dropped the outer interrupt's hold");
    CHECK(WEFT_RUN(nested_freeze, false) == 3, "a freeze and thaw with nothing held");
    CHECK(weft_stop() == 0, "stop");
    printf("ok: a nested interrupt's thaw keeps the outer interrupt's hold\n");
}

/* ------------------------------------------------------------------------
 * The idle pool, and the counters.
 * ------------------------------------------------------------------------ */

static void test_idle_cells_and_counters(void)
{
    static const unsigned counts[] = {1, 2, 3, 8};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        unsigned n = counts[i];
        CHECK(weft_start(n, 0, 0) == 0, "start");
        weft_stats_reset();
        CHECK(WEFT_RUN(pfib, 24) == fib_ref(24), "fib");
        CHECK(eventually(all_idle_asleep, 10.0), "pool asleep");
        unsigned open = 0;
        for (unsigned k = 0; k < n; k++) {
            weft_worker *w = weft__rt.workers[k];
            CHECK(w->own.top == w->dq, "worker %u: own.top not at the bottom of its empty deque",
                  k);
#if WEFT_SCHED_PRIVATE_RI
            /* Not polling: requests fail at once.  (A lone worker has no
             * victim to look at, never stops to poll, and nobody asks it.) */
            CHECK(n == 1 || atomic_load(&w->shared.req) == WEFT_RI_BLOCKED,
                  "worker %u: cell %#lx, not BLOCKED", k,
                  (unsigned long)atomic_load(&w->shared.req));
#else
            /* Asleep with the cell open (n == 1: never opened or open). */
            uint64_t c = atomic_load(&w->shared.cell);
            CHECK(n == 1 || c == WEFT_SI_OPEN, "worker %u: cell %#llx, not OPEN", k,
                  (unsigned long long)c);
            open += c == WEFT_SI_OPEN;
#endif
        }
#if WEFT_SCHED_PRIVATE_SI
        /* The polls' gate counts exactly the open cells. */
        CHECK(atomic_load(&weft__si_open_cells_g) == open,
              "%u workers: %u open cells counted, %u open", n, atomic_load(&weft__si_open_cells_g),
              open);
#else
        (void)open;
#endif
#if WEFT_STATS
        weft_stats s;
        CHECK(weft_stats_get(&s) == 0, "stats");
        /* Every task handed out (and not taken back) was received once. */
        CHECK(s.transfers == s.steals + s.leaps, "%u workers: %llu transfers, %llu received", n,
              (unsigned long long)s.transfers, (unsigned long long)(s.steals + s.leaps));
        /* ri: a hand-out answers a request; si: a deal is an attempt. */
        CHECK(s.requests >= s.transfers, "%u workers: %llu requests < %llu transfers", n,
              (unsigned long long)s.requests, (unsigned long long)s.transfers);
        CHECK(s.grows == 0 && s.shrinks == 0, "split-deque counters moved");
        if (n == 1)
            CHECK(s.requests == 0 && s.transfers == 0, "one worker asked or dealt");
#endif
        CHECK(weft_stop() == 0, "stop");
    }
    printf("ok: idle cells; transfers == steals + leaps\n");
}

#if WEFT_SCHED_PRIVATE_SI
static void test_delta_parsing(void)
{
    uint64_t us = 7;
    CHECK(weft__si_parse_delta_us("30", &us) && us == 30, "30");
    CHECK(weft__si_parse_delta_us("0", &us) && us == 0, "0");
    CHECK(weft__si_parse_delta_us("1000000", &us) && us == 1000000, "max");
    us = 7;
    CHECK(!weft__si_parse_delta_us("1000001", &us) && us == 7, "too large accepted");
    CHECK(!weft__si_parse_delta_us("-5", &us) && us == 7, "negative accepted");
    CHECK(!weft__si_parse_delta_us("30us", &us) && us == 7, "suffix accepted");
    CHECK(!weft__si_parse_delta_us("", &us) && us == 7, "empty accepted");
    CHECK(!weft__si_parse_delta_us(" 3", &us) && us == 7, "space accepted");
    printf("ok: WEFT_SI_DELTA_US parsing\n");
}
#endif

int main(void)
{
#if WEFT_SCHED_PRIVATE_SI
    test_delta_parsing();
#endif
    test_yield_hands_out();
    test_sleep_while_owner_does_not_poll();
    test_take_back();
    test_nested_freeze_keeps_hold();
    test_idle_cells_and_counters();
    return 0;
}
