// SPDX-License-Identifier: Apache-2.0
/* Wool's direct task stack with private tasks (wool_deque.c), white-box:
 * the state machine single-threaded on a worker built by hand (no pool
 * running), the paper's back-off cases by running the thief's three steps
 * (peek, claim, settle) with owner operations in between, the owner's
 * waits for a thief's decision with a second thread, and a stress run
 * of one owner and several thief threads checking that every task runs
 * exactly once.
 *
 * Usage: test_wool_deque [scale]   (scale: length of the stress run) */
#include "check.h"

#include <pthread.h>
#include <sched.h>
#include <time.h>

#include "runtime/parking.h"
#include "runtime/state.h"
#include "sched/wool/wool_deque.h"
#include "deque_fixture.h"
#include "deque_stress.h"

enum { SLOTS = 64 };

static weft_worker *w;
static weft_task *dq;
/* Thieves: only their addresses (the STOLEN mark) and counters are used;
 * their own deques are empty. */
static weft_worker thief_a, thief_b;

static WEFT_WRAPPER_ALIGN void wrapper_f(weft_worker *wk, weft_task *head, weft_task *t)
{
    (void)wk, (void)head, (void)t;
}
static WEFT_WRAPPER_ALIGN void wrapper_g(weft_worker *wk, weft_task *head, weft_task *t)
{
    (void)wk, (void)head, (void)t;
}
#define TASK_F ((uintptr_t)&wrapper_f)

static void fresh_worker(void)
{
    static weft_worker storage;
    static weft_task slots[SLOTS + 1];
    deque_fixture(&storage, slots, SLOTS);
    memset(&thief_a, 0, sizeof thief_a);
    memset(&thief_b, 0, sizeof thief_b);
    w = &storage;
    dq = slots;
    weft__wool_init(w);
}

static uint32_t bot(void) { return atomic_load(&w->shared.bot); }
static uint32_t public_end(void) { return atomic_load(&w->shared.public_end); }
static bool requested(void) { return atomic_load(&w->shared.plain_from) == WEFT_WOOL_REQUEST; }
/* Owner's view, shared boundary and the fast paths' word agree. */
static bool boundary_is(uint32_t pe)
{
    return public_end() == pe && w->own.public_end == dq + pe &&
           atomic_load(&w->shared.plain_from) == (uintptr_t)(dq + pe);
}
static uintptr_t state(int i) { return atomic_load(&dq[i].state); }

/* SPAWN at slot h, as the generated code does. */
static weft_task *push_with(weft_task *h, uintptr_t wrapper)
{
    weft_deque_reserve(w, h);
    weft_wool_push(w, h, wrapper);
    return h + 1;
}
static weft_task *push(weft_task *h) { return push_with(h, TASK_F); }

/* SYNC of slot t (the new head): 'P' run inline, 'S' stolen (and done). */
static char pop(weft_task *t)
{
    if (weft_wool_pop(w, t))
        return 'P';
    return weft__wool_sync_slow(w, t) ? 'S' : 'P';
}

/* The wrappers pushed: f, and g where a task of another kind is wanted. */
static bool wrapper_ok(uintptr_t wrapper)
{
    return wrapper == (uintptr_t)&wrapper_f || wrapper == (uintptr_t)&wrapper_g;
}

/* A whole steal by `thief` (deque_steal). */
static weft_task *steal_by(weft_worker *thief, weft_steal_result expect)
{
    return deque_steal(thief, w, expect, wrapper_ok);
}
static weft_task *steal(weft_steal_result expect) { return steal_by(&thief_a, expect); }

/* Inline public joins at slot t until the owner makes tasks private. */
static void privatize_at(weft_task *t)
{
    for (unsigned i = 0; i < WEFT_WOOL_PRIVATIZE_AFTER; i++) {
        push(t);
        CHECK(pop(t) == 'P', "public inline join %u", i);
    }
}

static void test_private_only(void)
{
    fresh_worker();
    weft_task *h = dq;
    for (int i = 0; i < 10; i++)
        h = push(h);
    CHECK(boundary_is(0) && bot() == 0, "a worker alone keeps every task private");
    for (int i = 9; i >= 0; i--)
        CHECK(pop(--h) == 'P', "private pop %d", i);
    for (int i = 0; i < 10; i++)
        CHECK(state(i) == WEFT_STATE_EMPTY, "slot %d cleared", i);
    CHECK(boundary_is(0), "no boundary traffic without thieves");
    printf("ok: private tasks alone\n");
}

