// SPDX-License-Identifier: Apache-2.0
/* The Lace APIs' profiling tests (tests/lace/test_profile_lace.c for 1.4
 * and 1.6, tests/lace2/test_profile_lace2.c): what the profiler is to have
 * seen of one run of a fib task named pfib, the only run since
 * weft_profile_reset. */
#ifndef WEFT_TESTS_PROFILE_PFIB_H
#define WEFT_TESTS_PROFILE_PFIB_H

#include "check.h"

#include <string.h>
#include <weft/profile.h>

#include "../bench/fib/fib.h" /* fib_iter: the closed-form reference */

/* Checks the answer of pfib(n), then its profile: one region named pfib,
 * with `tasks` task bodies, fib(n+1) - 1 SPAWNs (one per call with
 * n >= 2), some work and a parallelism above 2 (the tests run 2 workers),
 * and one task type, pfib, with those bodies.  Returns the region. */
static weft_profile_region check_pfib_profile(int n, long answer, unsigned long tasks)
{
    CHECK(answer == fib_iter(n), "pfib(%d) = %ld, expected %ld", n, answer, fib_iter(n));
    const unsigned long spawns = (unsigned long)fib_iter(n + 1) - 1;

    weft_profile_region r[4];
    size_t nr = weft_profile_regions(r, 4);
    CHECK(nr == 1, "%zu regions", nr);
    CHECK(strcmp(r[0].name, "pfib") == 0, "the run's region is named '%s', not pfib", r[0].name);
    CHECK(r[0].tasks == tasks, "%llu tasks, expected %lu", (unsigned long long)r[0].tasks, tasks);
    CHECK(r[0].spawns == spawns, "%llu spawns, expected %lu", (unsigned long long)r[0].spawns,
          spawns);
    CHECK(r[0].work_ns > 0 && r[0].parallelism > 2, "work %.0f ns, parallelism %.2f", r[0].work_ns,
          r[0].parallelism);

    weft_profile_task_type ty[8];
    size_t nt = weft_profile_task_types(ty, 8);
    CHECK(nt == 1 && strcmp(ty[0].name, "pfib") == 0 && ty[0].count == r[0].tasks,
          "%zu task types, the first '%s' with %llu bodies", nt, nt ? ty[0].name : "",
          nt ? (unsigned long long)ty[0].count : 0ULL);
    return r[0];
}

#endif
