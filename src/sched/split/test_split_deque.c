// SPDX-License-Identifier: Apache-2.0
/* The split deque's state machine (Lace Figure 4), single-threaded: push,
 * pop, steal, grow, shrink and the allstolen transitions, checked state by
 * state on a worker built by hand (no pool running).  A "thief" here is a
 * call of the thief-side function; the stolen task is then marked DONE as
 * a thief would after running it. */
#include "check.h"

#include "sched/split/split_deque.h"
#include "deque_fixture.h"

static weft_worker *w;
static weft_task *dq;
enum { SLOTS = 64 };

static void fresh_worker(void)
{
    static weft_worker storage;
    static weft_task slots[SLOTS + 1];
    deque_fixture(&storage, slots, SLOTS);
    w = &storage;
    dq = slots;
    weft__split_init(w);
}

static uint32_t tail(void) { return WEFT_TS_TAIL(atomic_load(&w->shared.ts)); }
static uint32_t split(void) { return WEFT_TS_SPLIT(atomic_load(&w->shared.ts)); }
static bool allstolen(void) { return atomic_load(&w->shared.allstolen); }
static bool splitreq(void) { return atomic_load(&w->shared.limit) == WEFT_SPLITREQ; }
/* The fast paths' word when nobody asks: o_split (end when all stolen). */
static bool limit_is_o_split(void)
{
    return atomic_load(&w->shared.limit) == (uintptr_t)w->own.split;
}
static bool o_allstolen(void) { return w->own.split == w->end; }

/* SPAWN at slot h: what the generated code does. */
static weft_task *push(weft_task *h)
{
    weft_split_reserve(w, h);
    weft_split_push(w, h, (uintptr_t)&noop_wrapper);
    return h + 1;
}

/* SYNC of slot t (the new head): 'P' private (run inline), 'S' stolen. */
static char pop(weft_task *t)
{
    if (weft_split_pop_private(w, t))
        return 'P';
    return weft__split_sync_slow(w, t) ? 'S' : 'P';
}

static weft_task *steal(weft_steal_result expect)
{
    weft_task *t = NULL;
    weft_steal_result r = weft__split_steal(w, &t);
    CHECK(r == expect, "steal returned %d, expected %d", (int)r, (int)expect);
    if (r == WEFT_STEAL_OK || r == WEFT_STEAL_OK_MORE)
        atomic_store(&t->state, WEFT_STATE_DONE); /* ran it */
    return t;
}

static void test_basic_transitions(void)
{
    fresh_worker();
    /* Empty deque: all stolen; the fast paths' word says so (end). */
    CHECK(o_allstolen() && allstolen() && limit_is_o_split(), "initial state");
    steal(WEFT_STEAL_NONE);

    /* Lines 14-19: the first push after allstolen shares that task. */
    weft_task *h = push(dq);
    CHECK(tail() == 0 && split() == 1, "push after allstolen: (t,s) = (%u,%u)", tail(), split());
    CHECK(!allstolen() && limit_is_o_split() && w->own.split == dq + 1, "push after allstolen");

    /* Lines 3-6: steal it. */
    CHECK(steal(WEFT_STEAL_OK) == dq, "stole slot 0");
    CHECK(tail() == 1 && split() == 1, "after steal");

    /* Private pushes: no shared state changes. */
    h = push(h);
    h = push(h);
    h = push(h);
    CHECK(h == dq + 4 && tail() == 1 && split() == 1 && w->own.split == dq + 1, "private pushes");

    /* Line 8: a thief finding nothing asks once. */
    steal(WEFT_STEAL_NONE);
    CHECK(splitreq(), "thief raised splitreq");

    /* Line 20 -> grow_shared: split = ceil((o_split + head) / 2). */
    h = push(h); /* head 5 */
    CHECK(split() == 3 && w->own.split == dq + 3 && limit_is_o_split(), "grow: split %u", split());

    /* Steal slot 1; slot 2 stays shared. */
    CHECK(steal(WEFT_STEAL_OK_MORE) == dq + 1, "stole slot 1");

    /* Pops of private slots 4 and 3. */
    CHECK(pop(--h) == 'P' && pop(--h) == 'P', "private pops");
    CHECK(h == dq + 3, "head 3");

    /* Slot 2: all remaining shared -> shrink_shared takes it back. */
    CHECK(pop(--h) == 'P', "slot 2 taken back by shrink");
    CHECK(tail() == 2 && split() == 2 && w->own.split == dq + 2, "after shrink (%u,%u)", tail(),
          split());

    /* Slot 1 was stolen: shrink finds tail == split -> allstolen. */
    CHECK(pop(--h) == 'S', "slot 1 stolen");
    CHECK(o_allstolen() && allstolen() && limit_is_o_split(), "allstolen after shrink");
    /* Slot 0 was stolen too: o_allstolen answers without touching (t,s). */
    CHECK(pop(--h) == 'S', "slot 0 stolen");
    CHECK(h == dq && o_allstolen(), "empty again");
    /* Every popped slot is EMPTY again (head discovery relies on it). */
    for (int i = 0; i < 6; i++)
        CHECK(atomic_load(&dq[i].state) == WEFT_STATE_EMPTY, "slot %d cleared", i);
    printf("ok: basic transitions\n");
}

