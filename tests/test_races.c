// SPDX-License-Identifier: Apache-2.0
/* Race tests for every scheduler: forced interleavings at the race points
 * of a perturb build (src/runtime/perturb.h), in a running pool, through
 * the public API and the race-point hook only.  The same program runs
 * against whichever scheduler the build chose.
 *
 * The worker that runs the root task is the owner; the others are thieves
 * (THIEF1 is the one a scenario stalls, the rest are "others").  The hook
 * logs, per phase of a scenario (epoch), the first time and how often
 * each worker passed each race point, plus the test's own events (the
 * task ran, the owner's SYNC started or returned...).  A scenario is a set
 * of stall rules -- "the first time ROLE reaches POINT, hold it there
 * until ROLE2 has reached POINT2 n times" -- and a root task.  After the
 * run it checks the outcome (result, each task ran exactly once, by whom)
 * and, from the log, that the forced order really happened.
 *
 *   thief_stalled_before_claim   a thief saw the task and stalls before
 *                                claiming it; the owner's SYNC takes it
 *                                back and runs it; the thief's claim fails
 *   owner_loses_reclaim          the same, but the owner stalls before its
 *                                take-back until the thief has claimed: it
 *                                must find the task stolen and join it
 *   thief_stalled_after_claim    a thief stalls after its claim (or holding
 *                                the task) while the owner polls in the
 *                                join: it must wait (leapfrog, sleep) and
 *                                get the result
 *   thieves_race                 two thieves, one task: the first stalls
 *                                where thieves race, the second wins; the
 *                                first must lose
 *   sleeper_stalled              a worker stalls on its way to sleep
 *                                (SLEEP_ANNOUNCED or SLEEP_WILL_WAIT)
 *                                while the owner publishes work: the owner
 *                                must wake it and it must take the work
 *   joiner_stalled_at_poll       the joiner stalls at JOIN_POLL until the
 *                                thief has stored DONE: one more poll
 *                                returns the result
 *   joiner_sleeps_before_done    the joiner stalls after its last look
 *                                before sleeping until the thief's DONE
 *                                has claimed it: no lost wake-up
 *
 * A scheduler without the step a scenario needs gets an "n/a" line naming
 * the scheduler and the role (the table below, which is also the list of
 * roles each scheduler marks: a point outside it fails the test).  Every
 * wait is bounded (WAIT_S); a wait that runs out fails the test at once
 * with the log, and a watchdog ends a scenario that hangs anyway.  With
 * WEFT_PERTURB=<p> set, the points no rule stalls get random yields too.
 *
 * Usage: test_races [rounds] [-v]  (each scenario `rounds` times, default
 * 10; -v prints every scenario's log)
 *
 * The test's own atomics are seq_cst (the default): a condition one
 * thread waits for orders what the other did before it; they order
 * nothing of the runtime's.
 */
#include "check.h"
#include "timing.h"

#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <time.h>
#include <weft/weft.h>

#include "runtime/parking.h"
#include "runtime/perturb.h"

#if !WEFT_PERTURB
#error "test_races needs a WEFT_PERTURB=ON build"
#endif

enum { WAIT_S = 5, WATCHDOG_S = 25, MAXW = 4, EPOCHS = 2 };

/* ------------------------------------------------------------------------
 * Per scheduler: which roles it marks, and the facts the scenarios need
 * (docs/verification.md, "Race tests", has the same list).
 * ------------------------------------------------------------------------ */

#define ROLE(p) (1u << WEFT_RP_##p)
#define THIEF_ALL (ROLE(THIEF_BEFORE_CLAIM) | ROLE(THIEF_CLAIMED) | ROLE(THIEF_LOST))
#define OWNER_ALL \
    (ROLE(OWNER_BEFORE_PUBLISH) | ROLE(OWNER_PUBLISHED) | ROLE(OWNER_BEFORE_RECLAIM) | \
     ROLE(OWNER_RECLAIMED) | ROLE(OWNER_STOLEN_JOINED))
#define RUNTIME_POINTS \
    (ROLE(STEAL_TAKEN) | ROLE(BEFORE_DONE) | ROLE(AFTER_DONE) | ROLE(JOIN_POLL) | \
     ROLE(SLEEP_BEFORE_ANNOUNCE) | ROLE(SLEEP_ANNOUNCED) | ROLE(SLEEP_WILL_WAIT) | \
     ROLE(WAKE_PEEKED) | ROLE(WAKE_CLAIMED) | ROLE(INTERRUPT_LEAVE))

typedef struct scheduler_facts {
    const char *name;
    unsigned roles; /* the scheduler roles it marks (bit per point) */
    /* Where two thieves race for one task (the first is stalled there and
     * must lose), or -1 with the reason. */
    int thieves_race_at;
    const char *no_thief_race;
    /* A SYNC that takes back a task a thief may be claiming passes
     * OWNER_BEFORE_RECLAIM (and, if it succeeds, OWNER_RECLAIMED). */
    const char *no_sync_reclaim; /* NULL: it does */
    /* After THIEF_CLAIMED the task is the thief's: the owner's SYNC goes
     * on to the join (JOIN_POLL) while the thief stalls there. */
    const char *claim_not_final; /* NULL: it is */
} scheduler_facts;

/* The scheduler's facts: its folder's race_facts.h (a scheduler without
 * one is assumed to mark every role). */
#ifdef WEFT_SCHED_RACE_FACTS
#include WEFT_SCHED_RACE_FACTS
#else
#define WEFT_SCHED_RACE_FACTS_MISSING 1
static const scheduler_facts sched_race_facts = {WEFT_SCHEDULER_NAME,
                                                 THIEF_ALL | ROLE(THIEF_BEFORE_ASK) | OWNER_ALL,
                                                 WEFT_RP_THIEF_BEFORE_CLAIM,
                                                 NULL,
                                                 NULL,
                                                 NULL};
#endif

