// SPDX-License-Identifier: Apache-2.0
/* Race tests: force the interesting interleavings of the split deque, the
 * steal hand-over and the sleep protocol deterministically, through the
 * race-point hook of a perturb build (src/runtime/perturb.h), and check both the
 * outcome and that the interleaving really happened (the hook saw the
 * points in the intended order).
 *
 *   thief_stalled_before_cas    a thief read (tail,split), stalls; the owner
 *                               pops the task: the thief's CAS must fail
 *   thief_stalled_across_reuse  the same, while another thief takes the
 *                               task and the owner re-shares the slot with
 *                               the same (tail,split): the CAS succeeds and
 *                               the owner must not run that task too
 *   figure3_shrink_race         the owner stalls in shrink_shared after
 *                               reading (tail,split); two thieves steal past
 *                               the new split (Lace Figure 3)
 *   owner_stalled_after_shrink  the owner stalls after moving split; two
 *                               thieves try: at most the shared task goes
 *   sync_races_last_steal       (pool) a SYNC races the steal of the last
 *                               shared task; the thief wins, stalls before
 *                               DONE until the joiner polls: exactly once,
 *                               result visible
 *   sync_wins_last_steal        (pool) the same race won by the SYNC
 *   sleeper_request_kept        (pool) a sleeper's request meets a SYNC
 *                               with nothing to share: it must stay for the
 *                               next SPAWN, which wakes the sleeper
 *   sleeper_stalled_before      (pool) a sleeper stalls before announcing
 *                               itself while work appears: nobody wakes
 *                               it, its last look must find the work
 *   sleeper_stalled_announced   (pool) a sleeper stalls between publishing
 *                               its sleep and its last look while work
 *                               appears: it must wake and take the work
 *   sleeper_stalled_before_wait (pool) a sleeper stalls after its last look
 *                               found nothing, then the work appears: the
 *                               waker must claim it, the futex must not block
 *
 * The first four run the deque by hand (no pool): the main thread is the
 * owner, thieves are plain threads.  Every wait is bounded (10 s); a wait
 * that times out fails the test with the point it waited for.
 *
 * The test's own atomics (log, gates, flags) are all seq_cst, the default:
 * a gate opened by one thread orders everything before it for the thread
 * that waited on it; they order nothing of the runtime's.
 */
#include "check.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>
#include <weft/weft.h>

#include "sched/split/split_deque.h"
#include "deque_fixture.h"

#if !WEFT_PERTURB
#error "test_races needs a WEFT_PERTURB=ON build"
#endif

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------------
 * The event log and the gates the hooks wait on.
 * ------------------------------------------------------------------------ */

enum { ROLE_NONE, ROLE_OWNER, ROLE_THIEF1, ROLE_THIEF2, ROLE_SLEEPER, ROLE_WAKER };
static const char *const role_names[] = {"none", "owner", "thief1", "thief2", "sleeper", "waker"};

/* Hand-driven tests: each thread says who it is. */
static __thread int my_role;

enum { LOG_MAX = 64 };
static atomic_int log_n;
static atomic_int log_role[LOG_MAX], log_point[LOG_MAX];

static void log_event(int role, weft_race_point_id point)
{
    int i = atomic_fetch_add(&log_n, 1);
    if (i < LOG_MAX) {
        atomic_store(&log_role[i], role);
        atomic_store(&log_point[i], (int)point);
    }
}

/* Position of the first (role, point) event in the log, or -1. */
static int logged_at(int role, weft_race_point_id point)
{
    int n = atomic_load(&log_n);
    for (int i = 0; i < n && i < LOG_MAX; i++)
        if (atomic_load(&log_role[i]) == role && atomic_load(&log_point[i]) == (int)point)
            return i;
    return -1;
}

/* Position of the first event of role, or -1. */
static int first_event_of(int role)
{
    int n = atomic_load(&log_n);
    for (int i = 0; i < n && i < LOG_MAX; i++)
        if (atomic_load(&log_role[i]) == role)
            return i;
    return -1;
}

static void print_log(void)
{
    int n = atomic_load(&log_n);
    fprintf(stderr, "race-point log (%d events):\n", n);
    for (int i = 0; i < n && i < LOG_MAX; i++)
        fprintf(stderr, "  %2d %-8s %s\n", i, role_names[atomic_load(&log_role[i])],
                weft__race_point_name((weft_race_point_id)atomic_load(&log_point[i])));
}

/* a happened, then b (both logged). */
#define CHECK_ORDER(ra, pa, rb, pb) \
    do { \
        int a_ = logged_at(ra, pa), b_ = logged_at(rb, pb); \
        if (!(a_ >= 0 && b_ >= 0 && a_ < b_)) \
            print_log(); \
        CHECK(a_ >= 0 && b_ >= 0 && a_ < b_, "expected %s:%s (event %d) before %s:%s (event %d)", \
              role_names[ra], weft__race_point_name(pa), a_, role_names[rb], \
              weft__race_point_name(pb), b_); \
    } while (0)