static void test_shrink_keeps_unstolen_half(void)
{
    fresh_worker();
    weft_task *h = dq;
    for (int i = 0; i < 8; i++)
        h = push(h); /* slot 0 shared (allstolen push), 1..7 private */
    /* Ask, then a push shares half of the private part. */
    steal(WEFT_STEAL_OK);   /* slot 0 */
    steal(WEFT_STEAL_NONE); /* nothing shared: splitreq */
    h = push(h);            /* head 9: split = (1 + 9 + 1) / 2 = 5 */
    CHECK(split() == 5, "split %u", split());
    steal(WEFT_STEAL_OK_MORE); /* 1 */
    steal(WEFT_STEAL_OK_MORE); /* 2 */
    /* Pop private slots 8..5. */
    for (int i = 8; i >= 5; i--)
        CHECK(pop(--h) == 'P', "private %d", i);
    /* Slot 4: shared; shrink: new split = (3 + 5) / 2 = 4: slot 4 private. */
    CHECK(pop(--h) == 'P' && split() == 4 && tail() == 3, "shrink to 4: (%u,%u)", tail(), split());
    /* Slot 3: (3,4) -> new split 3, tail 3 == new split: private. */
    CHECK(pop(--h) == 'P' && tail() == 3 && split() == 3, "slot 3");
    CHECK(pop(--h) == 'S' && pop(--h) == 'S' && pop(--h) == 'S', "slots 2, 1, 0 stolen");
    CHECK(h == dq, "empty");
    printf("ok: shrink keeps the unstolen half\n");
}

static void test_pop_stolen_restores_allstolen(void)
{
    /* Leapfrogging pushes above a stolen task and clears allstolen; after
     * the join, pop_stolen sets it again (lines 33-35). */
    fresh_worker();
    push(dq);
    steal(WEFT_STEAL_OK); /* slot 0 stolen (and done) */
    /* The owner's SYNC of slot 0 finds it stolen (lines 25-27)... */
    CHECK(weft__split_shrink_shared(w, dq + 1), "shrink: all stolen");
    CHECK(o_allstolen() && allstolen() && limit_is_o_split(), "allstolen");
    /* ...and, while waiting, runs a leapfrogged task at head 1 that
     * pushes (shared at once: lines 14-19) and pops (taken back). */
    weft_task *lh = push(dq + 1);
    CHECK(!o_allstolen() && tail() == 1 && split() == 2, "leapfrog push (%u,%u)", tail(), split());
    CHECK(pop(--lh) == 'P', "leapfrog pop");
    CHECK(!o_allstolen(), "allstolen cleared by the leapfrog frame");
    /* The join completes: pop_stolen. */
    weft__split_pop_stolen(w, dq);
    CHECK(o_allstolen() && allstolen() && limit_is_o_split(), "pop_stolen restored allstolen");
    CHECK(atomic_load(&dq[0].state) == WEFT_STATE_EMPTY, "slot 0 cleared");
    printf("ok: pop_stolen restores allstolen\n");
}

static void test_grow_without_private_tasks(void)
{
    fresh_worker();
    weft_task *h = push(dq);
    h = push(h); /* slots 0 (shared) and 1 (private) */
    steal(WEFT_STEAL_OK);
    steal(WEFT_STEAL_NONE); /* request */
    /* Pop slot 1 with the request set: grow has nothing private to share
     * (head == o_split after the pop); with nobody asleep it clears. */
    CHECK(pop(--h) == 'P', "pop 1");
    CHECK(!splitreq() && limit_is_o_split() && split() == 1, "no-op grow clears the request");
    CHECK(pop(--h) == 'S', "pop 0");
    printf("ok: grow with nothing private\n");
}