static const scheduler_facts *facts;
#ifdef WEFT_SCHED_RACE_FACTS_MISSING
static const bool facts_missing = true;
#else
static const bool facts_missing = false;
#endif
static const char *sched_name = WEFT_SCHEDULER_NAME;
static int round_no; /* n/a lines are printed in the first round only */

static void not_applicable(const char *scenario, const char *role, const char *why)
{
    if (round_no == 0)
        printf("n/a: %s: %s: %s: %s\n", sched_name, scenario, role, why);
}

/* ------------------------------------------------------------------------
 * The log: per epoch, worker and event, the first sequence number and the
 * count.  Events are the race points and the test's own below.
 * ------------------------------------------------------------------------ */

enum test_event {
    EV_SPAWNED = WEFT_RP_COUNT, /* owner: spawned the task the scenario is about */
    EV_SYNC_START,              /* owner: about to SYNC it */
    EV_SYNCED,                  /* owner: the SYNC returned */
    EV_RELEASE,                 /* owner: lets a stalled worker go */
    EV_LEAF_RUN,                /* someone runs the task */
    EV_HOLD_RUN,                /* the other worker runs the preliminary task */
    EV_HOLD_END,                /* owner: lets the preliminary task return */
    EV_STALLED,                 /* a rule stalls this worker (just after its point) */
    N_EVENTS
};
static const char *const test_event_names[] = {"spawned",  "sync-start", "synced",   "release",
                                               "task-run", "hold-run",   "hold-end", "stalled"};

static const char *event_name(int ev)
{
    return ev < WEFT_RP_COUNT ? weft__race_point_name((weft_race_point_id)ev)
                              : test_event_names[ev - WEFT_RP_COUNT];
}

enum role { OWNER, THIEF1, OTHERS, THIEVES };
static const char *const role_names[] = {"owner", "thief1", "others", "thieves"};

static const char *scenario_name;
static atomic_int armed; /* log (and apply rules) from now on */
/* 0 until the scenario's first stall, then 1: what happens after it is
 * told apart from the same points passed before (idle searching, the
 * preliminary steps of a scenario). */
static atomic_int epoch;
static atomic_int owner_id = -1;  /* the worker running the root task */
static atomic_int thief1_id = -1; /* the thief a rule stalled (or the only one) */
static atomic_long seq;
static atomic_long first_seq[EPOCHS][MAXW][N_EVENTS]; /* 0: never */
static atomic_long counts[EPOCHS][MAXW][N_EVENTS];
static atomic_long last_seq[MAXW]; /* each worker's latest event */
static atomic_uint seen_points;    /* over the whole program, for the role check */

static bool in_role(int w, int role)
{
    int o = atomic_load(&owner_id), t = atomic_load(&thief1_id);
    switch (role) {
    case OWNER: return w == o;
    case THIEF1: return w == t;
    case OTHERS: return w != o && w != t;
    default: return w != o;
    }
}

/* Noting an event and a rule's decision to stall are one step under this
 * lock, so the log's order is the order of those steps: a thief that
 * passes a point after a rule fired there for another is logged after it
 * (and in epoch 1). */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static void note_locked(int w, int ev)
{
    if (!atomic_load(&armed) || w < 0 || w >= MAXW)
        return;
    int e = atomic_load(&epoch);
    long s = atomic_fetch_add(&seq, 1) + 1, zero = 0;
    atomic_compare_exchange_strong(&first_seq[e][w][ev], &zero, s);
    atomic_store(&last_seq[w], s);
    atomic_fetch_add(&counts[e][w][ev], 1);
    if (ev < WEFT_RP_COUNT)
        atomic_fetch_or(&seen_points, 1u << ev);
}

static void note(int w, int ev)
{
    pthread_mutex_lock(&log_lock);
    note_locked(w, ev);
    pthread_mutex_unlock(&log_lock);
}

static int self_id(void)
{
    weft_worker *me = weft_self();
    return me ? (int)weft_worker_id(me) : -1;
}

/* First time someone in role passed ev in epoch >= from (0: never). */
static long first_of(int role, int ev, int from)
{
    long best = 0;
    for (int e = from; e < EPOCHS; e++)
        for (int w = 0; w < MAXW; w++) {
            long s = atomic_load(&first_seq[e][w][ev]);
            if (s && in_role(w, role) && (!best || s < best))
                best = s;
        }
    return best;
}

static long count_of(int role, int ev, int from)
{
    long n = 0;
    for (int e = from; e < EPOCHS; e++)
        for (int w = 0; w < MAXW; w++)
            if (in_role(w, role))
                n += atomic_load(&counts[e][w][ev]);
    return n;
}

static const char *worker_role_name(int w)
{
    return in_role(w, OWNER) ? "owner" : in_role(w, THIEF1) ? "thief1" : "other";
}

/* The log in order of first passage, per epoch. */
static void print_log(void)
{
    fprintf(stderr, "log of %s on %s (first passage of each point, in order; xN = times):\n",
            scenario_name, sched_name);
    for (int e = 0; e < EPOCHS; e++) {
        long last = 0;
        for (;;) {
            long best = 0;
            int bw = 0, bev = 0;
            for (int w = 0; w < MAXW; w++)
                for (int ev = 0; ev < N_EVENTS; ev++) {
                    long s = atomic_load(&first_seq[e][w][ev]);
                    if (s > last && (!best || s < best)) {
                        best = s;
                        bw = w;
                        bev = ev;
                    }
                }
            if (!best)
                break;
            fprintf(stderr, "  epoch %d  #%-6ld worker %d %-6s %-20s x%ld\n", e, best, bw,
                    worker_role_name(bw), event_name(bev), atomic_load(&counts[e][bw][bev]));
            last = best;
        }
    }
}

/* Fails the test at once, from any thread (the pool may still run). */
static void fail(const char *fmt, ...)
{
    static atomic_int failing;
    if (atomic_exchange(&failing, 1)) {
        for (;;)
            pause(); /* another thread is reporting */
    }
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAIL: %s: %s: ", sched_name, scenario_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    print_log();
    fflush(stderr);
    _exit(1);
}