enum { GATE_MAX = 8 };
static atomic_int gate[GATE_MAX];
static atomic_int timed_out; /* the first gate a wait gave up on, + 1 */

static void open_gate(int g) { atomic_store(&gate[g], 1); }

/* Waits (at most 10 s) until gate g opens. */
static bool wait_gate(int g)
{
    double end = now_s() + 10.0;
    while (!atomic_load(&gate[g])) {
        if (now_s() > end) {
            int none = 0;
            atomic_compare_exchange_strong(&timed_out, &none, g + 1);
            return false;
        }
        sched_yield();
    }
    return true;
}

static void reset_events(void)
{
    atomic_store(&log_n, 0);
    for (int g = 0; g < GATE_MAX; g++)
        atomic_store(&gate[g], 0);
    atomic_store(&timed_out, 0);
}

#define CHECK_NO_TIMEOUT() \
    do { \
        int g_ = atomic_load(&timed_out); \
        if (g_) \
            print_log(); \
        CHECK(g_ == 0, "a hook waited 10 s in vain for gate %d (interleaving not reached)", \
              g_ - 1); \
    } while (0)

/* ------------------------------------------------------------------------
 * A deque driven by hand (as in test_split_deque.c), with thief threads.
 * ------------------------------------------------------------------------ */

static weft_worker *w;
static weft_task *dq;
enum { SLOTS = 16 };
static weft_worker thief_workers[2]; /* only their addresses: STOLEN(thief) */
static atomic_int runs[SLOTS];       /* executions of the task in each slot */

static void fresh_worker(void)
{
    static weft_worker storage;
    static weft_task slots[SLOTS + 1];
    deque_fixture(&storage, slots, SLOTS);
    w = &storage;
    dq = slots;
    weft__split_init(w);
    for (int i = 0; i < SLOTS; i++)
        atomic_store(&runs[i], 0);
}

static uint32_t ts_tail(void) { return WEFT_TS_TAIL(atomic_load(&w->shared.ts)); }
static uint32_t ts_split(void) { return WEFT_TS_SPLIT(atomic_load(&w->shared.ts)); }

/* Result a task in slot i writes, with the thief that ran it. */
static uint64_t result_of(int slot, int thief) { return 1000u * (unsigned)slot + (unsigned)thief; }

static weft_task *push(weft_task *h)
{
    weft_split_reserve(w, h);
    memset(h->payload, 0, sizeof h->payload);
    weft_split_push(w, h, (uintptr_t)&noop_wrapper);
    return h + 1;
}

/* SYNC of slot t: 'P' ran inline by the owner, 'S' stolen (and done). */
static char pop(weft_task *t)
{
    char r = weft_split_pop_private(w, t) ? 'P' : weft__split_sync_slow(w, t) ? 'S' : 'P';
    if (r == 'P')
        atomic_fetch_add(&runs[t - dq], 1);
    return r;
}

/* One thief thread: optionally waits for a gate, steals (retrying a lost
 * race if asked), and runs what it got as steal.c would: STOLEN, the run,
 * the result, DONE. */
typedef struct {
    int role, which;
    int start_gate;  /* wait for it first; -1: none */
    bool retry_busy; /* a BUSY steal is tried again (as the idle loop does) */
    weft_steal_result result;
    int slot;
} thief_arg;

static atomic_int thieves_done;
enum { GATE_THIEVES_DONE = 5 };

static void *thief_main(void *p)
{
    thief_arg *a = p;
    my_role = a->role;
    if (a->start_gate >= 0)
        wait_gate(a->start_gate);
    weft_task *t = NULL;
    a->slot = -1;
    do
        a->result = weft__split_steal(w, &t);
    while (a->retry_busy && a->result == WEFT_STEAL_BUSY);
    if (a->result == WEFT_STEAL_OK || a->result == WEFT_STEAL_OK_MORE) {
        a->slot = (int)(t - dq);
        /* Relaxed, as in the runtime: the acquire CAS made the slot visible. */
        atomic_store_explicit(&t->state, WEFT_STATE_STOLEN(&thief_workers[a->which]),
                              memory_order_relaxed);
        atomic_fetch_add(&runs[a->slot], 1);
        uint64_t res = result_of(a->slot, a->which);
        memcpy(t->payload, &res, sizeof res);
        /* seq_cst as steal.c (release: the result before DONE). */
        atomic_store_explicit(&t->state, WEFT_STATE_DONE, memory_order_seq_cst);
    }
    if (atomic_fetch_add(&thieves_done, 1) + 1 == 2)
        open_gate(GATE_THIEVES_DONE);
    return NULL;
}

static pthread_t start_thief(thief_arg *a, int role, int which, int start_gate, bool retry)
{
    *a = (thief_arg){.role = role, .which = which, .start_gate = start_gate, .retry_busy = retry};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, thief_main, a) == 0, "pthread_create");
    return th;
}

