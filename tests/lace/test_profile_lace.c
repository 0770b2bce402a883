// SPDX-License-Identifier: Apache-2.0
/* The profiler sees a Lace 1.x program's tasks (profiling builds only;
 * built once with the 1.4 API and once with the 1.6 API): fib's region
 * and task type carry its name, its exact task and SPAWN counts, and a
 * parallelism above 2 at 2 workers.  A function outside a task body
 * (LACE_ME) spawns, calls and joins pfib too, and is counted the same,
 * and so is the thread that lace_startup makes worker 0.
 * Built with -Wshadow: a body's hidden parameters hide nothing the
 * warning names (bits/task_macros.h). */
#include <lace.h>

#include "profile_pfib.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#if WEFT_TRACE
#include <weft/trace.h>
#endif

#if !WEFT_PROFILE
#error "test_profile_lace is built only with -DWEFT_PROFILE=ON (tests/lace/CMakeLists.txt)"
#endif

TASK_1(long, pfib, int, n)
{
    if (n < 2)
        return n;
    SPAWN(pfib, n - 1);
    long b = CALL(pfib, n - 2);
    return SYNC(pfib) + b;
}

/* Not a task: its SPAWN, CALL and SYNC are the plain forms, which test
 * whether profiling is on. */
static long pfib_outside_body(int n)
{
    LACE_ME;
    SPAWN(pfib, n - 1);
    long b = CALL(pfib, n - 2);
    return SYNC(pfib) + b;
}

TASK_1(long, outside_root, int, n)
{
    (void)__lace_worker;
    (void)__lace_dq_head;
    return pfib_outside_body(n);
}

int main(void)
{
    const int n = 25;
    lace_start(2, 0);
    weft_profile_reset();
    long answer = RUN(pfib, n);
    /* Each call of pfib is a task body (the RUN's root, SPAWNed and
     * CALLed ones): 2 fib(n+1) - 1 of them. */
    weft_profile_region r = check_pfib_profile(n, answer, 2 * (unsigned long)fib_iter(n + 1) - 1);
    printf("ok: Lace %d.%d pfib(%d) at 2 workers: region '%s', %llu tasks, %llu spawns, "
           "parallelism %.0f\n",
           LACE_VERSION_MAJOR, LACE_VERSION_MINOR, n, r.name, (unsigned long long)r.tasks,
           (unsigned long long)r.spawns, r.parallelism);

    /* The same calls made from outside a body: outside_root's body, and
     * pfib's 2 fib(n+1) - 2 below it; fib(n+1) - 1 SPAWNs. */
    weft_profile_reset();
    answer = RUN(outside_root, n);
    CHECK(answer == fib_iter(n), "outside_root(%d) = %ld", n, answer);
    weft_profile_region o;
    CHECK(weft_profile_regions(&o, 1) == 1 && strcmp(o.name, "outside_root") == 0,
          "the second run's region is not outside_root");
    CHECK(o.tasks == 2 * (unsigned long long)fib_iter(n + 1) - 1 &&
              o.spawns == (unsigned long long)fib_iter(n + 1) - 1,
          "outside a body: %llu tasks and %llu spawns", (unsigned long long)o.tasks,
          (unsigned long long)o.spawns);
    printf("ok: the same from a function outside a body: %llu tasks, %llu spawns\n",
           (unsigned long long)o.tasks, (unsigned long long)o.spawns);
    lace_stop();

    /* Lace's first API: the thread that calls lace_startup without a
     * callback is worker 0 until lace_exit, and its own code, the tasks it
     * CALLs and the RUNs it makes are one run of the region named for it,
     * whose work holds the task type's. */
#if WEFT_TRACE
    /* And the timeline shows that thread's time as worker 0 as a slice of
     * its own, not the worker asleep. */
    char trace_path[] = "/tmp/test_profile_lace_XXXXXX.json";
    int trace_fd = mkstemps(trace_path, 5);
    CHECK(trace_fd >= 0 && close(trace_fd) == 0 && weft_trace_start(trace_path) == 0,
          "weft_trace_start(%s)", trace_path);
#endif
    lace_init(2, 0);
    lace_startup(0, NULL, NULL);
    weft_profile_reset();
    {
        LACE_ME;
        answer = CALL(pfib, n);
        answer += RUN(pfib, n);
    }
    lace_exit();
    CHECK(answer == 2 * fib_iter(n), "pfib(%d) twice from lace_startup's thread = %ld", n, answer);
    /* The thread's region, and the RUN inside it as a call of pfib. */
    weft_profile_region a[4];
    size_t na = weft_profile_regions(a, 4);
    const weft_profile_region *thread = NULL, *run = NULL;
    for (size_t i = 0; i < na; i++) {
        if (a[i].kind == WEFT_PROFILE_REGION_RUN &&
            strcmp(a[i].name, "(lace_startup's thread)") == 0)
            thread = &a[i];
        if (a[i].kind == WEFT_PROFILE_REGION_INSIDE_TASK && strcmp(a[i].name, "pfib") == 0)
            run = &a[i];
    }
    CHECK(na == 2 && thread && run && thread->runs == 1 && run->runs == 1,
          "lace_startup's thread: %zu regions (expected its own and the RUN inside it)", na);
    const unsigned long long bodies = 2 * (unsigned long long)fib_iter(n + 1) - 1;
    const unsigned long long spawns = (unsigned long long)fib_iter(n + 1) - 1;
    CHECK(thread->tasks == 2 * bodies && thread->spawns == 2 * spawns && run->tasks == bodies &&
              run->spawns == spawns,
          "lace_startup's thread: %llu tasks and %llu spawns (expected %llu and %llu), its RUN "
          "%llu and %llu",
          (unsigned long long)thread->tasks, (unsigned long long)thread->spawns, 2 * bodies,
          2 * spawns, (unsigned long long)run->tasks, (unsigned long long)run->spawns);
    weft_profile_task_type ty[8];
    size_t nt = weft_profile_task_types(ty, 8);
    const weft_profile_task_type *pfib = NULL;
    for (size_t i = 0; i < nt; i++)
        if (strcmp(ty[i].name, "pfib") == 0)
            pfib = &ty[i];
    CHECK(pfib && pfib->count == 2 * bodies && pfib->work_ns <= thread->work_ns &&
              thread->parallelism > 1,
          "lace_startup's thread: pfib's %llu bodies and %.0f ns of the region's %.0f ns of "
          "work (parallelism %.2f)",
          pfib ? (unsigned long long)pfib->count : 0ULL, pfib ? pfib->work_ns : 0.0,
          thread->work_ns, thread->parallelism);
    printf("ok: lace_startup's thread as worker 0: region '%s', %llu tasks, parallelism %.0f\n",
           thread->name, (unsigned long long)thread->tasks, thread->parallelism);
#if WEFT_TRACE
    FILE *tf = fopen(trace_path, "r");
    CHECK(tf != NULL, "the timeline %s was not written", trace_path);
    static char text[1 << 22];
    size_t len = fread(text, 1, sizeof text - 1, tf);
    text[len] = 0;
    fclose(tf);
    unlink(trace_path);
    const char *slice = strstr(text, "\"name\":\"(lace_startup's thread)\"");
    const char *end = slice ? strchr(slice, '}') : NULL;
    const char *how = slice ? strstr(slice, "\"started_by\":\"adopted\"") : NULL;
    CHECK(slice && end && how && how < end,
          "the timeline has no slice of lace_startup's thread started by \"adopted\"");
    printf("ok: the timeline shows lace_startup's thread as a slice of worker 0's\n");
#endif
    return 0;
}