/* A crash (a task run from a stale descriptor, an internal abort) names
 * the scenario and shows its log too.  Not async-signal-safe: the process
 * is dying anyway. */
static void crashed(int sig) { fail("crashed with signal %d (%s)", sig, strsignal(sig)); }

static void catch_crashes(void)
{
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], crashed);
}

#define EXPECT(cond, ...) \
    do { \
        if (!(cond)) \
            fail(__VA_ARGS__); \
    } while (0)

/* ev of role happened at least n times since epoch `from`. */
typedef struct condition {
    int role, ev;
    long n;
    int from;
} condition;

static bool holds(condition c) { return count_of(c.role, c.ev, c.from) >= c.n; }

static void describe_wait(condition c, const char *who, const char *why)
{
    fail("%s waited %d s in vain for %s to reach %s (%ld times, %ld so far): %s", who, WAIT_S,
         role_names[c.role], event_name(c.ev), c.n, count_of(c.role, c.ev, c.from), why);
}

/* A hook's stall: spins (yielding the CPU) until c holds. */
static void stall_until(condition c, const char *who, const char *why)
{
    double end = now_s() + WAIT_S;
    while (!holds(c)) {
        if (now_s() > end)
            describe_wait(c, who, why);
        sched_yield();
    }
}

/* The owner's wait inside a task: it keeps polling (WEFT_YIELD), which is
 * where the wool and private-deque owners share work. */
static void owner_until(WEFT_CONTEXT_PARAMS, condition c, const char *why)
{
    double end = now_s() + WAIT_S;
    while (!holds(c)) {
        if (now_s() > end)
            describe_wait(c, "the owner", why);
        WEFT_YIELD();
        sched_yield();
    }
}

/* One step of an expected order: the first time role passed ev in epoch
 * >= from. */
typedef struct step {
    int role, ev, from;
} step;

static void expect_order_(const char *what, const step *s, int n)
{
    long prev = 0;
    for (int i = 0; i < n; i++) {
        long at = first_of(s[i].role, s[i].ev, s[i].from);
        EXPECT(at != 0, "%s: %s never reached %s", what, role_names[s[i].role],
               event_name(s[i].ev));
        EXPECT(at > prev, "%s: %s reached %s (#%ld) before %s reached %s (#%ld)", what,
               role_names[s[i].role], event_name(s[i].ev), at, role_names[s[i - 1].role],
               event_name(s[i - 1].ev), prev);
        prev = at;
    }
}
#define EXPECT_ORDER(what, ...) \
    expect_order_(what, (const step[]){__VA_ARGS__}, \
                  (int)(sizeof((const step[]){__VA_ARGS__}) / sizeof(step)))

/* ------------------------------------------------------------------------
 * Stall rules and the hook.
 * ------------------------------------------------------------------------ */

typedef struct stall_rule {
    int role, point; /* the first time a worker in role passes point ... */
    condition until; /* ... it stalls there until this holds */
    const char *why;
    atomic_int fired;
} stall_rule;

enum { MAX_RULES = 2 };
static stall_rule rules[MAX_RULES];
static int n_rules;
static atomic_int rules_on;

/* Random yields at the other points when WEFT_PERTURB=<p> is set. */
static uint64_t perturb_threshold;

static void maybe_yield(void)
{
    if (!perturb_threshold)
        return;
    static __thread uint64_t x;
    if (!x)
        x = 0x9E3779B97F4A7C15ULL * (uint64_t)(uintptr_t)&x | 1;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    if ((x & 0xFFFFFFFFu) < perturb_threshold)
        sched_yield();
}

static void hook(weft_race_point_id id)
{
    int w = self_id();
    if (w < 0 || !atomic_load(&armed))
        return;
    stall_rule *stall = NULL;
    pthread_mutex_lock(&log_lock);
    note_locked(w, (int)id);
    for (int i = 0; atomic_load(&rules_on) && i < n_rules && !stall; i++) {
        stall_rule *r = &rules[i];
        /* THIEF1 not yet chosen: the first thief to get here is it. */
        bool match = r->role == THIEF1 && atomic_load(&thief1_id) < 0 ? !in_role(w, OWNER)
                                                                      : in_role(w, r->role);
        if (r->point != (int)id || !match || atomic_load(&r->fired))
            continue;
        atomic_store(&r->fired, 1);
        if (r->role == THIEF1)
            atomic_store(&thief1_id, w);
        atomic_store(&epoch, 1);
        note_locked(w, EV_STALLED);
        stall = r;
    }
    pthread_mutex_unlock(&log_lock);
    if (stall) {
        char who[80];
        snprintf(who, sizeof who, "%s, stalled at %s,", role_names[stall->role],
                 event_name(stall->point));
        stall_until(stall->until, who, stall->why);
        return;
    }
    maybe_yield();
}

static void rule(int role, int point, condition until, const char *why)
{
    stall_rule *r = &rules[n_rules++];
    r->role = role;
    r->point = point;
    r->until = until;
    r->why = why;
    atomic_store(&r->fired, 0);
}

/* ------------------------------------------------------------------------
 * The watchdog: a scenario that hangs (a worker stuck in futex_wait, a
 * SYNC that never returns) ends the test with a message instead.
 * ------------------------------------------------------------------------ */

static _Atomic double deadline; /* 0: no scenario running */

static void *watchdog(void *arg)
{
    (void)arg;
    for (;;) {
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
        double d = atomic_load(&deadline);
        if (d != 0 && now_s() > d)
            fail("watchdog: the scenario did not finish within %d s (a worker is stuck)",
                 WATCHDOG_S);
    }
    return NULL;
}

/* ------------------------------------------------------------------------
 * Scenario set-up, tasks and checks.
 * ------------------------------------------------------------------------ */

