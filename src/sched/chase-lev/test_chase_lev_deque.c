// SPDX-License-Identifier: Apache-2.0
/* The Chase-Lev scheduler's deque (chase_lev_deque.c, owner.h),
 * white-box: the owner's push and pop and the thief's steal single-
 * threaded on a worker built by hand (no pool running): the order thieves
 * take tasks in, the race for the last task won by either side, the
 * array's growth with tasks stolen before it, an interrupt's freeze and
 * thaw, the sleepers' wake requests (kept while there
 * is nothing to share, cleared once served); then a stress run of one
 * owner and several thief threads checking that every task runs exactly
 * once, its result visible to the joiner.
 *
 * Usage: test_chase_lev_deque [scale]   (scale: length of the stress run) */
#include "check.h"

#include "runtime/sched_services.h"
#include "sched/chase-lev/owner.h"
#include "deque_fixture.h"
#include "deque_stress.h"

enum { SLOTS = 1024, INITIAL = 256 /* chase_lev_deque.c's INITIAL_SIZE */ };

static weft_worker *w;
static weft_task *dq;
/* Thieves: only their addresses (the STOLEN mark) are used. */
static weft_worker thief_a, thief_b;

#define TASK_F ((uintptr_t)&noop_wrapper)

static void fresh_worker(void)
{
    static weft_worker storage;
    static weft_task slots[SLOTS + 1];
    if (w)
        weft__sched_destroy(w); /* the arrays of the last test */
    deque_fixture(&storage, slots, SLOTS);
    memset(&thief_a, 0, sizeof thief_a);
    memset(&thief_b, 0, sizeof thief_b);
    w = &storage;
    dq = slots;
    weft__sched_init(w);
}

static int64_t top(void) { return atomic_load(&w->shared.top); }
static int64_t bottom(void) { return atomic_load(&w->shared.bottom); }
/* The shared indices and the owner's copy agree. */
static bool indices_are(int64_t t, int64_t b)
{
    return top() == t && bottom() == b && w->own.bottom == b;
}
static uint32_t wake_req(void) { return atomic_load(&w->shared.wake_req); }

/* SPAWN at slot h, as the generated code does. */
static weft_task *push(weft_task *h)
{
    weft_deque_reserve(w, h);
    weft_cl_push(w, h, TASK_F);
    return h + 1;
}

/* SYNC of slot t (the new head): 'P' run inline, 'S' stolen (and done). */
static char pop(weft_task *t)
{
    if (weft_cl_pop_private(w, t))
        return 'P';
    return weft__cl_sync_slow(w, t) ? 'S' : 'P';
}

/* The only wrapper pushed. */
static bool wrapper_ok(uintptr_t wrapper) { return wrapper == TASK_F; }

/* A whole steal by `thief` (deque_steal). */
static weft_task *steal_by(weft_worker *thief, weft_steal_result expect)
{
    return deque_steal(thief, w, expect, wrapper_ok);
}
static weft_task *steal(weft_steal_result expect) { return steal_by(&thief_a, expect); }

static void test_owner_alone(void)
{
    fresh_worker();
    CHECK(!weft__sched_has_work_for(&thief_a, w), "an empty deque has no work");
    weft_task *h = dq;
    for (int i = 0; i < 10; i++)
        h = push(h);
    CHECK(indices_are(0, 10), "ten pushes: (%lld,%lld)", (long long)top(), (long long)bottom());
    CHECK(weft__sched_has_work_for(&thief_a, w), "every pushed task is stealable");
    for (int i = 9; i >= 0; i--) {
        CHECK(pop(--h) == 'P', "pop %d", i);
        CHECK(atomic_load(&dq[i].state) == WEFT_STATE_EMPTY, "slot %d EMPTY after its pop", i);
    }
    /* The last pop raced for task 0 with the thieves' CAS and won it. */
    CHECK(indices_are(1, 1), "all popped: (%lld,%lld)", (long long)top(), (long long)bottom());
    steal(WEFT_STEAL_NONE);
    CHECK(!weft__sched_has_work_for(&thief_a, w), "nothing left");
    printf("ok: the owner alone pushes and pops; the last pop takes its task by CAS\n");
}

