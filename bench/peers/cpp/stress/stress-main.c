// SPDX-License-Identifier: Apache-2.0
/* stress peers' driver: stress-weft's command line, output and answer
 * check around the peer's kernel (stress-tbb.cpp or stress-omp.c).
 *
 *   stress-tbb -w <workers> <leaf-iterations> <height> <repetitions>
 */
#include "stress.h"
#include "stress-peer.h"

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    stress_args a =
        stress_parse(argc, argv, "[-w workers] <leaf-iterations> <height> <repetitions>");
    printf("runtime: %s\n", peer_runtime());
    printf("workers: %u\n", peer_start(workers, 0));
    double t0 = bench_now();
    uint64_t sum = stress_parallel(a.height, a.leaf_iterations, a.repetitions);
    double t1 = bench_now();
    stress_report(&a, sum);
    bench_print_time(t1 - t0);
    peer_stop();
    return 0;
}