static atomic_int leaf_runs, leaf_worker;

static void begin(const char *name, unsigned workers, weft_steal_policy policy, unsigned spin_us)
{
    scenario_name = name;
    atomic_store(&armed, 0);
    atomic_store(&rules_on, 0);
    atomic_store(&epoch, 0);
    atomic_store(&owner_id, -1);
    atomic_store(&thief1_id, -1);
    atomic_store(&seq, 0);
    for (int e = 0; e < EPOCHS; e++)
        for (int w = 0; w < MAXW; w++)
            for (int ev = 0; ev < N_EVENTS; ev++) {
                atomic_store(&first_seq[e][w][ev], 0);
                atomic_store(&counts[e][w][ev], 0);
            }
    for (int w = 0; w < MAXW; w++)
        atomic_store(&last_seq[w], 0);
    n_rules = 0;
    atomic_store(&leaf_runs, 0);
    atomic_store(&leaf_worker, -1);
    weft__race_set_hook(hook);
    weft_config cfg;
    CHECK(weft_config_init(&cfg) == 0, "weft_config_init");
    cfg.workers = workers;
    cfg.steal_policy = policy;
    cfg.pin = 0;
    cfg.idle_spin_us = spin_us;
    /* The scenarios pace idle workers by spin_us alone: on fewer CPUs than
     * workers a contended yield would park a thief that must race. */
    weft__park_on_contended_yield = false;
    atomic_store(&deadline, now_s() + WATCHDOG_S);
    CHECK(weft_start_config(&cfg) == 0, "weft_start_config");
}

static void end(void)
{
    CHECK(weft_stop() == 0, "weft_stop");
    weft__park_on_contended_yield = true;
    weft__race_set_hook(NULL);
    atomic_store(&armed, 0);
    atomic_store(&deadline, 0);
}

/* The root task's first step: it is the owner; with two workers the other
 * one is thief1 from the start. */
static void become_owner(weft_worker *w)
{
    int me = (int)weft_worker_id(w);
    atomic_store(&owner_id, me);
    if (weft_workers() == 2)
        atomic_store(&thief1_id, 1 - me);
    atomic_store(&armed, 1);
}

#define NOTE(ev) note((int)weft_worker_id(weft_w), ev)
#define WHEN(role, ev, n, from) ((condition){role, ev, n, from})

WEFT_TASK_1(long, leaf, long, x)
{
    NOTE(EV_LEAF_RUN);
    atomic_fetch_add(&leaf_runs, 1);
    atomic_store(&leaf_worker, (int)weft_worker_id(weft_w));
    return 3 * x + 1;
}

/* Held by the other worker until the owner lets it return. */
WEFT_TASK_0(long, hold)
{
    NOTE(EV_HOLD_RUN);
    stall_until(WHEN(OWNER, EV_HOLD_END, 1, 0), "the held task", "the owner's go");
    return 5;
}

static void expect_leaf_once_by(int role, long r, long x)
{
    EXPECT(atomic_load(&leaf_runs) == 1, "the task ran %d times", atomic_load(&leaf_runs));
    EXPECT(r == 3 * x + 1, "the SYNC returned %ld, not %ld", r, 3 * x + 1);
    EXPECT(in_role(atomic_load(&leaf_worker), role), "the task ran on worker %d (%s), not the %s",
           atomic_load(&leaf_worker), worker_role_name(atomic_load(&leaf_worker)),
           role_names[role]);
}

static bool verbose;

static void ok(const char *what)
{
    printf("ok: %s: %s: %s\n", sched_name, scenario_name, what);
    if (verbose)
        print_log();
}

/* The root task of most scenarios: spawns the task, waits (polling) for
 * `before_sync`, joins it.  The owner's wait keeps polling: the wool and
 * private-deque owners share only there. */
static condition before_sync;

WEFT_TASK_0(long, spawn_wait_sync)
{
    become_owner(weft_w);
    WEFT_SPAWN(leaf, 11);
    NOTE(EV_SPAWNED);
    owner_until(WEFT_CONTEXT, before_sync, "the scenario's stall before the owner's SYNC");
    NOTE(EV_SYNC_START);
    long r = WEFT_SYNC(leaf);
    NOTE(EV_SYNCED);
    NOTE(EV_RELEASE);
    return r;
}

#define THIEF1_STALLED WHEN(THIEF1, EV_STALLED, 1, 1)

/* Turns the scenario's rules on and runs spawn_wait_sync from outside the
 * pool; returns the SYNC's result. */
static long spawn_wait_sync_under_rules(condition wait_before_sync)
{
    atomic_store(&rules_on, 1);
    before_sync = wait_before_sync;
    return WEFT_RUN(spawn_wait_sync);
}

static const char *policy_name(weft_steal_policy p)
{
    return p == WEFT_STEAL_LEAPFROG     ? "leapfrog"
           : p == WEFT_STEAL_TRANSITIVE ? "transitive"
                                        : "random";
}

/* ---- a thief stalled before its claim while the owner's SYNC takes the
 * task back ---- */

static void thief_stalled_before_claim(void)
{
    begin("thief_stalled_before_claim", 2, WEFT_STEAL_LEAPFROG_RANDOM, 200);
    rule(THIEF1, WEFT_RP_THIEF_BEFORE_CLAIM, WHEN(OWNER, EV_RELEASE, 1, 1),
         "the owner's SYNC to return");
    long r = spawn_wait_sync_under_rules(THIEF1_STALLED);
    /* The released thief's claim must fail; give it the time to get there. */
    stall_until(WHEN(THIEF1, WEFT_RP_THIEF_LOST, 1, 1), "the test", "the thief's claim to fail");
    end();
    expect_leaf_once_by(OWNER, r, 11);
    EXPECT(count_of(THIEVES, WEFT_RP_THIEF_CLAIMED, 0) == 0 &&
               count_of(THIEVES, WEFT_RP_STEAL_TAKEN, 0) == 0,
           "a thief claimed the task the owner ran");
    EXPECT_ORDER("the owner took the task back while the thief stalled", {THIEF1, EV_STALLED, 1},
                 {OWNER, EV_SYNC_START, 1}, {OWNER, EV_LEAF_RUN, 1}, {OWNER, EV_SYNCED, 1},
                 {THIEF1, WEFT_RP_THIEF_LOST, 1});
    if (!facts->no_sync_reclaim)
        EXPECT_ORDER("the marked take-back", {THIEF1, EV_STALLED, 1},
                     {OWNER, WEFT_RP_OWNER_BEFORE_RECLAIM, 1}, {OWNER, WEFT_RP_OWNER_RECLAIMED, 1},
                     {OWNER, EV_LEAF_RUN, 1});
    ok("the owner's SYNC took the task back; the stalled thief's claim failed");
}