static void test_thieves_take_oldest(void)
{
    fresh_worker();
    weft_task *h = dq;
    for (int i = 0; i < 4; i++)
        h = push(h);
    CHECK(steal(WEFT_STEAL_OK_MORE) == dq + 0, "the oldest first");
    CHECK(steal_by(&thief_b, WEFT_STEAL_OK_MORE) == dq + 1, "then the next");
    CHECK(steal(WEFT_STEAL_OK_MORE) == dq + 2, "the third, one left: OK_MORE");
    CHECK(indices_are(3, 4), "(3,4)");
    h = push(h);
    CHECK(pop(--h) == 'P', "the owner pops its newest, one task left above top");
    CHECK(steal(WEFT_STEAL_OK) == dq + 3, "the last: OK (no more to tell)");
    steal(WEFT_STEAL_NONE);
    CHECK(pop(--h) == 'S' && pop(--h) == 'S' && pop(--h) == 'S' && pop(--h) == 'S',
          "the four stolen ones");
    CHECK(top() == bottom() && w->own.bottom == bottom(), "empty: (%lld,%lld)", (long long)top(),
          (long long)bottom());
    steal(WEFT_STEAL_NONE);
    printf("ok: thieves take the oldest tasks, the owner finds them stolen\n");
}

static void test_last_task_race(void)
{
    /* The thief's CAS first: the owner's pop finds top past its task. */
    fresh_worker();
    weft_task *h = push(dq);
    CHECK(steal(WEFT_STEAL_OK) == dq, "the only task stolen");
    CHECK(pop(--h) == 'S', "the owner joins it");
    CHECK(indices_are(1, 1), "(1,1) after the lost race");
    /* The slot and the index are reused. */
    h = push(dq);
    CHECK(indices_are(1, 2), "(1,2)");
    CHECK(pop(--h) == 'P', "the owner's CAS first: it runs the task");
    CHECK(indices_are(2, 2), "(2,2)");
    steal(WEFT_STEAL_NONE);

    /* Owner's fence before the thief reads: the thief sees the lowered
     * bottom and finds nothing (its window is empty), then the owner's
     * CAS takes the task. */
    fresh_worker();
    h = push(dq);
    h = push(h);
    CHECK(steal(WEFT_STEAL_OK_MORE) == dq, "slot 0 stolen");
    int64_t b = w->own.bottom - 1;
    int64_t t = weft__cl_take_begin(&w->shared.bottom, &w->shared.top, b);
    CHECK(t == b, "the last task: top %lld == b %lld", (long long)t, (long long)b);
    steal(WEFT_STEAL_NONE); /* sees bottom lowered: nothing in its window */
    weft__cl_restore(&w->shared.bottom, b + 1);
    CHECK(pop(--h) == 'P', "the owner still takes its last task");
    CHECK(pop(--h) == 'S', "slot 0 was stolen");
    printf("ok: the race for the last task goes to exactly one side\n");
}

static void test_growth(void)
{
    fresh_worker();
    weft_cl_array *first = w->own.array;
    CHECK(first->mask + 1 == INITIAL, "initial array of %d", INITIAL);
    weft_task *h = dq;
    for (int i = 0; i < 8; i++)
        h = push(h);
    for (int i = 0; i < 3; i++)
        CHECK(steal(WEFT_STEAL_OK_MORE) == dq + i, "slot %d stolen before growing", i);
    /* Fill past the initial size: the array doubles (top 3 is kept). */
    for (int i = 8; i < INITIAL + 100; i++)
        h = push(h);
    CHECK(w->own.array != first && w->own.array->mask + 1 == 2 * INITIAL &&
              atomic_load(&w->shared.array) == w->own.array && w->own.array->retired == first,
          "grown to %lld, the old array retired", (long long)(w->own.array->mask + 1));
    CHECK(COUNTER(w, sched.grows, 1) == 1, "one grow counted");
    /* Thieves find the old entries in the new array, in order. */
    for (int i = 3; i < 10; i++)
        CHECK(steal(WEFT_STEAL_OK_MORE) == dq + i, "slot %d stolen after growing", i);
    for (int i = INITIAL + 99; i >= 10; i--)
        CHECK(pop(--h) == 'P', "pop of slot %d after growing", i);
    for (int i = 9; i >= 0; i--)
        CHECK(pop(--h) == 'S', "slot %d stolen", i);
    CHECK(top() == bottom(), "empty");
    printf("ok: the array grows with stolen tasks below it, thieves find every entry\n");
}