static void test_trip_wire_and_serving(void)
{
    fresh_worker();
    weft_task *h = dq;
    for (int i = 0; i < 4; i++)
        h = push(h); /* slots 0..3, private */

    /* A thief finds the first private task: it trips the wire. */
    steal(WEFT_STEAL_NONE);
    CHECK(requested(), "the thief asked for public tasks");
    CHECK(COUNTER(&thief_a, sched.requests, 1) == 1, "request counted on the thief");
    steal(WEFT_STEAL_NONE);
    CHECK(COUNTER(&thief_a, sched.requests, 1) == 1, "a pending request is not sent again");

    /* The next SPAWN serves it: the older half (rounded up) of the five
     * private tasks becomes public. */
    h = push(h); /* slot 4 */
    CHECK(boundary_is(3) && !requested(), "served: public_end %u", public_end());
    CHECK(COUNTER(w, sched.grows, 1) == 1, "grow counted");

    CHECK(steal(WEFT_STEAL_OK_MORE) == dq + 0 && bot() == 1, "stole slot 0");
    CHECK(steal(WEFT_STEAL_OK_MORE) == dq + 1 && bot() == 2, "stole slot 1");
    CHECK(steal(WEFT_STEAL_OK) == dq + 2 && bot() == 3 && !requested(), "stole slot 2");
    /* Bot is at the first private task: the next thief asks again. */
    steal(WEFT_STEAL_NONE);
    CHECK(requested(), "asked for slot 3");

    /* SYNC of private slot 4 with the request pending: serve (slot 3
     * becomes public), then the plain join. */
    CHECK(pop(--h) == 'P' && boundary_is(4), "private pop served the request");
    CHECK(pop(--h) == 'P', "slot 3: public, joined inline");
    CHECK(w->own.public_inlined == 1, "inline public join counted");
    CHECK(pop(--h) == 'S' && bot() == 2, "slot 2 stolen; bot back to it");
    CHECK(pop(--h) == 'S' && bot() == 1, "slot 1 stolen");
    CHECK(pop(--h) == 'S' && bot() == 0, "slot 0 stolen");
    CHECK(w->own.public_inlined == 0, "a stolen join resets the count");
    CHECK(COUNTER(w, sched.transfers, 3) == 3, "three tasks transferred");
    for (int i = 0; i < 5; i++)
        CHECK(state(i) == WEFT_STATE_EMPTY, "slot %d cleared", i);
    printf("ok: trip wire, serving requests, stolen joins\n");
}

static void test_privatize(void)
{
    fresh_worker();
    weft_task *h = push(dq); /* slot 0 */
    steal(WEFT_STEAL_NONE);  /* request */
    h = push(h);             /* slot 1; served: public_end 1 */
    h = push(h);             /* slot 2 */
    steal(WEFT_STEAL_OK);    /* slot 0 */
    steal(WEFT_STEAL_NONE);  /* slot 1 is private: request */
    h = push(h);             /* slot 3; served: [1, 4) -> public_end 3 */
    CHECK(boundary_is(3), "public_end %u", public_end());
    CHECK(pop(--h) == 'P' && pop(--h) == 'P' && pop(--h) == 'P', "pop 3 (private), 2, 1 (public)");
    CHECK(w->own.public_inlined == 2, "two inline public joins");
    /* More public tasks inlined at slot 1: the owner makes slots from 1 up
     * private. */
    privatize_at(h);
    CHECK(boundary_is(1) && COUNTER(w, sched.shrinks, 1) == 1, "privatized from slot 1");
    CHECK(w->own.public_inlined == 0, "count reset");
    /* A pending request stops privatizing (thieves want the tasks). */
    atomic_store(&w->shared.plain_from, WEFT_WOOL_REQUEST);
    push(h); /* served: public_end 2 */
    CHECK(boundary_is(2), "public_end %u", public_end());
    atomic_store(&w->shared.plain_from, WEFT_WOOL_REQUEST);
    w->own.public_inlined = WEFT_WOOL_PRIVATIZE_AFTER - 1;
    CHECK(pop(h) == 'P' && public_end() == 2 && requested(), "no privatizing while asked");
    CHECK(pop(--h) == 'S', "pop 0 (stolen)");
    printf("ok: privatizing after inlined public joins\n");
}

