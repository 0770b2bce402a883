// SPDX-License-Identifier: Apache-2.0
/* The effects of the Lace API's pool controls (include/weft-lace/lace.h):
 * lace_suspend parks the workers between calls, and a RUN from outside
 * runs all the same, Lace's and weft's own from another thread alike (the
 * workers resumed for it and suspended again after); a TOGETHER or
 * NEWFRAME from outside waits for lace_resume and then runs, and calls
 * from outside across another thread's suspends and resumes all run,
 * without a word on stderr; a task that meets lace_suspend at a SYNC on
 * a stolen task or at a yield runs on to its end (Lace parks idle workers
 * only), also once a weft_suspend nested with it is resumed; and
 * lace_count_report_file writes the counter table (the run's task count)
 * to the given stream; and a work pool run inside a RUNEX's task (or
 * inside a RUN's while another thread's RUNEX waits), whose items RUN and
 * RUNEX back, runs to its end, as do pools its items run: the items'
 * calls are the task's, not RUNs from outside it must wait for (under a
 * watchdog). */
#include <lace.h>
#include <weft/pool.h>

#include "check.h"
#include "runtime/state.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

TASK_1(int, fib, int, n)
{
    if (n < 2)
        return n;
    SPAWN(fib, n - 1);
    int b = CALL(fib, n - 2);
    return SYNC(fib) + b;
}

static int fib_seq(int n) { return n < 2 ? n : fib_seq(n - 1) + fib_seq(n - 2); }

/* The same fib through weft's own API. */
WEFT_TASK_1(int, native_fib, int, n)
{
    if (n < 2)
        return n;
    WEFT_SPAWN(native_fib, n - 1);
    int b = WEFT_CALL(native_fib, n - 2);
    return WEFT_SYNC(native_fib) + b;
}

static atomic_int run_done; /* 1: the other thread's RUN returned */
static int run_result;

