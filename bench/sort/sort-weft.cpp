// SPDX-License-Identifier: Apache-2.0
// sort on weft: weft::parallel_sort (a merge sort with introsort leaves and
// parallel merges, weft/bits/cpp_sort.hpp); the pool is started by the C
// API, as in every <name>-weft program.  See sort.h.
#include <weft/weft.hpp>

#include "sort.h"

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    size_t n = sort_args(argc, argv, "[-w workers] <n>");
    int *a = sort_input(n);
    sort_fingerprint input = sort_fingerprint_of(a, n);
    printf("workers: %u\n", bench_weft_start(workers));
    double t0 = bench_now();
    weft::parallel_sort(a, a + n); // from outside the pool: it enters it
    double seconds = bench_seconds_since(t0);
    sort_print(a, n);
    sort_check(a, n, input);
    bench_weft_finish(seconds);
    free(a);
    return 0;
}