static void check_result(weft_task *t, int thief)
{
    uint64_t res;
    memcpy(&res, t->payload, sizeof res);
    CHECK(res == result_of((int)(t - dq), thief), "slot %d: result %llu not visible to the joiner",
          (int)(t - dq), (unsigned long long)res);
}

/* ---- the hook of the hand-driven tests: logs every point of a thread
 * with a role; stalls stall_role once at stall_point, opening gate 0 and
 * waiting for gate release_gate. */
static weft_race_point_id stall_point;
static int stall_role, release_gate;
static atomic_int stalled_once;

static void stall_hook(weft_race_point_id id)
{
    if (my_role == ROLE_NONE)
        return;
    log_event(my_role, id);
    int zero = 0;
    if (my_role == stall_role && id == stall_point &&
        atomic_compare_exchange_strong(&stalled_once, &zero, 1)) {
        open_gate(0);
        wait_gate(release_gate);
    }
}

/* Called with no thread but the main one in the runtime. */
static void arm_stall(int role, weft_race_point_id point, int release)
{
    reset_events();
    atomic_store(&thieves_done, 0);
    stall_role = role;
    stall_point = point;
    release_gate = release;
    atomic_store(&stalled_once, 0);
    weft__race_set_hook(stall_hook);
}

/* A thief read (0,1) and stalls before its CAS; the owner pops slot 0
 * (shrink_shared takes it back); the thief's CAS must fail. */
static void thief_stalled_before_cas(void)
{
    fresh_worker();
    arm_stall(ROLE_THIEF1, WEFT_RP_THIEF_BEFORE_CLAIM, 1);
    my_role = ROLE_OWNER;
    weft_task *h = push(dq); /* the push after allstolen shares it: (0,1) */
    CHECK(ts_tail() == 0 && ts_split() == 1, "slot 0 shared");

    thief_arg a;
    pthread_t th = start_thief(&a, ROLE_THIEF1, 0, -1, false);
    CHECK(wait_gate(0), "thief never reached STEAL_READ_TS");
    CHECK(pop(--h) == 'P', "the owner must take slot 0 back while the thief stalls");
    open_gate(1);
    pthread_join(th, NULL);
    my_role = ROLE_NONE;

    CHECK(a.result == WEFT_STEAL_BUSY, "the stalled thief's CAS must fail (got %d)", (int)a.result);
    CHECK(atomic_load(&runs[0]) == 1, "slot 0 ran %d times", atomic_load(&runs[0]));
    CHECK_ORDER(ROLE_THIEF1, WEFT_RP_THIEF_BEFORE_CLAIM, ROLE_OWNER, WEFT_RP_OWNER_RECLAIMED);
    CHECK(logged_at(ROLE_THIEF1, WEFT_RP_THIEF_CLAIMED) < 0, "the thief won a task it must not");
    CHECK_NO_TIMEOUT();
    weft__race_set_hook(NULL);
    printf("ok: a thief stalled before its CAS loses to the owner's pop\n");
}

/* Thief 1 read (0,1) and stalls; thief 2 steals slot 0; the owner joins
 * it, and its next push shares slot 0 again as (0,1): thief 1's CAS now
 * succeeds -- on the new task, which the owner must not run as well. */
static void thief_stalled_across_reuse(void)
{
    fresh_worker();
    arm_stall(ROLE_THIEF1, WEFT_RP_THIEF_BEFORE_CLAIM, 1);
    my_role = ROLE_OWNER;
    weft_task *h = push(dq);

    thief_arg a1, a2;
    pthread_t t1 = start_thief(&a1, ROLE_THIEF1, 0, -1, false);
    CHECK(wait_gate(0), "thief 1 never reached STEAL_READ_TS");
    pthread_t t2 = start_thief(&a2, ROLE_THIEF2, 1, -1, false);
    pthread_join(t2, NULL);
    CHECK(a2.result == WEFT_STEAL_OK && a2.slot == 0, "thief 2 takes slot 0");
    CHECK(pop(--h) == 'S', "slot 0 was stolen");
    check_result(dq, 1);

    h = push(dq); /* a new task in slot 0, shared again as (0,1) */
    CHECK(ts_tail() == 0 && ts_split() == 1, "(0,1) again");
    open_gate(1);
    pthread_join(t1, NULL);
    CHECK(a1.result == WEFT_STEAL_OK && a1.slot == 0,
          "thief 1's CAS on the same (0,1) takes the new task (got %d)", (int)a1.result);
    CHECK(pop(--h) == 'S', "the owner must find the new task stolen, not run it");
    check_result(dq, 0);
    my_role = ROLE_NONE;
    CHECK(atomic_load(&runs[0]) == 2, "slot 0's two tasks: %d runs", atomic_load(&runs[0]));
    CHECK_ORDER(ROLE_THIEF1, WEFT_RP_THIEF_BEFORE_CLAIM, ROLE_THIEF2, WEFT_RP_THIEF_CLAIMED);
    CHECK_ORDER(ROLE_OWNER, WEFT_RP_OWNER_PUBLISHED, ROLE_THIEF1, WEFT_RP_THIEF_CLAIMED);
    CHECK_NO_TIMEOUT();
    weft__race_set_hook(NULL);
    printf("ok: a thief stalled across the reuse of its slot takes only the new task\n");
}

