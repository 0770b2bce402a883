// SPDX-License-Identifier: Apache-2.0
/* A task type's registration, the first time a body of the type starts,
 * is the profiler's time, not the strand's that runs it.
 *
 * A thread's first registration can take tens of microseconds (the
 * name's copy is the thread's first allocation, which makes it a malloc
 * arena of its own): a short region's work and span were that one strand.
 * How long it takes depends on the thread and the allocator, so this test
 * makes it long every time: it defines strdup, and a copy of a probe
 * type's name computes for SPIN_NS of CPU time first.
 *
 * For each worker count a tree type and a probe type of its own run in
 * a fresh pool: the tree's middle leaf calls the probe, whose first body
 * registers it.  The region's work, its span and the types' rows must
 * each be well under SPIN_NS (the tree itself is tens of microseconds).  With the argument
 * `strands` the profiler counts strands: the strands' conversion to time
 * must not take the registration in either.
 *
 * Built with the profiler only, without sanitizers (tests/CMakeLists.txt):
 * the definition of strdup stands in for libc's in every part of the test
 * (a sanitizer's runtime has its own). */
#include "check.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <weft/profile.h>
#include <weft/weft.h>

#include "profile_regions.h"
#include "timing.h"

#if !WEFT_PROFILE
#error "test_profile_register is built only with -DWEFT_PROFILE=ON (tests/CMakeLists.txt)"
#endif

#define SPIN_NS 20000000L /* a probe's registration computes 20 ms */
#define DEPTH 8           /* 511 bodies */

static _Atomic long slow_copies;

char *strdup(const char *s)
{
    if (strncmp(s, "probe_", 6) == 0) {
        uint64_t t0 = thread_cpu_ns();
        while (thread_cpu_ns() - t0 < (uint64_t)SPIN_NS) {
        }
        /* Relaxed: a count read after the RUN returns, which orders it. */
        atomic_fetch_add_explicit(&slow_copies, 1, memory_order_relaxed);
    }
    size_t len = strlen(s) + 1;
    char *copy = malloc(len);
    if (copy)
        memcpy(copy, s, len);
    return copy;
}

/* A tree of 2^(DEPTH+1) - 1 bodies whose middle leaf calls the probe:
 * the probe's first body starts with many strands behind it (counting
 * strands, inside an open window of them). */
#define MIDDLE (1L << (DEPTH - 1))
#define PROBE(K) \
    WEFT_TASK_1(long, probe_##K, int, unused) { return unused; } \
    WEFT_TASK_2(long, tree_##K, int, depth, long, index) \
    { \
        if (depth == 0) \
            return 1 + (index == MIDDLE ? WEFT_CALL(probe_##K, 0) : 0); \
        WEFT_SPAWN(tree_##K, depth - 1, 2 * index); \
        long right = WEFT_CALL(tree_##K, depth - 1, 2 * index + 1); \
        return WEFT_SYNC(tree_##K) + right; \
    } \
    static long run_tree_##K(void) { return WEFT_RUN(tree_##K, DEPTH, 0); }
PROBE(1)
PROBE(2)
PROBE(3)
PROBE(8)
PROBE(32)

static void check_probe(unsigned workers, const char *tree, const char *probe, long (*run)(void))
{
    CHECK(weft_start(workers, 0, 0) == 0, "start %u workers", workers);
    weft_profile_reset();
    long before = atomic_load(&slow_copies);
    CHECK(run() == 1L << DEPTH, "%s", tree);
    CHECK(atomic_load(&slow_copies) == before + 1,
          "%s: its first body made %ld copies of its name, not one", probe,
          atomic_load(&slow_copies) - before);
    weft_profile_region r = region_named(tree);
    double tree_work = task_type_named(tree).work_ns, probe_work = task_type_named(probe).work_ns;
    printf("%u workers: %s: work %.1f us, span %.1f us; the types' work: %s %.1f us, %s %.1f us "
           "(%s's registration took %.0f ms)\n",
           workers, tree, r.work_ns / 1e3, r.span_ns / 1e3, tree, tree_work / 1e3, probe,
           probe_work / 1e3, probe, SPIN_NS / 1e6);
    CHECK(r.tasks == (1u << (DEPTH + 1)), "%s: %llu tasks", tree, (unsigned long long)r.tasks);
    CHECK(r.work_ns < SPIN_NS / 4.0, "%s: the registration counted as work: %.1f ms", tree,
          r.work_ns / 1e6);
    CHECK(r.span_ns < SPIN_NS / 4.0, "%s: the registration counted in the span: %.1f ms", tree,
          r.span_ns / 1e6);
    CHECK(tree_work + probe_work < SPIN_NS / 4.0,
          "%s: the registration counted in the types' work: %.1f ms", tree,
          (tree_work + probe_work) / 1e6);
    CHECK(weft_stop() == 0, "stop");
}

int main(int argc, char **argv)
{
    alarm(120);
    /* The unit is chosen at the first weft_start of the process. */
    bool strands = argc > 1 && strcmp(argv[1], "strands") == 0;
    if (strands)
        setenv("WEFT_PROFILE_UNIT", "strands", 1);
    else
        unsetenv("WEFT_PROFILE_UNIT");
    check_probe(1, "tree_1", "probe_1", run_tree_1);
    check_probe(2, "tree_2", "probe_2", run_tree_2);
    check_probe(3, "tree_3", "probe_3", run_tree_3);
    check_probe(8, "tree_8", "probe_8", run_tree_8);
    check_probe(32, "tree_32", "probe_32", run_tree_32);
    printf("ok: %s: a task type's registration is none of its first strand's time\n",
           strands ? "strands counted" : "strands timed");
    return 0;
}
