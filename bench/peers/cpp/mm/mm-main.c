// SPDX-License-Identifier: Apache-2.0
/* mm peers' driver: mm-weft's command line, input, output and answer
 * check around the peer's kernel (mm-tbb.cpp or mm-omp.c).
 *
 *   mm-tbb -w <workers> <n> <repetitions>
 */
#include "mm.h"
#include "mm-peer.h"

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    mm_problem p = mm_setup(argc, argv, "[-w workers] <n> <repetitions>");
    printf("runtime: %s\n", peer_runtime());
    printf("workers: %u\n", peer_start(workers, 0));
    double t0 = bench_now();
    mm_parallel(p.a, p.b, p.c, p.n, p.repetitions);
    double t1 = bench_now();
    mm_report(&p);
    bench_print_time(t1 - t0);
    peer_stop();
    mm_free(&p);
    return 0;
}