static void test_back_off_on_bot(void)
{
    /* Section III-A: a thief reads bot, is delayed; the owner joins that
     * task and the one below, and spawns the same kind of task again in
     * both slots.  The thief's CAS of the state succeeds, but bot is below
     * its task: it must back off and restore the task. */
    fresh_worker();
    weft_task *h = push(dq);
    steal(WEFT_STEAL_NONE);
    for (int i = 0; i < 3; i++)
        h = push(h);        /* serve at the first: public_end 1; asks again below */
    steal(WEFT_STEAL_OK);   /* slot 0 */
    steal(WEFT_STEAL_NONE); /* slot 1 is private: request */
    h = push(h);            /* serve: [1, 5) -> public_end 3 */
    CHECK(boundary_is(3) && bot() == 1, "setup: bot 1, public_end 3");

    weft_wool_attempt a;
    CHECK(weft__wool_peek(&thief_b, w, &a) == WEFT_STEAL_OK && a.t == dq + 1,
          "thief B peeks slot 1");

    for (int i = 4; i >= 1; i--)
        CHECK(pop(--h) == 'P', "pop %d", i);
    CHECK(pop(--h) == 'S' && bot() == 0, "slot 0 stolen");
    h = push(h);
    h = push(h); /* slots 0 and 1 again, TASK(f), public */

    CHECK(weft__wool_claim(&thief_b, &a), "the delayed CAS succeeds (same wrapper)");
    CHECK(state(1) == WEFT_STATE_STOLEN(&thief_b), "marked");
    CHECK(weft__wool_settle(&thief_b, w, &a) == WEFT_STEAL_BUSY, "bot moved: back off");
    CHECK(state(1) == TASK_F && bot() == 0, "task restored, bot untouched");

    /* A claim on a task of another kind fails outright. */
    CHECK(weft__wool_peek(&thief_b, w, &a) == WEFT_STEAL_OK && a.t == dq, "peek slot 0");
    CHECK(pop(--h) == 'P' && pop(--h) == 'P', "owner joins both");
    h = push_with(h, (uintptr_t)&wrapper_g);
    CHECK(!weft__wool_claim(&thief_b, &a), "CAS fails on TASK(g)");
    CHECK(pop(--h) == 'P', "pop");
    printf("ok: back-off when bot moved (the paper's ABA)\n");
}

/* Leaves `w` with a stale attempt of thief B: B peeked slot 1 while it was
 * public; the owner has since made slot 1 private and spawned there again
 * (TASK(f)).  Returns the head (2). */
static weft_task *stale_attempt_on_private_task(weft_wool_attempt *a)
{
    fresh_worker();
    weft_task *h = push(dq);
    steal(WEFT_STEAL_NONE);
    h = push(h); /* serve: public_end 1 */
    steal(WEFT_STEAL_OK);
    steal(WEFT_STEAL_NONE); /* slot 1 is private: request */
    h = push(h);            /* serve: [1, 3) -> public_end 2: slot 1 public */
    CHECK(boundary_is(2) && bot() == 1, "setup");
    CHECK(pop(--h) == 'P', "pop 2");
    CHECK(weft__wool_peek(&thief_b, w, a) == WEFT_STEAL_OK && a->t == dq + 1, "B peeks slot 1");
    CHECK(pop(--h) == 'P', "pop 1 (public, inline)");
    privatize_at(h); /* slot 1 private from now on */
    CHECK(boundary_is(1), "privatized from slot 1");
    return push(h); /* a private TASK(f) in slot 1 */
}

static void test_claim_of_private_task_backs_off(void)
{
    weft_wool_attempt a;
    weft_task *h = stale_attempt_on_private_task(&a);
    CHECK(weft__wool_claim(&thief_b, &a), "the stale CAS succeeds");
    /* bot is 1 == a.b: only the boundary tells settle the task is private. */
    CHECK(weft__wool_settle(&thief_b, w, &a) == WEFT_STEAL_BUSY, "private: back off");
    CHECK(state(1) == TASK_F && bot() == 1, "restored");
    CHECK(pop(--h) == 'P', "plain join");
    CHECK(pop(--h) == 'S', "slot 0");
    printf("ok: a claim of a private task backs off\n");
}

