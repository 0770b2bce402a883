// SPDX-License-Identifier: Apache-2.0
/* The profiler sees a Lace 1.x program's tasks (profiling builds only;
 * built once with the 1.4 API and once with the 1.6 API): fib's region
 * and task type carry its name, its exact task and SPAWN counts, and a
 * parallelism above 2 at 2 workers. */
#include <lace.h>
#include <weft/profile.h>

#include "check.h"

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

static unsigned long fib_ref(int n)
{
    unsigned long a = 0, b = 1;
    for (int i = 0; i < n; i++) {
        unsigned long t = a + b;
        a = b;
        b = t;
    }
    return a;
}

int main(void)
{
    const int n = 25;
    const unsigned long f1 = fib_ref(n + 1);
    lace_start(2, 0);
    weft_profile_reset();
    CHECK(RUN(pfib, n) == (long)fib_ref(n), "pfib(%d)", n);

    weft_profile_region r[4];
    size_t nr = weft_profile_regions(r, 4);
    CHECK(nr == 1, "%zu regions", nr);
    CHECK(strcmp(r[0].name, "pfib") == 0, "the RUN's region is named '%s', not pfib", r[0].name);
    /* Each call of pfib is a task body (the RUN's root, SPAWNed and
     * CALLed ones): 2 fib(n+1) - 1 of them, and fib(n+1) - 1 SPAWNs. */
    CHECK(r[0].tasks == 2 * f1 - 1, "%llu tasks, expected %lu", (unsigned long long)r[0].tasks,
          2 * f1 - 1);
    CHECK(r[0].spawns == f1 - 1, "%llu spawns, expected %lu", (unsigned long long)r[0].spawns,
          f1 - 1);
    CHECK(r[0].work_ns > 0 && r[0].parallelism > 2, "work %.0f ns, parallelism %.2f", r[0].work_ns,
          r[0].parallelism);

    weft_profile_task_type ty[8];
    size_t nt = weft_profile_task_types(ty, 8);
    CHECK(nt == 1 && strcmp(ty[0].name, "pfib") == 0 && ty[0].count == r[0].tasks,
          "%zu task types, the first '%s' with %llu bodies", nt, nt ? ty[0].name : "",
          nt ? (unsigned long long)ty[0].count : 0ULL);
    printf("ok: Lace %d.%d pfib(%d) at 2 workers: region '%s', %llu tasks, %llu spawns, "
           "parallelism %.0f\n",
           LACE_VERSION_MAJOR, LACE_VERSION_MINOR, n, r[0].name, (unsigned long long)r[0].tasks,
           (unsigned long long)r[0].spawns, r[0].parallelism);
    lace_stop();
    return 0;
}