static void test_freeze_and_thaw(void)
{
    fresh_worker();
    weft_task *h = dq;
    for (int i = 0; i < 4; i++)
        h = push(h);
    CHECK(steal(WEFT_STEAL_OK_MORE) == dq, "slot 0 stolen before the interrupt");
    weft_sched_saved saved;
    weft__sched_freeze(w, h, &saved);
    CHECK(indices_are(4, 4) && saved.top == 1 && saved.bottom == 4, "frozen: (4,4), kept (1,4)");
    steal(WEFT_STEAL_NONE); /* the hidden tasks are not stealable */
    CHECK(!weft__sched_has_work_for(&thief_a, w), "nothing stealable while frozen");
    /* The interrupt's frame: its tasks go on at bottom, one is stolen. */
    weft_task *f = h;
    for (int i = 0; i < 10; i++)
        f = push(f);
    CHECK(steal(WEFT_STEAL_OK_MORE) == h, "the frame's oldest task is stealable");
    for (int i = 9; i >= 1; i--)
        CHECK(pop(--f) == 'P', "frame pop %d", i);
    CHECK(pop(--f) == 'S', "the frame's stolen task");
    weft__sched_thaw(w, &saved);
    CHECK(indices_are(1, 4), "thawed: (1,4) again");
    /* The hidden tasks are back: thieves get slot 1, then the owner's
     * pops find the rest. */
    CHECK(steal(WEFT_STEAL_OK_MORE) == dq + 1, "slot 1 after the thaw");
    CHECK(pop(--h) == 'P' && pop(--h) == 'P', "slots 3 and 2");
    CHECK(pop(--h) == 'S' && pop(--h) == 'S', "slots 1 and 0 stolen");
    printf("ok: freeze hides the deque, the frame runs above it, thaw brings it back\n");
}

/* A frame that pushes more than an array holds, with an interrupt nested
 * in it: the hidden tasks below the outer frame are all still there, and
 * in their slots, after both thaws. */
static void test_long_frame_keeps_hidden(void)
{
    fresh_worker();
    weft_task *h = dq;
    for (int i = 0; i < 4; i++)
        h = push(h);
    CHECK(steal(WEFT_STEAL_OK_MORE) == dq, "slot 0 stolen before the interrupt");
    weft_cl_array *hidden = w->own.array;
    weft_sched_saved outer;
    weft__sched_freeze(w, h, &outer);
    weft_task *f = h;
    for (int i = 0; i < INITIAL + 10; i++)
        f = push(f);
    weft_sched_saved inner;
    weft__sched_freeze(w, f, &inner);
    weft_task *g = f;
    for (int i = 0; i < INITIAL + 10; i++)
        g = push(g);
    for (int i = 0; i < INITIAL + 10; i++)
        CHECK(pop(--g) == 'P', "nested frame pop %d", i);
    weft__sched_thaw(w, &inner);
    CHECK(indices_are(h - dq, f - dq), "the outer frame's indices back after the nested thaw");
    for (int i = 0; i < INITIAL + 10; i++)
        CHECK(pop(--f) == 'P', "frame pop %d", i);
    weft__sched_thaw(w, &outer);
    CHECK(w->own.array == hidden && atomic_load(&w->shared.array) == hidden,
          "the hidden tasks' array is the deque's again");
    for (int i = 1; i < 4; i++)
        CHECK(atomic_load(&hidden->slot[i & hidden->mask]) == dq + i,
              "hidden slot %d overwritten by the frame", i);
    CHECK(steal(WEFT_STEAL_OK_MORE) == dq + 1, "slot 1 after the thaws");
    CHECK(pop(--h) == 'P' && pop(--h) == 'P', "slots 3 and 2");
    CHECK(pop(--h) == 'S' && pop(--h) == 'S', "slots 1 and 0 stolen");
    printf("ok: a frame longer than the array, with a nested interrupt, keeps the hidden tasks\n");
}

