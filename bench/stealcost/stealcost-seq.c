// SPDX-License-Identifier: Apache-2.0
/* stealcost, sequential baseline: the computation C alone, timed
 * repetitions times (see stealcost.h). */
#include "stealcost.h"

int main(int argc, char **argv)
{
    stealcost_args a = stealcost_parse(argc, argv, "<leaf-iterations> <repetitions>");
    double *leaf_ns = stealcost_samples(a.repetitions);
    double *leaf_ticks = stealcost_samples(a.repetitions);
    const uint64_t want = stealcost_leaf_expected(a.leaf_iterations, 0);
    double t0 = bench_now();
    for (long r = 0; r < a.repetitions; r++) {
        uint64_t n0 = stealcost_now_ns(), c0 = stealcost_ticks();
        uint64_t x = stealcost_leaf(a.leaf_iterations, 0);
        uint64_t c1 = stealcost_ticks(), n1 = stealcost_now_ns();
        BENCH_CHECK(x == want, "C returned %" PRIu64 ", expected %" PRIu64, x, want);
        leaf_ns[r] = (double)(n1 - n0);
        leaf_ticks[r] = (double)(c1 - c0);
    }
    double seconds = bench_seconds_since(t0);
    stealcost_print("leaf", stealcost_median(leaf_ns, a.repetitions),
                    stealcost_median(leaf_ticks, a.repetitions), 0);
    bench_print_time(seconds);
    free(leaf_ns);
    free(leaf_ticks);
    return 0;
}