static void *native_run_from_outside(void *arg)
{
    (void)arg;
    run_result = WEFT_RUN(native_fib, 12);
    atomic_store(&run_done, 1);
    return NULL;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* A watchdog over each part: a hang is reported by name (on stdout, which
 * no part redirects) instead of ending at ctest's timeout with nothing
 * said. */
static char hang_what[128];

static void on_hang(int sig)
{
    (void)sig;
    static const char msg[] = "test_lace_effects: no answer within 60 s (a hang): ";
    (void)!write(STDOUT_FILENO, msg, sizeof msg - 1);
    (void)!write(STDOUT_FILENO, hang_what, strlen(hang_what));
    (void)!write(STDOUT_FILENO, "\n", 1);
    _exit(1);
}

/* Names the part now running and gives it 60 s. */
static void watch(const char *what)
{
    snprintf(hang_what, sizeof hang_what, "%s", what);
    alarm(60);
}

static void suspend_resume(void)
{
    lace_suspend();
    /* Lace's RUN resumes the workers for its task. */
    CHECK(RUN(fib, 20) == fib_seq(20), "a Lace RUN while suspended");
    /* So does a RUN of weft's own API from another thread: in a Lace
     * program every RUN from outside follows Lace's rule
     * (docs/lace.md, "lace_suspend and lace_resume"). */
    pthread_t th;
    CHECK(pthread_create(&th, NULL, native_run_from_outside, NULL) == 0, "thread");
    for (int i = 0; i < 1000 && !atomic_load(&run_done); i++)
        sleep_ms(10);
    CHECK(atomic_load(&run_done) == 1, "weft's RUN did not return within 10 s while suspended");
    pthread_join(th, NULL);
    CHECK(run_result == fib_seq(12), "weft's RUN returned %d, not %d", run_result, fib_seq(12));
    lace_resume();
    CHECK(RUN(fib, 20) == fib_seq(20), "a Lace RUN after lace_resume");
    printf("ok: while suspended, Lace's RUN and weft's RUN from another thread both ran; "
           "lace_resume\n");
}

static void count_report(void)
{
    lace_count_reset();
    CHECK(RUN(fib, 15) == fib_seq(15), "fib");
    FILE *f = tmpfile();
    CHECK(f != NULL, "tmpfile");
    lace_count_report_file(f);
    fflush(f);
    rewind(f);
    char buf[16384];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
#if WEFT_STATS
    /* fib(15) spawns once per call with n >= 2: fib(16) - 1 times. */
    char want[64];
    snprintf(want, sizeof want, " %d", fib_seq(16) - 1);
    const char *total = strstr(buf, "\ntotal");
    CHECK(strstr(buf, "tasks") != NULL && total != NULL && strstr(total, want) != NULL,
          "lace_count_report_file: no total row with %s tasks:\n%s", want + 1, buf);
    printf("ok: lace_count_report_file wrote the table (%s tasks in all)\n", want + 1);
#else
    CHECK(strstr(buf, "not compiled in") != NULL, "lace_count_report_file wrote:\n%s", buf);
    printf("ok: lace_count_report_file says the counters are compiled out\n");
#endif
}

/* lace_suspend returns at once; the workers that were awake park after
 * their idle spin, those asleep sleep on, idle or as surplus workers over
 * the active limit (white-box: the runtime's counts of parked,
 * idle-sleeping and surplus workers), and a weft_suspend over it returns
 * with every worker parked.  At 3 workers (on 2 CPUs: an active limit). */
static void lazy_suspension(void)
{
    /* lace_suspend returns at once; the workers that were awake park
     * after their idle spin, those asleep sleep on, idle or as surplus
     * workers over the active limit (white-box: the runtime's counts of
     * parked, idle-sleeping and surplus workers), and a weft_suspend over
     * it returns with every worker parked. */
    lace_suspend();
    CHECK(atomic_load(&weft__rt.suspended) != 0, "lace_suspend left the pool running");
    unsigned resting = 0;
    for (int i = 0; i < 5000; i++) {
        resting = atomic_load(&weft__rt.parked) + atomic_load(&weft__rt.sleeping_idle) +
                  atomic_load(&weft__rt.surplus);
        if (resting == lace_workers())
            break;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    CHECK(resting == lace_workers(), "%u of %u workers parked or asleep after lace_suspend",
          resting, lace_workers());
    lace_resume();
    RUN(fib, 10);
    lace_suspend();
    CHECK(weft_suspend() == 0, "weft_suspend over lace_suspend");
    CHECK(atomic_load(&weft__rt.parked) == lace_workers(),
          "weft_suspend returned with %u of %u parked", atomic_load(&weft__rt.parked),
          lace_workers());
    CHECK(weft_resume() == 0, "weft_resume");
    lace_resume();
}

/* A TOGETHER or NEWFRAME from a thread outside the pool that meets Lace's
 * lazy suspension waits at the gate (no worker parked for it to wake) and
 * goes in at lace_resume (white-box: the runtime's count of waiters at the
 * gate tells when it waits). */
static atomic_int interrupt_done;
static int interrupt_result;
static int interrupt_kind; /* 0: NEWFRAME, 1: TOGETHER */

static void *interrupt_from_outside(void *arg)
{
    (void)arg;
    if (interrupt_kind == 0) {
        interrupt_result = WEFT_NEWFRAME(native_fib, 12);
    } else {
        WEFT_TOGETHER(native_fib, 12);
        interrupt_result = fib_seq(12);
    }
    atomic_store(&interrupt_done, 1);
    return NULL;
}

static void interrupt_across_resume(int kind)
{
    static const char *const names[] = {"NEWFRAME", "TOGETHER"};
    interrupt_kind = kind;
    atomic_store(&interrupt_done, 0);
    lace_suspend();
    sleep_ms(20); /* the workers park or sleep on */
    pthread_t th;
    CHECK(pthread_create(&th, NULL, interrupt_from_outside, NULL) == 0, "thread");
    for (int i = 0;
         i < 1000 && atomic_load(&weft__rt.gate_waiters) == 0 && !atomic_load(&interrupt_done); i++)
        sleep_ms(10);
    lace_resume();
    for (int i = 0; i < 1000 && !atomic_load(&interrupt_done); i++)
        sleep_ms(10);
    CHECK(atomic_load(&interrupt_done) == 1,
          "a %s from outside did not return within 10 s of lace_resume (%u workers)", names[kind],
          lace_workers());
    pthread_join(th, NULL);
    CHECK(interrupt_result == fib_seq(12), "%s returned %d", names[kind], interrupt_result);
    printf("ok: a %s from outside that met lace_suspend ran after lace_resume (%u workers)\n",
           names[kind], lace_workers());
}

/* One thread suspends and resumes over and over while another calls RUN,
 * NEWFRAME and TOGETHER from outside: every call runs and returns its
 * result, and nothing is said on stderr (Lace's program meets only
 * resumes in progress, never weft_suspend's suspension). */
TASK_1(long, plus_one, long, x) { return x + 1; }
VOID_TASK_1(touch, long, x) { (void)x; }

/* stderr goes to a temporary file (its descriptor saved in *saved) until
 * stderr_quiet_since, which puts it back and says whether nothing was
 * written there (the first line written in `line`). */
static FILE *stderr_to_file(int *saved)
{
    fflush(stderr);
    FILE *said = tmpfile();
    CHECK(said != NULL, "tmpfile");
    *saved = dup(STDERR_FILENO);
    CHECK(*saved >= 0 && dup2(fileno(said), STDERR_FILENO) >= 0, "stderr to a file");
    return said;
}

static bool stderr_quiet_since(FILE *said, int saved, char *line, size_t size)
{
    fflush(stderr);
    CHECK(dup2(saved, STDERR_FILENO) >= 0, "stderr back");
    close(saved);
    line[0] = '\0';
    rewind(said);
    bool quiet = fgets(line, (int)size, said) == NULL;
    fclose(said);
    return quiet;
}

static atomic_int toggling;

static void *toggler(void *arg)
{
    (void)arg;
    while (atomic_load(&toggling)) {
        lace_suspend();
        sched_yield();
        lace_resume();
    }
    return NULL;
}

static void calls_while_toggling(void)
{
    int saved;
    FILE *said = stderr_to_file(&saved);
    atomic_store(&toggling, 1);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, toggler, NULL) == 0, "thread");
    long wrong = 0;
    for (long i = 0; i < 1500; i++) {
        if (RUN(plus_one, i) != i + 1)
            wrong++;
        if (i % 3 == 0 && NEWFRAME(plus_one, i) != i + 1)
            wrong++;
        if (i % 3 == 1)
            TOGETHER(touch, i);
    }
    atomic_store(&toggling, 0);
    pthread_join(th, NULL);
    char line[256];
    bool quiet = stderr_quiet_since(said, saved, line, sizeof line);
    CHECK(wrong == 0, "%ld calls from outside returned a wrong result", wrong);
    CHECK(quiet, "a Lace program's calls across lace_suspend/lace_resume were told: %s", line);
    printf("ok: 1500 RUNs, 500 NEWFRAMEs and 500 TOGETHERs from outside across a thread's "
           "lace_suspend/lace_resume: all ran, nothing said (%u workers)\n",
           lace_workers());
}

