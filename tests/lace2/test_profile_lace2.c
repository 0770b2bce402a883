// SPDX-License-Identifier: Apache-2.0
/* The profiler sees a Lace 2 program's tasks (profiling builds only):
 * fib's region and task type carry its name, its exact task and SPAWN
 * counts, and a parallelism above 2 at 2 workers.  (lace128.h's runtime
 * has no profiler: cmake/WeftLace2.cmake.) */
#include <lace.h>
#include <weft/profile.h>

#include "check.h"

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
    lace_start(2, 0, 0);
    weft_profile_reset();
    CHECK(pfib(n) == (long)fib_ref(n), "pfib(%d)", n);

    weft_profile_region r[4];
    size_t nr = weft_profile_regions(r, 4);
    CHECK(nr == 1, "%zu regions", nr);
    CHECK(strcmp(r[0].name, "pfib") == 0, "the run's region is named '%s', not pfib", r[0].name);
    /* The root and every SPAWNed task are bodies; a Lace 2 CALL is a
     * plain call of NAME_CALL, not a task body. */
    CHECK(r[0].spawns == f1 - 1, "%llu spawns, expected %lu", (unsigned long long)r[0].spawns,
          f1 - 1);
    CHECK(r[0].tasks == f1, "%llu tasks, expected %lu", (unsigned long long)r[0].tasks, f1);
    CHECK(r[0].work_ns > 0 && r[0].parallelism > 2, "work %.0f ns, parallelism %.2f", r[0].work_ns,
          r[0].parallelism);

    weft_profile_task_type ty[8];
    size_t nt = weft_profile_task_types(ty, 8);
    CHECK(nt == 1 && strcmp(ty[0].name, "pfib") == 0 && ty[0].count == r[0].tasks,
          "%zu task types, the first '%s' with %llu bodies", nt, nt ? ty[0].name : "",
          nt ? (unsigned long long)ty[0].count : 0ULL);
    printf("ok: Lace 2 pfib(%d) at 2 workers: region '%s', %llu tasks, %llu spawns, "
           "parallelism %.0f\n",
           n, r[0].name, (unsigned long long)r[0].tasks, (unsigned long long)r[0].spawns,
           r[0].parallelism);
    lace_stop();
    return 0;
}
