// SPDX-License-Identifier: Apache-2.0
/* strassen, sequential baseline: the recursion of strassen-weft.c (see
 * strassen.h) with plain calls where the parallel version spawns.
 *
 *   strassen-seq <n> [cutoff]
 */
#include "strassen.h"

static void multiply(const double *A, const double *B, double *C, sm_dims d);

/* Product k of the step on A, B (its operands are quadrants of size h). */
static void product(const double *A, const double *B, double *M, sm_dims d, int k)
{
    int h = d.n / 2;
    double *buf = sm_alloc(2 * (size_t)h * h);
    sm_dims sub = {h, 0, 0, h, d.cutoff};
    const double *L = sm_operand_block(A, d.lda, h, sm_left[k], buf, &sub.lda);
    const double *R = sm_operand_block(B, d.ldb, h, sm_right[k], buf + (size_t)h * h, &sub.ldb);
    multiply(L, R, M, sub);
    free(buf);
}

static void multiply(const double *A, const double *B, double *C, sm_dims d)
{
    if (d.n <= d.cutoff) {
        sm_base(A, B, C, d);
        return;
    }
    int h = d.n / 2;
    double *M = sm_alloc(7 * (size_t)h * h);
    for (int k = 0; k < 7; k++)
        product(A, B, M + (size_t)k * h * h, d, k);
    for (int q = 0; q < 4; q++)
        sm_combine(C, d.ldc, h, M, q);
    free(M);
}

int main(int argc, char **argv)
{
    sm_dims d = sm_args(argc, argv, "<n> [cutoff]");
    double *A, *B, *C;
    sm_setup(d.n, &A, &B, &C);

    double t0 = bench_now();
    multiply(A, B, C, d);
    double seconds = bench_seconds_since(t0);

    sm_print(C, d);
    sm_check(A, B, C, d.n);
    bench_print_time(seconds);
    free(A);
    free(B);
    free(C);
    return 0;
}