/* ---- the same, but the owner stalls before its take-back until the
 * thief has claimed the task: the SYNC must find it stolen ---- */

static void owner_loses_reclaim(void)
{
    const char *name = "owner_loses_reclaim";
    if (facts->no_sync_reclaim) {
        not_applicable(name, "OWNER_BEFORE_RECLAIM", facts->no_sync_reclaim);
        return;
    }
    begin(name, 2, WEFT_STEAL_LEAPFROG_RANDOM, 200);
    rule(THIEF1, WEFT_RP_THIEF_BEFORE_CLAIM, WHEN(OWNER, EV_STALLED, 1, 1),
         "the owner to stall before its take-back");
    rule(OWNER, WEFT_RP_OWNER_BEFORE_RECLAIM, WHEN(THIEF1, WEFT_RP_THIEF_CLAIMED, 1, 1),
         "the thief to claim the task");
    long r = spawn_wait_sync_under_rules(THIEF1_STALLED);
    end();
    expect_leaf_once_by(THIEF1, r, 11);
    EXPECT_ORDER("the thief claimed while the owner stalled before its take-back",
                 {THIEF1, EV_STALLED, 1}, {OWNER, WEFT_RP_OWNER_BEFORE_RECLAIM, 1},
                 {OWNER, EV_STALLED, 1}, {THIEF1, WEFT_RP_THIEF_CLAIMED, 1},
                 {THIEF1, EV_LEAF_RUN, 1}, {THIEF1, WEFT_RP_BEFORE_DONE, 1}, {OWNER, EV_SYNCED, 1});
    EXPECT_ORDER("the owner then joined the stolen task", {THIEF1, WEFT_RP_THIEF_CLAIMED, 1},
                 {OWNER, WEFT_RP_JOIN_POLL, 1}, {OWNER, EV_SYNCED, 1});
    ok("the owner's take-back lost to the thief's claim; the SYNC joined the stolen task");
}

/* ---- a thief stalled after its claim (THIEF_CLAIMED) or holding the
 * task (STEAL_TAKEN) while the owner polls in its join ---- */

static void thief_stalled_after_claim(weft_race_point_id point, weft_steal_policy policy)
{
    static char name[96];
    snprintf(name, sizeof name, "thief_stalled_after_claim(%s, %s)", weft__race_point_name(point),
             policy_name(policy));
    if (point == WEFT_RP_THIEF_CLAIMED && facts->claim_not_final) {
        not_applicable(name, "THIEF_CLAIMED", facts->claim_not_final);
        return;
    }
    begin(name, 2, policy, 200);
    /* Two polls: the owner found the task not done and came round again. */
    rule(THIEF1, point, WHEN(OWNER, WEFT_RP_JOIN_POLL, 2, 1), "the owner to poll in its join");
    long r = spawn_wait_sync_under_rules(THIEF1_STALLED);
    end();
    expect_leaf_once_by(THIEF1, r, 11);
    EXPECT_ORDER("the owner polled while the thief held the task", {THIEF1, EV_STALLED, 1},
                 {OWNER, EV_SYNC_START, 1}, {OWNER, WEFT_RP_JOIN_POLL, 1}, {THIEF1, EV_LEAF_RUN, 1},
                 {THIEF1, WEFT_RP_BEFORE_DONE, 1}, {OWNER, EV_SYNCED, 1});
    /* (The owner may see DONE before the thief passes AFTER_DONE.) */
    EXPECT(count_of(THIEF1, WEFT_RP_AFTER_DONE, 1) == 1, "the thief never stored DONE");
    if (facts->roles & ROLE(OWNER_STOLEN_JOINED))
        EXPECT_ORDER("the marked end of the join", {THIEF1, WEFT_RP_BEFORE_DONE, 1},
                     {OWNER, WEFT_RP_OWNER_STOLEN_JOINED, 1}, {OWNER, EV_SYNCED, 1});
    ok("the owner waited in its join and got the stalled thief's result");
}

/* ---- two thieves, one task: the first stalls where thieves race, the
 * second wins, the first must lose ---- */

static void thieves_race(void)
{
    const char *name = "thieves_race";
    if (facts->thieves_race_at < 0) {
        not_applicable(name, "THIEF_LOST (thief against thief)", facts->no_thief_race);
        return;
    }
    int point = facts->thieves_race_at;
    /* The thieves spin instead of sleeping: both must be awake to race
     * (a publication wakes one sleeper, which may be the one that stalls). */
    begin(name, 3, WEFT_STEAL_LEAPFROG_RANDOM, 10 * 1000 * 1000);
    rule(THIEF1, point, WHEN(OTHERS, WEFT_RP_THIEF_CLAIMED, 1, 1),
         "the other thief to claim the task");
    long r = spawn_wait_sync_under_rules(WHEN(THIEF1, WEFT_RP_THIEF_LOST, 1, 1));
    end();
    expect_leaf_once_by(OTHERS, r, 11);
    EXPECT(count_of(THIEF1, WEFT_RP_THIEF_CLAIMED, 0) == 0, "both thieves claimed the task");
    EXPECT_ORDER("the second thief won while the first stalled", {THIEF1, EV_STALLED, 1},
                 {OTHERS, WEFT_RP_THIEF_CLAIMED, 1}, {THIEF1, WEFT_RP_THIEF_LOST, 1},
                 {OWNER, EV_SYNCED, 1});
    ok("of two thieves racing for one task, the stalled one lost");
}

