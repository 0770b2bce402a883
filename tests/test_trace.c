// SPDX-License-Identifier: Apache-2.0
/* Programs whose traces tests/trace/check_trace.py checks (weft/trace.h).
 *
 *   test_trace fork-join <file>   fib at 4 workers from two threads (RUNs
 *                                 from outside), a tree of slow leaves (so
 *                                 steals, leaps, joins, sleeps), a
 *                                 TOGETHER with a barrier, a
 *                                 NEWFRAME, a suspend and resume; the trace
 *                                 written at weft_stop
 *   test_trace full <file>        the same fib with 16-event buffers: the
 *                                 buffers fill, events are dropped and
 *                                 counted, nothing breaks
 *   test_trace pool <file>        work pool runs (steal one, steal half)
 *                                 traced with weft_trace_start/stop
 *   test_trace started <file>     fork-join's program traced with
 *                                 weft_trace_start(file), then weft_stop,
 *                                 then weft_trace_stop: the trace weft_stop
 *                                 wrote stays; a new weft_trace_start
 *                                 traces the next pool into <file>.again
 *   test_trace perfetto-api <prefix>
 *                                 sessions in Perfetto's format: streamed
 *                                 (with a RUN inside a task), brought up to
 *                                 date, written whole, streamed again; a
 *                                 file that cannot be opened
 *   test_trace forked <file>      WEFT_TRACE=<file> (a .pftrace, streamed)
 *                                 inherited by children made while the
 *                                 parent streams: one forked (not under
 *                                 TSan, which cannot start threads after
 *                                 such a fork) and one that runs this
 *                                 program again (exec); each starts and
 *                                 stops a pool of its own; the parent runs
 *                                 on and stops; prints "child <pid>" for
 *                                 each
 *   test_trace cycles <file>      WEFT_TRACE=<file>, three pools started and
 *                                 stopped in turn: each pool's trace in a
 *                                 file of its own (<file>, then <stem>.2<ext>
 *                                 and <stem>.3<ext>), said once
 *   test_trace outside <file>     WEFT_TRACE=<file> with 16-event buffers and
 *                                 5,000 RUNs from two threads outside the
 *                                 pool: the trace keeps 4,096 and says how
 *                                 many it dropped, in the file and on stderr
 *   test_trace exit-in-task <file>
 *                                 WEFT_TRACE=<file> (a .pftrace, streamed) and
 *                                 a task that calls exit(0): the program is
 *                                 told that only the trace's end is lost
 *   test_trace later <file>       recordings started on a running pool:
 *                                 weft_trace_start(<file>) after RUNs, then
 *                                 RUNs and weft_trace_stop; then
 *                                 <file>.again the same way, ended by
 *                                 weft_stop: slices under way at a start
 *                                 begin at it, and neither file has the
 *                                 pool's counters (they count from its start)
 *   test_trace pools <file>       WEFT_TRACE=<file> in a program that runs
 *                                 only work pools, 20 of them, and exits:
 *                                 the file keeps 16 and counts 4 untraced,
 *                                 said once on stderr
 *   test_trace api                the calls' errors (no file)
 *
 * Without the tracer each scenario checks that the calls answer ENOTSUP
 * and writes no file; the script then checks that none was written. */
#include "check.h"
#include "observe/trace.h"
#include "timing.h"

#include <errno.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>
#include <time.h>
#include <weft/pool.h>
#include <weft/trace.h>
#include <weft/weft.h>

#include "fib_task.h"

static _Atomic unsigned together_ran;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Leaves long enough (200 us) that idle workers steal the tree apart; on
 * a loaded machine the thieves may not run that soon, so a leaf on the
 * RUN's own worker also waits (up to 5 s, polling so that schedulers whose
 * owners hand out work only at polls do) until some leaf ran elsewhere. */
static _Atomic unsigned tree_root_worker;
static atomic_int tree_stolen_apart;

WEFT_TASK_1(long, slow_tree, int, depth)
{
    if (depth == 0) {
        unsigned me = weft_worker_id(weft_w);
        if (me != atomic_load(&tree_root_worker))
            atomic_store(&tree_stolen_apart, 1);
        uint64_t start = now_ns();
        while (now_ns() - start < 200000 ||
               (!atomic_load(&tree_stolen_apart) && now_ns() - start < 5000000000u))
            WEFT_YIELD();
        return 1;
    }
    WEFT_SPAWN(slow_tree, depth - 1);
    long b = WEFT_CALL(slow_tree, depth - 1);
    return WEFT_SYNC(slow_tree) + b;
}