static void test_wake_requests(void)
{
    fresh_worker();
    weft__sched_ask_for_sleeper(w, &thief_a);
    CHECK(wake_req() == 1, "a sleeper's request");
    /* Nothing to share: a poll keeps the request for the push that will. */
    CHECK(weft_sched_poll(w, dq), "the poll sees the request");
    weft_sched_poll_slow(w, dq);
    CHECK(wake_req() == 1, "a poll with nothing to share keeps the request");
    weft_task *h = push(dq);
    CHECK(wake_req() == 0, "the push that shares a task serves and clears the request");
    /* A request posted after the push is read after the pop's fence. */
    h = push(h);
    weft__sched_ask_for_sleeper(w, &thief_b);
    CHECK(pop(--h) == 'P' && wake_req() == 0, "the pop with a task left serves it");
    CHECK(pop(--h) == 'P', "the last pop");
    weft__sched_ask_for_sleeper(w, &thief_b);
    weft_sched_poll_slow(w, h);
    CHECK(wake_req() == 1, "with nothing left the request stays");
    printf("ok: sleepers' requests: kept while nothing is shared, cleared once served\n");
}

/* ---- stress: one owner, thieves, every task run exactly once ---- */

static weft_steal_result stress_steal(weft_worker *thief, weft_task **t, uintptr_t *wrapper)
{
    return weft__sched_steal(thief, w, false, t, wrapper);
}
static bool array_grew(void) { return w->own.array->mask + 1 > INITIAL; }

static void test_stress(unsigned scale)
{
    fresh_worker();
    /* Trees up to the array's initial size and beyond (the wide runs), so
     * that it grows while thieves steal: the run goes on until it has (a
     * wide run the thieves keep up with, or one of whose tasks they take
     * while the owner waits for a core, leaves the array as it was). */
    deque_stress_result r = deque_stress_run(&(deque_stress){.dq = dq,
                                                             .slots = SLOTS,
                                                             .push = push,
                                                             .pop = pop,
                                                             .steal = stress_steal,
                                                             .wrapper_ok = wrapper_ok,
                                                             .wide = INITIAL + 44,
                                                             .done = array_grew},
                                             scale);
    CHECK(top() == bottom(), "empty at the end: (%lld,%lld)", (long long)top(),
          (long long)bottom());
    printf("ok: stress: %llu tasks, %llu stolen, array of %lld; each ran once\n",
           (unsigned long long)r.tasks, (unsigned long long)r.stolen,
           (long long)(w->own.array->mask + 1));
    CHECK(array_grew(), "the array never grew during the run");
}

/* ---- misuse ---- */

static void sync_without_spawn_child(void)
{
    fresh_worker();
    w->id = 5;
    pop(dq);
}

static void overflow_child(void)
{
    fresh_worker();
    w->id = 7;
    weft_task *h = dq;
    for (int i = 0; i <= SLOTS; i++)
        h = push(h);
}

int main(int argc, char **argv)
{
    unsigned scale = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
    if (scale < 1)
        scale = 1;
    test_owner_alone();
    test_thieves_take_oldest();
    test_last_task_race();
    test_growth();
    test_freeze_and_thaw();
    test_long_frame_keeps_hidden();
    test_wake_requests();
    test_stress(scale);
    expect_death(sync_without_spawn_child, "without a matching SPAWN on worker 5",
                 "SYNC without SPAWN");
    expect_death(overflow_child, "task deque overflow on worker 7", "deque overflow");
    weft__sched_destroy(w);
    return 0;
}