/* Slot 0 stolen, slots 1..3 shared, 4..6 pushed and popped privately; the
 * owner's head is 4 and its next SYNC is slot 3. */
static weft_task *setup_three_shared(void)
{
    int saved = my_role;
    my_role = ROLE_NONE; /* the set-up is not logged */
    weft_task *h = push(dq);
    thief_arg a;
    pthread_join(start_thief(&a, ROLE_NONE, 0, -1, false), NULL);
    CHECK(a.slot == 0, "set-up steal of slot 0");
    for (int i = 1; i <= 5; i++)
        h = push(h);
    pthread_join(start_thief(&a, ROLE_NONE, 0, -1, false), NULL); /* nothing shared: asks */
    CHECK(a.result == WEFT_STEAL_NONE && atomic_load(&w->shared.limit) == WEFT_SPLITREQ, "request");
    h = push(h); /* grow_shared: split = (1 + 7 + 1) / 2 = 4 */
    CHECK(ts_tail() == 1 && ts_split() == 4, "(1,4) after grow: (%u,%u)", ts_tail(), ts_split());
    for (int i = 0; i < 3; i++)
        CHECK(pop(--h) == 'P', "private pops of slots 6, 5, 4");
    my_role = saved;
    return h;
}

/* From setup_three_shared: the owner's SYNC of slot 3, with the owner
 * stalled at `point` (opening gate 0) until two thieves, started at gate
 * 0 and retrying a lost race, are done; the SYNC must run slot 3 itself
 * (`why` if not).  Returns the head after it. */
static weft_task *owner_stalls_while_two_steal(weft_race_point_id point, thief_arg *a1,
                                               thief_arg *a2, const char *why)
{
    fresh_worker();
    weft_task *h = setup_three_shared();
    arm_stall(ROLE_OWNER, point, GATE_THIEVES_DONE);
    pthread_t t1 = start_thief(a1, ROLE_THIEF1, 0, 0, true);
    pthread_t t2 = start_thief(a2, ROLE_THIEF2, 1, 0, true);
    my_role = ROLE_OWNER;
    CHECK(pop(--h) == 'P', "%s", why);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    return h;
}

/* Lace Figure 3: the owner read (1,4) and will move split to 2; meanwhile
 * two thieves take slots 1 and 2, past the new split.  The owner must see
 * it (its RMW returns tail 3), move split to 3, run slot 3 itself and find
 * slots 2 and 1 stolen. */
static void figure3_shrink_race(void)
{
    thief_arg a1, a2;
    weft_task *h = owner_stalls_while_two_steal(WEFT_RP_OWNER_BEFORE_RECLAIM, &a1, &a2,
                                                "slot 3 must be private again after the re-split");
    CHECK(a1.result != WEFT_STEAL_NONE && a2.result != WEFT_STEAL_NONE, "both thieves stole");
    CHECK((a1.slot == 1 && a2.slot == 2) || (a1.slot == 2 && a2.slot == 1),
          "the thieves took slots 1 and 2 (got %d and %d)", a1.slot, a2.slot);
    CHECK(ts_tail() == 3 && ts_split() == 3, "line 52 re-split to (3,3): (%u,%u)", ts_tail(),
          ts_split());
    CHECK(pop(--h) == 'S' && pop(--h) == 'S' && pop(--h) == 'S', "slots 2, 1, 0 stolen");
    check_result(dq + a1.slot, 0);
    check_result(dq + a2.slot, 1);
    my_role = ROLE_NONE;
    for (int i = 0; i <= 3; i++)
        CHECK(atomic_load(&runs[i]) == 1, "slot %d ran %d times", i, atomic_load(&runs[i]));
    CHECK_ORDER(ROLE_OWNER, WEFT_RP_OWNER_BEFORE_RECLAIM, ROLE_THIEF1, WEFT_RP_THIEF_CLAIMED);
    CHECK_ORDER(ROLE_OWNER, WEFT_RP_OWNER_BEFORE_RECLAIM, ROLE_THIEF2, WEFT_RP_THIEF_CLAIMED);
    CHECK_ORDER(ROLE_THIEF1, WEFT_RP_THIEF_CLAIMED, ROLE_OWNER, WEFT_RP_OWNER_RECLAIMED);
    CHECK_ORDER(ROLE_THIEF2, WEFT_RP_THIEF_CLAIMED, ROLE_OWNER, WEFT_RP_OWNER_RECLAIMED);
    CHECK_NO_TIMEOUT();
    weft__race_set_hook(NULL);
    printf("ok: Figure 3, thieves steal past the new split while the owner shrinks\n");
}

/* The owner moved split from 4 to 2 and stalls before acting on the tail
 * its RMW returned; two thieves try now: only slot 1 is shared, so one
 * gets it and the other nothing; the owner keeps 2 and 3. */