/* The tree, noting which worker runs its root. */
WEFT_TASK_1(long, slow_tree_root, int, depth)
{
    atomic_store(&tree_root_worker, weft_worker_id(weft_w));
    atomic_store(&tree_stolen_apart, 0);
    return WEFT_CALL(slow_tree, depth);
}

/* A RUN inside a task: the task's slice holds the RUN's. */
WEFT_TASK_1(long, run_inside, int, n) { return WEFT_RUN(pfib, n); }

WEFT_VOID_TASK_0(together_body)
{
    atomic_fetch_add(&together_ran, 1);
    weft_barrier();
}

static void *outside_runs(void *arg)
{
    (void)arg;
    for (int i = 0; i < 20; i++)
        CHECK(WEFT_RUN(pfib, 16) == fib_ref(16), "pfib from a second thread");
    return NULL;
}

/* Many TOGETHERs from inside a task: at one worker each is served on the
 * spot, an interrupt instant and a few slices on the worker's own track,
 * faster than the thread that streams the trace drains it. */
WEFT_TASK_1(unsigned, together_burst, int, n)
{
    for (int i = 0; i < n; i++)
        WEFT_TOGETHER(together_body);
    return atomic_exchange(&together_ran, 0);
}

/* full: one worker, whose track outgrows a 16-event buffer however the
 * steals and the machine's load fall. */
static void fork_join(bool full)
{
    unsigned workers = full ? 1 : 4;
    CHECK(weft_start(workers, 0, 0) == 0, "start");
    if (full) {
        unsigned ran = WEFT_RUN(together_burst, 500);
        CHECK(ran == 500, "a burst of 500 TOGETHERs ran %u copies", ran);
    }
    pthread_t th;
    CHECK(pthread_create(&th, NULL, outside_runs, NULL) == 0, "thread");
    for (int i = 0; i < 10; i++)
        CHECK(WEFT_RUN(pfib, 20) == fib_ref(20), "pfib");
    pthread_join(th, NULL);
    for (int i = 0; i < 3 && !full; i++) /* it waits for thieves */
        CHECK(WEFT_RUN(slow_tree_root, 5) == 32, "slow_tree");
    WEFT_TOGETHER(together_body);
    CHECK(atomic_load(&together_ran) == workers, "TOGETHER ran %u copies",
          atomic_load(&together_ran));
    CHECK(WEFT_NEWFRAME(pfib, 18) == fib_ref(18), "NEWFRAME");
    CHECK(weft_suspend() == 0 && weft_resume() == 0, "suspend, resume");
    CHECK(WEFT_RUN(pfib, 20) == fib_ref(20), "pfib after resume");
    CHECK(weft_stop() == 0, "stop");
}

/* ---- pools started again, RUNs from outside beyond the trace's store ---- */

static void cycles(void)
{
    for (int c = 0; c < 3; c++) {
        CHECK(weft_start(2, 0, 0) == 0, "start %d", c);
        CHECK(WEFT_RUN(pfib, 14) == fib_ref(14), "pfib in pool %d", c);
        CHECK(weft_stop() == 0, "stop %d", c);
    }
}

static void *many_outside_runs(void *arg)
{
    (void)arg;
    for (int i = 0; i < 2500; i++)
        CHECK(WEFT_RUN(pfib, 2) == 1, "pfib from outside");
    return NULL;
}

static void outside(void)
{
    CHECK(weft_start(2, 0, 0) == 0, "start");
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&th[i], NULL, many_outside_runs, NULL) == 0, "thread");
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    CHECK(weft_stop() == 0, "stop");
}

WEFT_TASK_1(long, exits, int, n)
{
    long r = WEFT_CALL(pfib, n);
    fflush(stdout);
    exit(r == fib_ref(n) ? 0 : 1);
}

static uint64_t passes_before;
static bool streamed_since(void) { return weft__trace_stream_passes() >= passes_before + 2; }

static void exit_in_task(void)
{
    CHECK(weft_start(2, 0, 0) == 0, "start");
    for (int i = 0; i < 5; i++)
        CHECK(WEFT_RUN(pfib, 16) == fib_ref(16), "pfib");
    /* The RUNs' slices are in the file once the streaming thread has
     * finished a pass begun after them: the second pass from now (the
     * first may have begun before). */
    passes_before = weft__trace_stream_passes();
    CHECK(!WEFT_TRACE || eventually(streamed_since, 10.0),
          "the streaming thread made no pass in 10 s (%llu)",
          (unsigned long long)weft__trace_stream_passes());
    (void)WEFT_RUN(exits, 12);
}

