// SPDX-License-Identifier: Apache-2.0
/* matmul written against Lace's API (<lace.h>): the same program as
 * matmul-weft.c, run through weft's Lace layer. */
/* matmul with a task per split of C's rows or columns and no cut-off
 * beyond the algorithm's base case (Cilk-5's matmul as in Lace's
 * benchmarks; see matmul.h).
 *
 *   matmul-lace [-w workers] <n>
 */
#include "matmul.h"

#include <lace.h>

VOID_TASK_4(matmul, const mm_real *, A, const mm_real *, B, mm_real *, C, mm_dims, d)
{
    mm_dims h = d; /* first half */
    switch (mm_step(&d)) {
    case MM_BASE: mm_base(A, B, C, &d); return;
    case MM_SPLIT_M: /* disjoint rows of C */
        h.m = d.m >> 1;
        d.m -= h.m;
        SPAWN(matmul, A, B, C, h);
        CALL(matmul, A + (size_t)h.m * d.ld, B, C + (size_t)h.m * d.ld, d);
        SYNC(matmul);
        return;
    case MM_SPLIT_N: /* same block of C: one after the other */
        h.n = d.n >> 1;
        d.n -= h.n;
        d.add = 1;
        CALL(matmul, A, B, C, h);
        CALL(matmul, A + h.n, B + (size_t)h.n * d.ld, C, d);
        return;
    case MM_SPLIT_P: /* disjoint columns of C */
        h.p = d.p >> 1;
        d.p -= h.p;
        SPAWN(matmul, A, B, C, h);
        CALL(matmul, A, B + h.p, C + h.p, d);
        SYNC(matmul);
        return;
    }
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    int count;
    int n = mm_args(argc, argv, "[-w workers] <n>", 0, &count);
    mm_real *A, *B, *C;
    mm_setup(n, &A, &B, &C);

    lace_start(workers, 0);
    printf("workers: %u\n", lace_workers());
    double t0 = bench_now();
    RUN(matmul, A, B, C, (mm_dims){n, n, n, n, 0});
    double t1 = bench_now();

    printf("matmul(%d): checksum %.17g\n", n, mm_checksum(C, n));
    mm_check(A, B, C, n);
    bench_print_time(t1 - t0);
    lace_count_report_file(stdout);
    lace_stop();
    free(A);
    free(B);
    free(C);
    return 0;
}