static void owner_stalled_after_shrink(void)
{
    thief_arg a1, a2;
    weft_task *h = owner_stalls_while_two_steal(WEFT_RP_OWNER_RECLAIMED, &a1, &a2,
                                                "slot 3 private after the shrink");
    int got1 = a1.slot, got2 = a2.slot;
    CHECK((got1 == 1 && got2 == -1) || (got1 == -1 && got2 == 1),
          "exactly one thief gets slot 1, nothing beyond split 2 (got %d and %d)", got1, got2);
    CHECK(pop(--h) == 'P', "slot 2 stays private");
    CHECK(pop(--h) == 'S' && pop(--h) == 'S', "slots 1 and 0 stolen");
    check_result(dq + 1, got1 == 1 ? 0 : 1);
    my_role = ROLE_NONE;
    for (int i = 0; i <= 3; i++)
        CHECK(atomic_load(&runs[i]) == 1, "slot %d ran %d times", i, atomic_load(&runs[i]));
    /* Every thief event came after the owner moved split. */
    int moved = logged_at(ROLE_OWNER, WEFT_RP_OWNER_RECLAIMED);
    CHECK(moved >= 0 && first_event_of(ROLE_THIEF1) > moved && first_event_of(ROLE_THIEF2) > moved,
          "the thieves ran while the owner stalled after moving split");
    CHECK_NO_TIMEOUT();
    weft__race_set_hook(NULL);
    printf("ok: thieves racing an owner stalled after moving split take nothing private\n");
}

/* ------------------------------------------------------------------------
 * The same kind of races in a running pool of two workers: the worker that
 * runs the root task is the owner, the other one the thief or sleeper.
 * ------------------------------------------------------------------------ */

enum { SCN_THIEF_WINS, SCN_OWNER_WINS, SCN_SLEEP, SCN_REREQUEST };
static int scenario;
static weft_race_point_id sleep_stall_point;
static atomic_int armed;
static atomic_int root_id = -1;
static atomic_int other_id = -1;
static atomic_int once[8][WEFT_RP_COUNT];
static atomic_int trivial_taken, stall_armed; /* the sleep scenarios' phases */

/* True the first time role passes point while armed (and logs it). */
static bool first(int role, weft_race_point_id id)
{
    int zero = 0;
    if (!atomic_compare_exchange_strong(&once[role][id], &zero, 1))
        return false;
    log_event(role, id);
    return true;
}

static void pool_hook(weft_race_point_id id)
{
    weft_worker *me = weft_self();
    if (!me || !atomic_load(&armed))
        return;
    bool owner = (int)weft_worker_id(me) == atomic_load(&root_id);
    switch (scenario) {
    case SCN_THIEF_WINS:
        /* thief: read (0,1) [gate 0], wait [1]; win [2]; ran it, wait for
         * the joiner's poll [3] before DONE; stored DONE [4]. */
        if (owner) {
            if (id == WEFT_RP_OWNER_BEFORE_RECLAIM && first(ROLE_OWNER, id)) {
                wait_gate(0);
                open_gate(1);
                wait_gate(2);
            } else if (id == WEFT_RP_JOIN_POLL && first(ROLE_OWNER, id)) {
                open_gate(3);
            } else if (id == WEFT_RP_OWNER_RECLAIMED) {
                first(ROLE_OWNER, id);
            }
        } else {
            if (id == WEFT_RP_THIEF_BEFORE_CLAIM && first(ROLE_THIEF1, id)) {
                open_gate(0);
                wait_gate(1);
            } else if (id == WEFT_RP_THIEF_CLAIMED && first(ROLE_THIEF1, id)) {
                open_gate(2);
            } else if (id == WEFT_RP_BEFORE_DONE && first(ROLE_THIEF1, id)) {
                wait_gate(3);
            } else if (id == WEFT_RP_AFTER_DONE && first(ROLE_THIEF1, id)) {
                open_gate(4);
            }
        }
        break;
    case SCN_OWNER_WINS:
        /* thief: read (0,1) [gate 0], wait [1] (opened after the SYNC);
         * its CAS fails [2]. */
        if (owner) {
            if (id == WEFT_RP_OWNER_BEFORE_RECLAIM && first(ROLE_OWNER, id))
                wait_gate(0);
            else if (id == WEFT_RP_OWNER_RECLAIMED)
                first(ROLE_OWNER, id);
        } else {
            if (id == WEFT_RP_THIEF_BEFORE_CLAIM && first(ROLE_THIEF1, id)) {
                open_gate(0);
                wait_gate(1);
            } else if (id == WEFT_RP_THIEF_CLAIMED) {
                first(ROLE_THIEF1, id);
            } else if (id == WEFT_RP_THIEF_LOST && first(ROLE_THIEF1, id)) {
                open_gate(2);
            }
        }
        break;
    case SCN_SLEEP:
        /* sleeper: stalls at its point [gate 0] until the owner has
         * published work [1]. */
        if (owner) {
            /* what the owner does once the sleeper stalls */
            if (atomic_load(&gate[0]) && (id == WEFT_RP_OWNER_PUBLISHED ||
                                          id == WEFT_RP_WAKE_PEEKED || id == WEFT_RP_WAKE_CLAIMED))
                first(ROLE_WAKER, id);
        } else if (id == sleep_stall_point && atomic_load(&stall_armed) &&
                   first(ROLE_SLEEPER, id)) {
            atomic_store(&other_id, (int)weft_worker_id(me));
            open_gate(0);
            wait_gate(1);
        } else if (id == WEFT_RP_THIEF_CLAIMED && atomic_load(&gate[0])) {
            first(ROLE_SLEEPER, id); /* the steal after the stall */
        }
        break;
    case SCN_REREQUEST:
        /* Only logs: the sleeper's ask, its sleep and its steal after the
         * trivial task; the owner's share. */
        if (!atomic_load(&stall_armed))
            break;
        if (owner) {
            if (id == WEFT_RP_OWNER_PUBLISHED || id == WEFT_RP_WAKE_CLAIMED)
                first(ROLE_WAKER, id);
        } else if (id == WEFT_RP_THIEF_BEFORE_ASK || id == WEFT_RP_SLEEP_WILL_WAIT ||
                   id == WEFT_RP_THIEF_CLAIMED) {
            atomic_store(&other_id, (int)weft_worker_id(me));
            first(ROLE_SLEEPER, id);
        }
        break;
    }
}

