// SPDX-License-Identifier: Apache-2.0
/* strassen peers' driver: strassen-weft's command line, input, output and
 * answer check around the peer's kernel (strassen-tbb.cpp or
 * strassen-omp.c).
 *
 *   strassen-tbb -w <workers> <n> [cutoff]
 */
#include <stddef.h>

#include "strassen.h"
#include "strassen-peer.h"

_Static_assert(sizeof(sm_peer_dims) == sizeof(sm_dims) &&
                   offsetof(sm_peer_dims, n) == offsetof(sm_dims, n) &&
                   offsetof(sm_peer_dims, lda) == offsetof(sm_dims, lda) &&
                   offsetof(sm_peer_dims, ldb) == offsetof(sm_dims, ldb) &&
                   offsetof(sm_peer_dims, ldc) == offsetof(sm_dims, ldc) &&
                   offsetof(sm_peer_dims, cutoff) == offsetof(sm_dims, cutoff),
               "sm_peer_dims must be laid out as sm_dims");

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    sm_dims d = sm_args(argc, argv, "[-w workers] <n> [cutoff]");
    double *A, *B, *C;
    sm_setup(d.n, &A, &B, &C);

    printf("runtime: %s\n", peer_runtime());
    printf("workers: %u\n", peer_start(workers, 0));
    double t0 = bench_now();
    strassen_parallel(A, B, C, (sm_peer_dims){d.n, d.lda, d.ldb, d.ldc, d.cutoff});
    double t1 = bench_now();

    sm_print(C, d);
    sm_check(A, B, C, d.n);
    bench_print_time(t1 - t0);
    peer_stop();
    free(A);
    free(B);
    free(C);
    return 0;
}