static void test_private_join_wins_over_claim(void)
{
    /* The owner's plain join loaded TASK just before the thief's claim and
     * then stores EMPTY over the mark (done here by hand), runs the task,
     * and later makes slot 1 public again.  The thief reads the raised
     * boundary, but the state no longer carries its mark: it gives up
     * without touching the slot. */
    weft_wool_attempt a;
    weft_task *h = stale_attempt_on_private_task(&a);
    CHECK(weft__wool_claim(&thief_b, &a), "claim");
    atomic_store(&dq[1].state, WEFT_STATE_EMPTY); /* the plain join's store */
    --h;
    h = push(h);                         /* slot 1 again, private */
    steal_by(&thief_a, WEFT_STEAL_NONE); /* trips the wire on slot 1 */
    h = push(h);                         /* serve: [1, 3) -> public_end 2 */
    CHECK(boundary_is(2), "slot 1 public again");
    CHECK(weft__wool_settle(&thief_b, w, &a) == WEFT_STEAL_BUSY, "gave up");
    CHECK(state(1) == TASK_F && bot() == 1, "the new task is untouched");
    CHECK(steal(WEFT_STEAL_OK) == dq + 1, "and stealable");
    CHECK(pop(--h) == 'P' && pop(--h) == 'S' && pop(--h) == 'S', "joins");
    printf("ok: a private join wins over a thief's claim\n");
}

static void test_freeze_and_thaw(void)
{
    fresh_worker();
    weft_task *h = push(dq);
    steal(WEFT_STEAL_NONE);
    h = push(h);
    h = push(h); /* public_end 1 */
    weft_wool_attempt a;
    CHECK(weft__wool_peek(&thief_b, w, &a) == WEFT_STEAL_OK && weft__wool_claim(&thief_b, &a),
          "B claims slot 0");
    weft_sched_saved saved;
    weft__sched_freeze(w, h, &saved);
    CHECK(bot() == 3, "frame starts at head");
    CHECK(weft__wool_settle(&thief_b, w, &a) == WEFT_STEAL_BUSY && state(0) == TASK_F,
          "a claim from before the freeze backs off");
    steal(WEFT_STEAL_NONE); /* nothing in the frame */
    weft_task *fh = push(h);
    CHECK(pop(--fh) == 'P', "frame task (slot 3, private) joined");
    weft__sched_thaw(w, &saved);
    CHECK(bot() == 0, "bot restored");
    CHECK(steal(WEFT_STEAL_OK) == dq, "old tasks stealable again");
    CHECK(pop(--h) == 'P' && pop(--h) == 'P' && pop(--h) == 'S', "joins");
    printf("ok: freeze hides older tasks, thaw brings them back\n");
}

static void test_sleepers(void)
{
    fresh_worker();
    CHECK(!weft__sched_has_work_for(NULL, w), "empty");
    weft_task *h = push(dq);
    CHECK(!weft__sched_has_work_for(NULL, w), "a private task is not stealable");
    weft__sched_ask_for_sleeper(w, &thief_a);
    CHECK(requested(), "a sleeper's request");
    h = push(h);
    CHECK(weft__sched_has_work_for(NULL, w), "served: slot 0 public");
    CHECK(pop(--h) == 'P' && pop(--h) == 'P', "joins");
    /* Nothing to give (YIELD with an empty deque): the request stays, and
     * the next SPAWN makes a task for the sleeper. */
    weft__sched_ask_for_sleeper(w, &thief_a);
    weft__wool_poll_slow(w, h);
    CHECK(requested(), "kept while there is nothing to give");
    h = push(h);
    CHECK(!requested() && weft__sched_has_work_for(NULL, w), "served by the next SPAWN");
    CHECK(pop(--h) == 'P', "join");
    printf("ok: sleepers' requests\n");
}

static void test_request_outlives_join_of_only_task(void)
{
    /* A worker that spawns one task and joins it, again and again (Wool's
     * steal-cost benchmark): the thief asks only once it sees the task, and
     * the SYNC cannot give away the task it joins; the request must wait
     * for the next SPAWN, which makes that task public. */
    fresh_worker();
    weft_task *h = push(dq);
    steal(WEFT_STEAL_NONE);
    CHECK(requested(), "asked");
    CHECK(pop(--h) == 'P' && requested(), "the SYNC keeps the request");
    h = push(h);
    CHECK(!requested() && boundary_is(1), "the next SPAWN makes its task public");
    CHECK(steal(WEFT_STEAL_OK) == dq, "and it is stolen");
    CHECK(pop(--h) == 'S', "join");
    printf("ok: a request outlives the join of the only task\n");
}

