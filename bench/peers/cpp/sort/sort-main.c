// SPDX-License-Identifier: Apache-2.0
/* sort peers' driver: sort-weft's command line, input, output and answer
 * check around the peer's kernel (sort-tbb.cpp, sort-omp.c).
 *
 *   sort-tbb -w <workers> <n>     sort-omp -w <workers> <n>
 */
#include "sort.h"
#include "sort-peer.h"

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    size_t n = sort_args(argc, argv, "[-w workers] <n>");
    int *a = sort_input(n);
    sort_fingerprint input = sort_fingerprint_of(a, n);
    printf("runtime: %s\n", peer_runtime());
    printf("workers: %u\n", peer_start(workers, 0));
    double t0 = bench_now();
    sort_parallel(a, n);
    double t1 = bench_now();
    sort_print(a, n);
    sort_check(a, n, input);
    bench_print_time(t1 - t0);
    peer_stop();
    free(a);
    return 0;
}