/* ---- a work pool inside a RUNEX's task, its items calling back ---- */

static atomic_long pool_items;
static atomic_long pool_wrong;

static void pool_item(weft_pool_ctx *ctx, void *item, void *arg)
{
    (void)arg;
    usleep(500); /* the items spread over the pool's threads */
    int depth = *(int *)item;
    int got = depth % 2 ? RUNEX(fib, 12) : RUN(fib, 12);
    if (got != fib_seq(12))
        atomic_fetch_add(&pool_wrong, 1);
    atomic_fetch_add(&pool_items, 1);
    if (depth > 0) {
        int child = depth - 1;
        weft_pool_push(ctx, &child);
        weft_pool_push(ctx, &child);
    }
}

TASK_1(int, pool_in_task, int, depth)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(int));
    cfg.workers = 3;
    return weft_pool_run(&cfg, &depth, 1, pool_item, NULL, NULL);
}

/* An item of the pool in the task that runs a pool of its own, whose
 * items RUN back: their threads work for the task too. */
static void nesting_item(weft_pool_ctx *ctx, void *item, void *arg)
{
    (void)ctx;
    (void)arg;
    int depth = *(int *)item;
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(int));
    cfg.workers = 2;
    if (weft_pool_run(&cfg, &depth, 1, pool_item, NULL, NULL) != 0)
        atomic_fetch_add(&pool_wrong, 1);
}