/* ---- two threads: the owner waits for a thief that has claimed ---- */

typedef struct {
    weft_wool_attempt a;
    bool commit_then_done; /* else: settle (which backs off) */
    atomic_int claimed;
    weft_steal_result result;
} slow_thief;

static void nap_ms(long ms)
{
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

static void *slow_thief_main(void *arg)
{
    slow_thief *st = arg;
    CHECK(weft__wool_claim(&thief_b, &st->a), "slow thief claims");
    atomic_store(&st->claimed, 1);
    nap_ms(30); /* the owner reaches its SYNC and waits */
    st->result = weft__wool_settle(&thief_b, w, &st->a);
    if (st->commit_then_done) {
        nap_ms(10);
        /* Release: as the DONE store of run_stolen. */
        atomic_store_explicit(&st->a.t->state, WEFT_STATE_DONE, memory_order_release);
    }
    return NULL;
}

static char pop_while_thief_settles(slow_thief *st, weft_task *t)
{
    pthread_t th;
    atomic_store(&st->claimed, 0);
    CHECK(pthread_create(&th, NULL, slow_thief_main, st) == 0, "thread");
    while (!atomic_load(&st->claimed))
        sched_yield();
    char r = pop(t);
    pthread_join(th, NULL);
    return r;
}

static void test_owner_waits_for_thief(void)
{
    /* Keep weft__join_stolen from sleeping (there is no pool to wake it):
     * a long search, which no contended yield cuts short (the machine's
     * other work, or perturbation, can make a yield take a time slice). */
    weft__rt.idle_spin_us = 60u * 1000 * 1000;
    weft__park_on_contended_yield = false;
    slow_thief st;

    /* Public, the thief commits: the owner sees bot move past the task
     * and waits for DONE. */
    fresh_worker();
    weft_task *h = push(dq);
    steal(WEFT_STEAL_NONE);
    h = push(h); /* public_end 1 */
    CHECK(pop(--h) == 'P', "pop 1");
    st.commit_then_done = true;
    CHECK(weft__wool_peek(&thief_b, w, &st.a) == WEFT_STEAL_OK, "peek");
    CHECK(pop_while_thief_settles(&st, --h) == 'S' && st.result == WEFT_STEAL_OK, "stolen");
    CHECK(bot() == 0 && state(0) == WEFT_STATE_EMPTY, "joined");

    /* Public, the thief backs off (bot moved): the owner takes the task. */
    fresh_worker();
    h = push(dq);
    steal(WEFT_STEAL_NONE);
    for (int i = 0; i < 3; i++)
        h = push(h);
    steal(WEFT_STEAL_OK);   /* slot 0 */
    steal(WEFT_STEAL_NONE); /* request */
    h = push(h);            /* public_end 3 */
    CHECK(weft__wool_peek(&thief_b, w, &st.a) == WEFT_STEAL_OK && st.a.t == dq + 1, "peek 1");
    for (int i = 4; i >= 1; i--)
        CHECK(pop(--h) == 'P', "pop %d", i);
    CHECK(pop(--h) == 'S', "pop 0");
    h = push(h);
    h = push(h);
    st.commit_then_done = false;
    CHECK(pop_while_thief_settles(&st, --h) == 'P' && st.result == WEFT_STEAL_BUSY,
          "public: thief backed off, owner ran it");
    CHECK(pop(--h) == 'P', "pop 0");

    /* Private (claimed from a stale view): the owner waits, the thief backs off. */
    h = stale_attempt_on_private_task(&st.a);
    st.commit_then_done = false;
    CHECK(pop_while_thief_settles(&st, --h) == 'P' && st.result == WEFT_STEAL_BUSY,
          "private: thief backed off, owner ran it");
    CHECK(state(1) == WEFT_STATE_EMPTY, "slot cleared");
    printf("ok: the owner waits for a claiming thief's decision\n");
}

/* ---- stress: one owner, thieves, every task run exactly once ---- */

static atomic_ulong stress_claims, stress_back_offs;

/* weft__sched_steal's three steps, counting claims that backed off. */
static weft_steal_result stress_steal(weft_worker *thief, weft_task **t, uintptr_t *wrapper)
{
    weft_wool_attempt a;
    if (weft__wool_peek(thief, w, &a) != WEFT_STEAL_OK || !weft__wool_claim(thief, &a))
        return WEFT_STEAL_NONE;
    /* Relaxed: counts, printed after the threads are joined. */
    atomic_fetch_add_explicit(&stress_claims, 1, memory_order_relaxed);
    weft_steal_result r = weft__wool_settle(thief, w, &a);
    if (r == WEFT_STEAL_BUSY)
        atomic_fetch_add_explicit(&stress_back_offs, 1, memory_order_relaxed);
    *t = a.t;
    *wrapper = a.s1;
    return r;
}
/* Tasks of two kinds, so that a stale claim can meet another kind. */
static weft_task *stress_push(weft_task *h)
{
    return push_with(h, stress_rnd() % 8 ? (uintptr_t)&wrapper_f : (uintptr_t)&wrapper_g);
}
static void stress_poll(weft_task *h) { weft__wool_poll_slow(w, h); }

static void test_stress(unsigned scale)
{
    fresh_worker();
    deque_stress_result r = deque_stress_run(&(deque_stress){.dq = dq,
                                                             .slots = SLOTS,
                                                             .push = stress_push,
                                                             .pop = pop,
                                                             .steal = stress_steal,
                                                             .wrapper_ok = wrapper_ok,
                                                             .poll = stress_poll},
                                             scale);
    CHECK(bot() == 0, "bot back at 0 (%u)", bot());
    uint64_t requests = 0;
    for (int i = 0; i < STRESS_THIEVES; i++)
        requests += COUNTER(&stress_thieves[i], sched.requests, 0);
    printf("ok: stress: %llu tasks, %llu stolen, %lu claims of which %lu backed off, %llu "
           "requests, %llu grows, %llu shrinks; each ran once\n",
           (unsigned long long)r.tasks, (unsigned long long)r.stolen, atomic_load(&stress_claims),
           atomic_load(&stress_back_offs), (unsigned long long)requests,
           (unsigned long long)COUNTER(w, sched.grows, 0),
           (unsigned long long)COUNTER(w, sched.shrinks, 0));
}

/* ---- misuse ---- */

static void overflow_child(void)
{
    fresh_worker();
    w->id = 7;
    weft_task *h = dq;
    for (int i = 0; i <= SLOTS; i++)
        h = push(h);
}

#if WEFT_CHECKS
/* A private SYNC's fast path tells tasks from marks by one bit; a second
 * SYNC of an EMPTY slot is caught by the WEFT_CHECKS test that the
 * generated SYNC runs first (weft__check_sync), as with split. */
static void sync_twice_child(void)
{
    fresh_worker();
    weft_task *h = push(dq);
    CHECK(pop(--h) == 'P', "first join");
    weft__check_sync(w, h, TASK_F, "twice"); /* again: the slot is EMPTY */
    pop(h);
}
#endif

static void sync_twice_public_child(void)
{
    fresh_worker();
    weft_task *h = push(dq);
    steal(WEFT_STEAL_NONE);
    h = push(h); /* public_end 1 */
    CHECK(pop(--h) == 'P' && pop(--h) == 'P', "joins");
    pop(h);
}

int main(int argc, char **argv)
{
    unsigned scale = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
    if (scale < 1)
        scale = 1;
    test_private_only();
    test_trip_wire_and_serving();
    test_privatize();
    test_back_off_on_bot();
    test_claim_of_private_task_backs_off();
    test_private_join_wins_over_claim();
    test_freeze_and_thaw();
    test_sleepers();
    test_request_outlives_join_of_only_task();
    test_owner_waits_for_thief();
    test_stress(scale);
    expect_death(overflow_child, "task deque overflow on worker 7", "deque overflow");
#if WEFT_CHECKS
    expect_death(sync_twice_child, "without a matching SPAWN", "SYNC twice (private)");
#endif
    expect_death(sync_twice_public_child, "without a matching SPAWN", "SYNC twice (public)");
    return 0;
}
