// SPDX-License-Identifier: Apache-2.0
/* queens peers' driver: queens-weft's command line, output and answer
 * check around the peer's kernel (queens-tbb.cpp or queens-omp.c).
 *
 *   queens-tbb -w <workers> <n>        queens-omp -w <workers> <n>
 */
#include "queens.h"
#include "queens-peer.h"

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    int count;
    int n = queens_args(argc, argv, "[-w workers] <n>", 0, &count);
    printf("runtime: %s\n", peer_runtime());
    printf("workers: %u\n", peer_start(workers, 0));
    double t0 = bench_now();
    long r = queens_parallel(n);
    double t1 = bench_now();
    printf("queens(%d) = %ld\n", n, r);
    queens_check(n, r);
    bench_print_time(t1 - t0);
    peer_stop();
    return 0;
}
