// SPDX-License-Identifier: Apache-2.0
/* The profiler sees a Lace 1.x program's tasks (profiling builds only;
 * built once with the 1.4 API and once with the 1.6 API): fib's region
 * and task type carry its name, its exact task and SPAWN counts, and a
 * parallelism above 2 at 2 workers.  A function outside a task body
 * (LACE_ME) spawns, calls and joins pfib too, and is counted the same.
 * Built with -Wshadow: a body's hidden parameters hide nothing the
 * warning names (bits/task_macros.h). */
#include <lace.h>

#include "profile_pfib.h"

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
    return 0;
}
