// SPDX-License-Identifier: Apache-2.0
/* The profiler sees a Lace 2 program's tasks (profiling builds only):
 * fib's region and task type carry its name, its exact task and SPAWN
 * counts, and a parallelism above 2 at 2 workers.  (lace128.h's runtime
 * has no profiler: cmake/WeftLace2.cmake.) */
#include <lace.h>

#include "profile_pfib.h"

#if !WEFT_PROFILE
#error "test_profile_lace2 is built only with -DWEFT_PROFILE=ON (tests/lace2/CMakeLists.txt)"
#endif

TASK(long, pfib, int, n)

long pfib_CALL(lace_worker *lw, int n)
{
    if (n < 2)
        return n;
    pfib_SPAWN(lw, n - 1);
    long b = pfib_CALL(lw, n - 2);
    return pfib_SYNC(lw) + b;
}

int main(void)
{
    const int n = 25;
    lace_start(2, 0, 0);
    weft_profile_reset();
    long answer = pfib(n);
    /* The root and every SPAWNed task are bodies, fib(n+1) of them; a
     * Lace 2 CALL is a plain call of NAME_CALL, not a task body. */
    weft_profile_region r = check_pfib_profile(n, answer, (unsigned long)fib_iter(n + 1));
    printf("ok: Lace 2 pfib(%d) at 2 workers: region '%s', %llu tasks, %llu spawns, "
           "parallelism %.0f\n",
           n, r.name, (unsigned long long)r.tasks, (unsigned long long)r.spawns, r.parallelism);
    lace_stop();
    return 0;
}
