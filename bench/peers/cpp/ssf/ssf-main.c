// SPDX-License-Identifier: Apache-2.0
/* ssf peers' driver: ssf-weft's command line, string, output and answer
 * checks around the peer's kernel (ssf-tbb.cpp or ssf-omp.c).
 *
 *   ssf-tbb -w <workers> <k> <repetitions>
 */
#include "ssf.h"
#include "ssf-peer.h"

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    ssf_problem p = ssf_setup(argc, argv, "[-w workers] <k> <repetitions>");
    printf("runtime: %s\n", peer_runtime());
    printf("workers: %u\n", peer_start(workers, 0));
    double t0 = bench_now();
    ssf_parallel(p.text, p.n, p.best_len, p.best_pos, p.repetitions);
    double t1 = bench_now();
    ssf_report(&p);
    bench_print_time(t1 - t0);
    peer_stop();
    ssf_free(&p);
    return 0;
}