/* ---- work pool: a tree of items ---- */

static void visit(weft_pool_ctx *ctx, void *item, void *arg)
{
    (void)arg;
    uint64_t depth = *(uint64_t *)item;
    if (depth == 0)
        return;
    uint64_t child = depth - 1;
    CHECK(weft_pool_push(ctx, &child) == 0 && weft_pool_push(ctx, &child) == 0, "push");
}

static void pool_runs(void)
{
    const weft_pool_steal modes[] = {WEFT_POOL_STEAL_ONE, WEFT_POOL_STEAL_HALF};
    for (size_t m = 0; m < 2; m++) {
        weft_pool_config cfg;
        weft_pool_config_init(&cfg, sizeof(uint64_t));
        cfg.workers = 3;
        cfg.steal = modes[m];
        uint64_t root = 14;
        weft_pool_stats st;
        CHECK(weft_pool_run(&cfg, &root, 1, visit, NULL, &st) == 0, "pool run");
        CHECK_EQ_U64(st.processed, (1u << 15) - 1);
    }
}

/* The documented sequence: weft_trace_start, weft_start, RUNs,
 * weft_stop (which writes the file), weft_trace_stop (which leaves it);
 * then a new session for the next pool. */
static void started(const char *path)
{
    int want = WEFT_TRACE ? 0 : ENOTSUP;
    int err = weft_trace_start(path);
    CHECK(err == want, "weft_trace_start: %d", err);
    fork_join(false); /* ends with weft_stop */
    CHECK(!weft_trace_active(), "still recording after weft_stop");
    err = weft_trace_stop();
    CHECK(err == want, "weft_trace_stop after weft_stop: %d", err);
    err = weft_trace_stop();
    CHECK(err == (WEFT_TRACE ? EINVAL : ENOTSUP), "a second weft_trace_stop: %d", err);
    char again[4096];
    snprintf(again, sizeof again, "%s.again", path);
    err = weft_trace_start(again);
    CHECK(err == want, "weft_trace_start after weft_stop: %d", err);
    CHECK(weft_start(2, 0, 0) == 0, "start");
    CHECK(WEFT_RUN(pfib, 18) == fib_ref(18), "pfib");
    CHECK(weft_stop() == 0, "stop");
    err = weft_trace_stop();
    CHECK(err == want, "weft_trace_stop after the second weft_stop: %d", err);
}

static void api(void)
{
#if WEFT_TRACE
    CHECK(weft_trace_stop() == EINVAL, "stop without start");
    CHECK(weft_trace_write(NULL) == EINVAL, "write(NULL)");
    CHECK(weft_trace_write("/nonexistent-dir/x.json") == EINVAL, "write before anything traced");
    CHECK(!weft_trace_active(), "not active");
    CHECK(weft_trace_start(NULL) == 0 && weft_trace_active(), "start");
    CHECK(weft_trace_start(NULL) == EBUSY, "start twice");
    CHECK(weft_start(2, 0, 0) == 0, "pool start");
    CHECK(WEFT_RUN(pfib, 15) == fib_ref(15), "pfib");
    CHECK(weft_trace_write("/nonexistent-dir/x.json") == ENOENT, "unwritable path");
    CHECK(weft_trace_stop() == 0 && !weft_trace_active(), "stop (no path: nothing written)");
    CHECK(weft_stop() == 0, "pool stop");
    /* weft_stop writes the file; weft_trace_stop then gives that write's
     * error. */
    CHECK(weft_trace_start("/dev/full") == 0, "start on /dev/full");
    CHECK(weft_start(2, 0, 0) == 0, "pool start");
    CHECK(WEFT_RUN(pfib, 15) == fib_ref(15), "pfib");
    CHECK(weft_stop() == 0, "pool stop");
    CHECK(weft_trace_stop() == ENOSPC, "the write at weft_stop failed: ENOSPC");
    CHECK(weft_trace_stop() == EINVAL, "nothing more to stop");
    /* A recording that ended kept nothing to write: refused, not an empty
     * file. */
    remove("/tmp/weft-trace-after-stop.json");
    CHECK(weft_trace_write("/tmp/weft-trace-after-stop.json") == EINVAL,
          "weft_trace_write after the recording ended");
    CHECK(access("/tmp/weft-trace-after-stop.json", F_OK) != 0, "an empty trace was written");
    printf("ok: the trace calls' errors\n");
#else
    CHECK(weft_trace_start("x.json") == ENOTSUP && weft_trace_stop() == ENOTSUP &&
              weft_trace_write("x.json") == ENOTSUP && !weft_trace_active(),
          "compiled out: ENOTSUP");
    printf("ok: the tracer compiled out reports ENOTSUP\n");
#endif
}

