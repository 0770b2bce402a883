// SPDX-License-Identifier: Apache-2.0
/* dfor peers' driver: dfor-weft's command line, data, output and answer
 * check around the peer's kernel (dfor-tbb.cpp or dfor-omp.c).
 *
 *   dfor-tbb -w <workers> <n> <iterations-per-body> <repetitions> [grain]
 */
#include "dfor.h"
#include "dfor-peer.h"

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    dfor_params p =
        dfor_args(argc, argv, "[-w workers] <n> <iterations-per-body> <repetitions> [grain]");
    uint64_t *a = dfor_setup(p.n);

    printf("runtime: %s\n", peer_runtime());
    printf("workers: %u\n", peer_start(workers, 0));
    double t0 = bench_now();
    dfor_parallel(a, p.n, p.iterations, p.repetitions, p.grain);
    double t1 = bench_now();

    dfor_print(a, &p);
    dfor_check(a, &p);
    bench_print_time(t1 - t0);
    peer_stop();
    free(a);
    return 0;
}
