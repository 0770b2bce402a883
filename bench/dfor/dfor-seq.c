// SPDX-License-Identifier: Apache-2.0
/* dfor, sequential baseline: each repetition is a plain loop over the
 * indices (see dfor.h).
 *
 *   dfor-seq <n> <iterations-per-body> <repetitions> [grain]
 */
#include "dfor.h"

int main(int argc, char **argv)
{
    dfor_params p = dfor_args(argc, argv, "<n> <iterations-per-body> <repetitions> [grain]");
    uint64_t *a = dfor_setup(p.n);

    double t0 = bench_now();
    for (long r = 0; r < p.repetitions; r++)
        dfor_leaf(a, 0, p.n, p.iterations);
    double seconds = bench_seconds_since(t0);

    dfor_print(a, &p);
    dfor_check(a, &p);
    bench_print_time(seconds);
    free(a);
    return 0;
}