/* ---- a worker stalled on its way to sleep while the owner publishes ---- */

WEFT_TASK_0(long, sleeper_root)
{
    become_owner(weft_w);
    /* The other worker takes a task and holds it until the rule is on, so
     * that it next goes to sleep under the rule. */
    WEFT_SPAWN(hold);
    owner_until(WEFT_CONTEXT, WHEN(THIEF1, EV_HOLD_RUN, 1, 0),
                "the other worker to take the first task");
    atomic_store(&rules_on, 1);
    NOTE(EV_HOLD_END);
    long h = WEFT_SYNC(hold);
    owner_until(WEFT_CONTEXT, THIEF1_STALLED, "the other worker to go to sleep");
    NOTE(EV_SPAWNED);
    WEFT_SPAWN(leaf, 14);
    owner_until(WEFT_CONTEXT, WHEN(OWNER, WEFT_RP_WAKE_CLAIMED, 1, 1),
                "the owner to wake the stalled sleeper after publishing work (lost wake-up)");
    NOTE(EV_RELEASE);
    owner_until(WEFT_CONTEXT, WHEN(THIEF1, EV_LEAF_RUN, 1, 1), "the woken worker to take the task");
    NOTE(EV_SYNC_START);
    long r = WEFT_SYNC(leaf);
    NOTE(EV_SYNCED);
    return h == 5 ? r : -h;
}

static void sleeper_stalled(weft_race_point_id point)
{
    static char name[64];
    snprintf(name, sizeof name, "sleeper_stalled(%s)", weft__race_point_name(point));
    begin(name, 2, WEFT_STEAL_LEAPFROG_RANDOM, 200);
    rule(THIEF1, point, WHEN(OWNER, EV_RELEASE, 1, 1),
         "the owner's go, given once it has published work and woken this worker");
    long r = WEFT_RUN(sleeper_root);
    end();
    expect_leaf_once_by(THIEF1, r, 14);
    EXPECT_ORDER("the owner published and woke the worker while it stalled",
                 {THIEF1, EV_STALLED, 1}, {OWNER, EV_SPAWNED, 1}, {OWNER, WEFT_RP_WAKE_CLAIMED, 1},
                 {OWNER, EV_RELEASE, 1}, {THIEF1, EV_LEAF_RUN, 1}, {OWNER, EV_SYNCED, 1});
    ok("the owner's publication woke the stalled sleeper, which took the task");
}

/* ---- the owner shares a private task on a thief's request (the
 * scheduler's OWNER_BEFORE_PUBLISH), no stall ---- */

WEFT_TASK_1(long, plain, long, x) { return x + 1; }

WEFT_TASK_0(long, share_on_request_root)
{
    become_owner(weft_w);
    /* The other worker takes the first task and holds it while the owner
     * spawns two more, which stay private; when it is let go it finds
     * nothing shared and asks. */
    WEFT_SPAWN(hold);
    owner_until(WEFT_CONTEXT, WHEN(THIEF1, EV_HOLD_RUN, 1, 0),
                "the other worker to take the first task");
    WEFT_SPAWN(plain, 1);
    WEFT_SPAWN(plain, 2);
    NOTE(EV_HOLD_END);
    owner_until(WEFT_CONTEXT, WHEN(THIEF1, WEFT_RP_THIEF_BEFORE_ASK, 1, 0),
                "the other worker to ask for work");
    /* The request is stored after that point: wait for the other worker's
     * next event (its next attempt, its way to sleep, or a steal of what
     * a poll here shared), which comes after the store.  (A SPAWN between
     * the point and the store would keep the task private, and the split
     * owner's polls do not serve requests.) */
    double end = now_s() + WAIT_S;
    while (atomic_load(&last_seq[atomic_load(&thief1_id)]) <=
           first_of(THIEF1, WEFT_RP_THIEF_BEFORE_ASK, 0)) {
        if (now_s() > end)
            fail("the other worker passed no point after asking, in %d s", WAIT_S);
        WEFT_YIELD();
        sched_yield();
    }
    /* Served here (a spawn with a request pending) or at the poll above. */
    NOTE(EV_SPAWNED);
    WEFT_SPAWN(leaf, 12);
    owner_until(WEFT_CONTEXT, WHEN(OWNER, WEFT_RP_OWNER_BEFORE_PUBLISH, 1, 0),
                "the owner to share a private task on the request");
    NOTE(EV_SYNC_START);
    long r = WEFT_SYNC(leaf);
    long b = WEFT_SYNC(plain), a = WEFT_SYNC(plain);
    long h = WEFT_SYNC(hold);
    NOTE(EV_SYNCED);
    return a == 2 && b == 3 && h == 5 ? r : -1;
}

static void owner_shares_on_request(void)
{
    const unsigned need = ROLE(OWNER_BEFORE_PUBLISH) | ROLE(THIEF_BEFORE_ASK);
    if ((facts->roles & need) != need) {
        not_applicable("owner_shares_on_request", "owner",
                       "it marks no request or no publication before it");
        return;
    }
    begin("owner_shares_on_request", 2, WEFT_STEAL_LEAPFROG_RANDOM, 200);
    atomic_store(&rules_on, 1);
    long r = WEFT_RUN(share_on_request_root);
    end();
    EXPECT(r == 3 * 12 + 1, "the run returned %ld, not %d", r, 3 * 12 + 1);
    EXPECT(atomic_load(&leaf_runs) == 1, "the task ran %d times", atomic_load(&leaf_runs));
    /* No rule fires: everything is in epoch 0.  Which came first, the
     * ask or the publication, is the scheduler's (wool and the private
     * deques' thief asks before it gets the first task too). */
    EXPECT(count_of(OWNER, WEFT_RP_OWNER_BEFORE_PUBLISH, 0) >= 1 &&
               count_of(THIEF1, WEFT_RP_THIEF_BEFORE_ASK, 0) >= 1,
           "the owner never shared a private task on a request (%ld asks, %ld publications)",
           count_of(THIEF1, WEFT_RP_THIEF_BEFORE_ASK, 0),
           count_of(OWNER, WEFT_RP_OWNER_BEFORE_PUBLISH, 0));
    ok("the owner shared a private task on the other worker's request");
}

