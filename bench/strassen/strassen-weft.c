// SPDX-License-Identifier: Apache-2.0
/* strassen with the seven products of each step as tasks, and the four
 * quadrants of C combined as tasks (see strassen.h).
 *
 *   strassen-weft [-w workers] <n> [cutoff]
 */
#include "strassen.h"

#include <weft/weft.h>

WEFT_VOID_TASK_DECL_4(multiply, const double *, const double *, double *, sm_dims)

/* Product k of the step on A, B: forms its operand sums, then recurses. */
WEFT_VOID_TASK_5(product, const double *, A, const double *, B, double *, M, sm_dims, d, int, k)
{
    int h = d.n / 2;
    double *buf = sm_alloc(2 * (size_t)h * h);
    sm_dims sub = {h, 0, 0, h, d.cutoff};
    const double *L = sm_operand_block(A, d.lda, h, sm_left[k], buf, &sub.lda);
    const double *R = sm_operand_block(B, d.ldb, h, sm_right[k], buf + (size_t)h * h, &sub.ldb);
    WEFT_CALL(multiply, L, R, M, sub);
    free(buf);
}

WEFT_VOID_TASK_5(combine, double *, C, int, ldc, int, h, const double *, M, int, q)
{
    sm_combine(C, ldc, h, M, q);
}

WEFT_VOID_TASK_IMPL_4(multiply, const double *, A, const double *, B, double *, C, sm_dims, d)
{
    if (d.n <= d.cutoff) {
        sm_base(A, B, C, d);
        return;
    }
    int h = d.n / 2;
    size_t hh = (size_t)h * h;
    double *M = sm_alloc(7 * hh);
    /* The products only read A and B and write their own M[k]. */
    for (int k = 0; k < 6; k++)
        WEFT_SPAWN(product, A, B, M + k * hh, d, k);
    WEFT_CALL(product, A, B, M + 6 * hh, d, 6);
    for (int k = 0; k < 6; k++)
        WEFT_SYNC(product);
    /* The quadrants of C are disjoint. */
    for (int q = 0; q < 3; q++)
        WEFT_SPAWN(combine, C, d.ldc, h, M, q);
    WEFT_CALL(combine, C, d.ldc, h, M, 3);
    for (int q = 0; q < 3; q++)
        WEFT_SYNC(combine);
    free(M);
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    sm_dims d = sm_args(argc, argv, "[-w workers] <n> [cutoff]");
    double *A, *B, *C;
    sm_setup(d.n, &A, &B, &C);

    printf("workers: %u\n", bench_weft_start(workers));
    double t0 = bench_now();
    WEFT_RUN(multiply, A, B, C, d);
    double seconds = bench_seconds_since(t0);

    sm_print(C, d);
    sm_check(A, B, C, d.n);
    bench_weft_finish(seconds);
    free(A);
    free(B);
    free(C);
    return 0;
}