#if WEFT_TRACE
static void copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    CHECK(in && out, "copy %s", from);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        CHECK(fwrite(buf, 1, n, out) == n, "copy %s", from);
    fclose(in);
    fclose(out);
}
#endif

/* A session in Perfetto's format streams to its file: weft_trace_write
 * brings that file up to date and refuses any other; a session that does
 * not stream is written in that format by weft_trace_write to such a
 * path; a file that cannot be opened fails weft_trace_start. */
static void perfetto_api(const char *prefix)
{
#if WEFT_TRACE
    char streamed[4096], other[4096], whole[4096], again[4096], midway[4096];
    snprintf(streamed, sizeof streamed, "%s-streamed.pftrace", prefix);
    snprintf(other, sizeof other, "%s-other.pftrace", prefix);
    snprintf(whole, sizeof whole, "%s-whole.perfetto-trace", prefix);
    snprintf(again, sizeof again, "%s-again.pftrace", prefix);
    snprintf(midway, sizeof midway, "%s-midway.pftrace", prefix);
    CHECK(weft_trace_start("/nonexistent-dir/x.pftrace") == ENOENT && !weft_trace_active(),
          "a streamed file that cannot be opened: ENOENT, no session");
    CHECK(weft_trace_start(streamed) == 0, "start, streamed");
    CHECK(weft_start(2, 0, 0) == 0, "pool start");
    CHECK(WEFT_RUN(pfib, 18) == fib_ref(18), "pfib");
    CHECK(weft_trace_write(other) == EINVAL, "a streamed session written to another file");
    CHECK(weft_trace_write(streamed) == 0, "a streamed session brought up to date");
    copy_file(streamed, midway); /* what a reader finds at that moment */
    CHECK(WEFT_RUN(run_inside, 18) == fib_ref(18), "a RUN inside a task");
    CHECK(weft_stop() == 0, "pool stop");
    CHECK(weft_trace_stop() == 0, "stop after weft_stop wrote the session");
    CHECK(weft_trace_start(NULL) == 0, "start, no file");
    CHECK(weft_start(3, 0, 0) == 0, "pool start");
    CHECK(WEFT_RUN(pfib, 18) == fib_ref(18), "pfib");
    CHECK(weft_trace_write(whole) == 0, "a session written in Perfetto's format");
    CHECK(weft_trace_stop() == 0, "stop");
    CHECK(weft_stop() == 0, "pool stop");
    CHECK(weft_trace_start(again) == 0, "start, streamed again");
    CHECK(weft_start(2, 0, 0) == 0, "pool start");
    CHECK(WEFT_RUN(pfib, 18) == fib_ref(18), "pfib");
    CHECK(weft_trace_stop() == 0, "stop, streamed, the pool running");
    CHECK(weft_trace_write(other) == EINVAL, "a streamed session's events written again");
    CHECK(weft_stop() == 0, "pool stop");
    printf("ok: Perfetto's format: streamed, brought up to date, written whole, streamed again\n");
#else
    (void)prefix;
#endif
}

/* More work pool runs than a trace keeps, in a program with no fork-join
 * pool; the file is complete at exit. */
static void many_pools(void)
{
    for (int i = 0; i < 20; i++) {
        weft_pool_config cfg;
        weft_pool_config_init(&cfg, sizeof(uint64_t));
        cfg.workers = 2;
        uint64_t root = 6;
        CHECK(weft_pool_run(&cfg, &root, 1, visit, NULL, NULL) == 0, "pool run");
    }
    exit(0);
}

/* Recordings that start on a running pool, the workers in the middle of
 * their slices (looking for work, asleep, in a task). */
static void later(const char *path)
{
    int want = WEFT_TRACE ? 0 : ENOTSUP;
    char again[4096];
    snprintf(again, sizeof again, "%s.again", path);
    CHECK(weft_start(2, 0, 0) == 0, "start");
    CHECK(WEFT_RUN(pfib, 20) == fib_ref(20), "pfib before");
    CHECK(weft_trace_start(path) == want, "weft_trace_start on a running pool");
    CHECK(WEFT_RUN(pfib, 20) == fib_ref(20), "pfib");
    CHECK(weft_trace_stop() == want, "weft_trace_stop, the pool running");
    CHECK(WEFT_RUN(pfib, 18) == fib_ref(18), "pfib between");
    struct timespec nap = {0, 2000000}; /* the workers asleep, some of them */
    nanosleep(&nap, NULL);
    CHECK(weft_trace_start(again) == want, "weft_trace_start again");
    CHECK(WEFT_RUN(pfib, 20) == fib_ref(20), "pfib again");
    CHECK(weft_stop() == 0, "stop");
    CHECK(weft_trace_stop() == want, "weft_trace_stop after weft_stop wrote it");
}