/* ---- a scheduler whose SYNC takes public tasks back without a race
 * point marks its privatizing (OWNER_BEFORE_RECLAIM) instead: public
 * tasks joined inline, many, while the thief stalls before its claim.
 * The thief's request must come after the owner's spawns, or its serve
 * publishes only the few spawned by then, too few public joins to
 * privatize: so the other worker first takes a held task (the request
 * pending from before the run, a sleeper's, is served by that task), the
 * owner spawns every task meanwhile, and only then lets it go and ask. ---- */

enum { N_INLINE = 160, STALE_REQUEST = -2, PRIVATIZE_TRIES = 20 };

WEFT_TASK_0(long, privatize_root)
{
    become_owner(weft_w);
    WEFT_SPAWN(hold);
    owner_until(WEFT_CONTEXT, WHEN(THIEF1, EV_HOLD_RUN, 1, 0),
                "the other worker to take the first task");
    long published = count_of(OWNER, WEFT_RP_OWNER_BEFORE_PUBLISH, 0);
    for (long i = 0; i < N_INLINE; i++)
        WEFT_SPAWN(plain, i);
    NOTE(EV_SPAWNED);
    if (count_of(OWNER, WEFT_RP_OWNER_BEFORE_PUBLISH, 0) != published) {
        /* A request the other worker wrote again after the one the held
         * task served (its ask, then its way to sleep) made the first of
         * these SPAWNs publish: the task above the held one is public, and
         * the other worker will steal it without asking, so nothing is
         * published on a request after the spawns.  Not the interleaving
         * under test: finish, and the caller runs the case again. */
        NOTE(EV_HOLD_END);
        long sum = 0;
        for (long i = N_INLINE - 1; i >= 0; i--)
            sum += WEFT_SYNC(plain) - 1 - i;
        return WEFT_SYNC(hold) == 5 && sum == 0 ? STALE_REQUEST : -1;
    }
    atomic_store(&rules_on, 1); /* not for the held task's steal */
    NOTE(EV_HOLD_END);
    owner_until(WEFT_CONTEXT, WHEN(OWNER, WEFT_RP_OWNER_BEFORE_PUBLISH, published + 1, 0),
                "the owner to publish tasks on the other worker's request");
    owner_until(WEFT_CONTEXT, THIEF1_STALLED, "the other worker to stall before its claim");
    NOTE(EV_SYNC_START);
    long sum = 0; /* the errors in the results */
    for (long i = N_INLINE - 1; i >= 0; i--)
        sum += WEFT_SYNC(plain) - 1 - i;
    NOTE(EV_SYNCED);
    NOTE(EV_RELEASE);
    return WEFT_SYNC(hold) == 5 ? sum : -1;
}

static void owner_privatizes(void)
{
    if (!facts->no_sync_reclaim || !(facts->roles & ROLE(OWNER_BEFORE_RECLAIM))) {
        not_applicable("owner_privatizes", "owner", "its SYNC marks its take-backs");
        return;
    }
    long r = STALE_REQUEST;
    for (int try = 0; try < PRIVATIZE_TRIES && r == STALE_REQUEST; try++) {
        begin("owner_privatizes", 2, WEFT_STEAL_LEAPFROG_RANDOM, 200);
        rule(THIEF1, WEFT_RP_THIEF_BEFORE_CLAIM, WHEN(OWNER, EV_RELEASE, 1, 1),
             "the owner to join every task inline");
        r = WEFT_RUN(privatize_root);
        end();
    }
    EXPECT(r != STALE_REQUEST,
           "in %d runs, a request written again before the spawns was served "
           "by the first of them every time",
           PRIVATIZE_TRIES);
    EXPECT(r == 0, "a task returned a wrong result (sum of errors %ld)", r);
    EXPECT_ORDER("the other worker held a task while the owner spawned; then the owner "
                 "published on its request, joined public tasks inline and privatized",
                 {THIEF1, EV_HOLD_RUN, 0}, {OWNER, EV_SPAWNED, 0}, {OWNER, EV_HOLD_END, 0},
                 {THIEF1, EV_STALLED, 1}, {OWNER, WEFT_RP_OWNER_BEFORE_RECLAIM, 1},
                 {OWNER, EV_SYNCED, 1});
    ok("the owner joined public tasks inline until it privatized them");
}

/* ---- the joiner stalled at JOIN_POLL, or after its last look before
 * sleeping, while the thief stores DONE ---- */

static void joiner_stalled_at_poll(void)
{
    begin("joiner_stalled_at_poll", 2, WEFT_STEAL_LEAPFROG_RANDOM, 200);
    rule(THIEF1, WEFT_RP_STEAL_TAKEN, WHEN(OWNER, EV_STALLED, 1, 1),
         "the owner to stall at its first poll in the join");
    rule(OWNER, WEFT_RP_JOIN_POLL, WHEN(THIEF1, WEFT_RP_AFTER_DONE, 1, 1),
         "the thief to store DONE");
    long r = spawn_wait_sync_under_rules(THIEF1_STALLED);
    end();
    expect_leaf_once_by(THIEF1, r, 11);
    EXPECT_ORDER("the thief ran to AFTER_DONE while the joiner stalled at its poll",
                 {THIEF1, EV_STALLED, 1}, {OWNER, WEFT_RP_JOIN_POLL, 1}, {OWNER, EV_STALLED, 1},
                 {THIEF1, EV_LEAF_RUN, 1}, {THIEF1, WEFT_RP_BEFORE_DONE, 1},
                 {THIEF1, WEFT_RP_AFTER_DONE, 1}, {OWNER, EV_SYNCED, 1});
    EXPECT(count_of(OWNER, WEFT_RP_JOIN_POLL, 0) == 1,
           "the joiner polled %ld times; its first poll, after DONE, must see it",
           count_of(OWNER, WEFT_RP_JOIN_POLL, 0));
    ok("the stalled joiner's poll saw DONE and the result");
}

