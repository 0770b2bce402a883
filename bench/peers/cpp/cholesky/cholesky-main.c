// SPDX-License-Identifier: Apache-2.0
/* cholesky peers' driver: cholesky-weft's command line, input, output and
 * answer checks (including the bit-for-bit comparison with the
 * sequential factor) around the peer's kernel (cholesky-tbb.cpp or
 * cholesky-omp.c).
 *
 *   cholesky-tbb -w <workers> <n> <nonzeros> [repetitions]
 */
#include "cholesky.h"
#include "cholesky-peer.h"

_Static_assert(CHOL_LEAF == CHOL_PEER_LEAF, "cholesky-peer.h's leaf order must be CHOL_LEAF");

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    chol_problem p = chol_setup(argc, argv, "[-w workers] <n> <nonzeros> [repetitions]");
    printf("runtime: %s\n", peer_runtime());
    printf("workers: %u\n", peer_start(workers, 0));
    double t0 = bench_now();
    p.result = cholesky_parallel(p.input, p.order, p.repetitions);
    double t1 = bench_now();
    chol_report(&p);

    /* The same factorisation, sequentially (untimed): must be identical. */
    chol_block *reference = chol_copy(p.input, p.order);
    chol_factor_seq(reference, p.order);
    BENCH_CHECK(!chol_differ(p.result, reference, p.order),
                "the parallel factor differs from the sequential one");
    chol_free(reference, p.order);

    bench_print_time(t1 - t0);
    peer_stop();
    chol_problem_free(&p);
    return 0;
}
