// SPDX-License-Identifier: Apache-2.0
/* The profiler sees a Lace 1.x program's tasks (profiling builds only;
 * built once with the 1.4 API and once with the 1.6 API): fib's region
 * and task type carry its name, its exact task and SPAWN counts, and a
 * parallelism above 2 at 2 workers. */
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
    lace_stop();
    return 0;
}
