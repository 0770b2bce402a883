// SPDX-License-Identifier: Apache-2.0
/* cilksort peers' driver: cilksort-weft's command line, input, output and
 * answer check around the peer's kernel (cilksort-tbb.cpp or
 * cilksort-omp.c).
 *
 *   cilksort-tbb -w <workers> <n>        cilksort-omp -w <workers> <n>
 */
#include "cilksort.h"
#include "cilksort-peer.h"

_Static_assert(_Generic((cs_key)0, cs_peer_key : 1, default : 0),
               "cilksort-peer.h's cs_peer_key must be cilksort.h's cs_key");

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    size_t n = (size_t)cs_args(argc, argv, "[-w workers] <n>");
    cs_key *a = cs_alloc(n), *tmp = cs_alloc(n);
    cs_fill(a, n);
    cs_fingerprint input = cs_fingerprint_of(a, n);

    printf("runtime: %s\n", peer_runtime());
    printf("workers: %u\n", peer_start(workers, 0));
    double t0 = bench_now();
    cilksort_parallel(a, tmp, n);
    double t1 = bench_now();

    cs_print(a, n);
    cs_check(a, n, input);
    bench_print_time(t1 - t0);
    peer_stop();
    free(a);
    free(tmp);
    return 0;
}