static atomic_int leaf_runs, leaf_worker = -1, leaf_started;

WEFT_TASK_1(int, leaf, int, value)
{
    atomic_fetch_add(&leaf_runs, 1);
    atomic_store(&leaf_worker, (int)weft_worker_id(weft_w));
    atomic_store(&leaf_started, 1);
    return value * 3;
}

static void pool_reset(int scn)
{
    reset_events();
    scenario = scn;
    atomic_store(&armed, 0);
    atomic_store(&root_id, -1);
    atomic_store(&other_id, -1);
    for (int r = 0; r < 8; r++)
        for (int p = 0; p < WEFT_RP_COUNT; p++)
            atomic_store(&once[r][p], 0);
    atomic_store(&leaf_runs, 0);
    atomic_store(&leaf_worker, -1);
    atomic_store(&leaf_started, 0);
}

/* The SYNC of the only task races its steal. */
WEFT_TASK_0(int, sync_race_root)
{
    atomic_store(&root_id, (int)weft_worker_id(weft_w));
    atomic_store(&armed, 1);
    WEFT_SPAWN(leaf, 2525);
    int r = WEFT_SYNC(leaf);
    if (scenario == SCN_OWNER_WINS) {
        open_gate(1); /* let the stalled thief try its CAS now */
        wait_gate(2); /* ... and lose */
    } else {
        wait_gate(4); /* the thief logged its DONE */
    }
    atomic_store(&armed, 0);
    return r;
}

static void start_pool(void)
{
    weft__race_set_hook(pool_hook);
    CHECK(weft_start(2, 0, 0) == 0, "weft_start");
}

static void stop_pool(void)
{
    CHECK(weft_stop() == 0, "weft_stop");
    weft__race_set_hook(NULL);
}

/* The thief wins the race for the last shared task and stalls before DONE
 * until the joiner is polling: the SYNC must wait and see the result. */
static void sync_races_last_steal(void)
{
    pool_reset(SCN_THIEF_WINS);
    start_pool();
    int r = WEFT_RUN(sync_race_root);
    stop_pool();
    CHECK(r == 2525 * 3, "the joiner saw result %d", r);
    CHECK(atomic_load(&leaf_runs) == 1, "the task ran %d times", atomic_load(&leaf_runs));
    CHECK(atomic_load(&leaf_worker) != atomic_load(&root_id), "the thief ran it");
    /* Both read (0,1); the thief's CAS came before the owner's RMW; DONE
     * after the joiner started polling. */
    CHECK_ORDER(ROLE_THIEF1, WEFT_RP_THIEF_BEFORE_CLAIM, ROLE_OWNER, WEFT_RP_OWNER_RECLAIMED);
    CHECK_ORDER(ROLE_OWNER, WEFT_RP_OWNER_BEFORE_RECLAIM, ROLE_THIEF1, WEFT_RP_THIEF_CLAIMED);
    CHECK_ORDER(ROLE_THIEF1, WEFT_RP_THIEF_CLAIMED, ROLE_OWNER, WEFT_RP_OWNER_RECLAIMED);
    CHECK_ORDER(ROLE_OWNER, WEFT_RP_JOIN_POLL, ROLE_THIEF1, WEFT_RP_AFTER_DONE);
    CHECK_NO_TIMEOUT();
    printf("ok: a SYNC racing the steal of the last task waits for the thief's result\n");
}

