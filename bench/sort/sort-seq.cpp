// SPDX-License-Identifier: Apache-2.0
// sort's sequential baseline: std::sort (see sort.h).
#include <algorithm>

#include "sort.h"

int main(int argc, char **argv)
{
    size_t n = sort_args(argc, argv, "<n>");
    int *a = sort_input(n);
    sort_fingerprint input = sort_fingerprint_of(a, n);
    double t0 = bench_now();
    std::sort(a, a + n);
    double seconds = bench_seconds_since(t0);
    sort_print(a, n);
    sort_check(a, n, input);
    bench_print_time(seconds);
    free(a);
    return 0;
}