static void test_steal_is_exact_under_reuse(void)
{
    /* A thief's CAS compares (tail, split) as a whole: after the deque was
     * emptied and refilled to the same indices the old snapshot matches the
     * new task, which is then the right one to steal (published by the new
     * store). */
    fresh_worker();
    push(dq);
    uint64_t snapshot = atomic_load(&w->shared.ts); /* (0,1) */
    steal(WEFT_STEAL_OK);
    CHECK(pop(dq) == 'S', "join");
    push(dq);
    CHECK(atomic_load(&w->shared.ts) == snapshot, "same (t,s) after refill");
    CHECK(steal(WEFT_STEAL_OK) == dq, "the refilled slot is stolen");
    printf("ok: ABA on (tail, split) is benign\n");
}

/* A fresh deque with five tasks pending: slot 0 shared and stolen, 1..4
 * private, and a thief's request standing; returns the head (slot 5). */
static weft_task *five_pending_one_stolen_asked(void)
{
    fresh_worker();
    weft_task *h = dq;
    for (int i = 0; i < 5; i++)
        h = push(h);
    steal(WEFT_STEAL_OK);
    steal(WEFT_STEAL_NONE);
    CHECK(splitreq(), "the thief that found nothing asked");
    return h;
}

static void test_request_survives_until_served(void)
{
    /* The owner moving o_split (shrink_shared) publishes it to the fast
     * paths with a CAS that keeps a pending request; only serving the
     * request (grow_shared, line 40) clears it. */
    weft_task *h = five_pending_one_stolen_asked();
    h = push(h); /* head 6: grow to (1 + 6 + 1) / 2 = 4 */
    CHECK(split() == 4 && !splitreq() && limit_is_o_split(), "grow served the request");
    atomic_store(&w->shared.limit, WEFT_SPLITREQ); /* a thief asks again */
    CHECK(!weft__split_shrink_shared(w, dq + 4), "shrink: (1,4) -> split 2");
    CHECK(split() == 2 && w->own.split == dq + 2, "split moved to 2");
    CHECK(splitreq(), "the request survived the shrink");
    h = push(h); /* the next SPAWN serves it */
    CHECK(!splitreq() && limit_is_o_split() && split() > 2, "served by the next push");
    printf("ok: a request survives owner updates until served\n");
}

static void test_yield_serves_request(void)
{
    /* WEFT_YIELD in a task that runs long: a pending request is served
     * there (grow_shared), as the next SPAWN would; with every task
     * stolen nothing is private, and the request stays for the next push. */
    weft_task *h = five_pending_one_stolen_asked();
    CHECK(weft_sched_poll(w, h), "a yield sees the request");
    weft_sched_poll_slow(w, h); /* grow: (1 + 5 + 1) / 2 = 3 */
    CHECK(split() == 3 && w->own.split == dq + 3 && !splitreq() && limit_is_o_split(),
          "the yield shared slots 1-2: split %u", split());
    CHECK(!weft_sched_poll(w, h), "served: the next yield does nothing");
    CHECK(steal(WEFT_STEAL_OK_MORE) == dq + 1 && steal(WEFT_STEAL_OK) == dq + 2,
          "thieves take what the yield shared");
    for (int i = 4; i >= 0; i--)
        CHECK(pop(--h) == (i >= 3 ? 'P' : 'S'), "pop %d", i);
    CHECK(o_allstolen(), "all stolen");
    atomic_store(&w->shared.limit, WEFT_SPLITREQ); /* a request now */
    CHECK(weft_sched_poll(w, h), "a yield sees it");
    weft_sched_poll_slow(w, h);
    CHECK(splitreq() && o_allstolen() && tail() == split(), "nothing private: the request stays");
    h = push(h);
    CHECK(!splitreq() && split() == 1 && !allstolen(), "the next push shares and serves it");
    printf("ok: a yield serves a request\n");
}

static void overflow_child(void)
{
    fresh_worker();
    w->id = 7;
    weft_task *h = dq;
    for (int i = 0; i <= SLOTS; i++)
        h = push(h);
}

static void sync_without_spawn_child(void)
{
    fresh_worker();
    pop(dq - 1);
}

static void sync_twice_child(void)
{
    fresh_worker();
    weft_task *h = push(dq);
    steal(WEFT_STEAL_OK);
    CHECK(pop(--h) == 'S', "first join");
    pop(h); /* again: the slot is EMPTY */
}

int main(void)
{
    test_basic_transitions();
    test_shrink_keeps_unstolen_half();
    test_pop_stolen_restores_allstolen();
    test_grow_without_private_tasks();
    test_steal_is_exact_under_reuse();
    test_request_survives_until_served();
    test_yield_serves_request();
    expect_death(overflow_child, "task deque overflow on worker 7", "deque overflow");
    expect_death(sync_without_spawn_child, "without a matching SPAWN", "SYNC with nothing spawned");
    expect_death(sync_twice_child, "without a matching SPAWN", "SYNC twice");
    return 0;
}
