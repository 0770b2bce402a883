// SPDX-License-Identifier: Apache-2.0
/* A profiling build with profiling off (WEFT_PROFILE_OFF=1 at the
 * process's first start; docs/profiling.md): every hook returns before it
 * touches the worker's profiler state, so that state stays as the start
 * left it (no strand running, no figures, no slot records mapped) through
 * fork-join tasks, RUNs from outside threads at once, RUNs inside tasks,
 * TOGETHER and NEWFRAME inside tasks, regions, work pool runs and
 * repeated starts at 1, 2, 3, 8 and 32 workers; every answer is checked.  The API then answers as a build without the
 * profiler does: no regions or task types, ENOTSUP from the reports (the
 * table's note says profiling is off) and from weft_profile_end.  The
 * choice is the first start's: WEFT_PROFILE_OFF=0 later changes nothing.
 * WEFT_PROFILE=1 or WEFT_PROFILE_JSON beside it are said to have nothing
 * to report, and nothing is printed or written, for a fork-join program
 * and a program that only runs work pools. */
#include "check.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <weft/pool.h>
#include <weft/profile.h>
#include <weft/weft.h>

#include "fib_task.h"
#include "profile_untouched.h"

#if !WEFT_PROFILE
#error "test_profile_off is built only with -DWEFT_PROFILE=ON (tests/CMakeLists.txt)"
#endif

static char json_path[64];

/* fib with a task per call, checking the state at every leaf and after
 * every SYNC. */
WEFT_TASK_1(long, probed_fib, int, n)
{
    if (n < 2) {
        check_profile_untouched("a leaf");
        return n;
    }
    WEFT_SPAWN(probed_fib, n - 1);
    long b = WEFT_CALL(probed_fib, n - 2);
    long a = WEFT_SYNC(probed_fib);
    check_profile_untouched("after a SYNC");
    return a + b;
}

/* A RUN inside a task, and a region inside a task. */
WEFT_TASK_1(long, nested_runs, int, n)
{
    weft_profile_mark m = weft_profile_begin();
    WEFT_SPAWN(probed_fib, n);
    long inner = WEFT_RUN(probed_fib, n - 1);
    long a = WEFT_SYNC(probed_fib);
    CHECK(weft_profile_end(&m, "inside") == ENOTSUP, "weft_profile_end inside a task: not ENOTSUP");
    check_profile_untouched("after a RUN inside a task");
    return a + inner;
}

/* Interrupts from inside a task: TOGETHER runs a task on every worker,
 * NEWFRAME one on some worker, while the caller's task waits (the runtime
 * pauses and resumes the workers' clocks around them). */
static _Atomic unsigned together_runs;
WEFT_VOID_TASK_0(on_every_worker)
{
    check_profile_untouched("in a TOGETHER task");
    atomic_fetch_add(&together_runs, 1);
}

WEFT_TASK_1(long, interrupts_inside, int, n)
{
    atomic_store(&together_runs, 0);
    WEFT_SPAWN(probed_fib, n);
    WEFT_TOGETHER(on_every_worker);
    long framed = WEFT_NEWFRAME(probed_fib, n - 1);
    long a = WEFT_SYNC(probed_fib);
    CHECK(atomic_load(&together_runs) == weft_workers(), "TOGETHER ran on %u workers of %u",
          atomic_load(&together_runs), weft_workers());
    check_profile_untouched("after TOGETHER and NEWFRAME inside a task");
    return a + framed;
}

static void *outside_runs(void *arg)
{
    (void)arg;
    for (int i = 0; i < 20; i++)
        CHECK(WEFT_RUN(probed_fib, 16) == fib_ref(16), "a RUN from an outside thread");
    return NULL;
}

/* A binary tree of depth 10 as work pool items, counted. */
static _Atomic unsigned visited;
static void visit_node(weft_pool_ctx *ctx, void *item, void *arg)
{
    (void)arg;
    atomic_fetch_add(&visited, 1);
    unsigned depth = *(unsigned *)item + 1;
    if (depth <= 10) {
        CHECK(weft_pool_push(ctx, &depth) == 0, "push");
        CHECK(weft_pool_push(ctx, &depth) == 0, "push");
    }
}

static void pool_run(unsigned workers)
{
    weft_pool_config cfg;
    weft_pool_config_init(&cfg, sizeof(unsigned));
    cfg.workers = workers;
    unsigned root = 0;
    atomic_store(&visited, 0);
    CHECK(weft_pool_run(&cfg, &root, 1, visit_node, NULL, NULL) == 0, "pool run");
    CHECK(atomic_load(&visited) == 2047, "pool run: %u items of 2047", atomic_load(&visited));
}

