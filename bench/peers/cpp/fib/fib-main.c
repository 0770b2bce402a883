// SPDX-License-Identifier: Apache-2.0
/* fib peers' driver: fib-weft's command line, output and answer check
 * around the peer's kernel (fib-tbb.cpp or fib-omp.c).
 *
 *   fib-tbb -w <workers> <n>        fib-omp -w <workers> <n>
 */
#include "fib.h"
#include "fib-peer.h"

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    if (argc != 2) {
        fprintf(stderr, "usage: %s [-w workers] <n>\n", argv[0]);
        return 2;
    }
    int n = (int)bench_arg_long(argv[0], "n", argv[1], 0, 60);
    printf("runtime: %s\n", peer_runtime());
    printf("workers: %u\n", peer_start(workers, 0));
    double t0 = bench_now();
    long r = fib_parallel(n);
    double t1 = bench_now();
    printf("fib(%d) = %ld\n", n, r);
    fib_check(n, r);
    bench_print_time(t1 - t0);
    peer_stop();
    return 0;
}