/* A child's program: a pool of its own, traced as WEFT_TRACE says. */
static void child_program(void)
{
    CHECK(weft_start(2, 0, 0) == 0, "start in the child");
    CHECK(WEFT_RUN(pfib, 17) == fib_ref(17), "pfib in the child");
    CHECK(weft_stop() == 0, "stop in the child");
}

/* Children made while their parent streams the trace WEFT_TRACE names,
 * with the same WEFT_TRACE: forked, and running this program again. */
static void forked(const char *path)
{
    setenv("WEFT_TRACE", path, 1);
    CHECK(weft_start(2, 0, 0) == 0, "start");
    CHECK(WEFT_RUN(pfib, 18) == fib_ref(18), "pfib");
#if defined(__SANITIZE_THREAD__)
    const int first = 1; /* TSan cannot start threads after a multi-threaded fork */
#else
    const int first = 0;
#endif
    for (int exec_it = first; exec_it < 2; exec_it++) {
        fflush(stdout);
        pid_t child = fork();
        CHECK(child >= 0, "fork");
        if (child == 0) {
            if (exec_it) {
                execl("/proc/self/exe", "test_trace", "forked-child", path, (char *)NULL);
                _exit(127);
            }
            child_program();
            _exit(0);
        }
        int st = 0;
        CHECK(waitpid(child, &st, 0) == child && WIFEXITED(st) && WEXITSTATUS(st) == 0,
              "the %s child failed (status %d)", exec_it ? "exec'd" : "forked", st);
        printf("child %ld\n", (long)child);
    }
    CHECK(WEFT_RUN(pfib, 18) == fib_ref(18), "pfib after the children");
    CHECK(weft_stop() == 0, "stop");
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "api") == 0) {
        api();
        return 0;
    }
    CHECK(argc == 3, "usage: test_trace "
                     "fork-join|full|pool|pools|started|later|forked|cycles|outside|exit-in-task "
                     "<file> | perfetto-api <prefix> | api");
    const char *what = argv[1], *path = argv[2];
    if (strcmp(what, "perfetto-api") == 0) {
        perfetto_api(path);
        return 0;
    }
    if (strcmp(what, "forked") == 0) {
        forked(path);
        return 0;
    }
    if (strcmp(what, "forked-child") == 0) {
        child_program();
        return 0;
    }
    if (strcmp(what, "started") == 0) {
        started(path);
        return 0;
    }
    if (strcmp(what, "pools") == 0) {
        setenv("WEFT_TRACE", path, 1);
        many_pools();
    }
    if (strcmp(what, "later") == 0) {
        later(path);
        return 0;
    }
    if (strcmp(what, "exit-in-task") == 0) {
        setenv("WEFT_TRACE", path, 1);
        exit_in_task();
        return 1; /* not reached: the task exits */
    }
    if (strcmp(what, "cycles") == 0 || strcmp(what, "outside") == 0) {
        if (strcmp(what, "outside") == 0)
            setenv("WEFT_TRACE_EVENTS", "16", 1);
        setenv("WEFT_TRACE", path, 1);
        if (strcmp(what, "cycles") == 0)
            cycles();
        else
            outside();
        return 0;
    }
    if (strcmp(what, "pool") == 0) {
        int err = weft_trace_start(path);
        CHECK(err == (WEFT_TRACE ? 0 : ENOTSUP), "trace start: %d", err);
        pool_runs();
        err = weft_trace_stop();
        CHECK(err == (WEFT_TRACE ? 0 : ENOTSUP), "trace stop: %d", err);
        return 0;
    }
    CHECK(strcmp(what, "fork-join") == 0 || strcmp(what, "full") == 0, "unknown scenario %s", what);
    if (strcmp(what, "full") == 0)
        setenv("WEFT_TRACE_EVENTS", "16", 1);
    setenv("WEFT_TRACE", path, 1); /* read at weft_start, written at weft_stop */
    fork_join(strcmp(what, "full") == 0);
    return 0;
}