TASK_1(int, nested_pools_in_task, int, n)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(int));
    cfg.workers = 2;
    int depths[2] = {1, 1};
    return weft_pool_run(&cfg, depths, (size_t)n, nesting_item, NULL, NULL);
}

static void *runex_later(void *arg)
{
    (void)arg;
    sleep_ms(5);
    return (void *)(intptr_t)RUNEX(fib, 10);
}

static void pool_under_runex(unsigned workers)
{
    lace_start(workers, 0);
    for (int concurrent = 0; concurrent <= 2; concurrent++) {
        char what[96];
        snprintf(what, sizeof what, "%s, %u workers",
                 concurrent == 2 ? "RUNEX(pools run by a pool's items)"
                 : concurrent    ? "RUN(pool) and another thread's RUNEX"
                                 : "RUNEX(pool)",
                 workers);
        watch(what);
        atomic_store(&pool_items, 0);
        atomic_store(&pool_wrong, 0);
        int err;
        long want = 31;
        if (concurrent == 2) {
            err = RUNEX(nested_pools_in_task, 2);
            want = 2 * 3; /* two pools of a root and its two children */
        } else if (concurrent) {
            pthread_t th;
            CHECK(pthread_create(&th, NULL, runex_later, NULL) == 0, "thread");
            err = RUN(pool_in_task, 4);
            void *other;
            pthread_join(th, &other);
            CHECK((intptr_t)other == fib_seq(10), "the other thread's RUNEX: %ld",
                  (long)(intptr_t)other);
        } else {
            err = RUNEX(pool_in_task, 4);
        }
        CHECK(err == 0 && atomic_load(&pool_items) == want && atomic_load(&pool_wrong) == 0,
              "%s: pool %d, %ld items (%ld), %ld wrong", hang_what, err, atomic_load(&pool_items),
              want, atomic_load(&pool_wrong));
    }
    lace_stop();
    printf("ok: %u workers: a work pool in a RUNEX's task, in a RUN's while another "
           "thread's RUNEX waits, and pools run by its items, their items RUN and RUNEX back: "
           "all ran, all right\n",
           workers);
}

/* ---- the last call from outside ends on a pool's thread ----
 *
 * The main thread is worker 0 (lace_startup without a callback), so the
 * only calls from outside are the RUNs of a work pool's items on the
 * pool's own threads, inside worker 0's task; another thread has called
 * lace_suspend.  When the last of those RUNs ends, the pool is parked
 * again (Lace's count is low), from a thread that may not wait for the
 * control lock: it tries it, and says nothing (before, it was refused with
 * a message naming weft_suspend, and the pool stayed running).  20
 * rounds, the suspension undone by another thread's lace_resume. */
static void *suspend_on_a_thread(void *arg)
{
    (void)arg;
    lace_suspend();
    return NULL;
}

static void *resume_on_a_thread(void *arg)
{
    (void)arg;
    lace_resume();
    return NULL;
}

static void on_a_thread(void *(*fn)(void *))
{
    pthread_t th;
    CHECK(pthread_create(&th, NULL, fn, NULL) == 0, "thread");
    pthread_join(th, NULL);
}

