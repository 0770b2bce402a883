// SPDX-License-Identifier: Apache-2.0
/* The profiler sees a Lace 2 program's tasks (profiling builds only):
 * fib's region and task type carry its name, its exact task and SPAWN
 * counts, and a parallelism above 2 at 2 workers.  With profiling off
 * (WEFT_PROFILE_OFF=1, in a child: the first start decides) the workers'
 * profiler state stays as the start left it through Lace 2's SPAWN, SYNC
 * and CALL, at 1, 2, 3 and 8 workers.  (lace128.h's runtime has no
 * profiler: cmake/WeftLace2.cmake.) */
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

/* The calling worker's profiler state is as lace_start left it with
 * profiling off. */
static void check_untouched(const char *where)
{
    weft_worker *w = weft_self();
    CHECK(w != NULL, "%s: not on a worker", where);
    const weft_profile_worker *p = &w->prof;
    CHECK(p->off && p->strand_start == 0 && p->f.work == 0 && p->f.tasks == 0 && p->f.spawns == 0 &&
              p->f.type == 0 && p->slots == NULL && p->types == NULL,
          "%s: worker %u's profiler state was touched (off %d, work %llu, tasks %llu, spawns "
          "%llu, type %u)",
          where, weft_worker_id(w), (int)p->off, (unsigned long long)p->f.work,
          (unsigned long long)p->f.tasks, (unsigned long long)p->f.spawns, (unsigned)p->f.type);
}

TASK(long, probed_fib, int, n)

long probed_fib_CALL(lace_worker *lw, int n)
{
    if (n < 2) {
        check_untouched("a leaf");
        return n;
    }
    probed_fib_SPAWN(lw, n - 1);
    long b = probed_fib_CALL(lw, n - 2);
    long a = probed_fib_SYNC(lw);
    check_untouched("after a SYNC");
    return a + b;
}

static int profiling_off_program(void)
{
    setenv("WEFT_PROFILE_OFF", "1", 1);
    static const unsigned counts[] = {1, 2, 3, 8};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        lace_start(counts[i], 0, 0);
        long got = probed_fib(20);
        CHECK(got == fib_iter(20), "profiling off, %u workers: fib(20) = %ld", counts[i], got);
        lace_stop();
    }
    return 0;
}

int main(void)
{
    char buf[8192];
    int st = run_capturing_stderr(profiling_off_program, buf, sizeof buf);
    CHECK(st == 0, "Lace 2 with profiling off: exit %d, stderr:\n%s", st, buf);
    printf("ok: Lace 2 with profiling off: the workers' profiler state untouched at 1, 2, 3 and "
           "8 workers\n");

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
