// SPDX-License-Identifier: Apache-2.0
/* pi peers' driver: pi-weft's command line, output and answer check
 * around the peer's kernel (pi-tbb.cpp or pi-omp.c).
 *
 *   pi-tbb -w <workers> <samples> <grain>
 */
#include "pi.h"
#include "pi-peer.h"

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    pi_params p = pi_args(argc, argv, "[-w workers] <samples> <grain>");
    printf("runtime: %s\n", peer_runtime());
    printf("workers: %u\n", peer_start(workers, 0));
    double t0 = bench_now();
    long hits = pi_parallel(p.samples, p.grain);
    double t1 = bench_now();
    pi_print(&p, hits);
    pi_check(&p, hits);
    bench_print_time(t1 - t0);
    peer_stop();
    return 0;
}