/* The same race, won by the SYNC: the stalled thief's CAS must fail. */
static void sync_wins_last_steal(void)
{
    pool_reset(SCN_OWNER_WINS);
    start_pool();
    int r = WEFT_RUN(sync_race_root);
    stop_pool();
    CHECK(r == 2525 * 3, "result %d", r);
    CHECK(atomic_load(&leaf_runs) == 1, "the task ran %d times", atomic_load(&leaf_runs));
    CHECK(atomic_load(&leaf_worker) == atomic_load(&root_id), "the owner ran it");
    CHECK_ORDER(ROLE_THIEF1, WEFT_RP_THIEF_BEFORE_CLAIM, ROLE_OWNER, WEFT_RP_OWNER_RECLAIMED);
    CHECK(logged_at(ROLE_THIEF1, WEFT_RP_THIEF_CLAIMED) < 0, "the stalled thief won the task too");
    CHECK(logged_at(ROLE_THIEF1, WEFT_RP_THIEF_LOST) >= 0, "the stalled thief's CAS did not fail");
    CHECK_NO_TIMEOUT();
    printf("ok: a SYNC that wins the race runs the task; the thief's CAS fails\n");
}

/* Run by the other worker: it goes to sleep only after the stall is armed. */
WEFT_TASK_0(int, trivial)
{
    atomic_store(&trivial_taken, 1);
    double until = now_s() + 10.0;
    while (!atomic_load(&stall_armed) && now_s() < until)
        sched_yield();
    return 1;
}

/* Work appears while the other worker is stalled on its way to sleep. */
WEFT_TASK_0(int, sleep_race_root)
{
    atomic_store(&root_id, (int)weft_worker_id(weft_w));
    atomic_store(&trivial_taken, 0);
    atomic_store(&stall_armed, 0);
    atomic_store(&armed, 1);
    /* Let the other worker steal a task first: it goes to sleep again only
     * after the stall is armed, and our deque is then all stolen, so the
     * next SPAWN shares its task at once (the push after allstolen). */
    WEFT_SPAWN(trivial);
    double until = now_s() + 10.0;
    while (!atomic_load(&trivial_taken) && now_s() < until) {
        WEFT_YIELD();
        sched_yield();
    }
    atomic_store(&stall_armed, 1);
    (void)WEFT_SYNC(trivial);
    if (!atomic_load(&trivial_taken) || !wait_gate(0))
        return -1;
    WEFT_SPAWN(leaf, 7);
    open_gate(1);
    /* The leaf must be run by the other worker: a lost wake-up leaves it
     * asleep and this wait runs out. */
    double end = now_s() + 10.0;
    while (!atomic_load(&leaf_started) && now_s() < end)
        sched_yield();
    int started = atomic_load(&leaf_started);
    int r = WEFT_SYNC(leaf);
    atomic_store(&armed, 0);
    return started ? r : -2;
}

enum { REREQUEST_STALE = -5, REREQUEST_TRIES = 20 };

/* A sleeper's request meets a SYNC with nothing to share (grow_shared's
 * no-op branch): the request must stay for the next SPAWN, which shares
 * its task and wakes the sleeper.  The other worker holds the first task
 * while the owner spawns a private one, then asks (nothing is shared) and
 * goes to sleep; only then does the owner SYNC that private task. */
WEFT_TASK_0(int, rerequest_root)
{
    atomic_store(&root_id, (int)weft_worker_id(weft_w));
    atomic_store(&trivial_taken, 0);
    atomic_store(&stall_armed, 0);
    atomic_store(&armed, 1);
    WEFT_SPAWN(trivial); /* shared by the push after allstolen */
    double until = now_s() + 10.0;
    while (!atomic_load(&trivial_taken) && now_s() < until) {
        WEFT_YIELD();
        sched_yield();
    }
    WEFT_SPAWN(leaf, 5);           /* private: nobody has asked */
    atomic_store(&stall_armed, 1); /* lets the trivial task return */
    /* Without polling (a poll would serve the request): until the other
     * worker has asked and fallen asleep. */
    until = now_s() + 10.0;
    while (logged_at(ROLE_SLEEPER, WEFT_RP_SLEEP_WILL_WAIT) < 0 && now_s() < until)
        sched_yield();
    if (!atomic_load(&trivial_taken) || logged_at(ROLE_SLEEPER, WEFT_RP_SLEEP_WILL_WAIT) < 0) {
        (void)WEFT_SYNC(leaf);
        (void)WEFT_SYNC(trivial);
        return -1;
    }
    int a = WEFT_SYNC(leaf); /* the only private task: nothing to share */
    if (atomic_load(&leaf_worker) != atomic_load(&root_id)) {
        /* The other worker had asked again on its way to an earlier sleep,
         * and SPAWN(leaf) served that request: the leaf was shared and
         * stolen before the ask this scenario is about.  A legal
         * interleaving (under load): the scenario runs again. */
        (void)WEFT_SYNC(trivial);
        atomic_store(&armed, 0);
        return REREQUEST_STALE;
    }
    /* Relaxed: our own word; a request that is gone is gone for good. */
    bool kept = atomic_load_explicit(&weft_w->shared.limit, memory_order_relaxed) == WEFT_SPLITREQ;
    atomic_store(&leaf_started, 0); /* the first leaf's, run here */
    atomic_store(&leaf_worker, -1);
    WEFT_SPAWN(leaf, 7); /* shares it on the request and wakes the sleeper */
    double end = now_s() + (kept ? 10.0 : 0.0);
    while (!atomic_load(&leaf_started) && now_s() < end)
        sched_yield();
    int started = atomic_load(&leaf_started);
    int r = WEFT_SYNC(leaf);
    (void)WEFT_SYNC(trivial);
    atomic_store(&armed, 0);
    return a != 15 ? -4 : !kept ? -3 : started ? r : -2;
}

