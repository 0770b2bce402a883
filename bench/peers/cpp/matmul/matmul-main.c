// SPDX-License-Identifier: Apache-2.0
/* matmul peers' driver: matmul-weft's command line, inputs, output and
 * answer check around the peer's kernel (matmul-tbb.cpp or matmul-omp.c).
 *
 *   matmul-tbb -w <workers> <n>        matmul-omp -w <workers> <n>
 */
#include "matmul.h"
#include "matmul-peer.h"

_Static_assert(_Generic((mm_real)0, mm_peer_real : 1, default : 0),
               "matmul-peer.h's mm_peer_real must be matmul.h's mm_real");

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    int count;
    int n = mm_args(argc, argv, "[-w workers] <n>", 0, &count);
    mm_real *A, *B, *C;
    mm_setup(n, &A, &B, &C);

    printf("runtime: %s\n", peer_runtime());
    printf("workers: %u\n", peer_start(workers, 0));
    double t0 = bench_now();
    matmul_parallel(A, B, C, n);
    double t1 = bench_now();

    printf("matmul(%d): checksum %.17g\n", n, mm_checksum(C, n));
    mm_check(A, B, C, n);
    bench_print_time(t1 - t0);
    peer_stop();
    free(A);
    free(B);
    free(C);
    return 0;
}