VOID_TASK_0(pool_of_runs)
{
    int leaves[6] = {0, 0, 0, 0, 0, 0};
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(int));
    cfg.workers = 3;
    if (weft_pool_run(&cfg, leaves, 6, pool_item, NULL, NULL) != 0)
        atomic_fetch_add(&pool_wrong, 1);
}

/* ---- a task under lace_suspend runs to its end ----
 *
 * Lace's suspension stops idle workers only.  A task of worker 0 (the
 * main thread) that meets another thread's lace_suspend at a SYNC on a
 * task stolen from it, or at YIELD_NEWFRAME, runs on to its end: the
 * thread that resumes may wait for it, as the main thread does here
 * (before, the SYNC and the yield parked until lace_resume, here never).
 * The pool stays suspended after it. */
static atomic_int slow_started;

TASK_0(int, slow_seven)
{
    atomic_store(&slow_started, 1);
    /* Still running when the SYNC below comes, after the suspension. */
    for (int i = 0; i < 10000 && atomic_load(&weft__rt.suspended) == 0; i++)
        sleep_ms(1);
    sleep_ms(20);
    return 7;
}

/* SYNCs on slow_seven stolen by worker 1 (at_yield 0), or yields, after
 * another thread's lace_suspend; -1 if worker 1 took nothing in 10 s. */
TASK_1(int, task_meets_suspend, int, at_yield)
{
    if (at_yield) {
        on_a_thread(suspend_on_a_thread);
        YIELD_NEWFRAME();
        return 7;
    }
    atomic_store(&slow_started, 0);
    SPAWN(slow_seven);
    for (int i = 0; i < 10000 && !atomic_load(&slow_started); i++) {
        YIELD_NEWFRAME(); /* answers a thief's request (the private deques) */
        sleep_ms(1);
    }
    bool stolen = atomic_load(&slow_started) != 0;
    on_a_thread(suspend_on_a_thread);
    int got = SYNC(slow_seven);
    return stolen ? got : -1;
}

static void task_under_lace_suspend(void)
{
    LACE_ME;
    static const char *const where[] = {"a SYNC on a stolen task", "YIELD_NEWFRAME"};
    for (int at_yield = 0; at_yield <= 1; at_yield++) {
        char what[96];
        snprintf(what, sizeof what, "a task at %s under lace_suspend", where[at_yield]);
        watch(what);
        int got = CALL(task_meets_suspend, at_yield);
        CHECK(got == 7, "%s: returned %d (-1: nothing stolen)", what, got);
        CHECK(atomic_load(&weft__rt.suspended) != 0, "%s: the pool is no longer suspended", what);
        on_a_thread(resume_on_a_thread);
        CHECK(atomic_load(&weft__rt.suspended) == 0, "%s: lace_resume left it suspended", what);
    }
    printf("ok: a task of worker 0 at a SYNC on a stolen task, and at YIELD_NEWFRAME, under "
           "another thread's lace_suspend ran to its end\n");
}

/* weft_suspend and lace_suspend nested, in either order, then
 * weft_resume: the suspension left is Lace's, and a task that parked at
 * its yield for weft_suspend goes on to its end (its caller resumes
 * after it).  The other thread's weft_suspend returns once the task is
 * parked at a yield. */
static atomic_int nested_done;
/* What went wrong on that thread (checked on the main thread, outside
 * the task), or NULL. */
static const char *nested_wrong;
static unsigned nested_parked;

static void *weft_then_lace_suspend(void *arg)
{
    if (arg) { /* Lace's first */
        lace_suspend();
        if (weft_suspend() != 0)
            nested_wrong = "weft_suspend over lace_suspend failed";
    } else {
        if (weft_suspend() != 0)
            nested_wrong = "weft_suspend failed";
        lace_suspend();
    }
    nested_parked = atomic_load(&weft__rt.parked);
    if (weft_resume() != 0)
        nested_wrong = "weft_resume failed";
    atomic_store(&nested_done, 1);
    return NULL;
}

