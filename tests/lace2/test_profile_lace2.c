// SPDX-License-Identifier: Apache-2.0
/* The profiler sees a Lace 2 program's tasks (profiling builds only):
 * fib's region and task type carry its name, its exact task and SPAWN
 * counts, and a parallelism above 2 at 2 workers.  With profiling off
 * (WEFT_PROFILE_OFF=1, in a child: the first start decides) the workers'
 * profiler state stays as the start left it through Lace 2's SPAWN, SYNC
 * and CALL, at 1, 2, 3 and 8 workers.  A void task's SYNC is profiled as a
 * value task's is.  (lace128.h's runtime has no
 * profiler: cmake/WeftLace2.cmake.) */
#include <lace.h>

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "profile_pfib.h"
#include "profile_untouched.h"

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

TASK(long, probed_fib, int, n)

long probed_fib_CALL(lace_worker *lw, int n)
{
    if (n < 2) {
        check_profile_untouched("a leaf");
        return n;
    }
    probed_fib_SPAWN(lw, n - 1);
    long b = probed_fib_CALL(lw, n - 2);
    long a = probed_fib_SYNC(lw);
    check_profile_untouched("after a SYNC");
    return a + b;
}

static int profiling_off_program(void)
{
    setenv("WEFT_PROFILE_OFF", "1", 1);
    setenv("WEFT_OVERSUBSCRIBE", "1", 1); /* 3 and 8 workers on 2 CPUs: not a warning here */
    static const unsigned counts[] = {1, 2, 3, 8};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        lace_start(counts[i], 0, 0);
        long got = probed_fib(20);
        CHECK(got == fib_iter(20), "profiling off, %u workers: fib(20) = %ld", counts[i], got);
        lace_stop();
    }
    return 0;
}

/* A void task: fib's leaves counted (relaxed: read after the RUN, which
 * orders them). */
static _Atomic long vfib_sum;

TASK(void, vfib, int, n)

void vfib_CALL(lace_worker *lw, int n)
{
    if (n < 2) {
        atomic_fetch_add_explicit(&vfib_sum, n, memory_order_relaxed);
        return;
    }
    vfib_SPAWN(lw, n - 1);
    vfib_CALL(lw, n - 2);
    vfib_SYNC(lw);
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
    /* The table and the JSON say so, for the program's reader. */
    char table[16384], json[16384];
    FILE *f = tmpfile();
    CHECK(f && weft_profile_print(f) == 0, "print");
    rewind(f);
    size_t got = fread(table, 1, sizeof table - 1, f);
    table[got] = '\0';
    fclose(f);
    f = tmpfile();
    CHECK(f && weft_profile_write_json(f) == 0, "json");
    rewind(f);
    got = fread(json, 1, sizeof json - 1, f);
    json[got] = '\0';
    fclose(f);
    CHECK(strstr(table, "\nnote: Lace 2: a task's own NAME_CALL of another task is a plain C call"),
          "the table has no note of Lace 2's CALL:\n%s", table);
    const char *note = strstr(json, "\"note\": \"Lace 2: a task's own NAME_CALL"),
               *regions = strstr(json, "\"regions\": [");
    CHECK(note && regions && note < regions,
          "the JSON has no note of Lace 2's CALL before its "
          "regions:\n%s",
          json);
    printf("ok: the table and the JSON note that a Lace 2 NAME_CALL is the caller's\n");

    /* The same counts through a void task's SYNC. */
    weft_profile_reset();
    vfib(n);
    CHECK(atomic_load_explicit(&vfib_sum, memory_order_relaxed) == fib_iter(n), "vfib(%d) = %ld", n,
          atomic_load_explicit(&vfib_sum, memory_order_relaxed));
    weft_profile_region v[4];
    size_t nv = weft_profile_regions(v, 4);
    CHECK(nv == 1 && strcmp(v[0].name, "vfib") == 0, "vfib: %zu regions, the first '%s'", nv,
          nv ? v[0].name : "");
    CHECK(v[0].tasks == (unsigned long)fib_iter(n + 1) &&
              v[0].spawns == (unsigned long)fib_iter(n + 1) - 1,
          "vfib(%d): %llu tasks and %llu spawns, expected %ld and %ld", n,
          (unsigned long long)v[0].tasks, (unsigned long long)v[0].spawns, fib_iter(n + 1),
          fib_iter(n + 1) - 1);
    printf("ok: Lace 2 void vfib(%d) at 2 workers: %llu tasks, %llu spawns\n", n,
           (unsigned long long)v[0].tasks, (unsigned long long)v[0].spawns);
    lace_stop();
    return 0;
}