static void check_api_off(void)
{
    CHECK(weft_profile_regions(NULL, 0) == 0, "regions recorded with profiling off");
    CHECK(weft_profile_task_types(NULL, 0) == 0, "task types recorded with profiling off");
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    CHECK(out && weft_profile_print(out) == ENOTSUP && fclose(out) == 0,
          "weft_profile_print with profiling off: not ENOTSUP");
    CHECK(strstr(text, "profiling is off") && strstr(text, "WEFT_PROFILE_OFF=1"),
          "weft_profile_print with profiling off says: %s", text);
    free(text);
    text = NULL;
    out = open_memstream(&text, &len);
    CHECK(out && weft_profile_write_json(out) == ENOTSUP && fclose(out) == 0 && len == 0,
          "weft_profile_write_json with profiling off: not ENOTSUP, or wrote %zu bytes", len);
    free(text);
    CHECK(weft_profile_print(NULL) == EINVAL, "weft_profile_print(NULL): not EINVAL");
    weft_profile_mark m = weft_profile_begin();
    CHECK(weft_profile_end(&m, "outside") == ENOTSUP, "weft_profile_end outside: not ENOTSUP");
}

static void one_life(unsigned workers)
{
    CHECK(weft_start(workers, 0, 0) == 0, "start %u workers", workers);
    CHECK(WEFT_RUN(probed_fib, 20) == fib_ref(20), "fib(20) at %u workers", workers);
    CHECK(WEFT_RUN(nested_runs, 14) == fib_ref(14) + fib_ref(13), "nested RUNs at %u workers",
          workers);
    CHECK(WEFT_RUN(interrupts_inside, 14) == fib_ref(14) + fib_ref(13),
          "TOGETHER and NEWFRAME inside a task at %u workers", workers);
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        CHECK(pthread_create(&t[i], NULL, outside_runs, NULL) == 0, "thread");
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    pool_run(workers < 8 ? workers : 8);
    check_api_off();
    CHECK(weft_stop() == 0, "stop");
    check_api_off();
}

/* With WEFT_PROFILE or WEFT_PROFILE_JSON beside WEFT_PROFILE_OFF=1 (set
 * by the caller): a fork-join program, then a pool-only one. */
static int fork_join_program(void)
{
    CHECK(weft_start(2, 0, 0) == 0, "start");
    CHECK(WEFT_RUN(probed_fib, 15) == fib_ref(15), "fib");
    CHECK(weft_stop() == 0, "stop");
    return 0;
}

static int pool_only_program(void)
{
    pool_run(2);
    exit(0); /* atexit handlers run: a profile would be reported there */
}

static void reports_asked_for(void)
{
    char buf[65536];
    static const char said[] = "WEFT_PROFILE_OFF=1 turned profiling off in this process";
    int (*programs[])(void) = {fork_join_program, pool_only_program};
    for (int i = 0; i < 2; i++) {
        setenv("WEFT_PROFILE", "1", 1);
        int st = run_capturing_stderr(programs[i], buf, sizeof buf);
        unsetenv("WEFT_PROFILE");
        CHECK(st == 0 && strstr(buf, said) && !strstr(buf, "span"),
              "WEFT_PROFILE=1 with WEFT_PROFILE_OFF=1 (%s program): status %d:\n%s",
              i ? "pool-only" : "fork-join", st, buf);
        remove(json_path);
        setenv("WEFT_PROFILE_JSON", json_path, 1);
        st = run_capturing_stderr(programs[i], buf, sizeof buf);
        unsetenv("WEFT_PROFILE_JSON");
        FILE *f = fopen(json_path, "r");
        if (f)
            fclose(f);
        CHECK(st == 0 && strstr(buf, said) && f == NULL,
              "WEFT_PROFILE_JSON with WEFT_PROFILE_OFF=1 (%s program): status %d, file %s:\n%s",
              i ? "pool-only" : "fork-join", st, f ? "written" : "not written", buf);
    }
    printf("ok: WEFT_PROFILE=1 and WEFT_PROFILE_JSON beside WEFT_PROFILE_OFF=1: said to have "
           "nothing to report, nothing printed or written\n");
}

int main(void)
{
    unsetenv("WEFT_PROFILE");
    unsetenv("WEFT_PROFILE_JSON");
    snprintf(json_path, sizeof json_path, "/tmp/weft-profile-off-%d.json", (int)getpid());
    setenv("WEFT_PROFILE_OFF", "1", 1);
    reports_asked_for(); /* (children: this process has not started yet) */
    static const unsigned counts[] = {1, 2, 3, 8, 32};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        one_life(counts[i]);
        /* Chosen at the first start: a later value changes nothing. */
        setenv("WEFT_PROFILE_OFF", "0", 1);
    }
    printf("ok: profiling off: the workers' profiler state untouched and every answer right at "
           "1, 2, 3, 8 and 32 workers (fork-join, outside RUNs, RUNs, TOGETHER and NEWFRAME inside "
           "tasks, regions, work pools, repeated starts); the API answers as without the "
           "profiler\n");
    return 0;
}