static void joiner_sleeps_before_done(weft_steal_policy policy)
{
    static char name[64];
    snprintf(name, sizeof name, "joiner_sleeps_before_done(%s)", policy_name(policy));
    begin(name, 2, policy, 200);
    rule(THIEF1, WEFT_RP_STEAL_TAKEN, WHEN(OWNER, EV_STALLED, 1, 1),
         "the owner to stall on its way to sleep in the join");
    rule(OWNER, WEFT_RP_SLEEP_WILL_WAIT, WHEN(THIEF1, WEFT_RP_WAKE_CLAIMED, 1, 1),
         "the thief's DONE to wake the joiner (lost wake-up)");
    long r = spawn_wait_sync_under_rules(THIEF1_STALLED);
    end();
    expect_leaf_once_by(THIEF1, r, 11);
    EXPECT_ORDER("the thief stored DONE and woke the joiner after its last look",
                 {THIEF1, EV_STALLED, 1}, {OWNER, WEFT_RP_SLEEP_WILL_WAIT, 1},
                 {OWNER, EV_STALLED, 1}, {THIEF1, WEFT_RP_BEFORE_DONE, 1},
                 {THIEF1, WEFT_RP_AFTER_DONE, 1}, {THIEF1, WEFT_RP_WAKE_CLAIMED, 1},
                 {OWNER, EV_SYNCED, 1});
    ok("the thief's DONE woke the joiner that was about to sleep");
}

/* ------------------------------------------------------------------------ */

/* Every point a scheduler role passed must be in its table entry, and
 * every point of the entry must have been passed (a mark the list does not
 * show, a mark dropped from the code, or a table that is out of date,
 * fails). */
static void check_roles_seen(void)
{
    unsigned roles = atomic_load(&seen_points) & ~RUNTIME_POINTS;
    unsigned extra = roles & ~facts->roles, unseen = facts->roles & ~roles;
    for (int p = 0; p < WEFT_RP_COUNT; p++)
        if (extra & (1u << p)) {
            fprintf(stderr, "FAIL: %s marks %s, which the role table does not list\n", sched_name,
                    weft__race_point_name((weft_race_point_id)p));
            exit(1);
        }
    printf("roles: %s:", sched_name);
    for (int p = 0; p < WEFT_RP_COUNT; p++)
        if (roles & (1u << p))
            printf(" %s", weft__race_point_name((weft_race_point_id)p));
    printf("\n");
    /* And every role the table lists must be reached: a point the
     * scheduler no longer passes (a dropped mark, or a path no scenario
     * takes any more) fails, so the table cannot claim more than the runs
     * show.  A scheduler not in the table is assumed to mark every role:
     * there, unreached ones are only listed. */
    if (unseen) {
        fprintf(facts_missing ? stdout : stderr, "%s: %s marks, per the role table,",
                facts_missing ? "note" : "FAIL", sched_name);
        for (int p = 0; p < WEFT_RP_COUNT; p++)
            if (unseen & (1u << p))
                fprintf(facts_missing ? stdout : stderr, " %s",
                        weft__race_point_name((weft_race_point_id)p));
        fprintf(facts_missing ? stdout : stderr, ", which no scenario reached\n");
        if (!facts_missing)
            exit(1);
    }
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    /* Each scenario needs every role at work at once, however many CPUs
     * there are: no active limit (test_active_limit has its own). */
    setenv("WEFT_ACTIVE_LIMIT", "0", 1);
    int rounds = 10;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v"))
            verbose = true;
        else
            rounds = atoi(argv[i]);
    }
    CHECK(rounds > 0, "usage: test_races [rounds > 0] [-v]");
    facts = &sched_race_facts;
#ifdef WEFT_SCHED_RACE_FACTS_MISSING
    printf("note: scheduler %s has no race_facts.h; assuming it marks every role\n", sched_name);
#endif
    const char *env = getenv("WEFT_PERTURB");
    if (env && *env)
        perturb_threshold = (uint64_t)(strtod(env, NULL) * 4294967296.0);

    catch_crashes();
    pthread_t dog;
    CHECK(pthread_create(&dog, NULL, watchdog, NULL) == 0, "pthread_create");
    pthread_detach(dog);

    static const weft_steal_policy policies[] = {WEFT_STEAL_LEAPFROG_RANDOM, WEFT_STEAL_LEAPFROG,
                                                 WEFT_STEAL_TRANSITIVE};
    for (round_no = 0; round_no < rounds; round_no++) {
        thief_stalled_before_claim();
        owner_loses_reclaim();
        for (int p = 0; p < 3; p++) {
            thief_stalled_after_claim(WEFT_RP_THIEF_CLAIMED, policies[p]);
            thief_stalled_after_claim(WEFT_RP_STEAL_TAKEN, policies[p]);
        }
        thieves_race();
        owner_shares_on_request();
        owner_privatizes();
        sleeper_stalled(WEFT_RP_SLEEP_ANNOUNCED);
        sleeper_stalled(WEFT_RP_SLEEP_WILL_WAIT);
        joiner_stalled_at_poll();
        for (int p = 0; p < 3; p++)
            joiner_sleeps_before_done(policies[p]);
    }
    check_roles_seen();
    return 0;
}