TASK_1(int, task_across_nested, int, lace_first)
{
    pthread_t th;
    atomic_store(&nested_done, 0);
    nested_wrong = NULL;
    CHECK(pthread_create(&th, NULL, weft_then_lace_suspend, lace_first ? &nested_done : NULL) == 0,
          "thread");
    /* Parks at a yield for weft_suspend; goes on after weft_resume. */
    while (!atomic_load(&nested_done)) {
        YIELD_NEWFRAME();
        sleep_ms(1);
    }
    pthread_join(th, NULL);
    return 7;
}

static void task_across_nested_suspensions(void)
{
    LACE_ME;
    for (int lace_first = 0; lace_first <= 1; lace_first++) {
        char what[96];
        snprintf(what, sizeof what, "a task across %s, then weft_resume",
                 lace_first ? "lace_suspend and weft_suspend" : "weft_suspend and lace_suspend");
        watch(what);
        CHECK(CALL(task_across_nested, lace_first) == 7, "%s", what);
        CHECK(nested_wrong == NULL, "%s: %s", what, nested_wrong);
        CHECK(nested_parked == lace_workers(), "%s: weft_suspend returned with %u of %u parked",
              what, nested_parked, lace_workers());
        CHECK(atomic_load(&weft__rt.suspended) == 1, "%s: suspension depth %u, not Lace's alone",
              what, atomic_load(&weft__rt.suspended));
        on_a_thread(resume_on_a_thread);
        CHECK(atomic_load(&weft__rt.suspended) == 0, "%s: lace_resume left it suspended", what);
    }
    printf("ok: a task parked by weft_suspend nested with lace_suspend went on after weft_resume "
           "(both orders)\n");
}

static void suspend_settled_on_pool_thread(void)
{
    int saved;
    FILE *said = stderr_to_file(&saved);
    LACE_ME;
    watch("lace_suspend settled on a work pool's thread inside a task");
    atomic_store(&pool_items, 0);
    atomic_store(&pool_wrong, 0);
    int left_running = 0;
    for (int round = 0; round < 20; round++) {
        on_a_thread(suspend_on_a_thread);
        CALL(pool_of_runs);
        if (atomic_load(&weft__rt.suspended) == 0)
            left_running++;
        on_a_thread(resume_on_a_thread);
    }
    char line[256];
    bool quiet = stderr_quiet_since(said, saved, line, sizeof line);
    CHECK(atomic_load(&pool_items) == 20 * 6 && atomic_load(&pool_wrong) == 0,
          "%ld items ran, %ld wrong", atomic_load(&pool_items), atomic_load(&pool_wrong));
    CHECK(quiet, "a suspension settled on a pool's thread was told: %s", line);
    CHECK(left_running == 0, "%d of 20 rounds left the pool running under lace_suspend",
          left_running);
    printf("ok: lace_suspend settled on a work pool's thread inside a task, 20 rounds: parked, "
           "nothing said\n");
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* each part's line, also before a hang */
    signal(SIGALRM, on_hang);
    for (unsigned workers = 1; workers <= 3; workers++)
        pool_under_runex(workers);
    lace_start(2, 0);
    watch("suspend_resume");
    suspend_resume();
    watch("count_report");
    count_report();
    lace_stop();
    lace_start(3, 0);
    watch("lazy_suspension, 3 workers");
    lazy_suspension();
    watch("interrupt_across_resume, 3 workers");
    interrupt_across_resume(0);
    interrupt_across_resume(1);
    lace_stop();
    lace_start(1, 0);
    watch("interrupt_across_resume, 1 worker");
    interrupt_across_resume(0);
    interrupt_across_resume(1);
    lace_stop();
    lace_start(2, 0);
    watch("calls_while_toggling");
    calls_while_toggling();
    lace_stop();
    /* The main thread as worker 0 (lace_startup without a callback). */
    lace_init(2, 0);
    lace_startup(0, NULL, NULL);
    task_under_lace_suspend();
    task_across_nested_suspensions();
    suspend_settled_on_pool_thread();
    lace_exit();
    alarm(0);
    return 0;
}
