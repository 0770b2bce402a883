// SPDX-License-Identifier: Apache-2.0
/* matmul, sequential baseline: the same recursion, split rule and base
 * case as matmul-weft.c (see matmul.h) with plain calls where the parallel
 * version spawns.
 *
 *   matmul-seq [-c] <n>
 *
 * -c also prints the number of tasks matmul-weft spawns for this n (counted
 * by walking the split rule, untimed).  Lace's paper gives 3,595,117 for
 * n = 4096. */
#include "matmul.h"

static void matmul(const mm_real *A, const mm_real *B, mm_real *C, mm_dims d)
{
    mm_dims h = d; /* first half */
    switch (mm_step(&d)) {
    case MM_BASE: mm_base(A, B, C, &d); return;
    case MM_SPLIT_M:
        h.m = d.m >> 1;
        d.m -= h.m;
        matmul(A, B, C, h);
        matmul(A + (size_t)h.m * d.ld, B, C + (size_t)h.m * d.ld, d);
        return;
    case MM_SPLIT_N:
        h.n = d.n >> 1;
        d.n -= h.n;
        d.add = 1;
        matmul(A, B, C, h);
        matmul(A + h.n, B + (size_t)h.n * d.ld, C, d);
        return;
    case MM_SPLIT_P:
        h.p = d.p >> 1;
        d.p -= h.p;
        matmul(A, B, C, h);
        matmul(A, B + h.p, C + h.p, d);
        return;
    }
}

int main(int argc, char **argv)
{
    int count;
    int n = mm_args(argc, argv, "[-c] <n>", 1, &count);
    mm_real *A, *B, *C;
    mm_setup(n, &A, &B, &C);

    double t0 = bench_now();
    matmul(A, B, C, (mm_dims){n, n, n, n, 0});
    double seconds = bench_seconds_since(t0);

    printf("matmul(%d): checksum %.17g\n", n, mm_checksum(C, n));
    mm_check(A, B, C, n);
    bench_print_time(seconds);
    if (count)
        printf("Tasks: %ld\n", mm_count_spawns(n, n, n));
    free(A);
    free(B);
    free(C);
    return 0;
}