static void sleeper_request_survives_noop_grow(void)
{
    int r = REREQUEST_STALE;
    for (int try = 0; try < REREQUEST_TRIES && r == REREQUEST_STALE; try++) {
        pool_reset(SCN_REREQUEST);
        start_pool();
        r = WEFT_RUN(rerequest_root);
        stop_pool();
    }
    CHECK(r != REREQUEST_STALE, "in all %d runs an old request of the other worker shared the leaf",
          REREQUEST_TRIES);
    CHECK(r != -1, "the other worker never took the first task or never fell asleep");
    CHECK(r != -3, "a SYNC with nothing to share dropped the request of a sleeping worker");
    CHECK(r != -2, "lost wake-up: the sleeper's request was gone when the next task was spawned");
    CHECK(r == 21, "result %d", r);
    CHECK(atomic_load(&leaf_worker) == atomic_load(&other_id), "the sleeper ran the second task");
    CHECK_ORDER(ROLE_SLEEPER, WEFT_RP_THIEF_BEFORE_ASK, ROLE_SLEEPER, WEFT_RP_SLEEP_WILL_WAIT);
    CHECK_ORDER(ROLE_SLEEPER, WEFT_RP_SLEEP_WILL_WAIT, ROLE_WAKER, WEFT_RP_OWNER_PUBLISHED);
    CHECK_ORDER(ROLE_WAKER, WEFT_RP_OWNER_PUBLISHED, ROLE_SLEEPER, WEFT_RP_THIEF_CLAIMED);
    printf("ok: a sleeper's request outlives a SYNC with nothing to share; the next SPAWN "
           "wakes it\n");
}

static void sleeper_stalled(weft_race_point_id point, const char *what)
{
    pool_reset(SCN_SLEEP);
    sleep_stall_point = point;
    start_pool();
    int r = WEFT_RUN(sleep_race_root);
    stop_pool();
    CHECK_NO_TIMEOUT();
    CHECK(r != -1, "the other worker never stole the first task or never reached %s",
          weft__race_point_name(point));
    CHECK(r != -2, "lost wake-up: the sleeper stalled at %s never took the work",
          weft__race_point_name(point));
    CHECK(r == 21, "result %d", r);
    CHECK(atomic_load(&leaf_runs) == 1, "the task ran %d times", atomic_load(&leaf_runs));
    CHECK(atomic_load(&leaf_worker) == atomic_load(&other_id), "the sleeper ran it");
    CHECK_ORDER(ROLE_SLEEPER, point, ROLE_WAKER, WEFT_RP_OWNER_PUBLISHED);
    if (point == WEFT_RP_SLEEP_BEFORE_ANNOUNCE) {
        /* Not counted yet: the push woke nobody, and only the sleeper's
         * last look, after its announcement, can find the task. */
        CHECK(logged_at(ROLE_WAKER, WEFT_RP_WAKE_CLAIMED) < 0,
              "the owner claimed a sleeper that had not announced itself");
        CHECK_ORDER(ROLE_WAKER, WEFT_RP_OWNER_PUBLISHED, ROLE_SLEEPER, WEFT_RP_THIEF_CLAIMED);
    } else {
        CHECK_ORDER(ROLE_SLEEPER, point, ROLE_WAKER, WEFT_RP_WAKE_CLAIMED);
        CHECK_ORDER(ROLE_WAKER, WEFT_RP_WAKE_CLAIMED, ROLE_SLEEPER, WEFT_RP_THIEF_CLAIMED);
    }
    printf("ok: %s\n", what);
}

/* ------------------------------------------------------------------------ */

int main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    thief_stalled_before_cas();
    thief_stalled_across_reuse();
    figure3_shrink_race();
    owner_stalled_after_shrink();
    sync_races_last_steal();
    sync_wins_last_steal();
    sleeper_request_survives_noop_grow();
    sleeper_stalled(WEFT_RP_SLEEP_BEFORE_ANNOUNCE,
                    "work shared just before a sleeper announces itself is found by its last look");
    sleeper_stalled(WEFT_RP_SLEEP_ANNOUNCED,
                    "a sleeper stalled between announcing itself and its last look is woken");
    sleeper_stalled(WEFT_RP_SLEEP_WILL_WAIT,
                    "a sleeper stalled after its last look is claimed before it waits");
    return 0;
}
